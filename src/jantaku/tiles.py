"""Tiles: one value type for the 34 kinds and the red fives, and every notation in use.

A :class:`Tile` is a kind (0-33: ``1-9m`` are 0-8, ``1-9p`` 9-17, ``1-9s`` 18-26, then East South West North
White Green Red as 27-33) and a red flag (only fives can be red). There are exactly 37 distinct tiles; each
is interned, so ``is`` and ``==`` agree and tiles are cheap dictionary keys.

Notations (each has a parser and a formatter, and they round-trip):

==============  ==========================  ==============================================
notation        example                     read / written by
==============  ==========================  ==============================================
mpsz            ``0m`` ``7z`` ``123m456p``  :meth:`Tile.__new__`, :func:`parse_tiles`,
                                            :attr:`Tile.mpsz`, :func:`format_tiles`
mjai            ``5mr`` ``E`` ``C``         :meth:`Tile.from_mjai`, :attr:`Tile.mjai`
tenhou.net/6    ``15`` ``51`` ``47``        :meth:`Tile.from_tenhou6`, :attr:`Tile.tenhou6`
136-ids         ``16`` (red 5m) ``135``     :meth:`Tile.from_id136`, :func:`tiles_from_ids136`,
                                            :func:`ids136_from_tiles`
==============  ==========================  ==============================================

>>> t = Tile("0m")
>>> t, t.kind, t.red, t.mjai, t.tenhou6
(Tile('0m'), 4, True, '5mr', 51)
>>> parse_tiles("123m 0p 77z")
[Tile('1m'), Tile('2m'), Tile('3m'), Tile('0p'), Tile('7z'), Tile('7z')]
>>> format_tiles(parse_tiles("3m1m2m 7z7z"))
'312m77z'
>>> Tile.from_id136(52), Tile.from_id136(53), Tile.from_id136(52, red_fives=False)
(Tile('0p'), Tile('5p'), Tile('5p'))
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import ClassVar

from jantaku.errors import TileError, excerpt

__all__ = [
    "DRAGONS",
    "HONORS",
    "KIND_NAMES",
    "KIND_OF_CODE",
    "NUM_KINDS",
    "RED_IDS136",
    "TERMINALS_AND_HONORS",
    "WINDS",
    "Tile",
    "counts34",
    "dora_from_indicator",
    "format_tiles",
    "ids136_from_tiles",
    "kind_name",
    "parse_tiles",
    "tiles_from_ids136",
]

NUM_KINDS = 34
"""Number of tile kinds."""

WINDS = (27, 28, 29, 30)
"""Kinds of the four winds, East South West North."""

DRAGONS = (31, 32, 33)
"""Kinds of the three dragons, White Green Red."""

HONORS = WINDS + DRAGONS
"""Kinds of the seven honors."""

TERMINALS_AND_HONORS = (0, 8, 9, 17, 18, 26, *HONORS)
"""The 13 terminal and honor kinds (yaochuhai)."""

RED_IDS136 = (16, 52, 88)
"""136-ids of the red fives (5m, 5p, 5s) when a game plays with red fives (Tenhou's convention)."""

_SUITS = "mpsz"
_MJAI_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_RED_KINDS = (4, 13, 22)


def kind_name(kind: int) -> str:
    """The mpsz name of a tile kind, e.g. ``kind_name(27) == '1z'``.

    >>> kind_name(0), kind_name(13), kind_name(33)
    ('1m', '5p', '7z')
    """
    if not 0 <= kind < NUM_KINDS:
        raise TileError(f"tile kind must be 0-33, got {kind}")
    return f"{kind % 9 + 1}{_SUITS[kind // 9]}"


KIND_NAMES = tuple(kind_name(k) for k in range(NUM_KINDS))
"""mpsz names of the 34 kinds, indexed by kind."""


class Tile:
    """One tile: a kind (0-33) and whether it is a red five.

    Construct from a single mpsz tile (``Tile("5m")``, ``Tile("0p")`` for a red five, ``Tile("7z")``) or
    with :meth:`from_kind`, :meth:`from_mjai`, :meth:`from_tenhou6`, :meth:`from_id136`. Instances are
    interned and immutable. Tiles sort by kind, a red five just after the plain five.

    >>> Tile("5m") < Tile("0m") < Tile("6m")
    True
    >>> Tile.from_kind(31), Tile.from_mjai("P"), Tile.from_tenhou6(45)
    (Tile('5z'), Tile('5z'), Tile('5z'))
    >>> eval(repr(Tile("0s"))) is Tile("0s")
    True
    """

    __slots__ = ("_code", "_key")
    _code: int
    _key: int
    _by_code: ClassVar[list[Tile]] = []
    _by_name: ClassVar[dict[str, Tile]] = {}

    def __new__(cls, name: str) -> Tile:
        try:
            return cls._by_name[name]
        except (KeyError, TypeError):
            pass
        if not isinstance(name, str):
            raise TileError(f"a tile is made from an mpsz string such as '5m', got {excerpt(name)}")
        raise TileError(f"not a tile: {excerpt(name)} (expected a digit and a suit letter, such as '5m', '0p' or '7z')")

    @classmethod
    def _make(cls, code: int) -> Tile:
        obj = object.__new__(cls)
        obj._code = code
        kind = code if code < NUM_KINDS else _RED_KINDS[code - NUM_KINDS]
        obj._key = kind * 2 + (1 if code >= NUM_KINDS else 0)
        return obj

    # -- constructors -------------------------------------------------------------------------------------

    @classmethod
    def from_kind(cls, kind: int, red: bool = False) -> Tile:
        """The tile of ``kind`` (0-33); ``red=True`` gives the red five of that suit."""
        if not isinstance(kind, int) or not 0 <= kind < NUM_KINDS:
            raise TileError(f"tile kind must be an integer 0-33, got {excerpt(kind)}")
        if red:
            if kind not in _RED_KINDS:
                raise TileError(f"only a five of a suit can be red, not {kind_name(kind)}")
            return cls._by_code[NUM_KINDS + _RED_KINDS.index(kind)]
        return cls._by_code[kind]

    @classmethod
    def from_mjai(cls, name: str) -> Tile:
        """Read an mjai tile: ``1m``..``9s``, ``E S W N P F C``, red fives ``5mr 5pr 5sr``.

        >>> Tile.from_mjai("5pr"), Tile.from_mjai("E")
        (Tile('0p'), Tile('1z'))
        """
        tile = _MJAI_TO_TILE.get(name) if isinstance(name, str) else None
        if tile is None:
            raise TileError(f"not an mjai tile: {excerpt(name)} (expected 1m..9s, E S W N P F C, or 5mr/5pr/5sr)")
        return tile

    @classmethod
    def from_tenhou6(cls, code: int) -> Tile:
        """Read a tenhou.net/6 tile code: 11-19 m, 21-29 p, 31-39 s, 41-47 honors, 51-53 red fives.

        >>> Tile.from_tenhou6(11), Tile.from_tenhou6(53), Tile.from_tenhou6(47)
        (Tile('1m'), Tile('0s'), Tile('7z'))
        """
        tile = _T6_TO_TILE.get(code) if isinstance(code, int) and not isinstance(code, bool) else None
        if tile is None:
            raise TileError(
                f"not a tenhou.net/6 tile code: {excerpt(code)} (expected 11-19, 21-29, 31-39, 41-47, 51-53)"
            )
        return tile

    @classmethod
    def from_id136(cls, tile_id: int, red_fives: bool = True) -> Tile:
        """The tile with Tenhou's 136-id (kind*4 + copy); ids 16, 52, 88 are red when ``red_fives``."""
        if not isinstance(tile_id, int) or not 0 <= tile_id < 136:
            raise TileError(f"a 136-id must be an integer 0-135, got {excerpt(tile_id)}")
        if red_fives and tile_id in RED_IDS136:
            return cls._by_code[NUM_KINDS + RED_IDS136.index(tile_id)]
        return cls._by_code[tile_id >> 2]

    # -- properties ---------------------------------------------------------------------------------------

    @property
    def code(self) -> int:
        """A dense integer 0-36: the kind for plain tiles, 34/35/36 for red 5m/5p/5s."""
        return self._code

    @property
    def kind(self) -> int:
        """The kind 0-33 (a red five has the kind of its plain five)."""
        c = self._code
        return c if c < NUM_KINDS else _RED_KINDS[c - NUM_KINDS]

    @property
    def red(self) -> bool:
        """True for a red five."""
        return self._code >= NUM_KINDS

    @property
    def suit(self) -> str:
        """``'m'``, ``'p'``, ``'s'`` or ``'z'`` (honors)."""
        return _SUITS[self.kind // 9]

    @property
    def number(self) -> int:
        """1-9 for suited tiles, 1-7 for honors (mpsz numbering)."""
        return self.kind % 9 + 1

    @property
    def is_honor(self) -> bool:
        """Winds and dragons."""
        return self.kind >= 27

    @property
    def is_terminal(self) -> bool:
        """Ones and nines of the suits."""
        k = self.kind
        return k < 27 and k % 9 in (0, 8)

    @property
    def is_yaochu(self) -> bool:
        """Terminals and honors."""
        k = self.kind
        return k >= 27 or k % 9 in (0, 8)

    @property
    def mpsz(self) -> str:
        """The tile in mpsz notation, ``0`` for a red five."""
        return _MPSZ_NAMES[self._code]

    @property
    def mjai(self) -> str:
        """The tile in mjai notation."""
        return _MJAI_NAMES[self._code]

    @property
    def tenhou6(self) -> int:
        """The tile's tenhou.net/6 code."""
        return _T6_CODES[self._code]

    def ids136(self) -> tuple[int, ...]:
        """The 136-ids this tile may have, with red fives: a red five has one id, a plain five three."""
        if self.red:
            return (RED_IDS136[self._code - NUM_KINDS],)
        base = self._code * 4
        ids = (base, base + 1, base + 2, base + 3)
        if base in RED_IDS136:
            return ids[1:]
        return ids

    # -- value semantics ----------------------------------------------------------------------------------

    def __repr__(self) -> str:
        return f"Tile({self.mpsz!r})"

    def __str__(self) -> str:
        return self.mpsz

    @property
    def sort_key(self) -> int:
        """``kind * 2 + red``: the order tiles sort in."""
        return self._key

    def __lt__(self, other: Tile) -> bool:
        try:
            return self._key < other._key
        except AttributeError:
            return NotImplemented

    def __le__(self, other: Tile) -> bool:
        try:
            return self._key <= other._key
        except AttributeError:
            return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        try:
            return self._key > other._key
        except AttributeError:
            return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        try:
            return self._key >= other._key
        except AttributeError:
            return NotImplemented

    def __hash__(self) -> int:
        return self._code

    def __reduce__(self) -> tuple[type[Tile], tuple[str]]:
        return (Tile, (self.mpsz,))

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self


_MPSZ_NAMES = [*KIND_NAMES, "0m", "0p", "0s"]
_MJAI_NAMES = [
    *(f"{k % 9 + 1}{_SUITS[k // 9]}" for k in range(27)),
    *_MJAI_HONORS,
    "5mr",
    "5pr",
    "5sr",
]
_T6_CODES = [*(10 * (k // 9 + 1) + k % 9 + 1 for k in range(NUM_KINDS)), 51, 52, 53]

for _code in range(NUM_KINDS + 3):
    _t = Tile._make(_code)
    Tile._by_code.append(_t)
    Tile._by_name[_MPSZ_NAMES[_code]] = _t
_MJAI_TO_TILE = {name: Tile._by_code[c] for c, name in enumerate(_MJAI_NAMES)}
KIND_OF_CODE = (*range(NUM_KINDS), *_RED_KINDS)
"""Kind of each tile code 0-36 (``Tile.code``): fast kind look-up for hot loops."""
_T6_TO_TILE = {code: Tile._by_code[c] for c, code in enumerate(_T6_CODES)}
del _code, _t

_MPSZ_RUN = re.compile(r"([0-9]+)([mpsz])")


def parse_tiles(text: str) -> list[Tile]:
    """Read tiles in mpsz notation: digits followed by their suit letter, spaces allowed anywhere.

    ``0`` is a red five (``0m 0p 0s``); honors are ``1z``-``7z`` (East South West North White Green Red).
    The order of the text is kept.

    >>> parse_tiles("19m 19p19s1234567z")[:3]
    [Tile('1m'), Tile('9m'), Tile('1p')]
    >>> parse_tiles("8z")
    Traceback (most recent call last):
    ...
    jantaku.errors.TileError: '8z' is not a tile: honors are 1z-7z (in '8z')
    """
    if not isinstance(text, str):
        raise TileError(f"tiles are given as an mpsz string, got {type(text).__name__}")
    tiles: list[Tile] = []
    pending: list[tuple[int, str]] = []  # (position, digit) waiting for a suit letter
    by_name = Tile._by_name
    for pos, ch in enumerate(text):
        if ch.isspace():
            continue
        if "0" <= ch <= "9":
            pending.append((pos, ch))
        elif ch in "mpsz":
            if not pending:
                raise TileError(f"suit letter '{ch}' at position {pos} has no digits before it in {excerpt(text)}")
            for _, digit in pending:
                name = digit + ch
                tile = by_name.get(name)
                if tile is None:
                    if ch == "z":
                        raise TileError(f"'{name}' is not a tile: honors are 1z-7z (in {excerpt(text)})")
                    raise TileError(f"'{name}' is not a tile (in {excerpt(text)})")
                tiles.append(tile)
            pending.clear()
        else:
            raise TileError(f"unknown character {excerpt(ch)} at position {pos} in {excerpt(text)}")
    if pending:
        pos, digit = pending[0]
        raise TileError(f"digit '{digit}' at position {pos} has no suit letter after it in {excerpt(text)}")
    return tiles


def format_tiles(tiles: Iterable[Tile], sort: bool = False) -> str:
    """Write tiles in compact mpsz notation, grouping runs of one suit (``sort=True`` sorts first).

    >>> format_tiles(parse_tiles("1m2m3m4p0p"))
    '123m40p'
    >>> format_tiles(parse_tiles("7z1m3s1m"), sort=True)
    '11m3s7z'
    """
    seq = sorted(tiles) if sort else list(tiles)
    out: list[str] = []
    suit = ""
    for t in seq:
        name = t.mpsz
        if name[1] != suit and suit:
            out.append(suit)
        suit = name[1]
        out.append(name[0])
    if suit:
        out.append(suit)
    return "".join(out)


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """The number of tiles of each of the 34 kinds (red fives counted as fives).

    >>> counts34(parse_tiles("110m"))[:5]
    [2, 0, 0, 0, 1]
    """
    counts = [0] * NUM_KINDS
    for t in tiles:
        counts[t.kind] += 1
    return counts


def tiles_from_ids136(ids: Iterable[int], red_fives: bool = True) -> list[Tile]:
    """Tiles of Tenhou 136-ids (see :meth:`Tile.from_id136`)."""
    return [Tile.from_id136(i, red_fives) for i in ids]


def ids136_from_tiles(tiles: Sequence[Tile]) -> list[int]:
    """Give each tile a distinct 136-id: red fives get 16/52/88, plain tiles the lowest free copy.

    Raises :class:`TileError` when a kind would need a fifth copy or a red five appears twice.

    >>> ids136_from_tiles(parse_tiles("0m55m1z"))
    [16, 17, 18, 108]
    """
    used: set[int] = set()
    out: list[int] = []
    for t in tiles:
        for i in t.ids136():
            if i not in used:
                used.add(i)
                out.append(i)
                break
        else:
            if t.red:
                raise TileError(f"there is only one red five {t.mpsz}")
            raise TileError(f"more copies of {t.mpsz} than the set has")
    return out


def dora_from_indicator(indicator: int) -> int:
    """The dora kind an indicator kind points to (9 -> 1 in a suit, N -> E, Red -> White).

    >>> [kind_name(dora_from_indicator(Tile(x).kind)) for x in ("9m", "4z", "7z", "5p")]
    ['1m', '1z', '5z', '6p']
    """
    if indicator < 27:
        return indicator - 8 if indicator % 9 == 8 else indicator + 1
    if indicator < 31:
        return 27 if indicator == 30 else indicator + 1
    return 31 if indicator == 33 else indicator + 1
