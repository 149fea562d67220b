"""Which fans a completion with ``w`` wildcards can still have: a per-fan bound on the tiles it keeps.

A completion of a hand (four melds and a pair) with ``w`` wildcards keeps exactly ``3m + 2 - w`` of the hand's
closed tiles, ``m`` being the melds still to form. Some fans force a shape that keeps few of them: 对对和 (five
groups of one kind each), 九数齐 (chows covering the nine numbers and an honor group), 五门齐 (exactly one group
in each suit, one wind and one dragon) and the honor fans (one group per wind or dragon kind). For each,
:func:`kept_bounds` gives an upper bound on the closed tiles any completion having it keeps, from the hand alone;
a fan whose bound is below ``3m + 2 - w`` cannot appear at that level, so the optimiser's value bound may leave
it out (:func:`zeroed_table`). The fan definitions are the code's (:mod:`jantaku.jielu.wholehand`); the points
stay the table's, so a rule file's values are respected.

Each bound sums, over the groups the fan forces, the most any single group of that kind can keep (tiles shared
between groups are not subtracted: an upper bound), and chooses the pair where it loses least.

>>> from jantaku.tiles import counts34, parse_tiles
>>> b = kept_bounds(tuple(counts34(parse_tiles("1m2m5m7m1p2p5p8p8p4s4s5s1z6z"))), 4)
>>> b["对对和"], b["五门齐"], b["九数齐"], b["三风"]   # it holds one wind: no 三风 at all
(7, 8, 8, -1)
>>> sorted(out_of_reach(b, 14 - 4))       # four wildcards keep 10 of its 14 tiles: none of these fans
['三元', '三风', '九数齐', '五门齐', '双箭', '双风', '四喜', '对对和']
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from types import MappingProxyType

from .fantable import CombinationSpec, FanTable

__all__ = ["FANS", "kept_bounds", "out_of_reach", "zeroed_table"]

FANS = ("对对和", "九数齐", "五门齐", "双风", "三风", "四喜", "单箭", "双箭", "三元")
"""The fans :func:`kept_bounds` bounds (对对和 always; the others for a hand without fixed melds)."""

_NONE = -1


def _covers() -> tuple[tuple[tuple[str, int], ...], ...]:
    """The minimal covers of the numbers 1-9 by chows (``("c", a)``: a, a+1, a+2) and single numbers (``("s",
    n)``: a pung or the pair): a cover of a completion's numbers holds one of them (with other groups free)."""
    from itertools import combinations_with_replacement

    opts = [("c", a) for a in range(7)] + [("s", n) for n in range(9)]

    def covered(groups: tuple[tuple[str, int], ...]) -> int:
        m = 0
        for t, a in groups:
            m |= (7 << a) if t == "c" else (1 << a)
        return m

    out = []
    for size in (3, 4):
        for g in combinations_with_replacement(opts, size):
            if covered(g) == 511 and all(covered(g[:i] + g[i + 1 :]) != 511 for i in range(size)):
                out.append(g)
    return tuple(out)


_COVERS = _covers()


def _pair_loss(groups: Iterable[tuple[int, int]]) -> int:
    """The least a group loses by being the pair: (most kept as a meld, most kept as a pair) per candidate."""
    return min((m - p for m, p in groups), default=99)


@lru_cache(maxsize=1 << 12)
def kept_bounds(closed: tuple[int, ...], melds: int, fixed: bool = False) -> MappingProxyType[str, int]:
    """Per fan of :data:`FANS`, an upper bound on the closed tiles a completion having it keeps (-1: none can
    have it), for closed counts ``closed`` forming ``melds`` melds and the pair. With ``fixed`` (the hand has
    fixed melds) only 对对和 is bounded."""
    out: dict[str, int] = {}
    # 对对和: every closed group one kind (a pung keeps up to 3, the pair 2), no kind twice
    vals = sorted((min(c, 3) for c in closed if c), reverse=True)[: melds + 1]
    out["对对和"] = sum(vals) - (1 if len(vals) == melds + 1 and vals[-1] == 3 else 0)
    if fixed:
        return MappingProxyType(out)
    total = sum(closed)
    suits = [_suit_facts(closed[9 * s : 9 * s + 9]) for s in range(3)]
    pung = [min(c, 3) for c in closed]
    pair = [min(c, 2) for c in closed]
    # 五门齐: exactly one group in each suit, one wind kind and one dragon kind
    cats = [(f[0], f[1]) for f in suits]
    winds = [k for k in range(27, 31) if closed[k]]
    dragons = [k for k in range(31, 34) if closed[k]]
    if winds and dragons:
        cats.append((max(pung[k] for k in winds), max(pair[k] for k in winds)))
        cats.append((max(pung[k] for k in dragons), max(pair[k] for k in dragons)))
        out["五门齐"] = sum(m for m, _ in cats) - _pair_loss(cats)
    else:
        out["五门齐"] = _NONE
    # honor fans: one group per honor kind present; the other groups keep at most 3 each, and at most the rest
    for names, kinds in ((("双风", "三风", "四喜"), winds), (("单箭", "双箭", "三元"), dragons)):
        held = sorted(((pung[k], pair[k]) for k in kinds), reverse=True)
        first = 2 if names[0] == "双风" else 1
        own = sum(closed[k] for k in kinds)
        for j, name in enumerate(names, start=first):
            if len(held) < j:
                out[name] = _NONE
                continue
            top = held[:j]
            other = min(3 * (melds + 1 - j), total - own)
            loss = 0 if other > 0 or j <= melds else _pair_loss(top)
            out[name] = sum(m for m, _ in top) + other - loss
    # 九数齐: one or two honor groups and number groups covering 1-9 (one of the minimal covers, others free)
    honors = sorted(((pung[k], pair[k]) for k in winds + dragons), reverse=True)
    if not honors:
        out["九数齐"] = _NONE
    else:
        chow_best = list(map(max, suits[0][2], suits[1][2], suits[2][2]))
        pungs = map(max, suits[0][3], suits[1][3], suits[2][3])
        single = list(zip(pungs, map(max, suits[0][4], suits[1][4], suits[2][4]), strict=True))
        free_meld = max(max(chow_best), *(m for m, _ in single))
        free_pair = max(p for _, p in single)
        best = _NONE
        for nh in (1, 2):
            if len(honors) < nh:
                break
            top = honors[:nh]
            groups = melds + 1 - nh  # number groups
            for cover in _COVERS:
                free = groups - len(cover)
                if free < 0:
                    continue
                kept = sum(m for m, _ in top) + free * free_meld
                cands = list(top)
                for t, a in cover:
                    if t == "c":
                        kept += chow_best[a]
                    else:
                        kept += single[a][0]
                        cands.append(single[a])
                if free:
                    cands.append((free_meld, free_pair))
                kept -= max(0, _pair_loss(cands))
                best = max(best, kept)
        out["九数齐"] = best
    return MappingProxyType(out)


@lru_cache(maxsize=1 << 12)
def _suit_facts(row: tuple[int, ...]) -> tuple[int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """Of one suit's nine counts: the most tiles one group keeps (meld, pair), and per chow start, per number as a
    pung and per number as the pair."""
    chow = tuple((row[a] > 0) + (row[a + 1] > 0) + (row[a + 2] > 0) for a in range(7))
    pung = tuple(min(c, 3) for c in row)
    pair = tuple(min(c, 2) for c in row)
    return max(*chow, *pung), max(pair), chow, pung, pair


def out_of_reach(bounds: MappingProxyType[str, int], keep: int) -> frozenset[str]:
    """The fans no completion keeping ``keep`` closed tiles can have."""
    return frozenset(name for name, k in bounds.items() if k < keep)


@cache
def zeroed_table(table: FanTable, fans: frozenset[str]) -> FanTable:
    """``table`` with ``fans`` worth 0: for bounding the value of completions that cannot have them (never for
    scoring)."""
    if not fans:
        return table
    points = {name: (0 if name in fans else p) for name, p in table.points.items()}
    combos = tuple(
        CombinationSpec(c.name, points[c.name], c.shape, c.melds, c.suits, c.numbers, c.pairs)
        for c in table.combinations
    )
    return FanTable(MappingProxyType(points), table.family, combos, table.full, table.cap, f"{table.source} (bounds)")
