"""Combination fans: one generic rule for "k melds whose suits and numbers relate like this", and the exact
best assignment of a hand's melds to combination fans.

A :class:`~jantaku.jielu.fantable.CombinationSpec` says: ``melds`` melds of one ``shape``; their suits are the
``same``, pairwise ``different`` or ``alternating`` (X Y X Y); their numbers are ``equal`` or in equal
``steps`` (step >= 1) in some order of the melds; or (``pairs``) four melds in two such pairs. The rule is
applied by generating every instance of each spec once - every sorted tuple of meld codes it matches - so
matching is a dictionary look-up.

>>> from jantaku.jielu.melds import meld_code, meld_name
>>> t = default_fan_table()
>>> m = lambda *names: tuple(sorted(meld_code(n) for n in names))
>>> [s.name for s in matching_specs(m("123m", "456m", "789m"), t)]
['三连顺']
>>> [s.name for s in matching_specs(m("123m", "234p", "345m", "456p"), t)]
['四步顺']
>>> [s.name for s in matching_specs(m("111m", "111p", "333m", "333p"), t)]
['双逢刻']

The best assignment: each meld in at most one combination fan. ``112233456789m`` is 123 123 456 789: one
三连顺 (6), not 同顺 (2) as well - the spare 123 has nothing left to pair with (the document's own example):

>>> a = best_assignment(m("123m", "123m", "456m", "789m"), t)
>>> a.points, [(s.name, [meld_name(c) for c in used]) for s, used in a.hits]
(6, [('三连顺', ['123m', '456m', '789m'])])
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache, lru_cache
from itertools import combinations, permutations
from typing import NamedTuple

from .fantable import CombinationSpec, FanTable, default_fan_table
from .melds import KONG, PUNG, chow, pung

__all__ = ["Assignment", "best_assignment", "combination_key", "instances", "matching_specs"]


def combination_key(code: int) -> int | None:
    """The code a meld has in combinations: a kong counts as a pung; an honor meld takes part in none."""
    if code >= KONG:
        code -= KONG - PUNG
    if code >= PUNG and code - PUNG >= 27:
        return None
    return code


def _suit_sequences(relation: str, k: int) -> Iterator[tuple[int, ...]]:
    if relation == "same":
        for x in range(3):
            yield (x,) * k
    elif relation == "different":
        yield from permutations(range(3), k)
    else:  # alternating
        for x, y in permutations(range(3), 2):
            yield (x, y, x, y)


def _plain_instances(shape: str, k: int, suits: str, numbers: str) -> set[tuple[int, ...]]:
    top = 7 if shape == "chow" else 9
    make = chow if shape == "chow" else pung
    steps = (0,) if numbers == "equal" else range(1, 9)
    out: set[tuple[int, ...]] = set()
    for d in steps:
        for a in range(1, top + 1 - (k - 1) * d):
            nums = [a + i * d for i in range(k)]
            for seq in _suit_sequences(suits, k):
                out.add(tuple(sorted(make(9 * s + n - 1) for s, n in zip(seq, nums, strict=True))))
    return out


@cache
def instances(spec: CombinationSpec) -> frozenset[tuple[int, ...]]:
    """Every sorted tuple of meld codes (kongs as pungs) that ``spec`` matches.

    >>> from jantaku.jielu.fantable import CombinationSpec
    >>> from jantaku.jielu.melds import meld_name
    >>> len(instances(CombinationSpec("同顺", 2, "chow", 2, "same", "equal")))
    21
    >>> sorted(meld_name(c) for c in min(instances(CombinationSpec("四连刻", 32, "pung", 4, "same", "steps"))))
    ['111m', '222m', '333m', '444m']
    """
    if not spec.pairs:
        return frozenset(_plain_instances(spec.shape, spec.melds, spec.suits, spec.numbers))
    halves = _plain_instances(spec.shape, 2, spec.suits, spec.numbers)
    out: set[tuple[int, ...]] = set()
    for a in halves:
        for b in halves:
            if spec.suits == "different" and _suits_of(a) != _suits_of(b):
                continue  # 双逢顺 / 双逢刻: 花色相同的两组
            out.add(tuple(sorted(a + b)))
    return frozenset(out)


def _suits_of(codes: tuple[int, ...]) -> frozenset[int]:
    return frozenset((c % PUNG) // 9 for c in codes)


@cache
def _index(table: FanTable) -> dict[tuple[int, ...], tuple[CombinationSpec, ...]]:
    """Sorted code tuple -> the specs matching it, best first."""
    idx: dict[tuple[int, ...], list[CombinationSpec]] = {}
    for spec in table.combinations:
        for inst in instances(spec):
            idx.setdefault(inst, []).append(spec)
    return {k: tuple(sorted(v, key=lambda s: -s.points)) for k, v in idx.items()}


def matching_specs(codes: Sequence[int], table: FanTable | None = None) -> tuple[CombinationSpec, ...]:
    """The combination fans that these melds (all of them, together) satisfy, best first."""
    keys = [combination_key(c) for c in codes]
    if any(k is None for k in keys):
        return ()
    return _index(table or default_fan_table()).get(tuple(sorted(k for k in keys if k is not None)), ())


class Assignment(NamedTuple):
    """The best assignment of melds to combination fans: total points and each fan with the melds it uses."""

    points: int
    hits: tuple[tuple[CombinationSpec, tuple[int, ...]], ...]


def best_assignment(codes: Sequence[int], table: FanTable | None = None) -> Assignment:
    """The assignment of ``codes`` (meld codes, any order) to combination fans with the most points.

    Exact: every partition of the melds into groups is tried, each group scoring its best matching fan or
    nothing, so each meld counts in at most one combination fan.
    """
    return _best_sorted(tuple(sorted(codes)), table or default_fan_table())


@lru_cache(maxsize=1 << 16)
def _best_sorted(codes: tuple[int, ...], table: FanTable) -> Assignment:
    idx = _index(table)
    keys = [combination_key(c) for c in codes]
    usable = [i for i, k in enumerate(keys) if k is not None]
    memo: dict[int, tuple[int, tuple[tuple[CombinationSpec, tuple[int, ...]], ...]]] = {}

    def best(mask: int) -> tuple[int, tuple[tuple[CombinationSpec, tuple[int, ...]], ...]]:
        if mask == 0:
            return 0, ()
        got = memo.get(mask)
        if got is not None:
            return got
        members = [i for i in usable if mask >> i & 1]
        first, rest = members[0], members[1:]
        result = best(mask & ~(1 << first))  # the first meld in no combination
        for size in (1, 2, 3):
            for others in combinations(rest, size):
                group = (first, *others)
                specs = idx.get(tuple(sorted(keys[i] for i in group)))  # type: ignore[misc]
                if not specs:
                    continue
                sub = mask
                for i in group:
                    sub &= ~(1 << i)
                pts, hits = best(sub)
                if specs[0].points + pts > result[0]:
                    result = (specs[0].points + pts, ((specs[0], tuple(codes[i] for i in group)), *hits))
        memo[mask] = result
        return result

    full = 0
    for i in usable:
        full |= 1 << i
    pts, hits = best(full)
    return Assignment(pts, hits)
