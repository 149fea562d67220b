"""The 洁律 fan table: every fan's points and the combination fans' definitions, read from a TOML file. It is part
of a 洁律 rule set (a rule file's ``[jielu_fans]`` changes its values), so it lives with the rules, below the 洁律
scorer that reads it (:mod:`jantaku.jielu`; ``jantaku.jielu.fantable`` names the same objects).

The shipped file is ``jantaku/jielu/fans.toml``. Its fan names and definitions are the 洁律麻将 document's; its
point values are this project's proposal (docs/rules/sources.md), kept in that one file so that they can be
replaced. The whole-hand, honor, shape and incidental fans are defined in code (:mod:`jantaku.jielu.wholehand`)
and take only their points from the file; the combination fans are defined entirely by the file's fields, so a
table may add, drop or redefine them (see :mod:`jantaku.jielu.combos`).

>>> t = default_fan_table()
>>> t.points["清一色"], t.points["四同顺"], t.full, t.cap
(12, 32, 32, 24)
>>> t.family["三连顺"], t.family["九数齐"]
('combinations', 'numbers')
>>> [c.name for c in t.combinations if c.shape == "pung" and c.melds == 3]
['三步刻', '三逢刻', '三连刻']
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from .ruleset import RulesError

__all__ = [
    "FAMILIES",
    "NO_WILDCARD_CAP",
    "CombinationSpec",
    "FanTable",
    "FanTableError",
    "default_fan_table",
    "fan_table_from_mapping",
    "load_fan_table",
    "table_for_rules",
    "with_points",
    "with_win_rule",
]


class FanTableError(RulesError):
    """A fan table that cannot be read: a missing or unknown fan, a bad value or combination field (a rule file's
    error, as the table is part of the 洁律 rule set)."""


FAMILIES: Mapping[str, tuple[str, ...]] = MappingProxyType(
    {
        "suits": ("清二色", "五门齐", "混一色", "清一色", "字一色"),
        "numbers": ("清五数", "混四数", "九数齐", "清四数", "混三数", "清三数", "混二数", "清二数", "混一数"),
        "honors": ("单箭", "双风", "双箭", "三风", "三元", "四喜"),
        "shape": ("平和", "对对和", "一杠", "二杠", "三杠", "四杠"),
        "incidental": ("自摸和", "海底和", "杠上和", "天和"),
    }
)
"""The fans defined in code, by family (the table file gives their points); combinations come from the file."""

_SHAPES = ("chow", "pung")
_SUITS = ("same", "different", "alternating")
_NUMBERS = ("equal", "steps")


@dataclass(frozen=True, slots=True)
class CombinationSpec:
    """One combination fan: ``melds`` melds of one ``shape`` whose suits and numbers relate as stated.

    See the comment above ``[combinations]`` in ``fans.toml`` for the meaning of each field.
    """

    name: str
    points: int
    shape: str
    melds: int
    suits: str
    numbers: str
    pairs: bool = False

    def __post_init__(self) -> None:
        where = f"combination fan {self.name!r}"
        if self.shape not in _SHAPES:
            raise FanTableError(f"{where}: shape must be one of {', '.join(_SHAPES)}, got {self.shape!r}")
        if self.suits not in _SUITS:
            raise FanTableError(f"{where}: suits must be one of {', '.join(_SUITS)}, got {self.suits!r}")
        if self.numbers not in _NUMBERS:
            raise FanTableError(f"{where}: numbers must be one of {', '.join(_NUMBERS)}, got {self.numbers!r}")
        if not isinstance(self.melds, int) or isinstance(self.melds, bool) or not 2 <= self.melds <= 4:
            raise FanTableError(f"{where}: melds must be 2, 3 or 4, got {self.melds!r}")
        if self.pairs and (self.melds != 4 or self.suits == "alternating"):
            raise FanTableError(f"{where}: pairs = true needs melds = 4 and suits 'same' or 'different'")
        if self.suits == "alternating" and self.melds != 4:
            raise FanTableError(f"{where}: suits = 'alternating' needs melds = 4")
        if self.suits == "different" and self.melds == 4 and not self.pairs:
            raise FanTableError(f"{where}: four melds cannot have pairwise different suits (there are three)")


@dataclass(frozen=True, eq=False)
class FanTable:
    """Points of every fan, the combination fans' definitions, the 32/24 rule's two numbers, and the win rule a
    rule set adds (the least score a win needs, the most wildcards it may use).

    Attributes:
        points: fan name -> points, for every fan.
        family: fan name -> ``suits``, ``numbers``, ``honors``, ``shape``, ``incidental`` or ``combinations``.
        combinations: the combination fans, in file order.
        full: a fan worth at least this much makes the hand's value exactly ``full`` (32).
        cap: otherwise the sum is capped at this (24).
        source: where the table was read from.
        min_score: the least score S a win needs (the document: 1; a rule set's ``jielu_min_score``).
        max_wildcards: the most wildcards a win may use (``None``: no cap, the document's rule; a rule set's
            ``jielu_max_wildcards``). A non-winner's hand completed with extra wildcards may use at least those
            (:meth:`wildcard_limit`).

    The scorer, the optimiser and the compiled legal-win check read the win rule from the table they are given,
    so every path that scores or checks a hand with a rule set's table (:func:`table_for_rules`) obeys it.
    """

    points: Mapping[str, int]
    family: Mapping[str, str]
    combinations: tuple[CombinationSpec, ...]
    full: int = 32
    cap: int = 24
    source: str = field(default="", compare=False)
    min_score: int = 1
    max_wildcards: int | None = None

    @property
    def max_value(self) -> int:
        """The highest value a hand can have before wildcard halving: ``max(full, cap)``."""
        return max(self.full, self.cap)

    def wildcard_limit(self, extra: int = 0) -> int | None:
        """The most wildcards a completion may use under this table's cap (``None``: no cap). A non-winner's hand
        completed with ``extra`` wildcards keeps them whatever the cap (the document gives the wildcard
        unconditionally: 未和牌时补充一张万能牌); they count against it, so its own tiles make up the rest.

        >>> t = with_win_rule(default_fan_table(), max_wildcards=2)
        >>> t.wildcard_limit(), t.wildcard_limit(1), with_win_rule(t, max_wildcards=0).wildcard_limit(1)
        (2, 2, 1)
        >>> default_fan_table().wildcard_limit() is None
        True
        """
        if self.max_wildcards is None:
            return None
        return max(self.max_wildcards, extra)


def _positive_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise FanTableError(f"{what} must be a whole number >= 1, got {value!r}")
    return value


def fan_table_from_mapping(data: Mapping[str, Any], source: str = "") -> FanTable:
    """A :class:`FanTable` from parsed TOML (the form of ``fans.toml``); every problem names the key.

    >>> fan_table_from_mapping({"suits": {}})
    Traceback (most recent call last):
    ...
    jantaku.rules.fantable.FanTableError: fan table: missing table [scoring]
    """
    where = f"fan table{' ' + source if source else ''}"
    known = ("scoring", *FAMILIES, "combinations")
    for key in data:
        if key not in known:
            raise FanTableError(f"{where}: unknown table [{key}] (expected {', '.join(known)})")
    for key in known:
        if not isinstance(data.get(key), dict):
            raise FanTableError(f"{where}: missing table [{key}]")
    scoring = data["scoring"]
    extra = set(scoring) - {"full", "cap"}
    if extra:
        raise FanTableError(f"{where}: unknown key {sorted(extra)[0]!r} in [scoring]")
    full = _positive_int(scoring.get("full"), f"{where}: [scoring] full")
    cap = _positive_int(scoring.get("cap"), f"{where}: [scoring] cap")
    points: dict[str, int] = {}
    family: dict[str, str] = {}
    for fam, names in FAMILIES.items():
        given = data[fam]
        for name in given:
            if name not in names:
                raise FanTableError(f"{where}: unknown fan {name!r} in [{fam}] (the {fam} fans are {', '.join(names)})")
        for name in names:
            if name not in given:
                raise FanTableError(f"{where}: fan {name!r} is missing from [{fam}]")
            points[name] = _positive_int(given[name], f"{where}: [{fam}] {name}")
            family[name] = fam
    combos: list[CombinationSpec] = []
    for name, spec in data["combinations"].items():
        if name in points:
            raise FanTableError(f"{where}: combination fan {name!r} has the name of a {family[name]} fan")
        if not isinstance(spec, dict):
            raise FanTableError(f"{where}: combination fan {name!r} must be an inline table of its fields")
        fields = {"points", "shape", "melds", "suits", "numbers", "pairs"}
        bad = set(spec) - fields
        if bad:
            raise FanTableError(f"{where}: combination fan {name!r}: unknown field {sorted(bad)[0]!r}")
        missing = fields - {"pairs"} - set(spec)
        if missing:
            raise FanTableError(f"{where}: combination fan {name!r}: missing field {sorted(missing)[0]!r}")
        pairs = spec.get("pairs", False)
        if not isinstance(pairs, bool):
            raise FanTableError(f"{where}: combination fan {name!r}: pairs must be true or false")
        pts = _positive_int(spec["points"], f"{where}: combination fan {name!r} points")
        combos.append(CombinationSpec(name, pts, spec["shape"], spec["melds"], spec["suits"], spec["numbers"], pairs))
        points[name] = pts
        family[name] = "combinations"
    return FanTable(MappingProxyType(points), MappingProxyType(family), tuple(combos), full, cap, source)


def load_fan_table(path: str | Path) -> FanTable:
    """Read a fan table file of the form of the shipped ``fans.toml``."""
    p = Path(path)
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except OSError as e:
        raise FanTableError(f"cannot read fan table {str(p)!r}: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise FanTableError(f"fan table {str(p)!r} is not valid TOML: {e}") from None
    return fan_table_from_mapping(data, str(p))


@cache
def default_fan_table() -> FanTable:
    """The shipped table (``jantaku/jielu/fans.toml``): the project's proposed values (docs/rules/sources.md)."""
    # read beside the 洁律 scoring package, without importing it (the rules sit below the scoring families)
    text = (resources.files("jantaku") / "jielu" / "fans.toml").read_text(encoding="utf-8")
    return fan_table_from_mapping(tomllib.loads(text), "fans.toml")


MAX_POINTS = 1000
"""The most points a fan may be given by an override (the shipped values are 1-32)."""


def with_points(overrides: Mapping[str, int] | tuple[tuple[str, int], ...], base: FanTable | None = None) -> FanTable:
    """``base`` (default: the shipped table) with some fans' points replaced: ``{fan name: points}``.

    This is how a rule set's ``jielu_fans`` table takes effect; the same overrides give the same table object
    (the scorer's caches are per table). Each name must be a fan of the table and each value a whole number
    1..``MAX_POINTS``; the combination fans keep their definitions.

    >>> with_points({"混一色": 8}).points["混一色"], with_points({"混一色": 8}) is with_points({"混一色": 8})
    (8, True)
    >>> with_points({"七对": 4})
    Traceback (most recent call last):
    ...
    jantaku.rules.fantable.FanTableError: jielu_fans: unknown fan '七对' (the fans are 清二色, 五门齐, ...)
    """
    items = tuple(sorted(overrides.items() if isinstance(overrides, Mapping) else overrides))
    return _with_points(items, base or default_fan_table())


@cache
def _with_points(items: tuple[tuple[str, int], ...], base: FanTable) -> FanTable:
    points = dict(base.points)
    for name, value in items:
        if name not in points:
            raise FanTableError(f"jielu_fans: unknown fan {name!r} (the fans are {', '.join(list(points)[:2])}, ...)")
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_POINTS:
            raise FanTableError(f"jielu_fans: {name} must be a whole number 1..{MAX_POINTS}, got {value!r}")
        points[name] = value
    if not items:
        return base
    combos = tuple(
        CombinationSpec(c.name, points[c.name], c.shape, c.melds, c.suits, c.numbers, c.pairs)
        for c in base.combinations
    )
    source = f"{base.source or 'fan table'} with {len(items)} value(s) changed"
    return dataclasses.replace(base, points=MappingProxyType(points), combinations=combos, source=source)


NO_WILDCARD_CAP = 14
"""``jielu_max_wildcards`` at this value (a hand's 14 tiles, the default) means no cap."""


def with_win_rule(base: FanTable, *, min_score: int = 1, max_wildcards: int | None = None) -> FanTable:
    """``base`` with a win rule: the least score ``min_score`` a win needs and the most wildcards
    ``max_wildcards`` it may use (``None``: no cap). The document's rule (1, no cap) gives ``base`` itself; the
    same arguments give the same table object (the scorer's and the check's caches are per table).

    >>> t = with_win_rule(default_fan_table(), min_score=2, max_wildcards=3)
    >>> t.min_score, t.max_wildcards, t.points["混一色"]
    (2, 3, 6)
    >>> t is with_win_rule(default_fan_table(), min_score=2, max_wildcards=3)
    True
    >>> with_win_rule(default_fan_table(), min_score=0)
    Traceback (most recent call last):
    ...
    jantaku.rules.fantable.FanTableError: the least score a win needs must be a whole number >= 1, got 0
    """
    if isinstance(min_score, bool) or not isinstance(min_score, int) or min_score < 1:
        raise FanTableError(f"the least score a win needs must be a whole number >= 1, got {min_score!r}")
    if max_wildcards is not None and (
        isinstance(max_wildcards, bool) or not isinstance(max_wildcards, int) or max_wildcards < 0
    ):
        raise FanTableError(f"the most wildcards a win may use must be a whole number >= 0, got {max_wildcards!r}")
    if min_score == base.min_score and max_wildcards == base.max_wildcards:
        return base
    return _with_win_rule(base, min_score, max_wildcards)


@cache
def _with_win_rule(base: FanTable, min_score: int, max_wildcards: int | None) -> FanTable:
    rule = [f"a win needs {min_score}"] if min_score != 1 else []
    if max_wildcards is not None:
        rule.append(f"at most {max_wildcards} wildcard(s)")
    source = f"{base.source or 'fan table'}; {', '.join(rule) or 'the win rule of the document'}"
    return dataclasses.replace(base, min_score=min_score, max_wildcards=max_wildcards, source=source)


def table_for_rules(rules: Any) -> FanTable:
    """The fan table a rule set plays with: the shipped one with the rule set's ``jielu_fans`` values and its win
    rule (``jielu_min_score``, ``jielu_max_wildcards``; see :func:`with_win_rule`).

    >>> from jantaku.rules import load_rules
    >>> table_for_rules(load_rules("jielu")) is default_fan_table()
    True
    >>> t = table_for_rules(load_rules("jielu").replace(jielu_max_wildcards=2, jielu_min_score=4))
    >>> t.max_wildcards, t.min_score
    (2, 4)
    """
    table = with_points(tuple(getattr(rules, "jielu_fans", ()) or ()))
    cap = getattr(rules, "jielu_max_wildcards", NO_WILDCARD_CAP)
    return with_win_rule(
        table,
        min_score=getattr(rules, "jielu_min_score", 1),
        max_wildcards=None if cap >= NO_WILDCARD_CAP else cap,
    )
