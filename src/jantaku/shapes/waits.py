"""Waits and ukeire: which tiles complete or improve a hand, and how many of them are left.

``visible`` (optional everywhere) is what the player can see besides their own closed tiles: 34 counts or
an mpsz string of discards, others' melds, dora indicators and the player's own melds. The number left of a
tile is ``4 - (in hand) - (visible)``, never below zero.

>>> waits("1112345678999m")                   # nine gates: every man tile
['1m', '2m', '3m', '4m', '5m', '6m', '7m', '8m', '9m']
>>> u = ukeire("123m456p789s1z2z3z4z"); u.shanten, u.total
(2, 12)
>>> [(o.discard, o.shanten, o.total) for o in discard_options("123m456p789s12z555z")][:2]
[('1z', 0, 3), ('2z', 0, 3)]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from jantaku.errors import HandError
from jantaku.tiles import KIND_NAMES, NUM_KINDS, TERMINALS_AND_HONORS, counts34, parse_tiles

from .shanten import HandLike, read_counts, shanten, shanten_after_each
from .tables import INFO_SHIFT, tables

__all__ = ["DiscardOption", "Ukeire", "discard_options", "ukeire", "wait_kinds", "waits"]

_BLOCK_SPANS = ((0, 9), (9, 18), (18, 27), (27, 34))


def _visible_counts(visible: str | Sequence[int] | None) -> list[int]:
    if visible is None:
        return [0] * NUM_KINDS
    if isinstance(visible, str):
        return counts34(parse_tiles(visible))
    counts = [int(v) for v in visible]
    if len(counts) != NUM_KINDS or min(counts) < 0 or max(counts) > 4:
        raise HandError("visible tiles are an mpsz string or 34 counts of 0-4")
    return counts


def wait_kinds(counts: Sequence[int]) -> list[int]:
    """Kinds that complete a hand of 3n+1 closed tiles given as 34 counts (the fast path behind :func:`waits`).

    A kind the hand already holds four of is never a wait.
    """
    b = bytearray(counts)
    n = sum(b) + 1
    melds = n // 3
    t = tables()
    bv = t.block_value
    mp, mps, final = t.mp, t.mps, t.final
    rows = [bv(bytes(b[start:stop])) >> INFO_SHIFT for start, stop in _BLOCK_SPANS]
    found: list[int] = []
    for blk, (start, stop) in enumerate(_BLOCK_SPANS):
        honor = blk == 3
        trial = list(rows)
        for k in range(start, stop):
            if b[k] >= 4:
                continue
            # an added tile with no neighbour in reach cannot complete a regular hand
            lo, hi = (k, k) if honor else (max(start, k - 2), min(stop - 1, k + 2))
            if not any(b[lo : hi + 1]):
                continue
            b[k] += 1
            trial[blk] = bv(bytes(b[start:stop])) >> INFO_SHIFT
            b[k] -= 1
            if final[mps[mp[trial[0]][trial[1]]][trial[2]]][trial[3]][melds] == 0:
                found.append(k)
    if n == 14:
        special: set[int] = set()
        if b.count(2) == 6 and b.count(1) == 1:
            special.add(b.index(1))
        yaochu = [b[k] for k in TERMINALS_AND_HONORS]
        if sum(yaochu) == 13 and max(yaochu) <= 2:
            missing = [k for k in TERMINALS_AND_HONORS if b[k] == 0]
            if not missing:
                special.update(TERMINALS_AND_HONORS)
            elif len(missing) == 1:
                special.add(missing[0])
        found = sorted(set(found) | special)
    return found


def waits(hand: HandLike) -> list[str]:
    """The tiles (mpsz names) that complete a hand of 3n+1 closed tiles; empty when it is not tenpai.

    >>> waits("23m456p789s11z 555z+"), waits("19m19p19s1234567z")
    (['1m', '4m'], ['1m', '9m', '1p', '9p', '1s', '9s', '1z', '2z', '3z', '4z', '5z', '6z', '7z'])
    >>> waits("1111m")   # a fifth 1m does not exist
    []
    """
    counts = read_counts(hand)
    if sum(counts) % 3 != 1:
        raise HandError(f"waits are asked of a hand of 3n+1 closed tiles, this one has {sum(counts)}")
    return [KIND_NAMES[k] for k in wait_kinds(counts)]


class Ukeire(NamedTuple):
    """Tiles that lower a 3n+1 hand's shanten: ``tiles`` maps mpsz name -> copies left; ``total`` sums them."""

    shanten: int
    tiles: dict[str, int]
    total: int


def _ukeire_counts(counts: list[int], visible: list[int]) -> Ukeire:
    s = shanten(counts)
    tiles = {
        KIND_NAMES[k]: max(0, 4 - counts[k] - visible[k])
        for k, after in enumerate(shanten_after_each(counts, 1))
        if after is not None and after < s
    }
    return Ukeire(s, tiles, sum(tiles.values()))


def ukeire(hand: HandLike, visible: str | Sequence[int] | None = None) -> Ukeire:
    """The tiles that lower the shanten of a hand of 3n+1 closed tiles (for tenpai: its waits), with copies left.

    >>> ukeire("123m456p789s1122z", visible="1z")
    Ukeire(shanten=0, tiles={'1z': 1, '2z': 2}, total=3)
    """
    counts = read_counts(hand)
    if sum(counts) % 3 != 1:
        raise HandError(f"ukeire is asked of a hand of 3n+1 closed tiles, this one has {sum(counts)}")
    return _ukeire_counts(counts, _visible_counts(visible))


class DiscardOption(NamedTuple):
    """One discard from a 3n+2 hand: the tile, the shanten after it, and the ukeire after it."""

    discard: str
    shanten: int
    tiles: dict[str, int]
    total: int


def discard_options(hand: HandLike, visible: str | Sequence[int] | None = None) -> list[DiscardOption]:
    """Each distinct discard of a 3n+2 hand, best first: lowest shanten after it, then most tiles accepted.

    >>> discard_options("123m456p789s1122z5z")[0]
    DiscardOption(discard='5z', shanten=0, tiles={'1z': 2, '2z': 2}, total=4)
    """
    counts = read_counts(hand)
    if sum(counts) % 3 != 2:
        raise HandError(f"discard options are asked of a hand of 3n+2 closed tiles, this one has {sum(counts)}")
    seen = _visible_counts(visible)
    options: list[DiscardOption] = []
    for k in range(NUM_KINDS):
        if not counts[k]:
            continue
        counts[k] -= 1
        u = _ukeire_counts(counts, seen)
        counts[k] += 1
        options.append(DiscardOption(KIND_NAMES[k], u.shanten, u.tiles, u.total))
    options.sort(key=lambda o: (o.shanten, -o.total))
    return options
