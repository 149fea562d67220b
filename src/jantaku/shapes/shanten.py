"""Shanten: how far a hand is from complete, for the regular form, seven pairs and thirteen orphans.

Shanten is the fewest tile exchanges (draw one, discard one) before the hand is tenpai: ``-1`` complete,
``0`` tenpai, ``1`` one exchange away, ... It is *exact*: targets never need a fifth copy of a kind, so
``1111m`` waiting on ``1m`` is not tenpai. (Tiles in declared melds are not counted against the four
copies of the closed part: a closed part that can only finish with a copy already melded is rare and is
counted as reachable.)

Every function takes a hand as any of:

- an mpsz string, with or without melds (``"123m456p11z 777z+"``, ``"1112345678999m"``),
- a :class:`~jantaku.hand.Hand`,
- 34 counts (a list, tuple or 1-D numpy array) of the closed tiles.

Any legal size is accepted: 3n+1 closed tiles (between turns) or 3n+2 (after a draw), up to 14; the hand
needs ``n`` more melds and a pair. Seven pairs and thirteen orphans apply to 13- and 14-tile closed hands.

>>> shanten("123m456p789s1122z")       # tenpai on 1z/2z
0
>>> shanten("123m456p789s11z 222z+")   # complete, with a pon
-1
>>> s = shanten_forms("1199m1199p1199s1z2z"); s
Shanten(regular=3, chiitoitsu=0, kokushi=4)
>>> s.minimum
0
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from typing import NamedTuple, TypeAlias

import numpy as np

from jantaku.errors import HandError
from jantaku.hand import Hand, parse_hand_or_tiles
from jantaku.tiles import NUM_KINDS, TERMINALS_AND_HONORS, counts34

from .tables import MERGE_SHIFT, TableSet, tables

__all__ = ["HandLike", "Shanten", "read_counts", "shanten", "shanten_forms", "shanten_regular"]

HandLike: TypeAlias = "str | Hand | Sequence[int] | np.ndarray"
"""What the shape functions accept: mpsz text, a Hand, or 34 counts of the closed tiles."""


class Shanten(NamedTuple):
    """Shanten of each form; a form that does not apply (seven pairs with melds) is ``None``."""

    regular: int
    chiitoitsu: int | None
    kokushi: int | None

    @property
    def minimum(self) -> int:
        """The smallest shanten over the forms that apply."""
        m = self.regular
        if self.chiitoitsu is not None and self.chiitoitsu < m:
            m = self.chiitoitsu
        if self.kokushi is not None and self.kokushi < m:
            m = self.kokushi
        return m


def read_counts(hand: HandLike) -> list[int]:
    """The 34 counts of a hand's closed tiles, validated (see the module docs for what ``hand`` may be).

    >>> c = read_counts("11m 5p 1z"); c[0], c[13], c[27], sum(c)
    (2, 1, 1, 4)
    >>> read_counts([0] * 34)
    Traceback (most recent call last):
    ...
    jantaku.errors.HandError: a hand has 3n+1 or 3n+2 closed tiles (1-14), this one has 0
    """
    if isinstance(hand, str):
        closed, _ = parse_hand_or_tiles(hand)
        counts = counts34(closed)
    elif isinstance(hand, Hand):
        counts = counts34(hand.closed)
    else:
        try:
            counts = [int(c) for c in hand]
        except (TypeError, ValueError):
            raise HandError(f"a hand is mpsz text, a Hand or 34 counts, not {type(hand).__name__}") from None
        if len(counts) != NUM_KINDS:
            raise HandError(f"34 counts are expected, got {len(counts)}")
        for kind, c in enumerate(counts):
            if not 0 <= c <= 4:
                raise HandError(f"count of kind {kind} must be 0-4, got {c}")
    n = sum(counts)
    if n % 3 == 0 or n > 14:
        raise HandError(f"a hand has 3n+1 or 3n+2 closed tiles (1-14), this one has {n}")
    return counts


def _regular_from_bytes(b: bytes, n: int) -> int:
    """Regular shanten of 34 count bytes holding ``n`` tiles (the hot path: cached look-ups only)."""
    t = _TABLES or _load_tables()
    sc = t.suit_cache
    mc = t.merge_cache
    m = sc.get(b[0:9]) or t.suit_id(b[0:9])
    p = sc.get(b[9:18]) or t.suit_id(b[9:18])
    mp = mc.get(m << MERGE_SHIFT | p) or t.merge(m, p)
    s = sc.get(b[18:27]) or t.suit_id(b[18:27])
    mps = mc.get(mp << MERGE_SHIFT | s) or t.merge(mp, s)
    z = t.honor_cache.get(b[27:34]) or t.honor_id(b[27:34])
    vid = mc.get(mps << MERGE_SHIFT | z) or t.merge(mps, z)
    return t.vectors[vid][5 + n // 3] - 1


_TABLES: TableSet | None = None


def _load_tables() -> TableSet:
    global _TABLES
    _TABLES = tables()
    return _TABLES


_yaochu_counts = operator.itemgetter(*TERMINALS_AND_HONORS)


def _chiitoitsu_from_bytes(b: bytes) -> int:
    kinds = NUM_KINDS - b.count(0)
    pairs = kinds - b.count(1)
    return 6 - pairs + (7 - kinds if kinds < 7 else 0)


def _kokushi_from_bytes(b: bytes) -> int:
    y = _yaochu_counts(b)
    return 13 - (13 - y.count(0)) - (1 if max(y) > 1 else 0)


def shanten_regular(hand: HandLike) -> int:
    """Shanten of the regular form only (melds and a pair).

    >>> shanten_regular("1199m1199p1199s1z2z")
    3
    """
    counts = read_counts(hand)
    return _regular_from_bytes(bytes(counts), sum(counts))


def shanten_forms(hand: HandLike) -> Shanten:
    """Shanten of each form: regular, seven pairs and thirteen orphans (``None`` where a form cannot apply).

    >>> shanten_forms("19m19p19s1234567z")
    Shanten(regular=8, chiitoitsu=6, kokushi=0)
    >>> shanten_forms("123m 11z 777z+ 456p+ 789s+")
    Shanten(regular=-1, chiitoitsu=None, kokushi=None)
    """
    counts = read_counts(hand)
    b = bytes(counts)
    n = sum(counts)
    regular = _regular_from_bytes(b, n)
    if n < 13:
        return Shanten(regular, None, None)
    return Shanten(regular, _chiitoitsu_from_bytes(b), _kokushi_from_bytes(b))


def shanten(hand: HandLike) -> int:
    """The hand's shanten: the minimum over the regular form, seven pairs and thirteen orphans.

    For speed, a plain list of 34 counts skips most of the checks other inputs get (counts 0-4, a legal
    total); anything else is validated fully.

    >>> shanten("19m19p19s1234567z")
    0
    >>> shanten([2, 2, 2] + [0] * 24 + [3, 3, 2, 0, 0, 0, 0])
    -1
    """
    if type(hand) is list and len(hand) == NUM_KINDS:
        try:
            b = bytes(hand)
        except (TypeError, ValueError):
            b = bytes(read_counts(hand))  # raises the right error for a bad count
        n = sum(b)
        if n % 3 == 0 or n > 14:
            read_counts(hand)  # raises the right error
        # counts above 4 are caught when their block misses the caches (only legal blocks are cached)
    else:
        b = bytes(read_counts(hand))
        n = sum(b)
    t = _TABLES or _load_tables()
    sc = t.suit_cache
    mc = t.merge_cache
    k = b[0:9]
    m = sc.get(k) or t.suit_id(k)
    k = b[9:18]
    x = mc.get(m << MERGE_SHIFT | (sc.get(k) or t.suit_id(k)))
    if not x:
        x = t.merge(m, sc.get(k) or t.suit_id(k))
    k = b[18:27]
    s = sc.get(k) or t.suit_id(k)
    x = mc.get(x << MERGE_SHIFT | s) or t.merge(x, s)
    k = b[27:34]
    z = t.honor_cache.get(k) or t.honor_id(k)
    x = mc.get(x << MERGE_SHIFT | z) or t.merge(x, z)
    regular = t.vectors[x][5 + n // 3] - 1
    if n < 13:
        return regular
    kinds = 34 - b.count(0)
    chiitoi = 6 - kinds + b.count(1) + (7 - kinds if kinds < 7 else 0)
    best = regular if regular < chiitoi else chiitoi
    y = _yaochu_counts(b)
    kokushi = y.count(0) - (1 if max(y) > 1 else 0)
    return best if best < kokushi else kokushi
