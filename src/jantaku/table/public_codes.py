"""A hand's public tiles as small integers, kept by the hand engine as the hand goes on: each seat's river and
melds in one flat ``array('i')`` that an encoder reads in bulk.

The engine writes the block where a river or a meld changes (a discard, a call, a closed or an added kan, a
robbed added kan going back to its pon under 洁律) and nowhere else;
:meth:`~jantaku.table.kyoku.Kyoku.public_codes_agree` compares it with the seats' rivers and melds. The
environments' batch encoder copies the whole block into its row with one slice at each decision instead of walking
the seats' rivers and melds (the engine stays the one source of truth: the block is the engine's own record, made
from the same action that changes the river).

Layout (``SIZE`` integers):

- ``RIVERS + RIVER_WIDTH * seat``: the seat's river: the count (at most ``RIVER_SLOTS``), then one integer per
  discard, oldest first; a river longer than ``RIVER_SLOTS`` keeps its last ``RIVER_SLOTS`` discards. A discard
  is its kind (0-33) ``| TSUMOGIRI | RIICHI | CALLED | RED``.
- ``MELDS + MELD_WIDTH * seat``: the seat's melds: the count, then per meld (in the order made) its type
  (``CHI``, ``PON``, ``OPEN_KAN``, ``CLOSED_KAN``; an added kan is an open kan), its tile count and four tiles,
  each its kind ``| MELD_RED``.

>>> codes = PublicCodes()
>>> codes.discard(1, discard_code(kind=4, tsumogiri=True, riichi=False, red=True))
>>> codes.mark_called(1)
>>> code = codes.codes[RIVERS + RIVER_WIDTH * 1 + 1]
>>> codes.codes[RIVERS + RIVER_WIDTH * 1], code & KIND, bool(code & TSUMOGIRI), bool(code & CALLED)
(1, 4, True, True)
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING

from jantaku.meld import MeldKind

if TYPE_CHECKING:
    from jantaku.meld import Meld
    from jantaku.table.seat import SeatState
    from jantaku.tiles import Tile

__all__ = [
    "CALLED",
    "CHI",
    "CLOSED_KAN",
    "KIND",
    "MELDS",
    "MELD_RED",
    "MELD_WIDTH",
    "OPEN_KAN",
    "PON",
    "RED",
    "RIICHI",
    "RIVERS",
    "RIVER_SLOTS",
    "RIVER_WIDTH",
    "SIZE",
    "TSUMOGIRI",
    "PublicCodes",
    "discard_code",
]

RIVER_SLOTS = 30
"""Discards kept per seat (a river is rarely longer; a longer one keeps its last 30)."""
RIVER_WIDTH = 1 + RIVER_SLOTS
MELD_WIDTH = 1 + 4 * 6
RIVERS = 0
MELDS = RIVERS + 4 * RIVER_WIDTH
SIZE = MELDS + 4 * MELD_WIDTH

KIND = 63
"""The kind's bits in a discard or a meld tile."""
TSUMOGIRI, RIICHI, CALLED, RED = 1 << 6, 1 << 7, 1 << 8, 1 << 9
"""A discard's flags: the drawn tile went out, it declared riichi, somebody called it, it is a red five."""
MELD_RED = 1 << 6
"""A meld tile's flag: a red five."""
CHI, PON, OPEN_KAN, CLOSED_KAN = 0, 1, 2, 3
"""A meld's type."""

_MELD_TYPE = {
    MeldKind.CHI: CHI,
    MeldKind.PON: PON,
    MeldKind.MINKAN: OPEN_KAN,
    MeldKind.KAKAN: OPEN_KAN,
    MeldKind.ANKAN: CLOSED_KAN,
}


def discard_code(kind: int, tsumogiri: bool, riichi: bool, red: bool) -> int:
    """A discard's integer: its kind and flags (not yet called).

    >>> discard_code(33, False, True, False) == 33 | RIICHI
    True
    """
    return kind | tsumogiri << 6 | riichi << 7 | red << 9


class PublicCodes:
    """Every seat's river and melds as integers (see the module): :attr:`codes`, written by the hand engine."""

    __slots__ = ("codes", "lengths")

    def __init__(self) -> None:
        self.codes = array("i", bytes(4 * SIZE))
        """The block (``SIZE`` integers)."""
        self.lengths = [0, 0, 0, 0]
        """Each seat's whole river length (the block keeps at most ``RIVER_SLOTS`` of it)."""

    def copy(self) -> PublicCodes:
        """An independent copy (for a copied hand)."""
        new = PublicCodes.__new__(PublicCodes)
        new.codes = array("i", self.codes)
        new.lengths = list(self.lengths)
        return new

    def discard(self, seat: int, code: int) -> None:
        """Add a discard (:func:`discard_code`) to the end of ``seat``'s river."""
        codes = self.codes
        base = RIVERS + RIVER_WIDTH * seat
        n = self.lengths[seat]
        self.lengths[seat] = n + 1
        if n < RIVER_SLOTS:
            codes[base + 1 + n] = code
            codes[base] = n + 1
        else:  # the slots move on: the oldest goes
            codes[base + 1 : base + RIVER_SLOTS] = codes[base + 2 : base + 1 + RIVER_SLOTS]
            codes[base + RIVER_SLOTS] = code

    def mark_called(self, seat: int) -> None:
        """``seat``'s last discard was called."""
        base = RIVERS + RIVER_WIDTH * seat
        self.codes[base + self.codes[base]] |= CALLED

    def set_melds(self, seat: int, melds: Sequence[Meld]) -> None:
        """Write ``seat``'s melds (all of them, replacing what was there)."""
        codes = self.codes
        base = MELDS + MELD_WIDTH * seat
        codes[base : base + MELD_WIDTH] = array("i", bytes(4 * MELD_WIDTH))
        codes[base] = len(melds)
        for m, meld in enumerate(melds[:4]):
            at = base + 1 + 6 * m
            codes[at] = _MELD_TYPE[meld.kind]
            codes[at + 1] = len(meld.tiles)
            for j, t in enumerate(meld.tiles[:4]):
                codes[at + 2 + j] = t.kind | (MELD_RED if t.red else 0)

    @classmethod
    def of(cls, seats: Sequence[SeatState], tiles: Sequence[Tile]) -> PublicCodes:
        """The block made afresh from the seats' rivers and melds (``tiles``: the hand's tile of each id)."""
        new = cls()
        for s, st in enumerate(seats):
            for rt in st.river:
                t = tiles[rt.tile]
                new.discard(s, discard_code(rt.tile >> 2, rt.tsumogiri, rt.riichi, t.red))
                if rt.called_by is not None:
                    new.mark_called(s)
            new.set_melds(s, st.melds)
        return new
