"""Issue 33: jantaku's imports form layers (docs/architecture.md): no module imports a module of a higher layer,
and no module imports, directly or through others, a module that imports it back - at the top of the file,
inside a function or for type hints alike (a circle ties two modules so that neither can change or be read
alone). Each import is read from the source (``ast``): nothing is imported to find them.

``LEFT`` would list circles still to break (none is left); the test fails on any other, and on a listed one that
is gone (so the list only shrinks)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).parents[1] / "src"

LEFT: set[frozenset[str]] = set()

LAYERS: tuple[frozenset[str], ...] = tuple(
    frozenset(names.split())
    for names in (
        "errors text safejson extras tiles",  # the base: tiles, errors, text and JSON checks, optional parts
        "hand meld",
        "shapes",  # shanten, waits, decompositions
        "rules",  # rule sets (and the 洁律 fan table, rule data)
        "riichi",  # riichi scoring
        "jielu",  # 洁律 scoring (builds on riichi's win conditions and request fields)
        "scoring_requests",  # a scoring request of either family
        "table",  # the engine: wall, hands, calls, games
        "records",  # game records: read, write, replay through the engine
        "bots",  # players, and reviews of records by them
        "sim env lab",  # many games: simulations, environments, the rule lab
        "league",  # the league recorder
        "web",  # the web table
        "cli",  # the command line
    )
)
"""jantaku's layers, lowest first, by the package (or module) under ``jantaku``: a module may import its own
layer's modules and those of lower layers only. ``jantaku`` itself (the facade naming the public API) is above
them all."""


def layer(module: str) -> int:
    if "." not in module:
        return len(LAYERS)  # the package's own __init__: the facade
    part = module.split(".")[1]
    found = [n for n, names in enumerate(LAYERS) if part in names]
    assert found, f"{module}: in no layer (add its package to LAYERS and to docs/architecture.md)"
    return found[0]


def modules() -> dict[str, Path]:
    out = {}
    for path in (SRC / "jantaku").rglob("*.py"):
        parts = path.relative_to(SRC).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The jantaku modules ``name`` imports anywhere in its file."""
    found = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            submodules = {f"{target}.{a.name}" for a in node.names} & set(known)
            if len(submodules) < len(node.names):  # names defined in the module itself, not submodules only
                found.add(target)
            found |= submodules
    return {m for m in found if m in known and m != name}


def circles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.add(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(frozenset(group))
    return found


def test_the_finder_finds_a_circle():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]
    assert circles({"a": {"b"}, "b": set()}) == []


def test_no_import_circle_but_those_left_to_break():
    known = modules()
    graph = {name: imports(name, path, known) for name, path in known.items()}
    found = set(circles(graph))
    new = found - LEFT
    assert not new, f"import circles: {[sorted(c) for c in new]}"
    gone = LEFT - found
    assert not gone, f"these circles are gone: take them out of LEFT: {[sorted(c) for c in gone]}"


def test_no_import_from_a_higher_layer():
    known = modules()
    upward = sorted(
        (name, dep) for name, path in known.items() for dep in imports(name, path, known) if layer(dep) > layer(name)
    )
    assert not upward, f"imports from a higher layer: {upward}"


def test_the_layers_are_the_architecture_pages():
    page = (Path(__file__).parents[1] / "docs" / "architecture.md").read_text(encoding="utf-8")
    for names in LAYERS:
        for name in names:
            assert f"`{name}`" in page, f"docs/architecture.md does not name the layer of {name}"


def test_the_scan_sees_imports_of_every_kind():
    known = modules()
    # a relative import at the top, a function's lazy import and an absolute one
    assert "jantaku.web.heavy" in imports("jantaku.web.app", known["jantaku.web.app"], known)
    assert "jantaku.rules.fantable" in imports("jantaku.rules.loader", known["jantaku.rules.loader"], known)
    assert "jantaku.bots.strong" in imports("jantaku.bots.registry", known["jantaku.bots.registry"], known)
    assert layer("jantaku.web.app") > layer("jantaku.table.kyoku") > layer("jantaku.rules.loader")
