"""The value of one completed hand: its four melds and its pair, read one way.

Step 1-2 of the 洁律 scoring (docs/rules/sources.md) for a fixed reading: the best assignment of the melds to
combination fans
(exact, :mod:`jantaku.jielu.combos`), plus every suit, number, honor and shape fan; then the 32/24 rule - a fan
worth 32 makes the value 32, else the sum capped at 24. Incidental fans are added by :func:`with_incidental`,
because a hand completed with wildcards does not count them.

>>> from jantaku.jielu.melds import meld_code
>>> ev = evaluate(tuple(sorted(meld_code(m) for m in "123m 123m 456m 789m".split())), 0)
>>> ev.value, ev.total, [(f.name, f.points) for f in ev.fans]
(19, 19, [('三连顺', 6), ('清一色', 12), ('平和', 1)])
"""

from __future__ import annotations

from functools import lru_cache
from typing import NamedTuple

from .combos import best_assignment
from .fantable import FanTable, default_fan_table
from .melds import sum_masks, tile_mask
from .wholehand import content_fans, shape_fans

__all__ = ["Evaluation", "FanHit", "apply_limits", "evaluate", "with_incidental"]


class FanHit(NamedTuple):
    """One fan counted: its name, points, family and the meld codes it uses (empty for whole-hand fans)."""

    name: str
    points: int
    family: str
    melds: tuple[int, ...] = ()


class Evaluation(NamedTuple):
    """A reading's fans and value.

    Attributes:
        value: after the 32/24 rule, before any wildcard halving.
        total: the plain sum of the fans' points.
        full: True when a fan worth ``full`` (32) or more is counted.
        fans: every fan counted, combinations first.
    """

    value: int
    total: int
    full: bool
    fans: tuple[FanHit, ...]


def apply_limits(total: int, full: bool, table: FanTable) -> int:
    """Step 2: ``full`` (32) when a fan worth that much is met, else the sum capped at ``cap`` (24).

    >>> t = default_fan_table()
    >>> apply_limits(40, False, t), apply_limits(7, True, t), apply_limits(7, False, t)
    (24, 32, 7)
    """
    return table.full if full else min(total, table.cap)


@lru_cache(maxsize=1 << 17)
def evaluate(melds: tuple[int, ...], pair: int, table: FanTable | None = None) -> Evaluation:
    """The fans and value of the hand whose melds are ``melds`` (sorted codes) and whose pair is ``pair``."""
    t = table or default_fan_table()
    fans: list[FanHit] = [
        FanHit(spec.name, spec.points, "combinations", used) for spec, used in best_assignment(melds, t).hits
    ]
    mask = sum_masks(melds) | tile_mask(pair)
    fans.extend(FanHit(name, pts, t.family[name]) for name, pts in content_fans(mask, t))
    fans.extend(FanHit(name, pts, "shape", used) for name, pts, used in shape_fans(melds, t))
    total = sum(f.points for f in fans)
    full = any(f.points >= t.full for f in fans)
    return Evaluation(apply_limits(total, full, t), total, full, tuple(fans))


def with_incidental(ev: Evaluation, incidental: tuple[tuple[str, int], ...], table: FanTable) -> Evaluation:
    """``ev`` with the incidental fans added (for a win without wildcards)."""
    if not incidental:
        return ev
    fans = ev.fans + tuple(FanHit(name, pts, "incidental") for name, pts in incidental)
    total = ev.total + sum(p for _, p in incidental)
    full = ev.full or any(p >= table.full for _, p in incidental)
    return Evaluation(apply_limits(total, full, table), total, full, fans)
