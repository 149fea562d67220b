"""The rule sets an analysis compares: ``--rules A,B,...`` (presets or user TOML files) and ``--sweep PARAM=V1,V2``.

>>> [name for name, _ in rule_sets("mleague,mu")]
['mleague', 'mu']
>>> [(name, r.kiriage) for name, r in rule_sets("mleague", "kiriage=false,true")]
[('kiriage=false', False), ('kiriage=true', True)]
>>> parse_sweep("rank_points=[50000,10000,-10000,-30000],[15000,5000,-5000,-15000]")
('rank_points', ['[50000,10000,-10000,-30000]', '[15000,5000,-5000,-15000]'])
>>> rule_sets("mleague", "kiriage=true,maybe")
Traceback (most recent call last):
...
jantaku.errors.JantakuError: --sweep kiriage=maybe: kiriage must be true or false, got 'maybe'
"""

from __future__ import annotations

import tomllib
from typing import Any

from jantaku.errors import JantakuError, excerpt
from jantaku.rules import Ruleset, load_rules
from jantaku.rules.ruleset import RulesError

__all__ = ["MAX_RULE_SETS", "parse_sweep", "rule_sets", "sweep_value"]

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


def rule_sets(rules: str, sweep: str | None = None) -> list[tuple[str, Ruleset]]:
    """The named rule sets of ``--rules`` (comma-separated presets or TOML files) and ``--sweep``.

    Without a sweep each rule set is named as given; with one, each swept value of one base is named
    ``PARAM=V``, and with several bases ``BASE:PARAM=V``."""
    specs = [s.strip() for s in rules.split(",")]
    if not rules.strip() or any(not s for s in specs):
        raise JantakuError(f"--rules {excerpt(rules)}: give preset names or rule files separated by commas")
    if len(set(specs)) != len(specs):
        raise JantakuError(f"--rules {excerpt(rules)}: a rule set is named twice")
    bases: list[tuple[str, Ruleset]] = []
    for spec in specs:
        try:
            bases.append((spec, load_rules(spec)))
        except RulesError as e:
            raise JantakuError(f"--rules: {e}") from None
    if sweep is None:
        out = bases
    else:
        param, values = parse_sweep(sweep)
        if param in _FIXED:
            raise JantakuError(f"--sweep {param}: the {param} of a rule set cannot be swept")
        out = []
        for base_name, base in bases:
            for text in values:
                try:
                    changed = base.replace(**{param: sweep_value(text)})
                except RulesError as e:
                    raise JantakuError(f"--sweep {param}={text[:60]}: {e}") from None
                name = f"{param}={text}" if len(bases) == 1 else f"{base_name}:{param}={text}"
                out.append((name, changed))
    if len(out) > MAX_RULE_SETS:
        raise JantakuError(f"at most {MAX_RULE_SETS} rule sets in one analysis, got {len(out)}")
    return out
