"""Melds: chi, pon, open kan, added kan and closed kan, each knowing its called tile and source seat.

jantaku's meld notation is the meld's tiles in mpsz, the called tile written first, then a marker:

===========  ==========================  =====================================================
text         meld                        notes
===========  ==========================  =====================================================
``312m+``    chi of 3m with 1m 2m        a run; always from the left player
``777z+``    pon of Red                  three of a kind
``5550p+2``  open kan (daiminkan)        four of a kind; ``2`` = called from the player across
``5550p^1``  added kan (kakan)           first tile: the ponned one, last tile: the added one
``1111s*``   closed kan (ankan)          no source
===========  ==========================  =====================================================

The digit after ``+`` or ``^`` is the source seat relative to the caller, as Tenhou counts it:
``1`` the player to the right (shimocha), ``2`` across (toimen), ``3`` the player to the left (kamicha, the
default, and the only one allowed for chi).

The tenhou.net/6 call strings are accepted too (``c275226``, ``p252525``, ``4646p46``, ``m39393939``,
``31k313131``, ``424242a42``): see :meth:`Meld.from_tenhou6`.

>>> Meld.parse("777z+")
Meld.parse('777z+')
>>> m = Meld.parse("5550p^1"); m.kind, m.called, m.added, m.source
(<MeldKind.KAKAN: 'kakan'>, Tile('5p'), Tile('0p'), 1)
>>> Meld.from_tenhou6("4646p46"), Meld.parse("p252525").tenhou6()
(Meld.parse('666z+1'), 'p252525')
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass

from jantaku.errors import HandError, TileError, excerpt
from jantaku.tiles import Tile, format_tiles, parse_tiles

__all__ = ["Meld", "MeldKind"]


class MeldKind(enum.Enum):
    """The five kinds of meld."""

    CHI = "chi"
    PON = "pon"
    MINKAN = "minkan"
    """An open kan made by calling a discard (daiminkan)."""
    KAKAN = "kakan"
    """An added kan: a fourth tile added to one's own pon."""
    ANKAN = "ankan"
    """A closed kan of four tiles from one's own hand."""

    @property
    def is_kan(self) -> bool:
        return self in (MeldKind.MINKAN, MeldKind.KAKAN, MeldKind.ANKAN)


_MARKER = {MeldKind.CHI: "+", MeldKind.PON: "+", MeldKind.MINKAN: "+", MeldKind.KAKAN: "^", MeldKind.ANKAN: "*"}
_OWN_NOTATION = re.compile(r"^([0-9]+[mpsz])([+^*])([123]?)$")
_T6_NOTATION = re.compile(r"^((?:\d\d)*)([cpmka])(\d\d)((?:\d\d)*)$")
_T6_LETTER = {"c": MeldKind.CHI, "p": MeldKind.PON, "m": MeldKind.MINKAN, "k": MeldKind.KAKAN, "a": MeldKind.ANKAN}


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared meld.

    Attributes:
        kind: chi, pon, open kan, added kan or closed kan.
        tiles: all its tiles (3 or 4), sorted.
        called: the tile taken from another player's discard (for an added kan, the ponned tile);
            ``None`` for a closed kan.
        source: where ``called`` came from, relative to the meld's owner: 1 right, 2 across, 3 left;
            ``None`` for a closed kan.
        added: for an added kan, the tile added to the pon; otherwise ``None``.
    """

    kind: MeldKind
    tiles: tuple[Tile, ...]
    called: Tile | None = None
    source: int | None = None
    added: Tile | None = None

    def __post_init__(self) -> None:
        _validate(self)

    # -- constructors -------------------------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Meld:
        """Read a meld in jantaku's notation (see the module docs) or as a tenhou.net/6 call string."""
        if not isinstance(text, str):
            raise HandError(f"a meld is given as a string such as '777z+', got {type(text).__name__}")
        s = text.strip()
        if _T6_NOTATION.match(s):
            return cls.from_tenhou6(s)
        m = _OWN_NOTATION.match(s)
        if not m:
            raise HandError(
                f"not a meld: {excerpt(text)} (expected tiles then + (chi/pon/open kan), ^ (added kan) or "
                "* (closed kan), "
                "e.g. '312m+', '777z+', '5555p+2', '5550p^', '1111s*', or a tenhou.net/6 call string)"
            )
        body, marker, src = m.groups()
        try:
            tiles = parse_tiles(body)
        except TileError as e:
            raise HandError(f"in meld {excerpt(text)}: {e}") from None
        source = int(src) if src else None
        if marker == "*":
            if source is not None:
                raise HandError(f"a closed kan has no source seat: {excerpt(text)}")
            return cls(MeldKind.ANKAN, tuple(sorted(tiles)))
        if source is None:
            source = 3
        if marker == "^":
            if len(tiles) != 4:
                raise HandError(f"an added kan has four tiles: {excerpt(text)}")
            return cls(MeldKind.KAKAN, tuple(sorted(tiles)), tiles[0], source, tiles[-1])
        if len(tiles) == 4:
            kind = MeldKind.MINKAN
        elif len(tiles) == 3 and len({t.kind for t in tiles}) == 1:
            kind = MeldKind.PON
        elif len(tiles) == 3:
            kind = MeldKind.CHI
        else:
            raise HandError(f"a called meld has three or four tiles, {excerpt(text)} has {len(tiles)}")
        return cls(kind, tuple(sorted(tiles)), tiles[0], source)

    @classmethod
    def from_tenhou6(cls, text: str) -> Meld:
        """Read a tenhou.net/6 call string.

        The letter's position says who the tile came from: at the start the left player, after the first
        tile the player across, after the second (pon) or third (kan) the player to the right. The code
        right after the letter is the called tile (for ``k``, the added tile; for ``a`` just one of the four).

        >>> Meld.from_tenhou6("c275226")
        Meld.parse('706p+')
        >>> Meld.from_tenhou6("31k313131")
        Meld.parse('1111s^2')
        >>> Meld.from_tenhou6("424242a42")
        Meld.parse('2222z*')
        """
        m = _T6_NOTATION.match(text) if isinstance(text, str) else None
        if not m:
            raise HandError(f"not a tenhou.net/6 call string: {excerpt(text)}")
        before, letter, key, after = m.groups()
        try:
            before_t = [Tile.from_tenhou6(int(before[i : i + 2])) for i in range(0, len(before), 2)]
            key_t = Tile.from_tenhou6(int(key))
            after_t = [Tile.from_tenhou6(int(after[i : i + 2])) for i in range(0, len(after), 2)]
        except TileError as e:
            raise HandError(f"in call string {excerpt(text)}: {e}") from None
        kind = _T6_LETTER[letter]
        tiles = (*before_t, key_t, *after_t)
        expected = 3 if kind in (MeldKind.CHI, MeldKind.PON) else 4
        if len(tiles) != expected:
            raise HandError(f"call string {excerpt(text)} has {len(tiles)} tiles, a {kind.value} has {expected}")
        pos = len(before_t)
        if kind is MeldKind.ANKAN:
            return cls(MeldKind.ANKAN, tuple(sorted(tiles)))
        if kind is MeldKind.KAKAN:
            # the pon string with its 'p' replaced by 'k' + the added tile
            source = {0: 3, 1: 2, 2: 1}.get(pos)
            if source is None or not after_t:
                raise HandError(f"call string {excerpt(text)}: 'k' must stand before the 1st, 2nd or 3rd pon tile")
            return cls(MeldKind.KAKAN, tuple(sorted(tiles)), after_t[0], source, key_t)
        source_by_pos = {0: 3, 1: 2, 2: 1} if kind is not MeldKind.MINKAN else {0: 3, 1: 2, 3: 1}
        source = source_by_pos.get(pos)
        if source is None:
            raise HandError(f"call string {excerpt(text)}: the letter '{letter}' is at no position Tenhou uses")
        return cls(kind, tuple(sorted(tiles)), key_t, source)

    # -- properties ---------------------------------------------------------------------------------------

    @property
    def is_open(self) -> bool:
        """True for every meld but a closed kan."""
        return self.kind is not MeldKind.ANKAN

    @property
    def is_kan(self) -> bool:
        return self.kind.is_kan

    @property
    def kind34(self) -> int:
        """The kind of the meld's lowest tile (the first tile of a chi, the tile of a pon or kan)."""
        return self.tiles[0].kind

    def _text_tiles(self) -> list[Tile]:
        """Tiles in notation order: called first, then the rest sorted, an added tile last."""
        rest = list(self.tiles)
        head: list[Tile] = []
        tail: list[Tile] = []
        if self.called is not None:
            rest.remove(self.called)
            head.append(self.called)
        if self.added is not None:
            rest.remove(self.added)
            tail.append(self.added)
        return head + rest + tail

    def __str__(self) -> str:
        text = format_tiles(self._text_tiles()) + _MARKER[self.kind]
        if self.source is not None and self.source != 3:
            text += str(self.source)
        return text

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    def tenhou6(self) -> str:
        """The tenhou.net/6 call string of this meld (for a closed kan Tenhou writes ``XXXXXXaXX``)."""
        codes = [f"{t.tenhou6:02d}" for t in self._text_tiles()]
        if self.kind is MeldKind.ANKAN:
            # a red five, if any, is written after the letter
            reds = [c for c in codes if c.startswith("5")]
            plain = [c for c in codes if not c.startswith("5")]
            order = plain + reds
            return "".join(order[:3]) + "a" + order[3]
        if self.kind is MeldKind.KAKAN:
            called, *others, added = codes
            pos = {3: 0, 2: 1, 1: 2}[self.source or 3]
            # the called tile sits right after the letter in the pon string
            pon_tiles = [*others[:pos], "k" + added + called, *others[pos:]]
            return "".join(pon_tiles)
        letter = {MeldKind.CHI: "c", MeldKind.PON: "p", MeldKind.MINKAN: "m"}[self.kind]
        called, *others = codes
        pos = {3: 0, 2: 1, 1: len(others)}[self.source or 3]
        return "".join(others[:pos]) + letter + called + "".join(others[pos:])


class _Label:
    """A meld's kind and tiles as text, for error messages, formatted on first use."""

    __slots__ = ("meld",)

    def __init__(self, meld: Meld) -> None:
        self.meld = meld

    def __format__(self, spec: str) -> str:
        return f"{self.meld.kind.value} {format_tiles(self.meld.tiles)}"


def _validate(meld: Meld) -> None:
    tiles = meld.tiles
    kinds = [t.kind for t in tiles]
    kind = meld.kind
    label = _Label(meld)  # formatted only when an error message needs it (melds are built on the hot path)
    if kind is MeldKind.CHI:
        if len(tiles) != 3:
            raise HandError(f"a chi has three tiles: {label}")
        k0 = kinds[0]
        if k0 >= 27 or k0 % 9 > 6 or kinds != [k0, k0 + 1, k0 + 2]:
            raise HandError(f"a chi is three consecutive tiles of one suit: {label}")
        if meld.source != 3:
            raise HandError(f"a chi can only be called from the player to the left (source 3): {label}")
    else:
        expected = 3 if kind is MeldKind.PON else 4
        if len(tiles) != expected or len(set(kinds)) != 1:
            raise HandError(f"a {kind.value} is {expected} tiles of one kind: {label}")
    if sum(1 for t in tiles if t.red) > 1:
        raise HandError(f"there is only one red five of a suit: {label}")
    if kind is MeldKind.ANKAN:
        if meld.called is not None or meld.source is not None or meld.added is not None:
            raise HandError(f"a closed kan has no called tile or source: {label}")
        return
    if meld.source not in (1, 2, 3):
        raise HandError(f"source seat must be 1 (right), 2 (across) or 3 (left), got {excerpt(meld.source)}: {label}")
    if meld.called is None or meld.called not in tiles:
        raise HandError(f"the called tile must be one of the meld's tiles: {label}")
    if kind is MeldKind.KAKAN:
        if meld.added is None or meld.added not in tiles:
            raise HandError(f"an added kan names its added tile: {label}")
        if meld.added is meld.called and sum(1 for t in tiles if t is meld.added) < 2:
            raise HandError(f"the called and added tiles of an added kan are two different copies: {label}")
    elif meld.added is not None:
        raise HandError(f"only an added kan has an added tile: {label}")
