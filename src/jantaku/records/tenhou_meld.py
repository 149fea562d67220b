"""Decode the bit-packed meld codes of Tenhou's mjlog XML (``<N who m>`` and the ``m`` list of ``<AGARI>``).

Each meld is one 16-bit integer. The two lowest bits are always the seat the called tile came from,
relative to the caller (0 = none, a closed kan; 1 the player to the right; 2 across; 3 the player to the
left), which is exactly :attr:`jantaku.Meld.source`. The next bits say the kind of meld and how the rest
is laid out (bit 0 is the lowest):

=======================  =====================================================================================
kind (flag)              layout
=======================  =====================================================================================
chi (bit 2 set)          bits 3-4, 5-6, 7-8: copy number (0-3) of the lowest, middle and highest tile;
                         bit 9 unused; bits 10-15: ``3 * run + called``, where ``run = 7 * suit + (n - 1)``
                         for the run starting at number ``n`` and ``called`` is 0, 1, 2 = lowest, middle,
                         highest tile called
pon (bit 3 set)          bits 5-6: copy number of the fourth copy, the one *not* in the pon;
                         bits 9-15: ``3 * kind + called``, where ``called`` indexes the pon's three copies
                         in 136-id order
added kan (bit 4 set)    as a pon (the pon it came from), and the copy in bits 5-6 is the tile added
nukidora (bit 5 set)     3-player only (a North set aside): bits 8-15 the 136-id; not a meld here
kan (bits 2-5 clear)     bits 8-15: the 136-id of the called tile (open kan) or of one of the four tiles
                         (closed kan, source bits 0); bits 6-7 unused
=======================  =====================================================================================

A 136-id is ``4 * kind + copy``; with red fives the ids 16, 52 and 88 are the red 5m, 5p and 5s.
These examples are real codes from the games in the project's test data (``tenhou-mjlog/``):

>>> d = decode_mjlog_meld(8207)              # chi 3m4m5m, the red 5m called from the left
>>> str(d.meld), d.ids136, d.called_id
('034m+', (9, 12, 16), 16)
>>> d = decode_mjlog_meld(6186)              # pon of 5m, the red one called from the player across
>>> str(d.meld), d.ids136, d.called_id, str(decode_mjlog_meld(6186, red_fives=False).meld)
('055m+2', (16, 18, 19), 16, '555m+2')
>>> d = decode_mjlog_meld(20049)             # added kan of 5p: pon of the red 5p from the right, 5p added
>>> str(d.meld), d.ids136, d.called_id, d.added_id
('0555p^1', (52, 53, 54, 55), 52, 54)
>>> d = decode_mjlog_meld(15105)             # open kan (daiminkan) of 6p called from the right
>>> str(d.meld), d.meld.kind.value, d.called_id
('6666p+1', 'minkan', 59)
>>> d = decode_mjlog_meld(4096)              # closed kan of 5m, red five included
>>> str(d.meld), d.ids136, d.called_id, str(decode_mjlog_meld(4096, red_fives=False).meld)
('5550m*', (16, 17, 18, 19), None, '5555m*')

A nukidora (3-player only; this code is made up, there are none in 4-player logs) is refused:

>>> decode_mjlog_meld(30752)
Traceback (most recent call last):
...
jantaku.records.errors.RecordError: mjlog meld code 30752 is a nukidora (3-player mahjong), not a meld
"""

from __future__ import annotations

from dataclasses import dataclass

from jantaku.errors import HandError
from jantaku.meld import Meld, MeldKind
from jantaku.records.errors import RecordError
from jantaku.tiles import Tile

__all__ = ["MjlogMeld", "decode_mjlog_meld"]

_CHI = 1 << 2
_PON = 1 << 3
_KAKAN = 1 << 4
_NUKI = 1 << 5


@dataclass(frozen=True, slots=True)
class MjlogMeld:
    """A decoded mjlog meld code.

    Attributes:
        meld: the meld as a :class:`jantaku.Meld`.
        ids136: the 136-ids of the meld's tiles, ascending (four for a kan).
        called_id: the 136-id of the tile taken from another player's discard (for an added kan, the tile of
            the original pon); ``None`` for a closed kan.
        added_id: for an added kan, the 136-id of the tile added to the pon; otherwise ``None``.
    """

    meld: Meld
    ids136: tuple[int, ...]
    called_id: int | None
    added_id: int | None = None


def decode_mjlog_meld(m: int, red_fives: bool = True) -> MjlogMeld:
    """Decode the mjlog meld code ``m`` (see the module docs for the bit layout).

    ``red_fives`` says whether the game plays with red fives (GO ``type`` bit 2 clear); without them the
    ids 16, 52 and 88 are plain fives.

    Raises :class:`~jantaku.records.errors.RecordError` for a nukidora (3-player) code and for a code that
    is not a meld: out of the 16-bit range, unused bits set, a chi not from the left, a pon or open kan
    without a source.

    >>> str(decode_mjlog_meld(9746).meld)       # added kan of 7m onto a pon from across
    '7777m^2'
    >>> decode_mjlog_meld(6365)                 # 6367 (a chi) with its source bits changed to 1
    Traceback (most recent call last):
    ...
    jantaku.records.errors.RecordError: mjlog meld code 6365 is not a meld: a chi comes from the left (source 3), not 1
    """
    if isinstance(m, bool) or not isinstance(m, int):
        raise RecordError(f"an mjlog meld code is an integer, got {m!r}")
    if not 0 <= m < 1 << 16:
        raise RecordError(f"mjlog meld code {m} is out of range: codes are 16-bit (0-65535)")
    source = m & 3
    try:
        if m & _CHI:
            return _chi(m, source, red_fives)
        if m & _PON:
            return _pon_or_kakan(m, source, red_fives, kakan=False)
        if m & _KAKAN:
            return _pon_or_kakan(m, source, red_fives, kakan=True)
        if m & _NUKI:
            raise RecordError(f"mjlog meld code {m} is a nukidora (3-player mahjong), not a meld")
        return _kan(m, source, red_fives)
    except HandError as e:  # pragma: no cover - every layout check above should come first
        raise RecordError(f"mjlog meld code {m} is not a meld: {e}") from None


def _bad(m: int, why: str) -> RecordError:
    return RecordError(f"mjlog meld code {m} is not a meld: {why}")


def _chi(m: int, source: int, red_fives: bool) -> MjlogMeld:
    if m & (1 << 9):
        raise _bad(m, "bit 9 of a chi code is unused and must be 0")
    if source != 3:
        raise _bad(m, f"a chi comes from the left (source 3), not {source}")
    packed = m >> 10
    run, called = divmod(packed, 3)
    if run >= 21:
        raise _bad(m, f"chi run number {run} is out of range (0-20: seven runs in each of three suits)")
    suit, start = divmod(run, 7)
    first_kind = 9 * suit + start
    copies = ((m >> 3) & 3, (m >> 5) & 3, (m >> 7) & 3)
    ids = tuple(4 * (first_kind + i) + copies[i] for i in range(3))
    tiles = tuple(Tile.from_id136(i, red_fives) for i in ids)
    meld = Meld(MeldKind.CHI, tuple(sorted(tiles)), tiles[called], 3)
    return MjlogMeld(meld, ids, ids[called])


def _pon_or_kakan(m: int, source: int, red_fives: bool, kakan: bool) -> MjlogMeld:
    name = "an added kan" if kakan else "a pon"
    other_flag = _PON if kakan else _KAKAN
    if m & other_flag or m & (3 << 7):
        raise _bad(m, f"bits {3 if kakan else 4}, 7 and 8 of {name} code are unused and must be 0")
    if source == 0:
        raise _bad(m, f"{name} needs a source seat (1-3) in bits 0-1, this code has 0")
    packed = m >> 9
    kind, called = divmod(packed, 3)
    if kind >= 34:
        raise _bad(m, f"tile kind {kind} is out of range (0-33)")
    spare = (m >> 5) & 3
    pon_ids = tuple(4 * kind + c for c in range(4) if c != spare)
    called_id = pon_ids[called]
    called_tile = Tile.from_id136(called_id, red_fives)
    if not kakan:
        tiles = tuple(sorted(Tile.from_id136(i, red_fives) for i in pon_ids))
        return MjlogMeld(Meld(MeldKind.PON, tiles, called_tile, source), pon_ids, called_id)
    added_id = 4 * kind + spare
    ids = tuple(sorted((*pon_ids, added_id)))
    tiles = tuple(sorted(Tile.from_id136(i, red_fives) for i in ids))
    meld = Meld(MeldKind.KAKAN, tiles, called_tile, source, Tile.from_id136(added_id, red_fives))
    return MjlogMeld(meld, ids, called_id, added_id)


def _kan(m: int, source: int, red_fives: bool) -> MjlogMeld:
    if m & (3 << 6):
        raise _bad(m, "bits 6 and 7 of a kan code are unused and must be 0")
    tile_id = m >> 8
    kind = tile_id >> 2
    if kind >= 34:
        raise _bad(m, f"tile id {tile_id} is out of range (0-135)")
    ids = tuple(4 * kind + c for c in range(4))
    tiles = tuple(sorted(Tile.from_id136(i, red_fives) for i in ids))
    if source == 0:
        return MjlogMeld(Meld(MeldKind.ANKAN, tiles), ids, None)
    meld = Meld(MeldKind.MINKAN, tiles, Tile.from_id136(tile_id, red_fives), source)
    return MjlogMeld(meld, ids, tile_id)
