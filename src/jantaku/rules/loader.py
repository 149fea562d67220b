"""Loading rule sets: presets shipped with the package, or a user's TOML file based on a preset.

A preset file (``presets/NAME.toml``) and a user's file have the same form: an optional ``base`` naming the
preset to start from (default: the built-in defaults), then parameters as top-level keys. Unknown keys and
bad values are rejected with a message naming the key. A file that cannot be read as TOML (not UTF-8, nested
deeper than TOML rule files ever are, an integer of thousands of digits, larger than :data:`MAX_RULE_FILE`)
is a :class:`RulesError` naming the file and the problem. Whole-number parameters lie within
:data:`INT_LIMIT` (and the units that divide, such as ``payment_rounding``, are at least 1).

>>> load_rules("mu").ippatsu, load_rules("tenhou").name
(False, 'tenhou')
>>> load_rules("nope")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
jantaku.rules.ruleset.RulesError: unknown rule set 'nope': the presets are jielu, jielu_original, mahjongsoul, ...
"""

from __future__ import annotations

import dataclasses
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from jantaku.errors import excerpt

from .ruleset import PARAMETER_CHOICES, RulesError, Ruleset, field_type, is_set_type, is_tuple_type, tuple_arity

__all__ = [
    "INT_LIMIT",
    "MAX_RULE_FILE",
    "coerce_value",
    "diff_rules",
    "load_rules",
    "preset_names",
    "preset_sources",
    "rules_from_mapping",
]

_FIELDS = {f.name: f for f in dataclasses.fields(Ruleset)}

INT_LIMIT = 10**9
"""Whole-number parameters lie in -INT_LIMIT..INT_LIMIT (points, units, counts: all far smaller)."""
MAX_RULE_FILE = 1 << 20
"""Largest rule file read, in bytes (a rule file is a few kilobytes)."""
_POSITIVE = frozenset({"payment_rounding", "final_unit", "tie_split_unit", "rounds"})
"""Parameters that divide or count rounds: at least 1."""
_MAX_TOML_DEPTH = 20


def preset_names() -> list[str]:
    """Names of the presets shipped with jantaku."""
    return sorted(_shipped_presets())


@cache
def _shipped_presets() -> frozenset[str]:
    """The shipped presets' names, read from the package once (every new game asks: :func:`rule_changes`)."""
    folder = resources.files("jantaku.rules") / "presets"
    return frozenset(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


INT_RANGES: dict[str, tuple[int, int]] = {"rounds": (1, 4), "jielu_max_wildcards": (0, 14), "jielu_min_score": (1, 32)}
"""Integer parameters with a narrower range than any integer: ``rounds`` counts prevailing winds (East to North;
a fifth wind does not exist, and the engine has no seat wind for it); ``jielu_max_wildcards`` counts wildcards in
a hand of 14 tiles (14: no cap); ``jielu_min_score`` is a 洁律 score S, which never exceeds 32 (the full score)."""


def coerce_value(key: str, value: Any) -> Any:
    """Check ``value`` for parameter ``key`` and convert it to the parameter's type (lists -> tuples/sets)."""
    if key not in _FIELDS:
        raise RulesError(f"unknown rule parameter {excerpt(key)}")
    if key == "jielu_fans":
        return _coerce_fans(value)
    tp = field_type(key)
    choices = PARAMETER_CHOICES.get(key)
    if tp is bool:
        if not isinstance(value, bool):
            raise RulesError(f"{key} must be true or false, got {value!r}")
        return value
    if tp is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{key} must be an integer, got {excerpt(value)}")
        if value < 0 and key not in ("chombo_penalty",):
            raise RulesError(f"{key} must not be negative, got {excerpt(value)}")
        if abs(value) > INT_LIMIT:
            raise RulesError(f"{key} must lie within -{INT_LIMIT}..{INT_LIMIT}, got {excerpt(value)}")
        if key in _POSITIVE and value < 1:
            raise RulesError(f"{key} must be at least 1, got {value}")
        low, high = INT_RANGES.get(key, (None, None))
        if low is not None and not low <= value <= high:
            raise RulesError(f"{key} must lie within {low}..{high}, got {value}")
        return value
    if tp is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise RulesError(f"{key} must be a number, got {excerpt(value)}")
        if not abs(value) <= INT_LIMIT:  # also NaN
            raise RulesError(f"{key} must lie within -{INT_LIMIT}..{INT_LIMIT}, got {excerpt(value)}")
        return float(value)
    if tp is str:
        if not isinstance(value, str):
            raise RulesError(f"{key} must be a string, got {excerpt(value)}")
        if choices is not None and value not in choices:
            raise RulesError(f"{key} must be one of {', '.join(choices)}; got {excerpt(value)}")
        return value
    if is_set_type(tp):
        if not isinstance(value, (list, tuple, set, frozenset)) or not all(isinstance(v, str) for v in value):
            raise RulesError(f"{key} must be a list of names, got {excerpt(value)}")
        bad = [v for v in value if choices is not None and v not in choices]
        if bad:
            raise RulesError(f"{key}: unknown value {excerpt(bad[0])} (allowed: {', '.join(choices or ())})")
        return frozenset(value)
    if is_tuple_type(tp):
        n = tuple_arity(tp)
        if (
            not isinstance(value, (list, tuple))
            or len(value) != n
            or not all(isinstance(v, int) and not isinstance(v, bool) and abs(v) <= INT_LIMIT for v in value)
        ):
            raise RulesError(
                f"{key} must be a list of {n} integers within -{INT_LIMIT}..{INT_LIMIT}, got {excerpt(value)}"
            )
        return tuple(value)
    raise RulesError(f"{key}: unsupported parameter type {tp}")  # pragma: no cover


def _coerce_fans(value: Any) -> tuple[tuple[str, int], ...]:
    """``jielu_fans``: a table (or pairs) of 洁律 fan name -> points, checked against the shipped fan table."""
    from .fantable import FanTableError, with_points

    if isinstance(value, dict):
        items = list(value.items())
    elif isinstance(value, (list, tuple)) and all(isinstance(v, (list, tuple)) and len(v) == 2 for v in value):
        items = [tuple(v) for v in value]
    else:
        raise RulesError(f"jielu_fans must be a table of fan name = points, got {excerpt(value)}")
    if not all(isinstance(k, str) for k, _ in items):
        raise RulesError("jielu_fans: fan names are text")
    pairs = tuple(sorted((str(k), v) for k, v in items))
    if len({k for k, _ in pairs}) != len(pairs):
        raise RulesError("jielu_fans: a fan is given twice")
    try:
        with_points(pairs)
    except FanTableError as e:
        raise RulesError(str(e)) from None
    return pairs


def rules_from_mapping(data: dict[str, Any], *, source: str = "", _depth: int = 0) -> Ruleset:
    """A rule set from a parsed TOML mapping: ``base`` (optional preset name) plus parameter overrides."""
    where = f" in {source}" if source else ""
    if _depth > 5:
        raise RulesError(f"rule set bases nest too deeply{where}")
    base_name = data.get("base")
    if base_name is None:
        base = Ruleset()
    elif isinstance(base_name, str):
        base = _load_preset(base_name, _depth + 1)
    else:
        raise RulesError(f"base must be a preset name{where}, got {excerpt(base_name)}")
    values: dict[str, Any] = {}
    for key, value in data.items():
        if key == "base":
            continue
        if isinstance(value, dict) and key != "jielu_fans":
            raise RulesError(
                f"unknown rule parameter {excerpt(key)}{where} (tables are not used; write keys at top level)"
            )
        try:
            values[key] = coerce_value(key, value)
        except RulesError as e:
            raise RulesError(f"{e}{where}") from None
    red = values.get("red_fives", base.red_fives)
    if any(v not in (0, 1) for v in red):
        raise RulesError(f"red_fives must be 0 or 1 per suit{where}, got {list(red)}")
    return dataclasses.replace(base, **values)


@cache
def _load_preset(name: str, depth: int = 0) -> Ruleset:
    if name not in _shipped_presets():
        raise RulesError(f"unknown rule set {excerpt(name)}: the presets are {', '.join(preset_names())}")
    text = (resources.files("jantaku.rules") / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    data = tomllib.loads(text)
    rules = rules_from_mapping(data, source=f"preset {name}", _depth=depth)
    if rules.name != name:
        raise RulesError(f"preset file {name}.toml must set name = {name!r}")  # pragma: no cover
    return rules


def _toml_depth(text: str) -> int:
    """How deep the brackets and braces of TOML ``text`` nest (strings and comments skipped, roughly)."""
    depth = deepest = 0
    quote = ""
    escaped = False
    comment = False
    for ch in text:
        if comment:
            comment = ch != "\n"
        elif quote:
            if escaped:
                escaped = False
            elif ch == "\\" and quote == '"':
                escaped = True
            elif ch == quote or ch == "\n":
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            comment = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    return deepest


def read_rule_file(path: Path, shown: str = "") -> dict[str, Any]:
    """The TOML table of a rule file; anything that keeps it from being read is a :class:`RulesError` naming it."""
    shown = shown or excerpt(str(path), 200)
    try:
        if not path.is_file():
            raise RulesError(f"rule file not found: {shown}")
        with path.open("rb") as f:
            data = f.read(MAX_RULE_FILE + 1)
    except OSError as e:
        raise RulesError(f"cannot read rule file {shown}: {e.strerror or e}") from None
    if len(data) > MAX_RULE_FILE:
        raise RulesError(f"rule file {shown} is larger than {MAX_RULE_FILE} bytes: not a rule file")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise RulesError(f"rule file {shown} is not UTF-8 text (byte 0x{data[e.start]:02x} at {e.start})") from None
    if _toml_depth(text) > _MAX_TOML_DEPTH:
        raise RulesError(f"rule file {shown} nests arrays or tables deeper than {_MAX_TOML_DEPTH} levels")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise RulesError(f"rule file {shown} is not valid TOML: {e}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise RulesError(f"rule file {shown} nests too deeply to read") from None
    except ValueError as e:  # int() of thousands of digits
        why = "an integer has too many digits" if "digits" in str(e) else str(e)[:100]
        raise RulesError(f"rule file {shown} cannot be read: {why}") from None


def load_rules(spec: str | Path | Ruleset) -> Ruleset:
    """A rule set by preset name (``"mleague"``) or from a TOML file path (``base = "mleague"`` + overrides).

    >>> load_rules("/nowhere/my_league.toml")
    Traceback (most recent call last):
    ...
    jantaku.rules.ruleset.RulesError: rule file not found: '/nowhere/my_league.toml'
    """
    if isinstance(spec, Ruleset):
        return spec
    if not isinstance(spec, str | Path):
        raise RulesError(f"a rule set is a preset name or a TOML file's path, got {type(spec).__name__}")
    text = str(spec)
    if text.endswith(".toml") or "/" in text or "\\" in text or isinstance(spec, Path):
        if "\0" in text:
            raise RulesError(f"a rule file's path has no NUL character: {excerpt(text, 200)}")
        shown = excerpt(text, 200)
        data = read_rule_file(Path(text), shown)
        data.setdefault("name", Path(text).stem)
        return rules_from_mapping(data, source=shown)
    return _load_preset(text)


@cache
def preset_sources(name: str) -> dict[str, str]:
    """The source a preset file gives for each value it sets: the comment after ``key = value`` (its base's
    comments for the keys it does not set itself). Unknown names (a user's file, a custom rule set) give {}.

    >>> preset_sources("mahjongsoul")["return_points"].startswith("records' sc")
    True
    """
    if name not in _shipped_presets():
        return {}
    text = (resources.files("jantaku.rules") / "presets" / f"{name}.toml").read_text(encoding="utf-8")
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:  # pragma: no cover - presets are checked by the tests
        return {}
    base = data.get("base")
    out = dict(preset_sources(base)) if isinstance(base, str) and base != name else {}
    for line in text.splitlines():
        key, sep, rest = line.partition("=")
        key = key.strip()
        if not sep or key not in _FIELDS or line[:1].isspace():
            continue
        out.pop(key, None)
        value_part, hash_, comment = rest.partition("#")
        if hash_ and comment.strip() and value_part.count('"') % 2 == 0:
            out[key] = comment.strip()
    return out


def rules_as_mapping(rules: Ruleset) -> dict[str, Any]:
    """``rules`` as a mapping that :func:`rules_from_mapping` reads back to an equal rule set: ``base`` (its name,
    when that is a preset) and each parameter that differs from the base, as plain JSON and TOML values. What a
    game tells a bot of its rules (mjai ``start_game``'s ``rules`` and ``rule_changes``).

    >>> rules_as_mapping(load_rules("tenhou").replace(rounds=1))
    {'base': 'tenhou', 'rounds': 1}
    >>> rules_from_mapping(rules_as_mapping(load_rules("mu").replace(rounds=1))) == load_rules("mu").replace(rounds=1)
    True
    """
    base_name = rules.name if rules.name in _shipped_presets() else None
    base = _load_preset(base_name) if base_name is not None else Ruleset()
    out: dict[str, Any] = {} if base_name is None else {"base": base_name}
    for name, _, value in diff_rules(base, rules):
        out[name] = _plain(name, value)
    return out


def rule_changes(rules: Ruleset) -> dict[str, Any]:
    """The parameters where ``rules`` differs from the preset its name names (from the default rule set when the
    name is no preset), as plain values: what jantaku's mjai ``start_game`` carries as ``rule_changes`` beside
    ``rules`` (an East-only table of a hanchan preset: ``{"rounds": 1}``). :func:`rules_with_changes` undoes it.

    >>> rule_changes(load_rules("tenhou"))
    {}
    >>> rule_changes(load_rules("mleague").replace(rounds=1, red_fives=(1, 1, 0)))
    {'rounds': 1, 'red_fives': [1, 1, 0]}
    """
    return {k: v for k, v in rules_as_mapping(rules).items() if k != "base"}


def rules_with_changes(name: str, changes: dict[str, Any] | None = None) -> Ruleset:
    """The rule set a game names (``start_game``'s ``rules``) with its ``rule_changes``: the preset ``name`` (the
    default rule set when ``name`` is no preset) with those parameters. Raises :class:`RulesError` for a change
    that is not a valid parameter value."""
    if changes is not None and not isinstance(changes, dict):
        raise RulesError(f"rule_changes must be a table of parameters, got {excerpt(changes)}")
    base = {"base": name} if name in _shipped_presets() else {}
    return rules_from_mapping({**base, **(changes or {})}, source="start_game")


def _plain(name: str, value: Any) -> Any:
    """A parameter's value as TOML writes it (the form :func:`coerce_value` reads)."""
    if name == "jielu_fans":
        return dict(value)
    if isinstance(value, frozenset):
        return sorted(value)
    if isinstance(value, tuple):
        return list(value)
    return value


def diff_rules(a: Ruleset, b: Ruleset) -> list[tuple[str, Any, Any]]:
    """The parameters where two rule sets differ, as (name, value in a, value in b)."""
    out = []
    for f in dataclasses.fields(Ruleset):
        va, vb = getattr(a, f.name), getattr(b, f.name)
        if va != vb:
            out.append((f.name, va, vb))
    return out


Ruleset.coerce = coerce_value  # Ruleset.replace checks its values with it
