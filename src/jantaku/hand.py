"""Hands: the closed tiles plus the declared melds, validated.

Text form: the closed tiles in mpsz (spaces allowed), then each meld as its own space-separated group in
jantaku's meld notation or as a tenhou.net/6 call string (see :mod:`jantaku.meld`).

>>> h = Hand.parse("123m456p11z 777z+ 1111s*")
>>> h
Hand.parse('123m456p11z 777z+ 1111s*')
>>> len(h.closed), len(h.melds), h.tile_count, h.is_closed
(8, 2, 14, False)
>>> Hand.parse("123m456p11z p474747 1111s*").melds[0]
Meld.parse('777z+')

A hand always has 13 or 14 tiles counting each meld as three, never a fifth copy of a kind, and at most
one red five of each suit:

>>> Hand.parse("11112m")
Traceback (most recent call last):
...
jantaku.errors.HandError: a hand has 13 or 14 tiles (each meld counting as 3); '11112m' has 5
>>> Hand.parse("11111m 234p 567p 789s")
Traceback (most recent call last):
...
jantaku.errors.HandError: five copies of 1m in '11111m234567p789s': there are only four
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from jantaku.errors import HandError, TileError, excerpt
from jantaku.meld import _OWN_NOTATION, _T6_NOTATION, Meld, MeldKind
from jantaku.tiles import KIND_NAMES, KIND_OF_CODE, NUM_KINDS, Tile, counts34, format_tiles, parse_tiles

__all__ = ["Hand", "PackedHand", "check_tile_supply"]


def check_tile_supply(tiles: Iterable[Tile], where: str = "") -> None:
    """Raise :class:`HandError` if ``tiles`` hold a fifth copy of a kind or a second red five of a suit.

    >>> check_tile_supply(parse_tiles("0m0m"), "the hand")
    Traceback (most recent call last):
    ...
    jantaku.errors.HandError: two red 5m in the hand: there is one red five per suit
    """
    counts = [0] * NUM_KINDS
    reds = [0, 0, 0]
    for t in tiles:
        counts[t.kind] += 1
        if t.red:
            reds[t.kind // 9] += 1
    suffix = f" in {where}" if where else ""
    for kind, n in enumerate(counts):
        if n > 4:
            word = {5: "five", 6: "six", 7: "seven", 8: "eight"}.get(n, str(n))
            raise HandError(f"{word} copies of {KIND_NAMES[kind]}{suffix}: there are only four")
    for suit, n in enumerate(reds):
        if n > 1:
            raise HandError(f"{'two' if n == 2 else n} red 5{'mps'[suit]}{suffix}: there is one red five per suit")


PackedHand = tuple[int, int, int, int, int, int, int]
""":attr:`Hand.packed`: closed counts, red fives, meld code, then the block keys of m, p, s and honors."""
MELD_CODE_BITS = 9
"""Bits per meld in :attr:`Hand.packed`'s meld code."""
_MELD_BASE = {
    k.value: 1 + 2 * 34 * i
    for i, k in enumerate((MeldKind.CHI, MeldKind.PON, MeldKind.MINKAN, MeldKind.KAKAN, MeldKind.ANKAN))
}
"""A meld's code without its kind and red five, by the meld kind's value."""
_RED_SHIFT = 3 * NUM_KINDS
_COUNTS_MASK = (1 << _RED_SHIFT) - 1
_TILE_WEIGHT = tuple(
    (1 << 3 * KIND_OF_CODE[code]) | ((1 << _RED_SHIFT + code - NUM_KINDS) if code >= NUM_KINDS else 0)
    for code in range(NUM_KINDS + 3)
)
"""What a tile adds to the closed count integer; a red five also sets its suit's bit above the counts."""
_SUIT_MASK = (1 << 27) - 1


class _Packed:
    """Hand's base: one slot for its packed counts, outside the dataclass fields (so equality, hashing, repr and
    pickling see only ``closed`` and ``melds``)."""

    __slots__ = ("_packed",)
    _packed: PackedHand | None


def pack_hand(hand: Hand) -> PackedHand:
    """Compute :attr:`Hand.packed` and keep it in the hand (for callers that found ``hand._packed`` None)."""
    weight = _TILE_WEIGHT
    closed = 0
    for t in hand.closed:
        closed += weight[t._code]
    reds = closed >> _RED_SHIFT
    if reds:
        closed &= _COUNTS_MASK
    melds = 0
    if hand.melds:
        codes = []
        for m in hand.melds:
            tiles = m.tiles  # sorted, a red five just after the plain fives
            code = _MELD_BASE[m.kind._value_] + 2 * KIND_OF_CODE[tiles[0]._code]
            if tiles[0]._code >= NUM_KINDS or tiles[1]._code >= NUM_KINDS or tiles[-1]._code >= NUM_KINDS:
                code += 1
            codes.append(code)
        if len(codes) > 1:
            codes.sort()
        for code in codes:
            melds = melds << MELD_CODE_BITS | code
    mask = _SUIT_MASK
    value = (closed, reds, melds, closed & mask, closed >> 27 & mask, closed >> 54 & mask, closed >> 81)
    object.__setattr__(hand, "_packed", value)
    return value


@dataclass(frozen=True, slots=True)
class Hand(_Packed):
    """A player's hand: closed tiles (in the given order) and declared melds.

    Build with :meth:`parse` or directly; the constructor validates. The closed tiles of a 14-tile hand
    include the drawn or winning tile.
    """

    closed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.closed, tuple | list) or not all(isinstance(t, Tile) for t in self.closed):
            raise HandError("Hand(closed, melds) takes Tile objects; use Hand.parse() for text")
        if not isinstance(self.melds, tuple | list) or not all(isinstance(m, Meld) for m in self.melds):
            raise HandError("Hand(closed, melds) takes Meld objects; use Hand.parse() for text")
        if not isinstance(self.closed, tuple):
            object.__setattr__(self, "closed", tuple(self.closed))
        if not isinstance(self.melds, tuple):
            object.__setattr__(self, "melds", tuple(self.melds))
        if len(self.melds) > 4:
            raise HandError(f"a hand has at most four melds, {excerpt(str(self))} has {len(self.melds)}")
        total = len(self.closed) + 3 * len(self.melds)
        if total not in (13, 14):
            raise HandError(f"a hand has 13 or 14 tiles (each meld counting as 3); {excerpt(str(self))} has {total}")
        check_tile_supply(self.all_tiles(), excerpt(str(self)))
        object.__setattr__(self, "_packed", None)  # computed on first use (:attr:`packed`)

    def __setstate__(self, state: Sequence[object]) -> None:
        # as the dataclass's own (pickle and copy give the fields' values in order), and the packed counts unset
        for name, value in zip(("closed", "melds"), state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_packed", None)

    @classmethod
    def parse(cls, text: str) -> Hand:
        """Read a hand: closed tiles in mpsz, then melds (see the module docs)."""
        closed, melds = _split_hand_text(text)
        return cls(tuple(closed), tuple(melds))

    @property
    def tile_count(self) -> int:
        """Closed tiles plus three per meld: 13 between turns, 14 after a draw or a win."""
        return len(self.closed) + 3 * len(self.melds)

    @property
    def is_closed(self) -> bool:
        """True when the hand has no open meld (closed kans keep a hand closed)."""
        return not any(m.is_open for m in self.melds)

    @property
    def packed(self) -> PackedHand:
        """The hand as integers, computed on first use and kept (for scorers that read a hand many times):

        - the closed tiles' counts, 3 bits per kind (kind ``k`` at bit ``3 * k``);
        - the red fives among them, bit ``suit`` (0 m, 1 p, 2 s);
        - the melds, sorted, :data:`MELD_CODE_BITS` bits each: ``1 + 2 * (34 * m + kind) + red``, with ``m`` 0-4
          for chi, pon, open kan, added kan, closed kan, ``kind`` that of its lowest tile, ``red`` 1 if it holds
          a red five; 0 without melds;
        - the counts of each suit's nine kinds and of the seven honors (bits 0-26, 27-53, 54-80, 81-101 of the
          first).

        >>> closed, reds, melds, m, p, s, z = Hand.parse("1m 0p 123456789s 777z+").packed
        >>> closed & 7, closed >> 3 * 13 & 7, reds, melds == 1 + 2 * (34 + 33), m, p == 1 << 3 * 4, s == closed >> 54
        (1, 1, 2, True, 1, True, True)
        """
        value = self._packed
        return pack_hand(self) if value is None else value

    def counts34(self) -> list[int]:
        """Counts of the closed tiles by kind."""
        return counts34(self.closed)

    def all_tiles(self) -> list[Tile]:
        """Closed tiles and every meld's tiles."""
        out = list(self.closed)
        for m in self.melds:
            out.extend(m.tiles)
        return out

    def __str__(self) -> str:
        parts = [format_tiles(self.closed)] if self.closed else []
        parts.extend(str(m) for m in self.melds)
        return " ".join(parts)

    def __repr__(self) -> str:
        return f"Hand.parse({str(self)!r})"


def _split_hand_text(text: str) -> tuple[list[Tile], list[Meld]]:
    if not isinstance(text, str):
        raise HandError(f"a hand is given as a string such as '123m456p11z 777z+', got {type(text).__name__}")
    closed: list[Tile] = []
    melds: list[Meld] = []
    for token in text.split():
        if _OWN_NOTATION.match(token) or _T6_NOTATION.match(token):
            melds.append(Meld.parse(token))
        else:
            if melds:
                raise HandError(
                    f"closed tiles come before the melds in {excerpt(text)}: found {excerpt(token)} after a meld"
                )
            try:
                closed.extend(parse_tiles(token))
            except TileError as e:
                if token == text.strip():
                    raise
                raise TileError(f"{e}, in the hand {excerpt(text)}") from None
    return closed, melds


def parse_hand_or_tiles(text: str) -> tuple[list[Tile], Sequence[Meld]]:
    """Closed tiles and melds from text, without the 13/14 check (for shape functions on partial hands)."""
    closed, melds = _split_hand_text(text)
    check_tile_supply([*closed, *(t for m in melds for t in m.tiles)], excerpt(text))
    return closed, melds
