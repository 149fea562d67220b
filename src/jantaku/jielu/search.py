"""The optimiser: the best way to complete a hand, with or without wildcards.

A hand's value is the best, over every way to read it, of its fans' value halved once per wildcard. Readings
without wildcards are the decompositions of the closed tiles (:func:`jantaku.shapes.decompose.
decompositions_of_bytes`). With ``w`` wildcards the search never tries what the wildcards stand for tile by tile
(34**w placements): it chooses the hand's *groups* - the melds still missing and the pair - kind by kind, each
group at its lowest kind. Once the groups starting at a kind are chosen, the number of tiles of that kind the
hand needs is known: the tiles of it the hand holds beyond that are its own tiles treated as wildcards
("drops"), and the tiles it lacks are what the wildcards stand for ("misses"). A completion with ``w``
wildcards has exactly ``w`` misses and ``w - extra`` drops. So every wildcard's identity follows from the groups,
each hand is reached once, and a tile of a kind the hand needs is never made a wildcard (a real tile where a
wildcard would stand for the same tile gives the same hand with one halving fewer). Each group must hold a real
tile of its own (no pair or meld made only of wildcards): checked as a matching when the groups are complete.
Completed hands are scored by :func:`jantaku.jielu.evaluate.evaluate`, cached per reading (its four melds and
pair), so the many searches that end in the same reading score it once.

Pruning (each rule is exact: none can lose the optimum):

- iterative deepening on ``w``, from a lower bound (``w >= regular shanten + 1``) up, stopping as soon as
  ``max_value >> w`` cannot beat the best found; a level whose root bound cannot beat it is skipped;
- the honors are visited first (few groups, and they settle the honor fans and much of the budget early);
- budgets: drops so far at most ``w - extra``; misses so far, plus those the groups still to come need at
  least (the regular-form distance table of :mod:`jantaku.shapes.tables` on the tiles left), at most ``w``;
  tiles left beyond what the groups to come can hold must be droppable; no kind gets a fifth copy (fixed melds
  counted);
- branch and bound on the value: an upper bound of the fans a partial hand can still reach
  (:mod:`jantaku.jielu.bounds`), halved ``w`` times, must beat the best found.

Results are cached by the whole input (an LRU cache), so asking about the same hand twice is free.

>>> from jantaku.tiles import counts34, parse_tiles
>>> c = best_completion(counts34(parse_tiles("123m123m456m789m1z")), (), extra=1)
>>> c.score, c.wildcards, c.stands_for, [f.name for f in c.evaluation.fans]
(9, 1, (27,), ['三连顺', '混一色', '九数齐', '平和'])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import NamedTuple

from jantaku.shapes.decompose import decompositions_of_bytes
from jantaku.shapes.tables import tables

from .bounds import Bounds, Budget, instance_caps, instance_needs, reach_mask, tight_cap
from .errors import JieluError
from .evaluate import Evaluation, evaluate, with_incidental
from .fantable import FanTable, default_fan_table
from .melds import PUNG, meld_mask, meld_tiles, sum_masks, tile_mask
from .reach import kept_bounds, out_of_reach, zeroed_table

__all__ = ["Completion", "SearchStats", "best_completion"]


class Completion(NamedTuple):
    """The best completion of a hand.

    Attributes:
        score: the value after the 32/24 rule, halved once per wildcard (rounded down).
        wildcards: how many wildcards (the hand's own tiles treated as wildcards plus extra ones).
        evaluation: the fans and the value before halving (incidental fans included only without wildcards).
        melds: all four meld codes, sorted (fixed melds included).
        closed_melds: the melds formed from the closed tiles (and wildcards), sorted.
        pair: the pair's kind.
        replaced: kinds of the hand's own tiles treated as wildcards, sorted.
        stands_for: kinds the wildcards stand for, sorted.
    """

    score: int
    wildcards: int
    evaluation: Evaluation
    melds: tuple[int, ...]
    closed_melds: tuple[int, ...]
    pair: int
    replaced: tuple[int, ...]
    stands_for: tuple[int, ...]


class SearchStats:
    """Counters over all searches since the last reset (for the benchmark and the tests)."""

    nodes = 0
    leaves = 0

    @classmethod
    def reset(cls) -> None:
        cls.nodes = cls.leaves = 0


# The search visits the honors first, then the number tiles in order. Position i of that order is kind _KIND[i].
_KIND = (*range(27, 34), *range(27))
_POS = tuple(_KIND.index(k) for k in range(34))
_CHOW_AT = (*(k < 27 and k % 9 <= 6 for k in _KIND), False, False)
_START = (*(k if k < 27 else 0 for k in _KIND), 34, 34, 34)
_TILE_MASK = tuple(tile_mask(k) for k in range(34))
_CHOW_MASK = tuple(meld_mask(k) if k < 27 and k % 9 <= 6 else 0 for k in range(34))
_REACH = tuple(reach_mask(k) for k in range(34))
_BITS = tuple(tuple(b for b in range(19) if _TILE_MASK[k] >> b & 1) for k in range(34))
_TABLES = tables()
_NO_LIMIT = 999


@cache
def _bounds(table: FanTable, out_of_reach: frozenset[str] = frozenset()) -> Bounds:
    """The bounds of ``table``, or of it without fans no completion at a level can have (same combinations)."""
    if not out_of_reach:
        return Bounds(table)
    by_family = tuple(
        zeroed_table(table, frozenset(f for f in out_of_reach if table.family[f] == family))
        for family in ("suits", "numbers", "honors")
    )
    return Bounds(zeroed_table(table, out_of_reach), _bounds(table), by_family)  # type: ignore[arg-type]


def best_completion(
    counts: Sequence[int],
    fixed: Sequence[int] = (),
    *,
    extra: int = 0,
    incidental: tuple[tuple[str, int], ...] = (),
    table: FanTable | None = None,
    max_wildcards: int | None = None,
    replaced: Sequence[int] | None = None,
    stop_at: int | None = None,
    prune: bool = True,
    floor: int = 0,
) -> Completion | None:
    """The best completion of a hand with closed tiles ``counts`` (34 counts) and fixed melds ``fixed`` (codes).

    Args:
        counts: the closed tiles (the winning tile included), 34 counts.
        fixed: the called melds' codes (:mod:`jantaku.jielu.melds`); their tiles are never wildcards.
        extra: wildcards the hand has on top of its tiles (a non-winner's one extra wildcard at the end).
        incidental: the win's incidental fans as (name, points), counted only when no wildcard is used.
        table: the fan table (default: the shipped one).
        max_wildcards: the most wildcards to use, extra ones included (default: no limit beyond the table's own
            cap, :meth:`~jantaku.jielu.fantable.FanTable.wildcard_limit`, which always applies).
        replaced: fix which of the hand's own tiles (kinds) are wildcards; by default the search chooses.
        stop_at: stop at the first completion scoring at least this much (for a yes/no question such as
            "may this hand win?"); it is then not necessarily the best.
        prune: ``False`` turns every pruning rule off (for testing them); the result is the same.
        floor: search as if a completion scoring ``floor`` had been found: the bounds prune from there, and only a
            completion scoring more is returned. With the best score S known (:meth:`jantaku.jielu.wincheck.
            WinCheck.best_score`), ``floor=S - 1, stop_at=S`` returns the very completion the whole search returns
            (the first of score S it meets: no branch holding one is pruned either way), without proving that
            none scores more.

    Returns ``None`` when no completion is worth at least 1 point. Raises :class:`JieluError` for counts that
    are not a hand of 14 tiles (melds counting 3, extra wildcards included) or hold a fifth copy of a kind.
    """
    t = table or default_fan_table()
    cnt = tuple(int(c) for c in counts)
    if len(cnt) != 34 or min(cnt) < 0:
        raise JieluError(f"34 counts (0-4) are expected, got {list(cnt)}")
    table_limit = t.wildcard_limit(extra)
    if table_limit is not None:  # the rule set's cap on wildcards (a rule-maker's option)
        max_wildcards = table_limit if max_wildcards is None else min(max_wildcards, table_limit)
    key = (
        cnt,
        tuple(sorted(fixed)),
        extra,
        tuple(incidental),
        t,
        max_wildcards,
        tuple(sorted(replaced)) if replaced is not None else None,
        stop_at,
        prune,
        floor,
    )
    return _best_completion(*key)


@lru_cache(maxsize=1 << 14)
def _best_completion(
    cnt: tuple[int, ...],
    fixed: tuple[int, ...],
    extra: int,
    incidental: tuple[tuple[str, int], ...],
    t: FanTable,
    max_wildcards: int | None,
    forced: tuple[int, ...] | None,
    stop_at: int | None,
    prune: bool,
    floor: int = 0,
) -> Completion | None:
    n_closed = sum(cnt)
    melds_needed = 4 - len(fixed)
    if melds_needed < 0 or extra < 0 or n_closed + extra != 3 * melds_needed + 2:
        raise JieluError(
            "a hand to score has 14 tiles (each meld counting as 3, extra wildcards included); this one has "
            f"{n_closed + 3 * len(fixed) + extra}"
        )
    fixed_tiles = [0] * 34
    for code in fixed:
        for k in meld_tiles(code):
            fixed_tiles[k] += 1
    if max(a + b for a, b in zip(cnt, fixed_tiles, strict=True)) > 4:
        raise JieluError("a kind has more than four copies in the hand and its melds")
    limit = min(_NO_LIMIT if max_wildcards is None else max_wildcards, _max_useful_w(t))
    best = _Best(stop_at, floor)
    closed = list(cnt)
    try:
        if forced is not None:
            for k in forced:
                if closed[k] == 0:
                    raise JieluError(f"the hand holds no {_name(k)} to treat as a wildcard")
                closed[k] -= 1
            w = len(forced) + extra
            if w == 0:
                _score_plain(closed, fixed, incidental, t, best)
            elif w <= limit:
                info = _HandInfo(closed, fixed_tiles, fixed)
                _Search(info, w, 0, t, best, _NO_LIMIT, forced, prune).run()
            return best.result
        dist = _TABLES.distances(bytes(closed)) if n_closed else (0,) * 5
        w_lb = extra
        if prune and n_closed:
            w_lb = max(extra, dist[melds_needed])  # the tiles the closed ones lack of the melds and the pair
        if w_lb == 0:
            _score_plain(closed, fixed, incidental, t, best)
        w = max(w_lb, 1)
        if w > limit:
            return best.result
        info = _HandInfo(closed, fixed_tiles, fixed)
        rest = tuple(dist[max(0, melds_needed - k)] for k in range(5))
        slots = 3 * melds_needed + 2  # a completion with w wildcards keeps slots - w closed tiles
        reach = kept_bounds(tuple(closed), melds_needed, bool(fixed)) if prune else None
        pung_w = slots - reach["对对和"] if reach is not None else 0
        need = instance_needs(t, [a + b for a, b in zip(cnt, fixed_tiles, strict=True)], rest, max(0, pung_w))
        caps = instance_caps(t, need, limit)
        fits: dict[int, int] = {}
        while w <= limit and (not prune or (t.max_value >> w) > best.score):
            gone = out_of_reach(reach, slots - w) if reach is not None else frozenset()
            cap = caps[w] if prune else _NO_LIMIT
            if prune and not fixed and cap:
                cap = min(cap, tight_cap(t, need, closed, melds_needed, w, fits))
            _Search(info, w, w - extra, t, best, cap, (), prune, gone).run()
            w += 1
    except _Found:
        pass
    return best.result


def _name(kind: int) -> str:
    from jantaku.tiles import KIND_NAMES

    return KIND_NAMES[kind]


def _max_useful_w(t: FanTable) -> int:
    """The most wildcards that can still leave 1 point: ``max_value >> w >= 1``."""
    return t.max_value.bit_length() - 1


class _Found(Exception):
    """Raised to end the search once a completion reaches ``stop_at``."""


class _Best:
    """The best completion found so far."""

    __slots__ = ("result", "score", "stop_at")

    def __init__(self, stop_at: int | None, floor: int = 0) -> None:
        self.score = floor
        self.result: Completion | None = None
        self.stop_at = stop_at

    def offer(self, c: Completion) -> None:
        if c.score > self.score:
            self.score = c.score
            self.result = c
            if self.stop_at is not None and c.score >= self.stop_at:
                raise _Found


def _score_plain(
    cnt: list[int], fixed: tuple[int, ...], incidental: tuple[tuple[str, int], ...], t: FanTable, best: _Best
) -> None:
    """Readings without any wildcard: the regular decompositions of the closed tiles."""
    for d in decompositions_of_bytes(bytes(cnt)) if sum(cnt) else ():
        if d.form != "regular":
            continue
        closed = tuple(sorted((*d.runs, *(PUNG + p for p in d.pungs))))
        melds = tuple(sorted(fixed + closed))
        ev = with_incidental(evaluate(melds, d.pair, t), incidental, t)
        best.offer(Completion(ev.value, 0, ev, melds, closed, d.pair, (), ()))


class _HandInfo:
    """What every level of the search needs about the hand, by search position (honors first)."""

    def __init__(self, closed: list[int], fixed_tiles: list[int], fixed: tuple[int, ...]) -> None:
        self.closed = [*(closed[k] for k in _KIND), 0, 0]
        self.fixed_tiles = [*(fixed_tiles[k] for k in _KIND), 0, 0]
        self.fixed = fixed
        self.fixed_mask = sum_masks(fixed)
        n = 37
        self.suffix = [0] * n  # tiles held at positions >= p
        self.reach = [0] * n  # what groups built from them can hold
        self.per_bit = [(0,) * 19] * n  # tiles at positions >= p carrying each content bit
        self.by_number = [(0,) * 9] * n
        self.by_suit = [(0, 0, 0)] * n
        self.by_honor = [0] * n
        bits = [0] * 19
        numbers = [0] * 9
        suits = [0, 0, 0]
        honors = 0
        for x in range(33, -1, -1):
            kind = _KIND[x]
            c = self.closed[x]
            if c:
                for b in _BITS[kind]:
                    bits[b] += c
                if kind < 27:
                    numbers[kind % 9] += c
                    suits[kind // 9] += c
                else:
                    honors += c
            self.suffix[x] = self.suffix[x + 1] + c
            self.reach[x] = self.reach[x + 1] | (_REACH[kind] if c else 0)
            self.per_bit[x] = tuple(bits)
            self.by_number[x] = tuple(numbers)
            self.by_suit[x] = (suits[0], suits[1], suits[2])
            self.by_honor[x] = honors
        self._forced: dict[tuple[int, int], int] = {}
        self.future: dict[tuple[int, int, int, int, int], int] = {}  # Search.future_misses, per hand

    def forced_bits(self, p: int, dl: int) -> int:
        """Content bits that more than ``dl`` tiles at positions >= p carry: dropping dl tiles cannot remove them."""
        key = (p, dl)
        got = self._forced.get(key)
        if got is None:
            got = 0
            for b, n in enumerate(self.per_bit[p]):
                if n > dl:
                    got |= 1 << b
            self._forced[key] = got
        return got


class _Search:
    """Depth-first search of the completions with exactly ``w`` wildcards, ``d`` of them the hand's own tiles."""

    def __init__(
        self,
        info: _HandInfo,
        w: int,
        d: int,
        table: FanTable,
        best: _Best,
        comb_cap: int,
        forced: tuple[int, ...],
        prune: bool,
        out_of_reach: frozenset[str] = frozenset(),
    ) -> None:
        self.info = info
        self.closed = info.closed
        self.fixed_tiles = info.fixed_tiles
        self.fixed = info.fixed
        self.need = [0] * 36
        self.w = w
        self.d = d
        self.table = table
        self.best = best
        self.comb_cap = comb_cap
        self.forced = forced
        self.prune = prune
        self.groups: list[int] = []
        self.pair = -1
        self.bounds = _bounds(table, out_of_reach)

    def run(self) -> None:
        if self.prune:
            # the root bound: skip the level at once if it cannot beat the best
            info = self.info
            budget = Budget(self.d, info.by_number[0], info.by_suit[0], info.by_honor[0])
            lo = info.fixed_mask | info.forced_bits(0, self.d)
            hi = info.fixed_mask | info.reach[0]
            bound = self.bounds.value_bound(self.fixed, 4 - len(self.fixed), lo, hi, self.comb_cap, 0, budget)
            if bound >> self.w <= self.best.score:
                return
        self.rec(0, 4 - len(self.fixed), 1, 0, 0, self.info.fixed_mask, False)

    def rec(self, k: int, ml: int, pl: int, drops: int, misses: int, mask: int, changed: bool) -> None:
        SearchStats.nodes += 1
        closed = self.closed
        need = self.need
        if ml == 0 and pl == 0:
            for x in range(k, 34):
                delta = closed[x] - need[x]
                if delta > 0:
                    drops += delta
                elif delta < 0:
                    misses -= delta
            if drops == self.d and misses == self.w and self.groups_have_real_tiles():
                self.leaf()
            return
        while k < 34 and not closed[k] and not need[k] and not (_CHOW_AT[k] and closed[k + 1] + closed[k + 2]):
            k += 1
        if k == 34:
            return
        dl = self.d - drops
        if self.prune and changed:
            info = self.info
            # tiles left that no chosen group takes must fit in the groups to come or be dropped
            loose = info.suffix[k] - min(closed[k], need[k]) - min(closed[k + 1], need[k + 1])
            if loose - (3 * ml + 2 * pl) > dl:
                return
            # the fewest wildcards the groups still to come need
            if misses + self.future_misses(k, ml, pl) > self.w:
                return
            lo = mask | info.forced_bits(k, dl)
            hi = mask | info.reach[k]
            committed = self.fixed + tuple(sorted(self.groups))
            budget = self.budget(k, dl)
            bound = self.bounds.value_bound(committed, ml, lo, hi, self.comb_cap, _START[k], budget)
            if bound >> self.w <= self.best.score:
                return
        here = closed[k]
        limit4 = 4 - self.fixed_tiles[k]
        chow_ok = _CHOW_AT[k] and (here or closed[k + 1] or closed[k + 2])
        kind = _KIND[k]
        for pair_here in (0, 1) if pl and here else (0,):
            for pung_here in (0, 1) if ml and here else (0,):
                top = ml - pung_here if chow_ok else 0
                for c in range(top + 1):
                    nk = need[k] + 2 * pair_here + 3 * pung_here + c
                    if nk > limit4:
                        break
                    if c and (
                        need[k + 1] + c + self.fixed_tiles[k + 1] > 4 or need[k + 2] + c + self.fixed_tiles[k + 2] > 4
                    ):
                        break
                    delta = here - nk
                    d2 = drops + delta if delta > 0 else drops
                    m2 = misses - delta if delta < 0 else misses
                    if d2 > self.d:
                        continue
                    p1 = need[k + 1] + c - closed[k + 1]
                    p2 = need[k + 2] + c - closed[k + 2]
                    if m2 + (p1 if p1 > 0 else 0) + (p2 if p2 > 0 else 0) > self.w:
                        break
                    saved = need[k]
                    need[k] = nk
                    need[k + 1] += c
                    need[k + 2] += c
                    m = mask
                    if pair_here:
                        self.pair = kind
                        m |= _TILE_MASK[kind]
                    if pung_here:
                        self.groups.append(PUNG + kind)
                        m |= _TILE_MASK[kind]
                    if c:
                        self.groups.extend([kind] * c)
                        m |= _CHOW_MASK[kind]
                    grew = bool(pair_here or pung_here or c)
                    self.rec(k + 1, ml - pung_here - c, pl - pair_here, d2, m2, m, grew or delta > 0)
                    if c:
                        del self.groups[-c:]
                    if pung_here:
                        self.groups.pop()
                    if pair_here:
                        self.pair = -1
                    need[k] = saved
                    need[k + 1] -= c
                    need[k + 2] -= c

    def budget(self, k: int, dl: int) -> Budget:
        """The tiles held at positions ``k`` and later that no chosen group takes, by number, suit and honor."""
        info = self.info
        numbers = list(info.by_number[k + 2])
        suits = list(info.by_suit[k + 2])
        honors = info.by_honor[k + 2]
        for x in (k, k + 1):
            free = self.closed[x] - self.need[x]
            if free > 0 and x < 34:
                kind = _KIND[x]
                if kind < 27:
                    numbers[kind % 9] += free
                    suits[kind // 9] += free
                else:
                    honors += free
        return Budget(dl, tuple(numbers), (suits[0], suits[1], suits[2]), honors)

    def future_misses(self, k: int, ml: int, pl: int) -> int:
        """A lower bound on the tiles still missing: the pending places of chows already chosen, plus the distance
        of the tiles at positions ``k`` and later to ``ml`` melds (and the pair, if ``pl``)."""
        closed, need = self.closed, self.need
        a, b = closed[k] - need[k], closed[k + 1] - need[k + 1]
        key = (k, a, b, ml, pl)
        memo = self.info.future
        got = memo.get(key)
        if got is None:
            got = memo[key] = self._future_misses(k, a, b, ml, pl)
        return got

    def _future_misses(self, k: int, a: int, b: int, ml: int, pl: int) -> int:
        closed = self.closed
        pending = (-a if a < 0 else 0) + (-b if b < 0 else 0)
        left = [0] * k
        left.append(a if a > 0 else 0)
        left.append(b if b > 0 else 0)
        left.extend(closed[k + 2 : 34])
        kinds = left[7:34] + left[:7]
        if not pl:
            # no pair to come: give the tiles a free pair of an honor they lack (a relaxation: a lower bound)
            for h in range(27, 34):
                if kinds[h] == 0:
                    kinds[h] = 2
                    break
            else:
                return pending
        return pending + _TABLES.distances(bytes(kinds[:34]))[ml]

    def groups_have_real_tiles(self) -> bool:
        """No pair or meld made only of wildcards: each group can be given a real tile of its own (a matching)."""
        closed, need = self.closed, self.need
        groups = [(self.pair,), *(meld_tiles(g) for g in self.groups)]
        kept: dict[int, int] = {}
        users: dict[int, int] = {}
        for g in groups:
            for x in set(g):
                kept[x] = min(closed[_POS[x]], need[_POS[x]])
                users[x] = users.get(x, 0) + 1
        if all(any(kept[x] >= users[x] for x in g) for g in groups):
            return True
        left = dict(kept)

        def assign(i: int) -> bool:
            if i == len(groups):
                return True
            for x in set(groups[i]):
                if left[x]:
                    left[x] -= 1
                    if assign(i + 1):
                        return True
                    left[x] += 1
            return False

        return assign(0)

    def leaf(self) -> None:
        SearchStats.leaves += 1
        closed_melds = tuple(sorted(self.groups))
        melds = tuple(sorted(self.fixed + closed_melds))
        ev = evaluate(melds, self.pair, self.table)
        score = ev.value >> self.w
        if score > self.best.score:
            replaced: list[int] = list(self.forced)
            stands: list[int] = []
            for x in range(34):
                delta = self.closed[_POS[x]] - self.need[_POS[x]]
                if delta > 0:
                    replaced += [x] * delta
                elif delta < 0:
                    stands += [x] * -delta
            self.best.offer(
                Completion(score, self.w, ev, melds, closed_melds, self.pair, tuple(sorted(replaced)), tuple(stands))
            )
