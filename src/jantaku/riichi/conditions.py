"""The circumstances of a win, as input to the scorer, and the checks that they can have happened.

>>> c = WinConditions(win=Tile("5p"), tsumo=True, riichi=True, dora=(Tile("3m"),))
>>> c.seat_wind, c.dealer, c.is_dealer
(0, 0, True)
>>> WinConditions(win=Tile("5p"), ippatsu=True)
Traceback (most recent call last):
...
jantaku.riichi.conditions.ConditionError: ippatsu needs riichi
"""

from __future__ import annotations

from dataclasses import dataclass

from jantaku.errors import JantakuError
from jantaku.tiles import Tile

__all__ = ["WIND_NAMES", "ConditionError", "ScoringError", "WinConditions", "parse_wind"]

WIND_NAMES = ("E", "S", "W", "N")


class ScoringError(JantakuError):
    """A hand that cannot be scored: not complete, no yaku, or impossible circumstances."""


class ConditionError(ScoringError):
    """Win conditions that contradict each other or the hand (riichi with an open meld, ...)."""


def parse_wind(value: str | int, what: str = "wind") -> int:
    """A wind as 0-3 from ``E S W N`` (or ``1z``-``4z``, or 0-3).

    >>> parse_wind("S"), parse_wind("4z"), parse_wind(2)
    (1, 3, 2)
    """
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    if isinstance(value, str):
        v = value.strip().upper()
        if v in WIND_NAMES:
            return WIND_NAMES.index(v)
        if v in ("1Z", "2Z", "3Z", "4Z"):
            return int(v[0]) - 1
    raise ConditionError(f"{what} must be E, S, W or N, got {value!r}")


@dataclass(frozen=True)
class WinConditions:
    """Everything about a win besides the tiles: how it happened, the winds, dora, sticks and seats.

    Seats are absolute (0-3). The dealer is the seat whose seat wind is East, so it follows from ``winner``
    and ``seat_wind``. For a ron, ``discarder`` is the player who dealt in (default: the winner's left
    neighbour); for a tsumo it must be ``None``. ``pao`` is the seat liable for a yakuman (see the rule
    set's ``pao``). ``deposits`` counts the riichi sticks this winner collects, ``honba`` the counter.
    """

    win: Tile
    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    haitei: bool = False
    houtei: bool = False
    rinshan: bool = False
    chankan: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    dora: tuple[Tile, ...] = ()
    ura: tuple[Tile, ...] = ()
    honba: int = 0
    deposits: int = 0
    winner: int = 0
    discarder: int | None = None
    pao: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.win, Tile):
            raise ConditionError(f"the winning tile must be a Tile, got {self.win!r}")
        for name in ("dora", "ura"):
            value = getattr(self, name)
            if not isinstance(value, tuple):
                object.__setattr__(self, name, tuple(value))
            if not all(isinstance(t, Tile) for t in getattr(self, name)):
                raise ConditionError(f"{name} indicators must be tiles")
        for name in ("seat_wind", "round_wind"):
            object.__setattr__(self, name, parse_wind(getattr(self, name), name))
        for name in ("honba", "deposits"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise ConditionError(f"{name} must be a whole number >= 0, got {v!r}")
        for name in ("winner", "discarder", "pao"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 3):
                raise ConditionError(f"{name} must be a seat 0-3, got {v!r}")
        if self.double_riichi and not self.riichi:
            object.__setattr__(self, "riichi", True)
        if self.tsumo:
            if self.discarder is not None:
                raise ConditionError("a tsumo win has no discarder")
        elif self.discarder is None:
            object.__setattr__(self, "discarder", (self.winner + 3) % 4)
        if self.discarder == self.winner:
            raise ConditionError("the winner cannot deal in to themselves")
        if self.pao == self.winner:
            raise ConditionError("the winner cannot be liable (pao) for their own hand")
        self._check_flags()

    def _check_flags(self) -> None:
        if self.ippatsu and not self.riichi:
            raise ConditionError("ippatsu needs riichi")
        if self.rinshan and not self.tsumo:
            raise ConditionError("rinshan kaihou is a tsumo win on a kan's replacement tile, not a ron")
        if self.chankan and self.tsumo:
            raise ConditionError("chankan is a ron on an added kan's tile, not a tsumo")
        if self.haitei and not self.tsumo:
            raise ConditionError("haitei is a tsumo on the last tile; a ron on the last discard is houtei")
        if self.houtei and self.tsumo:
            raise ConditionError("houtei is a ron on the last discard; a tsumo on the last tile is haitei")
        if self.chankan and (self.houtei or self.rinshan):
            raise ConditionError("chankan cannot also be houtei or rinshan")
        if self.tenhou:
            if not self.tsumo or not self.is_dealer:
                raise ConditionError("tenhou is the dealer's tsumo on the first draw")
            if self.riichi or self.rinshan or self.chankan or self.chiihou:
                raise ConditionError("tenhou happens before any riichi, kan or other first-turn win")
        if self.chiihou:
            if not self.tsumo or self.is_dealer:
                raise ConditionError("chiihou is a non-dealer's tsumo on their first draw")
            if self.riichi or self.rinshan:
                raise ConditionError("chiihou happens before any riichi or kan")
        if self.renhou and (self.tsumo or self.is_dealer or self.riichi):
            raise ConditionError("renhou is a non-dealer's ron before their first draw")
        if self.ura and not self.riichi:
            raise ConditionError("ura dora indicators are only turned for a riichi winner")

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return (self.winner - self.seat_wind) % 4

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == 0
