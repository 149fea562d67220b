"""The rule sets an analysis compares: ``--rules A,B,...`` (presets or user TOML files) and ``--sweep PARAM=V1,V2``
(given several times: a grid of every combination).

>>> [name for name, _ in rule_sets("mleague,mu")]
['mleague', 'mu']
>>> [(name, r.kiriage) for name, r in rule_sets("mleague", "kiriage=false,true")]
[('kiriage=false', False), ('kiriage=true', True)]
>>> for cell in grid("mleague", ["kiriage=false,true", "starting_points=25000,30000"]):
...     print(cell.name, cell.rules.kiriage, cell.rules.starting_points)
kiriage=false,starting_points=25000 False 25000
kiriage=false,starting_points=30000 False 30000
kiriage=true,starting_points=25000 True 25000
kiriage=true,starting_points=30000 True 30000
>>> parse_sweep("rank_points=[50000,10000,-10000,-30000],[15000,5000,-5000,-15000]")
('rank_points', ['[50000,10000,-10000,-30000]', '[15000,5000,-5000,-15000]'])
>>> rule_sets("mleague", "kiriage=true,maybe")
Traceback (most recent call last):
...
jantaku.errors.JantakuError: --sweep kiriage=maybe: kiriage must be true or false, got 'maybe'
"""

from __future__ import annotations

import dataclasses
import itertools
import json
import math
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jantaku.errors import JantakuError, excerpt
from jantaku.rules import Ruleset, load_rules
from jantaku.rules.loader import diff_rules
from jantaku.rules.ruleset import RulesError

__all__ = [
    "MAX_RULE_SETS",
    "RuleSetCell",
    "differing_settings",
    "grid",
    "parse_sweep",
    "parse_sweeps",
    "rule_sets",
    "setting_text",
    "sweep_value",
]

MAX_RULE_SETS = 24
"""Most rule sets (rule sets times swept values) one analysis compares."""

_FIXED = frozenset({"name", "title", "family"})
"""Parameters a sweep may not change: they name the rule set or choose its scoring family."""


def _split_top(text: str) -> list[str]:
    """``text`` split at the commas that are not inside brackets or quotes."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def parse_sweep(text: str) -> tuple[str, list[str]]:
    """``PARAM=V1,V2,...`` as the parameter's name and the values' texts (a list value in brackets may hold
    commas). Bad syntax is a :class:`JantakuError` saying what the form is."""
    param, sep, values = text.partition("=")
    param = param.strip()
    form = "give it as PARAM=V1,V2,... (e.g. kiriage=false,true or starting_points=25000,15000)"
    if not sep or not param or not param.isidentifier():
        raise JantakuError(f"--sweep {excerpt(text)}: {form}")
    parts = _split_top(values)
    if any(not p for p in parts):
        raise JantakuError(f"--sweep {excerpt(text)}: an empty value; {form}")
    if len(parts) < 2:
        raise JantakuError(f"--sweep {excerpt(text)}: a sweep needs at least two values; {form}")
    if len(set(parts)) != len(parts):
        raise JantakuError(f"--sweep {excerpt(text)}: a value is given twice")
    return param, parts


def sweep_value(text: str) -> Any:
    """A swept value's text as a TOML value (``true``, ``25000``, ``[1, 1, 1]``, ``"split"``), or as a bare word
    (``head_bump``) when it is not TOML."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, ValueError, RecursionError):
        return text


Sweep = tuple[str, list[str]]
"""A swept parameter and its values' texts."""


@dataclass(frozen=True)
class RuleSetCell:
    """One rule set of an analysis: its ``name``, its ``rules``, the ``base`` it was made from (as ``--rules``
    names it) and the swept parameters' values in it (``swept``: ``(PARAM, value text)`` pairs, empty without
    ``--sweep``)."""

    name: str
    rules: Ruleset
    base: str
    swept: tuple[tuple[str, str], ...] = ()


def parse_sweeps(sweep: str | Sequence[str] | None) -> list[Sweep]:
    """``--sweep`` given once (a string) or several times (a list): each as :func:`parse_sweep`; a parameter
    swept twice, or one that names or chooses the rule set's family, is a :class:`JantakuError`.

    >>> parse_sweeps(["kiriage=false,true", "starting_points=25000,30000"])[1]
    ('starting_points', ['25000', '30000'])
    >>> parse_sweeps(["kiriage=false,true", "kiriage=true,false"])
    Traceback (most recent call last):
    ...
    jantaku.errors.JantakuError: --sweep kiriage is given twice: sweep each parameter once (several --sweep make a grid)
    """
    if sweep is None:
        return []
    texts = [sweep] if isinstance(sweep, str) else list(sweep)
    out: list[Sweep] = []
    for text in texts:
        if not isinstance(text, str):
            raise JantakuError(f"--sweep {excerpt(text)}: give it as text, PARAM=V1,V2,...")
        param, values = parse_sweep(text)
        if param in _FIXED:
            raise JantakuError(f"--sweep {param}: the {param} of a rule set cannot be swept")
        if any(param == p for p, _ in out):
            raise JantakuError(
                f"--sweep {param} is given twice: sweep each parameter once (several --sweep make a grid)"
            )
        out.append((param, values))
    return out


def _cell_name(base: str, swept: Sequence[tuple[str, str]], bases: int) -> str:
    text = ",".join(f"{p}={v}" for p, v in swept)
    return text if bases == 1 else f"{base}:{text}"


def grid(rules: str, sweep: str | Sequence[str] | None = None) -> list[RuleSetCell]:
    """The rule sets of ``--rules`` (comma-separated presets or TOML files) and ``--sweep`` (one or several).

    Without a sweep each rule set is named as given. With sweeps, each base gets one rule set per combination
    of the swept values (the first sweep varying slowest), named ``PARAM=V`` or ``P1=V1,P2=V2`` (the swept
    values joined by commas, as ``--sweep`` writes them), and with several bases ``BASE:P1=V1,P2=V2``. At most
    :data:`MAX_RULE_SETS` in all, checked before any is made."""
    specs = [s.strip() for s in rules.split(",")]
    if not rules.strip() or any(not s for s in specs):
        raise JantakuError(f"--rules {excerpt(rules)}: give preset names or rule files separated by commas")
    if len(set(specs)) != len(specs):
        raise JantakuError(f"--rules {excerpt(rules)}: a rule set is named twice")
    sweeps = parse_sweeps(sweep)
    count = len(specs) * math.prod(len(values) for _, values in sweeps)
    if count > MAX_RULE_SETS:
        sizes = " x ".join(
            [f"{len(specs)} rule set{'s' if len(specs) > 1 else ''}"]
            + [f"{len(values)} {param}" for param, values in sweeps]
        )
        raise JantakuError(f"at most {MAX_RULE_SETS} rule sets in one analysis, got {count} ({sizes})")
    bases: list[tuple[str, Ruleset]] = []
    for spec in specs:
        try:
            bases.append((spec, load_rules(spec)))
        except RulesError as e:
            raise JantakuError(f"--rules: {e}") from None
    if not sweeps:
        return [RuleSetCell(name, rs, name) for name, rs in bases]
    out = []
    for base_name, base in bases:
        for param, values in sweeps:  # each value alone first: the error then names the value, not a combination
            for text in values:
                try:
                    base.replace(**{param: sweep_value(text)})
                except RulesError as e:
                    raise JantakuError(f"--sweep {param}={text[:60]}: {e}") from None
        for combo in itertools.product(*([(p, v) for v in values] for p, values in sweeps)):
            try:
                changed = base.replace(**{p: sweep_value(v) for p, v in combo})
            except RulesError as e:
                raise JantakuError(f"--sweep {excerpt(_cell_name(base_name, combo, 1))}: {e}") from None
            out.append(RuleSetCell(_cell_name(base_name, combo, len(bases)), changed, base_name, combo))
    return out


def rule_sets(rules: str, sweep: str | Sequence[str] | None = None) -> list[tuple[str, Ruleset]]:
    """The named rule sets of ``--rules`` and ``--sweep``, as :func:`grid` makes them."""
    return [(c.name, c.rules) for c in grid(rules, sweep)]


def differing_settings(rules: Sequence[Ruleset]) -> list[tuple[str, list[Any]]]:
    """The parameters on which some of ``rules`` differ (each from the first, :func:`jantaku.rules.loader.diff_rules`),
    in the rule set's order, with every rule set's value.

    >>> differing_settings([c.rules for c in grid("mleague", ["kiriage=false,true"])])
    [('kiriage', [False, True])]
    >>> [p for p, _ in differing_settings([c.rules for c in grid("mleague,mu")])][:3]
    ['name', 'title', 'starting_points']
    """
    if not rules:
        return []
    changed = {name for other in rules[1:] for name, _, _ in diff_rules(rules[0], other)}
    order = [f.name for f in dataclasses.fields(Ruleset)]
    return [(p, [getattr(r, p) for r in rules]) for p in order if p in changed]


def setting_text(value: Any) -> str:
    """A parameter's value as a rule file writes it (``true``, ``25000``, ``[1, 2]``, ``"split"`` unquoted).

    >>> setting_text(True), setting_text(25000), setting_text((50000, 10000)), setting_text("split")
    ('true', '25000', '[50000, 10000]', 'split')
    """
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    try:
        return json.dumps(value, ensure_ascii=False, default=str)
    except (TypeError, ValueError):  # pragma: no cover - every parameter is a plain value
        return str(value)
