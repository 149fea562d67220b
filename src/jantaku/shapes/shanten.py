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

from collections.abc import Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, NamedTuple, TypeAlias

from jantaku.errors import HandError
from jantaku.hand import Hand, parse_hand_or_tiles
from jantaku.tiles import NUM_KINDS, counts34

from .tables import INFO_SHIFT, TableSet, tables

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "BLOCK_OF_KIND",
    "BLOCK_WEIGHT",
    "HandLike",
    "Shanten",
    "block_codes",
    "read_counts",
    "shanten",
    "shanten_after_each",
    "shanten_forms",
    "shanten_of_codes",
    "shanten_regular",
]

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


_TABLES: TableSet | None = None


def _load_tables() -> TableSet:
    global _TABLES
    _TABLES = tables()
    return _TABLES


def _forms_from_bytes(b: bytes) -> tuple[int, int, int | None, int | None]:
    """(tiles, regular, seven pairs, thirteen orphans) of 34 count bytes; the special forms only for 13-14 tiles."""
    t = _TABLES or _load_tables()
    bv = t.block_value
    m, p, s, z = bv(b[0:9]), bv(b[9:18]), bv(b[18:27]), bv(b[27:34])
    info = m + p + s + z
    n = info & 0xFF
    if n % 3 == 0 or n > 14:
        raise HandError(f"a hand has 3n+1 or 3n+2 closed tiles (1-14), this one has {sum(b)}")
    regular = t.final[t.mps[t.mp[m >> INFO_SHIFT][p >> INFO_SHIFT]][s >> INFO_SHIFT]][z >> INFO_SHIFT][n // 3] - 1
    if n < 13:
        return n, regular, None, None
    kinds = (info >> 8) & 0xFF
    chiitoi = 6 - ((info >> 16) & 0xFF) + (7 - kinds if kinds < 7 else 0)
    kokushi = 13 - ((info >> 24) & 0xFF) - (1 if (info >> 32) & 0xFF else 0)
    return n, regular, chiitoi, kokushi


def shanten_regular(hand: HandLike) -> int:
    """Shanten of the regular form only (melds and a pair).

    >>> shanten_regular("1199m1199p1199s1z2z")
    3
    """
    if type(hand) is list and len(hand) == NUM_KINDS:
        # a plain list of 34 counts (the bots' hot path) is checked as shanten() checks it: a bad count or total
        # still raises read_counts' error
        try:
            b = bytes(hand)
        except (TypeError, ValueError):
            b = bytes(read_counts(hand))
        return _forms_from_bytes(b)[1]
    return _forms_from_bytes(bytes(read_counts(hand)))[1]


def shanten_forms(hand: HandLike) -> Shanten:
    """Shanten of each form: regular, seven pairs and thirteen orphans (``None`` where a form cannot apply).

    >>> shanten_forms("19m19p19s1234567z")
    Shanten(regular=8, chiitoitsu=6, kokushi=0)
    >>> shanten_forms("123m 11z 777z+ 456p+ 789s+")
    Shanten(regular=-1, chiitoitsu=None, kokushi=None)
    """
    _, regular, chiitoi, kokushi = _forms_from_bytes(bytes(read_counts(hand)))
    return Shanten(regular, chiitoi, kokushi)


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
        # a count above 4 is caught when its block misses the cache (only legal blocks are cached)
    else:
        b = bytes(read_counts(hand))
    t = _TABLES or _load_tables()
    g = t.block_values.get
    k = b[0:9]
    m = g(k) or t.block_value(k)
    k = b[9:18]
    p = g(k) or t.block_value(k)
    k = b[18:27]
    s = g(k) or t.block_value(k)
    k = b[27:34]
    z = g(k) or t.block_value(k)
    return _of_block_values(t, m, p, s, z, hand)


def _of_block_values(t: TableSet, m: int, p: int, s: int, z: int, hand: HandLike) -> int:
    """The shanten of a hand from its four blocks' packed values (regular form, seven pairs, thirteen orphans);
    ``hand`` is read again only to name what is wrong with a tile count that is not 3n+1 or 3n+2 (1-14)."""
    info = m + p + s + z
    n = info & 0xFF
    if n % 3 == 0 or n > 14:
        read_counts(hand)  # raises the right error
    regular = t.final[t.mps[t.mp[m >> INFO_SHIFT][p >> INFO_SHIFT]][s >> INFO_SHIFT]][z >> INFO_SHIFT][n // 3] - 1
    return regular if n < 13 else _with_special_forms(regular, info)


def shanten_after_each(counts: list[int], change: int, regular_only: bool = False) -> list[int | None]:
    """For each of the 34 kinds, the shanten of ``counts`` with one tile of that kind added (``change`` 1) or
    taken away (``change`` -1); ``None`` where the kind has no tile to take or already four. The regular form
    alone with ``regular_only`` (:func:`shanten_regular`), else :func:`shanten`'s minimum over the forms.

    What a discard or a draw does to every kind at once, as a bot or a hint asks it (the shanten after each
    discard, the tiles that lower it): a tile changes one block, so each answer looks up one block again
    instead of four. ``counts`` is a legal list of 34 counts (3n+1 tiles to add to, 3n+2 to take from) and is
    left as it was.

    >>> after = shanten_after_each(read_counts("123m456p789s1122z"), 1)
    >>> [k for k, s in enumerate(after) if s is not None and s < 0]  # the waits: 1z and 2z
    [27, 28]
    >>> after = shanten_after_each(read_counts("123m456p789s11223z"), -1)
    >>> after[29], after[0]  # discarding 3z keeps tenpai, 1m does not
    (0, 1)
    """
    if change not in (1, -1):
        raise ValueError(f"change is 1 (a tile added) or -1 (a tile taken away), got {change!r}")
    if type(counts) is not list or len(counts) != NUM_KINDS:
        counts = read_counts(counts)
    try:
        b = bytearray(counts)
    except (TypeError, ValueError):
        b = bytearray(read_counts(counts))  # raises the error that names the bad count
    if max(b) > 4:
        read_counts(counts)
    n = sum(b) + change
    if n % 3 == 0 or not 1 <= n <= 14:
        raise HandError(f"a hand has 3n+1 or 3n+2 closed tiles (1-14), {sum(b)} {'+' if change > 0 else '-'} 1 has {n}")
    t = _TABLES or _load_tables()
    get, compute = t.block_values.get, t.block_value
    keys = (bytes(b[0:9]), bytes(b[9:18]), bytes(b[18:27]), bytes(b[27:34]))
    values = [get(key) or compute(key) for key in keys]
    special = n >= 13 and not regular_only  # seven pairs and thirteen orphans count for 13-14 tiles
    third = n // 3
    mp, mps, final = t.mp, t.mps, t.final
    m, p, s, z = (v >> INFO_SHIFT for v in values)
    total = values[0] + values[1] + values[2] + values[3]
    out: list[int | None] = [None] * NUM_KINDS
    # One tile moves the seven pairs' and thirteen orphans' shanten by one at most: a regular shanten at or below
    # the unchanged hand's special shanten less one is the minimum without computing them.
    floor = _with_special_forms(99, total) - 1 if special else 99
    # each block's kinds in turn, the other three blocks' values fixed: the regular form's lookup is partly done
    # once per block
    rest = total - values[0]
    for offset, value in _neighbours(keys[0], change):
        regular = final[mps[mp[value >> INFO_SHIFT][p]][s]][z][third] - 1
        out[offset] = regular if regular <= floor else _with_special_forms(regular, rest + value)
    rest, row = total - values[1], mp[m]
    for offset, value in _neighbours(keys[1], change):
        regular = final[mps[row[value >> INFO_SHIFT]][s]][z][third] - 1
        out[9 + offset] = regular if regular <= floor else _with_special_forms(regular, rest + value)
    rest, row = total - values[2], mps[mp[m][p]]
    for offset, value in _neighbours(keys[2], change):
        regular = final[row[value >> INFO_SHIFT]][z][third] - 1
        out[18 + offset] = regular if regular <= floor else _with_special_forms(regular, rest + value)
    rest, row = total - values[3], final[mps[mp[m][p]][s]]
    for offset, value in _neighbours(keys[3], change):
        regular = row[value >> INFO_SHIFT][third] - 1
        out[27 + offset] = regular if regular <= floor else _with_special_forms(regular, rest + value)
    return out


@lru_cache(maxsize=8192)
def _neighbours(key: bytes, change: int) -> tuple[tuple[int, int], ...]:
    """Each kind of a block (its counts ``key``) with one tile added (``change`` 1) or taken (-1): its offset in the
    block and the changed block's packed value; kinds with four tiles (to add to) or none (to take) are left out.
    Hands that differ by a tile share most blocks, so a bot's every draw and discard finds them here (98% of the
    lookups in games of efficiency bots; 8,192 blocks kept, a few megabytes)."""
    t = _TABLES or _load_tables()
    get, compute = t.block_values.get, t.block_value
    full = 4 if change > 0 else 0
    out = []
    b = bytearray(key)
    for i, c in enumerate(key):
        if c == full:
            continue
        b[i] += change
        changed = bytes(b)
        b[i] -= change
        out.append((i, get(changed) or compute(changed)))
    return tuple(out)


def _with_special_forms(regular: int, info: int) -> int:
    """The least of ``regular`` and the seven pairs' and thirteen orphans' shanten of a 13-14 tile hand whose
    blocks' packed values sum to ``info``."""
    kinds = (info >> 8) & 0xFF
    best = 6 - ((info >> 16) & 0xFF) + (7 - kinds if kinds < 7 else 0)
    if regular < best:
        best = regular
    kokushi = 13 - ((info >> 24) & 0xFF) - (1 if (info >> 32) & 0xFF else 0)
    return best if best < kokushi else kokushi


BLOCK_OF_KIND = tuple(k // 9 if k < 27 else 3 for k in range(NUM_KINDS))
"""The block of each kind: 0-2 the suits, 3 the honors."""
BLOCK_WEIGHT = tuple(5 ** (k % 9) if k < 27 else 5 ** (k - 27) for k in range(NUM_KINDS))
"""What one tile of each kind adds to its block's code (see :func:`block_codes`)."""
_SUIT_BY_CODE: dict[int, int] = {}
_HONOR_BY_CODE: dict[int, int] = {}


def block_codes(counts: Sequence[int]) -> list[int]:
    """The four blocks' codes of 34 counts: each block's counts as digits in base 5 (a kind's weight is
    :data:`BLOCK_WEIGHT`), so a hand engine keeps them up to date with one addition per tile drawn or discarded.

    >>> block_codes([1, 2] + [0] * 25 + [0, 0, 0, 0, 0, 0, 3])
    [11, 0, 0, 46875]
    """
    out = [0, 0, 0, 0]
    for k, c in enumerate(counts):
        if c:
            out[BLOCK_OF_KIND[k]] += c * BLOCK_WEIGHT[k]
    return out


def _block_by_code(counts: list[int], block: int, code: int) -> int:
    """A block's packed value, looked up by its counts and remembered by its code."""
    t = _TABLES or _load_tables()
    k = bytes(counts[9 * block : 9 * block + 9] if block < 3 else counts[27:34])
    value = t.block_values.get(k) or t.block_value(k)
    (_SUIT_BY_CODE if block < 3 else _HONOR_BY_CODE)[code] = value
    return value


def shanten_of_codes(counts: list[int], codes: list[int]) -> int:
    """:func:`shanten` of a legal list of 34 counts whose :func:`block_codes` are ``codes`` (kept up to date by
    the caller): four integer look-ups instead of four byte strings; the result is :func:`shanten`'s.

    >>> c = [1, 1, 1, 0, 0, 0, 0, 0, 0] * 3 + [0, 0, 0, 0, 0, 3, 1]
    >>> shanten_of_codes(c, block_codes(c)), shanten(c)
    (0, 0)
    >>> c[33] -= 1; c[32] += 1
    >>> shanten_of_codes(c, block_codes(c)), shanten(c)
    (1, 1)
    """
    t = _TABLES or _load_tables()
    a, b, c, d = codes
    g = _SUIT_BY_CODE.get
    m = g(a) or _block_by_code(counts, 0, a)
    p = g(b) or _block_by_code(counts, 1, b)
    s = g(c) or _block_by_code(counts, 2, c)
    z = _HONOR_BY_CODE.get(d) or _block_by_code(counts, 3, d)
    return _of_block_values(t, m, p, s, z, counts)
