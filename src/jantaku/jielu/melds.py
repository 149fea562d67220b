"""Compact meld codes: the small integers the 洁律 scorer works with.

A chow is its first tile's kind (0-26, the number 1-7), a pung ``PUNG + kind``, a kong ``KONG + kind``
(kinds 0-33 as in :mod:`jantaku.tiles`). A kong counts as a pung everywhere except the kong fans. Codes sort
chows first, then pungs, then kongs, each by kind.

>>> [meld_name(c) for c in (chow(2), pung(31), kong(18), chow(9))]
['345m', '555z', '1111s', '123p']
>>> code_of_meld(Meld.parse("5555p+2")), meld_name(code_of_meld(Meld.parse("312m+")))
(81, '123m')
>>> meld_tiles(pung(4))
(4, 4, 4)
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from jantaku.errors import HandError
from jantaku.meld import Meld, MeldKind
from jantaku.tiles import KIND_NAMES, parse_tiles

__all__ = [
    "KONG",
    "PUNG",
    "chow",
    "code_of_meld",
    "is_chow",
    "is_kong",
    "kong",
    "meld_code",
    "meld_kind",
    "meld_mask",
    "meld_name",
    "meld_tiles",
    "pair_name",
    "pung",
    "sum_masks",
    "tile_mask",
]

PUNG = 34
"""Offset of pung codes."""
KONG = 68
"""Offset of kong codes."""


def chow(kind: int) -> int:
    """The code of the chow starting at ``kind`` (a number tile 1-7)."""
    return kind


def pung(kind: int) -> int:
    """The code of a pung of ``kind``."""
    return PUNG + kind


def kong(kind: int) -> int:
    """The code of a kong of ``kind``."""
    return KONG + kind


def is_chow(code: int) -> bool:
    return code < PUNG


def is_kong(code: int) -> bool:
    return code >= KONG


def meld_kind(code: int) -> int:
    """The kind of a pung or kong, or of a chow's first tile."""
    return code if code < PUNG else code - PUNG if code < KONG else code - KONG


@cache
def meld_tiles(code: int) -> tuple[int, ...]:
    """The tile kinds of a meld (four for a kong)."""
    k = meld_kind(code)
    if code < PUNG:
        return (k, k + 1, k + 2)
    return (k,) * (4 if code >= KONG else 3)


@cache
def meld_name(code: int) -> str:
    """The meld in mpsz, e.g. ``123m``, ``555z``, ``1111s``."""
    k = meld_kind(code)
    n = k % 9 + 1
    suit = KIND_NAMES[k][1]
    if code < PUNG:
        return f"{n}{n + 1}{n + 2}{suit}"
    return f"{n}" * (4 if code >= KONG else 3) + suit


def pair_name(kind: int) -> str:
    """The pair in mpsz, e.g. ``77z``."""
    name = KIND_NAMES[kind]
    return name[0] * 2 + name[1]


def meld_code(text: str) -> int:
    """The code of a meld written as its tiles in mpsz: ``123m`` (chow), ``555p`` (pung), ``1111s`` (kong).

    >>> [meld_name(meld_code(t)) for t in ("789s", "777z", "2222p")]
    ['789s', '777z', '2222p']
    >>> meld_code("124m")
    Traceback (most recent call last):
    ...
    jantaku.errors.HandError: not a meld: '124m' (expected a chow such as 123m, a pung 555p or a kong 1111s)
    """
    tiles = parse_tiles(text) if isinstance(text, str) else []
    kinds = [t.kind for t in tiles]
    if len(kinds) in (3, 4) and len(set(kinds)) == 1:
        return (kong if len(kinds) == 4 else pung)(kinds[0])
    k = kinds[0] if kinds else -1
    if len(kinds) == 3 and 0 <= k < 27 and k % 9 <= 6 and kinds == [k, k + 1, k + 2]:
        return chow(k)
    raise HandError(f"not a meld: {text!r} (expected a chow such as 123m, a pung 555p or a kong 1111s)")


def code_of_meld(meld: Meld) -> int:
    """The code of a declared meld (red fives count as fives)."""
    k = meld.tiles[0].kind
    if meld.kind is MeldKind.CHI:
        return chow(k)
    return kong(k) if meld.kind.is_kan else pung(k)


_WIND_BIT = 12
_DRAGON_BIT = 16


def tile_mask(kind: int) -> int:
    """What one tile kind contributes to a hand's *content mask*.

    Bits 0-2: the suit (m p s); bits 3-11: the number 1-9 of a number tile; bits 12-15: the wind (E S W N);
    bits 16-18: the dragon (white green red).

    >>> from jantaku.tiles import Tile
    >>> bin(tile_mask(Tile("3p").kind)), bin(tile_mask(Tile("6z").kind))
    ('0b100010', '0b100000000000000000')
    """
    if kind < 27:
        return (1 << (kind // 9)) | (1 << (3 + kind % 9))
    if kind < 31:
        return 1 << (_WIND_BIT + kind - 27)
    return 1 << (_DRAGON_BIT + kind - 31)


def meld_mask(code: int) -> int:
    """The content mask of a meld (see :func:`tile_mask`)."""
    m = 0
    for k in meld_tiles(code):
        m |= tile_mask(k)
    return m


def sum_masks(codes: Iterable[int]) -> int:
    """The content mask of some melds together."""
    m = 0
    for c in codes:
        m |= meld_mask(c)
    return m
