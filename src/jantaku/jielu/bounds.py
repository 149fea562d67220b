"""Upper bounds on the value a partly built hand can still reach (for the optimiser's branch and bound).

A partial hand is known by: the melds committed so far (fixed melds and the groups built), how many melds are
still to come and the kind they start from, two content masks (:func:`jantaku.jielu.melds.tile_mask`) - ``lo``,
what the finished hand surely holds, and ``hi``, everything it could hold (``lo`` plus what the groups still to
come can reach from the real tiles left) - and a :class:`Budget`: the tiles left and how many of them may still be
treated as wildcards. The bound is a sum of independent maxima; each is a relaxation, so the bound never undercuts
the true best:

- combination fans: every way to split the committed melds into blocks, each block joined by some of the melds
  still to come (starting at the kind reached or later), scored by the best fan with an instance containing the
  block (:func:`extension_table`); melds to come may also combine among themselves; and, over the whole hand,
  no fan whose instance needs more tiles than the hand has wildcards (:func:`combination_root_bounds`);
- suit and number fans: the best of each family over the contents between ``lo`` and ``hi``, and over the suit
  and number sets that dropping at most the budget's tiles can leave;
- honor fans: the best over the honor contents between ``lo`` and ``hi``;
- shape fans: 平和 / 对对和 while every committed meld is a chow / a pung; the kong fans exactly.

A fan worth ``full`` (32) still reachable makes the bound ``max(full, cap)``; otherwise the sum capped at
``cap`` (24).

>>> from jantaku.jielu.fantable import default_fan_table
>>> from jantaku.jielu.melds import meld_code, sum_masks
>>> b = Bounds(default_fan_table())
>>> fixed = tuple(meld_code(m) for m in ("123m", "456m"))
>>> mask = sum_masks(fixed)
>>> b.value_bound(fixed, 2, mask, mask | sum_masks([meld_code("789m")]))   # 四连顺 16 + 清一色 12 ...
24
>>> b.value_bound(fixed, 2, mask, mask)                     # the same tiles only: 123 234 345 456 still fit
24
>>> honor = sum_masks([meld_code("111z")])   # then 三连顺 6 + 混一色 6 at most
>>> b.value_bound(fixed + (meld_code("111z"),), 1, mask | honor, mask | honor | 0x7F)
12
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations, pairwise
from typing import NamedTuple

import numpy as np

from .combos import combination_key, instances
from .fantable import FanTable
from .melds import PUNG, is_chow, is_kong, meld_tiles, tile_mask
from .wholehand import content_fans

__all__ = [
    "Bounds",
    "Budget",
    "extension_table",
    "instance_caps",
    "instance_matrix",
    "instance_needs",
    "reach_mask",
]

_SUIT_BITS = 0b111
_NUMBER_SHIFT = 3
_WIND_SHIFT = 12
_DRAGON_SHIFT = 16
_HONOR_BITS = 0b1111111 << _WIND_SHIFT


@cache
def reach_mask(kind: int) -> int:
    """Everything a group anchored at a real tile of ``kind`` can hold: the kind, and within two of it in its suit.

    >>> from jantaku.tiles import Tile
    >>> bin(reach_mask(Tile("1m").kind)), bin(reach_mask(Tile("7z").kind))
    ('0b111001', '0b1000000000000000000')
    """
    if kind >= 27:
        return tile_mask(kind)
    m = 0
    for x in range(max(kind - 2, kind - kind % 9), min(kind + 2, kind - kind % 9 + 8) + 1):
        m |= tile_mask(x)
    return m


def _lowest_kind(key: int) -> int:
    return key if key < PUNG else key - PUNG


@cache
def extension_table(
    table: FanTable,
) -> tuple[dict[tuple[tuple[int, ...], int], tuple[int, ...]], tuple[tuple[int, ...], ...]]:
    """``(ext, free)`` of the combination fans, for melds still to come that start at kind ``k`` or above.

    ``ext[(block, e)][k]`` is the best fan of ``len(block) + e`` melds whose instance contains ``block`` (sorted
    combination keys) and whose other ``e`` melds all start at kind ``k`` or later; ``free[n][k]`` the most points
    ``n`` melds starting at ``k`` or later can make among themselves (35 entries each, k = 0..34).
    """
    entries: dict[tuple[tuple[int, ...], int], list[int]] = {}
    best_size = [[0] * 35 for _ in range(5)]
    for spec in table.combinations:
        for inst in instances(spec):
            m = len(inst)
            start = min(_lowest_kind(c) for c in inst)
            row = best_size[m]
            row[start] = max(row[start], spec.points)
            for size in range(1, m + 1):
                for sub in set(combinations(inst, size)):
                    rest = list(inst)
                    for c in sub:
                        rest.remove(c)
                    lowest = min((_lowest_kind(c) for c in rest), default=34)
                    arr = entries.setdefault((sub, m - size), [0] * 35)
                    arr[lowest] = max(arr[lowest], spec.points)
    ext = {key: _suffix_max(arr) for key, arr in entries.items()}
    best = [_suffix_max(row) for row in best_size]
    free = [[0] * 35, [0] * 35]
    for n in (2, 3, 4):
        free.append(
            [
                max(best[n][k], free[n - 1][k], *(free[a][k] + free[n - a][k] for a in range(2, n - 1)))
                for k in range(35)
            ]
        )
    return ext, tuple(tuple(f) for f in free)


def _suffix_max(arr: list[int]) -> tuple[int, ...]:
    out = arr[:]
    for k in range(len(out) - 2, -1, -1):
        out[k] = max(out[k], out[k + 1])
    return tuple(out)


@cache
def instance_matrix(table: FanTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(tiles, points, melds)``: one row per combination-fan instance - the tile counts of its melds (34
    columns), its fan's points and its number of melds. Used to bound the combinations a hand can reach with
    ``w`` wildcards: an instance needs at least ``sum(max(0, tiles - available))`` of them."""
    rows: list[list[int]] = []
    pts: list[int] = []
    size: list[int] = []
    for spec in table.combinations:
        for inst in sorted(instances(spec)):
            row = [0] * 34
            for code in inst:
                for k in meld_tiles(code):
                    row[k] += 1
            rows.append(row)
            pts.append(spec.points)
            size.append(spec.melds)
    return np.array(rows, dtype=np.int16), np.array(pts, dtype=np.int32), np.array(size, dtype=np.int8)


def combination_root_bounds(
    table: FanTable,
    available: list[int],
    max_w: int,
    rest: tuple[int, ...] | None = None,
    pung_hand_w: int = 0,
) -> list[int]:
    """For w = 0..max_w, an upper bound on the combination points of any completion that needs at most ``w``
    wildcards, given every tile the hand holds (``available``, closed and fixed, by kind): a fan instance needing
    more than ``w`` tiles the hand lacks cannot appear. Two disjoint fans of two melds may add up; otherwise a hand
    has one combination fan of three or four melds.

    ``rest[k]`` (k = 0..4), when given, is a lower bound on the tiles the rest of the hand lacks once an instance
    of ``k`` melds is chosen (the distance of the hand's closed tiles to its other melds and the pair): an
    instance then needs its own missing tiles plus ``rest[k]`` wildcards. Both parts are counted against every
    tile the hand holds, so each is a lower bound, and the groups are disjoint, so the sum is one too.

    ``pung_hand_w``: the fewest wildcards a completion of pungs only needs (:mod:`jantaku.jielu.reach`); an
    instance of four pungs makes the whole hand one, so it needs at least that many.

    >>> from jantaku.jielu.fantable import default_fan_table
    >>> from jantaku.tiles import counts34, parse_tiles
    >>> combination_root_bounds(default_fan_table(), counts34(parse_tiles("123m234m345m11z789p")), 3)
    [6, 6, 12, 16]
    """
    return instance_caps(table, instance_needs(table, available, rest, pung_hand_w), max_w)


def instance_needs(
    table: FanTable, available: list[int], rest: tuple[int, ...] | None = None, pung_hand_w: int = 0
) -> np.ndarray:
    """Per row of :func:`instance_matrix`, the wildcards a completion holding that instance needs at least (see
    :func:`combination_root_bounds`)."""
    kinds, counts = _instance_kinds(table)
    _, _, size = instance_matrix(table)
    need = np.maximum(counts - np.array((*available, 0), dtype=np.int16)[kinds], 0).sum(axis=1)
    if rest is not None:
        need = need + np.array(rest, dtype=np.int64)[size]
    if pung_hand_w:
        need = np.where(_four_pungs(table), np.maximum(need, pung_hand_w), need)
    return need


def instance_caps(table: FanTable, need: np.ndarray, max_w: int, among: np.ndarray | None = None) -> list[int]:
    """For w = 0..max_w, the most combination points of instances needing at most ``w`` wildcards (only those of
    ``among``, a boolean mask of the rows, when given): two disjoint two-meld fans add up, else one fan."""
    _, pts, size = instance_matrix(table)
    if among is not None:
        pts = np.where(among, pts, 0)
    # the best points of each kind of instance by the tiles it lacks, then the best needing at most w
    by_need = np.zeros((2, max_w + 2), dtype=np.int32)
    np.maximum.at(by_need, (np.where(size == 2, 0, 1), np.minimum(need, max_w + 1)), pts)
    best = np.maximum.accumulate(by_need[:, : max_w + 1], axis=1)
    return [int(x) for x in np.maximum(best[1], 2 * best[0])]


@cache
def _instance_kinds(table: FanTable) -> tuple[np.ndarray, np.ndarray]:
    """The rows of :func:`instance_matrix` in short form: the kinds each instance holds and how many of each,
    padded with kind 34 (which the hand never holds) and count 0."""
    tiles, _, _ = instance_matrix(table)
    width = int((tiles > 0).sum(axis=1).max())
    kinds = np.full((len(tiles), width), 34, dtype=np.intp)
    counts = np.zeros((len(tiles), width), dtype=np.int16)
    for i, row in enumerate(tiles):
        nz = np.nonzero(row)[0]
        kinds[i, : len(nz)] = nz
        counts[i, : len(nz)] = row[nz]
    return kinds, counts


@cache
def _four_pungs(table: FanTable) -> np.ndarray:
    """Per row of :func:`instance_matrix`: whether the instance is four pungs."""
    return np.array(
        [spec.shape == "pung" and spec.melds == 4 for spec in table.combinations for _ in instances(spec)], dtype=bool
    )


def _set_partitions(items: tuple[int, ...]) -> list[list[tuple[int, ...]]]:
    if not items:
        return [[]]
    first, rest = items[0], items[1:]
    out: list[list[tuple[int, ...]]] = []
    for part in _set_partitions(rest):
        out.append([(first,), *part])
        for i in range(len(part)):
            out.append([*part[:i], (first, *part[i]), *part[i + 1 :]])
    return out


class Bounds:
    """Upper bounds of a fan table, with caches (one instance per table is enough)."""

    def __init__(
        self,
        table: FanTable,
        combinations_of: Bounds | None = None,
        family_tables: tuple[FanTable, FanTable, FanTable] | None = None,
    ) -> None:
        """``combinations_of``: share the combination-fan tables and cache of that instance (a table whose
        combination fans are the same, such as :func:`jantaku.jielu.reach.zeroed_table`'s). ``family_tables``:
        the tables to read the suit, number and honor fans from (by default ``table``): tables equal to it in
        that family, shared between instances so that their caches are too."""
        self.table = table
        self.family_tables = family_tables or (table, table, table)
        if combinations_of is not None:
            self.ext, self.free = combinations_of.ext, combinations_of.free
            self._comb: dict[tuple[tuple[int, ...], int, int], int] = combinations_of._comb
        else:
            self.ext, self.free = extension_table(table)
            self._comb = {}
        self._melds: dict[tuple[int, ...], tuple[tuple[int, ...], bool, bool, int]] = {}
        self._content: dict[tuple[int, int, Budget | None], tuple[int, bool]] = {}
        self._content_limit = 1 << 12 if combinations_of is not None else 1 << 14  # many tables without some fans

    def value_bound(
        self,
        committed: tuple[int, ...],
        to_come: int,
        lo: int,
        hi: int,
        comb_cap: int = 999,
        start: int = 0,
        budget: Budget | None = None,
    ) -> int:
        """An upper bound on the value (after the 32/24 rule) of every hand that extends this partial one, whose
        melds still to come start at kind ``start`` or later; ``comb_cap`` bounds its combination points;
        ``budget`` (the tiles left and how many of them may still be dropped) tightens the suit and number fans."""
        t = self.table
        suited_can_come = to_come if hi & _SUIT_BITS else 0
        melds = self._melds.get(committed)
        if melds is None:
            melds = self._meld_facts(committed)
        keys, all_chows, no_chow, kong_pts = melds
        comb = min(comb_cap, self.combination_bound(keys, suited_can_come, start))
        content, content_full = self.content_bound(lo, hi, budget)
        shape = 0
        if all_chows and (to_come == 0 or hi & _SUIT_BITS):
            shape = t.points["平和"]
        if no_chow:
            shape = max(shape, t.points["对对和"])
        if content_full or comb >= t.full or kong_pts >= t.full:
            value = t.max_value
        else:
            value = min(t.cap, comb + content + shape + kong_pts)
        return value

    def _meld_facts(self, committed: tuple[int, ...]) -> tuple[tuple[int, ...], bool, bool, int]:
        """What the bound reads of the committed melds (kept per meld tuple): their sorted combination keys,
        whether all / none of them are chows, and the points of their kong fan."""
        t = self.table
        keys = tuple(sorted(k for k in (combination_key(c) for c in committed) if k is not None))
        kongs = sum(1 for c in committed if is_kong(c))
        kong_pts = t.points[("一杠", "二杠", "三杠", "四杠")[kongs - 1]] if kongs else 0
        facts = (keys, all(is_chow(c) for c in committed), not any(is_chow(c) for c in committed), kong_pts)
        if len(self._melds) > 1 << 16:  # bounded in a long-running process
            self._melds.clear()
        self._melds[committed] = facts
        return facts

    def combination_bound(self, keys: tuple[int, ...], to_come: int, start: int = 0) -> int:
        """The most combination points melds ``keys`` (sorted combination keys) and ``to_come`` more, each starting
        at kind ``start`` or later, can make."""
        key = (keys, to_come, start)
        got = self._comb.get(key)
        if got is not None:
            return got
        if len(self._comb) > 1 << 18:  # keep the cache bounded in a long-running process
            self._comb.clear()
        best = self.free[to_come][start]
        for part in _set_partitions(tuple(range(len(keys)))):
            blocks = [tuple(sorted(keys[i] for i in b)) for b in part]
            best = max(best, self._spread(blocks, 0, to_come, start))
        self._comb[key] = best
        return best

    def _spread(self, blocks: list[tuple[int, ...]], i: int, left: int, start: int) -> int:
        if i == len(blocks):
            return self.free[left][start]
        block = blocks[i]
        best = -1
        for e in range(left + 1):
            if len(block) == 1 and e == 0:
                pts = 0
            else:
                got = self.ext.get((block, e))
                if got is None or not got[start]:
                    continue
                pts = got[start]
            rest = self._spread(blocks, i + 1, left - e, start)
            if rest >= 0 and pts + rest > best:
                best = pts + rest
        return best

    def content_bound(self, lo: int, hi: int, budget: Budget | None = None) -> tuple[int, bool]:
        """(the most points of suit + number + honor fans, whether a ``full`` fan is reachable) over every
        content mask between ``lo`` and ``hi`` - and, with a ``budget``, that dropping few enough of the tiles
        left can reach."""
        key = (lo, hi, budget)
        got = self._content.get(key)
        if got is not None:
            return got
        if len(self._content) > self._content_limit:  # bounded in a long-running process
            self._content.clear()
        got = self._content[key] = self._content_bound(lo, hi, budget)
        return got

    def _content_bound(self, lo: int, hi: int, budget: Budget | None) -> tuple[int, bool]:
        ts, tn, th = self.family_tables
        # each family looks at a few bits only: reduce the masks to those (better cache hits)
        suit_lo, suit_hi = _suit_key(lo), _suit_key(hi)
        number_lo, number_hi = _number_key(lo), _number_key(hi)
        suit, number = _suit_bound(suit_lo, suit_hi, ts), _number_bound(number_lo, number_hi, tn)
        if budget is not None:
            suit = min(suit, _suit_budget(suit_lo, suit_hi, budget.suits, budget.drops, budget.honors, ts))
            number = min(number, _number_budget(number_lo, number_hi, budget.numbers, budget.drops, budget.honors, tn))
        honor = _honor_bound(lo & _HONOR_BITS, hi & _HONOR_BITS, th)
        return suit[0] + number[0] + honor[0], suit[1] or number[1] or honor[1]


class Budget(NamedTuple):
    """The tiles a partial hand still holds outside its groups, and how many of them may still be dropped.

    Attributes:
        drops: how many more of the hand's tiles may become wildcards.
        numbers: tiles left per number 1-9 (all suits).
        suits: tiles left per suit (m, p, s).
        honors: honor tiles left.
    """

    drops: int
    numbers: tuple[int, ...]
    suits: tuple[int, int, int]
    honors: int


@cache
def _family_points(table: FanTable) -> dict[tuple[str, int, bool], int]:
    """(family, how many suits or numbers, honors present) -> the best fan points of that family (0 if none),
    the numbers equally spaced."""
    out: dict[tuple[str, int, bool], int] = {}
    for honors in (False, True):
        h = 1 << _WIND_SHIFT | 1 << _DRAGON_SHIFT if honors else 0
        for j in range(10):
            numbers = sum(1 << (_NUMBER_SHIFT + n) for n in range(j))
            mask = h | numbers | (1 if j else 0)
            out[("numbers", j, honors)] = max(
                (p for n, p in content_fans(mask, table) if table.family[n] == "numbers"), default=0
            )
        for j in range(4):
            mask = h | (1 << j) - 1 | (1 << _NUMBER_SHIFT if j else 0)
            out[("suits", j, honors)] = max(
                (p for n, p in content_fans(mask, table) if table.family[n] == "suits"), default=0
            )
    return out


@lru_cache(maxsize=1 << 14)
def _by_potential(family: str, must: int, may: int, table: FanTable) -> tuple[tuple[int, int, int], ...]:
    """The candidate final sets of ``family`` between ``must`` and ``may`` (:func:`_number_sets`,
    :func:`_suit_sets`) as (the most points the set could give, size, bits), the most first."""
    pts = _family_points(table)
    sets = _number_sets(must, may) if family == "numbers" else _suit_sets(must, may)
    out = [(max(pts[(family, size, False)], pts[(family, size, True)]), size, bits) for size, bits in sets]
    return tuple(sorted(out, key=lambda x: -x[0]))


def _budget_best(
    family: str,
    counts: tuple[int, ...],
    sets: tuple[tuple[int, int, int], ...],
    drops: int,
    honors_left: int,
    lo: int,
    hi: int,
    table: FanTable,
) -> tuple[int, bool]:
    """The best fan of ``family`` over the candidate final ``sets`` ((the most points it could give, size, bit set
    over the positions of ``counts``), the most first: :func:`_by_potential`), when the tiles left outside the set
    - and for a fan without honors the honor tiles left - must be dropped within the budget."""
    pts = _family_points(table)
    honors_lo = bool(lo & _HONOR_BITS)
    honors_hi = bool(hi & _HONOR_BITS)
    best = 0
    held = [(1 << i, c) for i, c in enumerate(counts) if c]
    for potential, size, bits in sets:
        if potential <= best:
            break  # the sets are in decreasing order of the points they could give
        cost = 0
        for bit, c in held:
            if not bits & bit:
                cost += c
        if cost > drops:
            continue
        for honors in (False, True):
            if honors and not honors_hi:
                continue
            if not honors and (honors_lo or cost + honors_left > drops):
                continue
            p = pts[(family, size, honors)]
            if p > best:
                best = p
    full = best >= table.full
    return best, full


def _fan_number_sets() -> tuple[tuple[int, int], ...]:
    out = []
    for bits in range(1, 512):
        nums = [n for n in range(9) if bits >> n & 1]
        size = len(nums)
        if size == 9 or size <= 2 or (size <= 5 and len({b - a for a, b in pairwise(nums)}) == 1):
            out.append((size, bits))
    return tuple(out)


_FAN_NUMBER_SETS = _fan_number_sets()
"""(size, bits) of every number set a number fan can have: one or two numbers, three to five equally spaced, or
all nine (77 sets)."""


@lru_cache(maxsize=1 << 14)
def _number_sets(must: int, may: int) -> tuple[tuple[int, int], ...]:
    """The number sets S with must <= S <= may that can have a number fan, and S = must itself (no fan)."""
    out = [(size, bits) for size, bits in _FAN_NUMBER_SETS if bits & must == must and not bits & ~may]
    if (bin(must).count("1"), must) not in out:
        out.append((bin(must).count("1"), must))
    return tuple(out)


@cache
def _suit_sets(must: int, may: int) -> tuple[tuple[int, int], ...]:
    return tuple((bin(b).count("1"), b) for b in range(8) if b & must == must and not b & ~may)


@lru_cache(maxsize=1 << 16)
def _number_budget(
    lo: int, hi: int, counts: tuple[int, ...], drops: int, honors: int, table: FanTable
) -> tuple[int, bool]:
    sets = _by_potential("numbers", lo >> _NUMBER_SHIFT & 0x1FF, hi >> _NUMBER_SHIFT & 0x1FF, table)
    return _budget_best("numbers", counts, sets, drops, honors, lo, hi, table)


@lru_cache(maxsize=1 << 16)
def _suit_budget(
    lo: int, hi: int, counts: tuple[int, ...], drops: int, honors: int, table: FanTable
) -> tuple[int, bool]:
    sets = _by_potential("suits", lo & _SUIT_BITS, hi & _SUIT_BITS, table)
    return _budget_best("suits", counts, sets, drops, honors, lo, hi, table)


_ONE_WIND = 1 << _WIND_SHIFT
_ONE_DRAGON = 1 << _DRAGON_SHIFT
_NUMBER_BITS = 0x1FF << _NUMBER_SHIFT


def _suit_key(mask: int) -> int:
    """The bits the suit fans read: the suits, one bit for 'a wind', one for 'a dragon'."""
    return (
        (mask & _SUIT_BITS)
        | (_ONE_WIND if mask >> _WIND_SHIFT & 0xF else 0)
        | (_ONE_DRAGON if mask >> _DRAGON_SHIFT & 7 else 0)
    )


def _number_key(mask: int) -> int:
    """The bits the number fans read: the numbers, and one bit for 'an honor'."""
    return (mask & _NUMBER_BITS) | (_ONE_WIND if mask & _HONOR_BITS else 0)


def _between(lo: int, hi: int, bits: int) -> list[int]:
    """Every mask m with lo & bits <= m <= hi & bits (as sets)."""
    lo &= bits
    free = hi & bits & ~lo
    out = []
    sub = free
    while True:
        out.append(lo | sub)
        if sub == 0:
            break
        sub = (sub - 1) & free
    return out


def _family_max(masks: list[int], family: str, table: FanTable) -> tuple[int, bool]:
    best = 0
    full = False
    for m in masks:
        for name, pts in content_fans(m, table):
            if table.family[name] == family:
                best = max(best, pts)
                full = full or pts >= table.full
    return best, full


@cache
def _suit_bound(lo: int, hi: int, table: FanTable) -> tuple[int, bool]:
    """The best suit fan between two suit keys (:func:`_suit_key`)."""
    return _family_max(_between(lo, hi, _SUIT_BITS | _ONE_WIND | _ONE_DRAGON), "suits", table)


@lru_cache(maxsize=1 << 14)
def _number_bound(lo: int, hi: int, table: FanTable) -> tuple[int, bool]:
    """The best number fan between two number keys (:func:`_number_key`)."""
    return _family_max(_between(lo, hi, _NUMBER_BITS | _ONE_WIND), "numbers", table)


@cache
def _honor_bound(lo: int, hi: int, table: FanTable) -> tuple[int, bool]:
    wind = _between(lo, hi, 0xF << _WIND_SHIFT)
    dragon = _between(lo, hi, 7 << _DRAGON_SHIFT)
    pw, fw = _family_max(wind, "honors", table)
    pd, fd = _family_max(dragon, "honors", table)
    return pw + pd, fw or fd


_Row = tuple[int, int, tuple[tuple[int, int], ...]]


@cache
def _instances_by_points(table: FanTable) -> tuple[np.ndarray, tuple[_Row, ...]]:
    """The rows of :func:`instance_matrix`, the most points first, and per row (points, melds, tiles as (kind,
    count))."""
    tiles, pts, size = instance_matrix(table)
    rows = tuple(
        (int(pts[i]), int(size[i]), tuple((int(k), int(tiles[i, k])) for k in np.nonzero(tiles[i])[0]))
        for i in range(len(pts))
    )
    return np.argsort(-pts, kind="stable"), rows


def tight_cap(table: FanTable, need: np.ndarray, closed: list[int], melds: int, w: int, memo: dict[int, int]) -> int:
    """The most combination points of a completion with at most ``w`` wildcards of a hand without fixed melds
    (closed counts ``closed``, ``melds`` melds and the pair to form), counting an instance only when its own missing
    tiles plus the distance of the closed tiles it does not keep to the other melds and the pair are at most ``w``
    (exact for the instance: the tiles it keeps are not counted twice). ``need`` is :func:`instance_needs` (a
    lower bound of the same, to skip at once); ``memo`` keeps each instance's need between levels."""
    from jantaku.shapes.tables import tables

    distances = tables().distances
    order, rows = _instances_by_points(table)
    best34 = best2 = 0
    for row in order[need[order] <= w].tolist():
        pts, size, kinds = rows[row]
        if pts <= best34 and 2 * pts <= max(best34, 2 * best2):
            break
        if (size == 2 and pts <= best2) or (size != 2 and pts <= best34):
            continue
        got = memo.get(row)
        if got is None:
            rest = closed[:]
            misses = 0
            for k, n in kinds:
                have = rest[k]
                if n > have:
                    misses += n - have
                    rest[k] = 0
                else:
                    rest[k] = have - n
            got = memo[row] = misses + distances(bytes(rest))[melds - size]
        if got <= w:
            if size == 2:
                best2 = pts
            else:
                best34 = pts
    return max(best34, 2 * best2)
