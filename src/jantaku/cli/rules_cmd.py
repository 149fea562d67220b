"""``jantaku rules``: list the presets, show a rule set's every parameter, or compare two."""

from __future__ import annotations

import argparse
import dataclasses

from jantaku.rules import diff_rules, load_rules, preset_names
from jantaku.rules.loader import preset_sources
from jantaku.rules.ruleset import Ruleset


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "rules",
        help="list, show and compare rule sets",
        description="Without arguments, list the presets. With a preset name or a TOML file, print every "
        "parameter with its value, meaning and source. With --diff A B, print where two rule sets differ.",
        epilog="examples:\n  jantaku rules\n  jantaku rules mleague\n  jantaku rules --diff mu mleague\n"
        '  jantaku rules my_league.toml      (a file: base = "mleague" then overrides)',
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("name", nargs="?", help="preset name or TOML file")
    p.add_argument("--diff", nargs=2, metavar=("A", "B"), help="compare two rule sets")
    p.set_defaults(run=run)


def _fmt(value: object) -> str:
    if isinstance(value, frozenset):
        return "[" + ", ".join(sorted(value)) + "]"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def run(args: argparse.Namespace) -> int:
    if args.diff:
        a, b = (load_rules(x) for x in args.diff)
        rows = [(k, _fmt(va), _fmt(vb)) for k, va, vb in diff_rules(a, b) if k not in ("name", "title")]
        if not rows:
            print(f"{a.name} and {b.name} are the same")
            return 0
        w0 = max(len(r[0]) for r in rows)
        w1 = max(len(a.name), *(len(r[1]) for r in rows))
        w2 = max(len(b.name), *(len(r[2]) for r in rows))
        src_a, src_b = preset_sources(a.name), preset_sources(b.name)
        fields = {f.name: f for f in dataclasses.fields(Ruleset)}
        print(f"{'parameter':<{w0}}  {a.name:<{w1}}  {b.name:<{w2}}  source")
        for k, va, vb in rows:
            # the source of the difference: what each preset file says of its value, else the parameter's own
            said = [f"{r.name}: {s[k]}" for r, s in ((a, src_a), (b, src_b)) if s.get(k)]
            source = "; ".join(said) or str(fields[k].metadata.get("source", ""))
            print(f"{k:<{w0}}  {va:<{w1}}  {vb:<{w2}}  {source}")
        return 0
    if not args.name:
        for name in preset_names():
            print(f"{name:<10} {load_rules(name).title}")
        return 0
    rules = load_rules(args.name)
    said = preset_sources(rules.name)
    print(f"# {rules.name}: {rules.title}")
    for f in dataclasses.fields(Ruleset):
        if f.name in ("name", "title"):
            continue
        doc = f.metadata.get("doc", "")
        src = f.metadata.get("source", "")
        print(f"{f.name} = {_fmt(getattr(rules, f.name))}")
        print(f"    {doc} [{src}]")
        if said.get(f.name):
            print(f"    {rules.name}: {said[f.name]}")
    return 0
