"""The agent interface and what a seat may see.

An agent is anything with ``act(view, legal) -> Action``: it gets a :class:`PlayerView` (its own hand and
everything public, never another player's closed tiles) and the list of its legal actions, and returns one
of them. The same interface serves jantaku's bots, external mjai processes and people at the web table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from jantaku.meld import Meld
from jantaku.table.seatview import SeenEvents, visible_counts
from jantaku.tiles import Tile

if TYPE_CHECKING:
    from jantaku.hand import Hand
    from jantaku.riichi.conditions import WinConditions
    from jantaku.table.actions import Action
    from jantaku.table.kyoku import Kyoku

__all__ = ["Agent", "PlayerView", "hand_key", "unseen_counts"]


class PlayerView:
    """Read-only view of a hand from one seat (no copies are made; it reads the live state)."""

    __slots__ = ("_k", "seat")

    def __init__(self, kyoku: Kyoku, seat: int) -> None:
        self._k = kyoku
        self.seat = seat

    @property
    def hand(self) -> list[Tile]:
        """Own closed tiles."""
        k = self._k
        return [k.tile(i) for i in k.seats[self.seat].tiles]

    @property
    def counts(self) -> list[int]:
        """Own closed tiles as 34 counts (a copy)."""
        return list(self._k.seats[self.seat].counts)

    def melds(self, seat: int | None = None) -> list[Meld]:
        return list(self._k.seats[self.seat if seat is None else seat].melds)

    def river(self, seat: int) -> list[Tile]:
        k = self._k
        return [k.tile(r.tile) for r in k.seats[seat].river]

    def riichi(self, seat: int) -> bool:
        return self._k.seats[seat].riichi

    @property
    def dora_indicators(self) -> list[Tile]:
        k = self._k
        return [k.tile(i) for i in k.dora_indicators()]

    @property
    def scores(self) -> list[int]:
        return list(self._k.scores)

    @property
    def tiles_left(self) -> int:
        return self._k.tiles_left

    @property
    def seat_wind(self) -> int:
        return self._k.seat_wind(self.seat)

    @property
    def round_wind(self) -> int:
        return self._k.round_wind

    @property
    def hand_number(self) -> int:
        """The hand's number within its round (1-4: East 1 .. East 4)."""
        return self._k.kyoku_number

    @property
    def honba(self) -> int:
        """The honba counter of this hand."""
        return self._k.honba

    @property
    def deposits(self) -> int:
        """The riichi sticks on the table: those carried into the hand and each riichi accepted in it."""
        return self._k.deposits

    @property
    def events(self) -> SeenEvents:
        """This hand's mjai events so far as this seat sees them (another player's draw and dealt tiles ``"?"``),
        from ``start_kyoku``; a live sequence that grows as the hand goes on."""
        return SeenEvents(self._k.events, self.seat)

    def offered_win(self, action: Action) -> tuple[Hand, WinConditions] | None:
        """The hand and conditions the offered win ``action`` (``tsumo`` or ``ron``) would be scored on, as the
        table scores it; ``None`` when no winning tile is on the table."""
        return self._k._offered_win(self.seat, action)

    @property
    def rules(self):  # noqa: ANN201 - a Ruleset; annotated loosely to avoid an import cycle at runtime
        return self._k.rules

    def visible_counts(self) -> list[int]:
        """Counts of every tile this seat can see outside its closed hand: rivers, melds, dora indicators."""
        return visible_counts(self._k.seats, self._k.dora_indicators())


def hand_key(view: PlayerView) -> tuple[int, int, int]:
    """Which hand of its game ``view`` shows: its round wind, number and honba (no two hands of a game share
    them), for a bot that keeps something per hand and must notice the next one."""
    return (view.round_wind, view.hand_number, view.honba)


def unseen_counts(view: PlayerView) -> list[int]:
    """Per kind, the copies the seat cannot see: 4 minus its own hand minus everything visible (rivers, melds,
    dora indicators). ``view`` is a :class:`PlayerView` or anything with the same ``counts`` and
    ``visible_counts()``.

    >>> from jantaku.table import Game
    >>> from jantaku.rules import load_rules
    >>> game = Game(load_rules("tenhou"), seed=1)
    >>> view = PlayerView(game.kyoku, 0)  # not the dealer: 13 tiles; one dora indicator is showing
    >>> sum(view.counts), sum(unseen_counts(view))
    (13, 122)
    """
    counts = view.counts
    visible = view.visible_counts()
    return [max(0, 4 - counts[k] - visible[k]) for k in range(34)]


class Agent(Protocol):
    """Chooses one of the legal actions."""

    def act(self, view: PlayerView, legal: list[Action]) -> Action: ...
