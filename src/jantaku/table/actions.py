"""What a player can do at the table: one small value type for every action.

Action kinds follow the mjai vocabulary: ``dahai`` (discard), ``reach`` (riichi: declared *with* its
discard, so the action carries the discarded tile), ``hora`` split into ``tsumo`` and ``ron``, ``chi``,
``pon``, ``daiminkan``, ``ankan``, ``kakan``, ``ryukyoku`` (nine terminals, the player's choice) and
``none`` (pass); jantaku's own: ``yame``/``continue`` (the all-last dealer's stop) and ``tenpai``/``noten``
(declaring at an exhaustive draw).

>>> a = Action.discard(0, Tile("5m"))
>>> a, a.is_pass
(Action('dahai', 0, Tile('5m')), False)
>>> Action.pon(2, Tile("7z"), (Tile("7z"), Tile("7z")))
Action('pon', 2, Tile('7z'), consumed=(Tile('7z'), Tile('7z')))
"""

from __future__ import annotations

from typing import NamedTuple

from jantaku.tiles import Tile

__all__ = [
    "ANKAN",
    "CHI",
    "CONTINUE",
    "DAIMINKAN",
    "DISCARD",
    "KAKAN",
    "KYUUSHU",
    "NOTEN",
    "PASS",
    "PON",
    "RIICHI",
    "RON",
    "STOP",
    "TENPAI",
    "TSUMO",
    "Action",
]

DISCARD = "dahai"
RIICHI = "reach"
TSUMO = "tsumo"
RON = "ron"
CHI = "chi"
PON = "pon"
DAIMINKAN = "daiminkan"
ANKAN = "ankan"
KAKAN = "kakan"
KYUUSHU = "ryukyoku"
PASS = "none"
STOP = "yame"
"""All-last dealer tenpai and first: end the game here (where the rule set lets the dealer choose)."""
CONTINUE = "continue"
"""...or play the next hand."""
TENPAI = "tenpai"
"""At an exhaustive draw: show a tenpai hand (declare tenpai)."""
NOTEN = "noten"
"""...or stay silent and count as noten, where the rule set lets this seat (``tenpai_silence``)."""


class Action(NamedTuple):
    """One decision of one seat.

    ``tile``: the discarded tile (dahai, reach), the winning tile (tsumo, ron), the called tile (chi, pon,
    daiminkan), the added tile (kakan) or one of the four (ankan). ``consumed``: tiles taken from the hand
    to make a meld (for ankan all four, for kakan the pon's three). ``tsumogiri``: the discard is the tile
    just drawn.
    """

    kind: str
    seat: int
    tile: Tile | None = None
    consumed: tuple[Tile, ...] = ()
    tsumogiri: bool = False

    @classmethod
    def discard(cls, seat: int, tile: Tile, tsumogiri: bool = False) -> Action:
        return cls(DISCARD, seat, tile, (), tsumogiri)

    @classmethod
    def riichi(cls, seat: int, tile: Tile, tsumogiri: bool = False) -> Action:
        return cls(RIICHI, seat, tile, (), tsumogiri)

    @classmethod
    def pon(cls, seat: int, tile: Tile, consumed: tuple[Tile, ...]) -> Action:
        return cls(PON, seat, tile, tuple(sorted(consumed)))

    @classmethod
    def chi(cls, seat: int, tile: Tile, consumed: tuple[Tile, ...]) -> Action:
        return cls(CHI, seat, tile, tuple(sorted(consumed)))

    @classmethod
    def passing(cls, seat: int) -> Action:
        return cls(PASS, seat)

    @property
    def is_pass(self) -> bool:
        return self.kind == PASS

    @property
    def is_call(self) -> bool:
        """Chi, pon or an open kan on another player's discard."""
        return self.kind in (CHI, PON, DAIMINKAN)

    def __repr__(self) -> str:
        parts = [repr(self.kind), str(self.seat)]
        if self.tile is not None:
            parts.append(repr(self.tile))
        if self.consumed:
            parts.append(f"consumed={self.consumed!r}")
        if self.tsumogiri:
            parts.append("tsumogiri=True")
        return f"Action({', '.join(parts)})"
