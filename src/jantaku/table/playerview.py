"""What an agent at the table is given: its seat's :class:`~jantaku.table.seatview.SeatView`, fed by the table.

The table (:meth:`Kyoku.view <jantaku.table.kyoku.Kyoku.view>`, :meth:`Game.view <jantaku.table.game.Game.view>`)
hands each agent a :class:`PlayerView` of its seat. The view holds no engine: the table publishes every event of
the hand as all seats see it (:data:`PUBLIC`: each draw and each dealt hand ``"?"``) and, apart, each seat's own
draws and dealt tiles and its own answers (a pass is no event); the view reads those lists and nothing else. It
brings its :class:`~jantaku.table.seatview.SeatView` up to date only when it is read, so an agent that never reads
its view (a random bot) costs the table nothing but the publishing.

What a bot reads is the seat view's: the seat's own hand, every seat's melds, rivers and riichi, the dora
indicators, scores, honba, riichi sticks, the tiles left, the hand's events as the seat saw them, the seat's legal
actions, waits and furiten, and what an offered win would be scored on.

>>> from jantaku.rules import load_rules
>>> from jantaku.table import Game
>>> game = Game(load_rules("tenhou"), seed=1)
>>> view = game.view(0)  # not the dealer: 13 tiles, one dora indicator showing
>>> len(view.hand), len(view.dora_indicators), view.tiles_left
(13, 1, 69)
>>> [e["pai"] for e in view.events if e["type"] == "tsumo"]  # the dealer's first draw, as seat 0 sees it
['?']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from jantaku.meld import Meld
from jantaku.tiles import Tile

from .seatview import HIDDEN, SeatView, as_seen_by

if TYPE_CHECKING:
    from jantaku.hand import Hand
    from jantaku.riichi.conditions import WinConditions
    from jantaku.rules import Ruleset

    from .actions import Action

__all__ = ["PUBLIC", "PlayerView", "TableFeed"]

PUBLIC = -1
"""No seat: :func:`~jantaku.table.seatview.as_seen_by` of it gives an event as every seat sees it (each draw and
each dealt hand hidden)."""


_SEEN_AS_IS = frozenset({"dahai", "reach", "reach_accepted", "chi", "pon", "daiminkan", "ankan", "kakan", "dora"})
"""Events every seat sees whole (the common ones, published without a copy)."""


class TableFeed:
    """The table's side of its seats' views for one hand: the events as every seat sees them, each seat's own
    events (its dealt hand and its draws, by their place in the hand's event list) and each seat's answers to
    discards and kans (after how many of the hand's events each was given). :class:`~jantaku.table.kyoku.Kyoku`
    publishes its events here when a view is asked for and when the hand is over."""

    __slots__ = ("answers", "own", "public", "views")

    def __init__(self, answers: list[list[tuple[int, Action]]]) -> None:
        self.public: list[dict[str, Any]] = []
        self.own: list[dict[int, dict[str, Any]]] = [{}, {}, {}, {}]
        self.answers = answers
        """Per seat, the table's own list of the seat's answers (the table appends to it)."""
        self.views: list[PlayerView | None] = [None, None, None, None]

    def publish(self, events: list[dict[str, Any]]) -> None:
        """The hand's events not published yet (``events`` is the hand's whole list)."""
        public, own = self.public, self.own
        for i in range(len(public), len(events)):
            e = events[i]
            kind = e["type"]
            if kind == "tsumo":
                actor = e["actor"]
                own[actor][i] = e
                public.append({"type": kind, "actor": actor, "pai": HIDDEN} if len(e) == 3 else {**e, "pai": HIDDEN})
            elif kind in _SEEN_AS_IS:
                public.append(e)
            else:
                seen = as_seen_by(e, PUBLIC)
                if kind == "start_kyoku":
                    for s in range(4):
                        own[s][i] = as_seen_by(e, s)
                public.append(seen)


class PlayerView:
    """One seat's view of a hand at the table: a :class:`~jantaku.table.seatview.SeatView` fed the events as the
    seat receives them, brought up to date when it is read. Made by the table (:meth:`Game.view
    <jantaku.table.game.Game.view>`); everything reachable from it is what the seat may know."""

    __slots__ = ("_answered", "_answers", "_fed", "_own", "_public", "_rules", "_view", "seat")

    def __init__(
        self,
        seat: int,
        rules: Ruleset,
        public: list[dict[str, Any]],
        own: dict[int, dict[str, Any]],
        answers: list[tuple[int, Action]],
    ) -> None:
        self.seat = seat
        self._rules = rules
        self._view: SeatView | None = None  # made when first read
        self._public = public
        self._own = own
        self._answers = answers
        self._fed = 0
        self._answered = 0

    @property
    def seat_view(self) -> SeatView:
        """The seat's :class:`~jantaku.table.seatview.SeatView`, up to date."""
        public, view = self._public, self._view
        if view is None:
            view = self._view = SeatView(self.seat, self._rules)
        elif self._fed == len(public) and self._answered == len(self._answers):
            return view
        own, answers = self._own, self._answers
        j = self._answered
        for i in range(self._fed, len(public)):
            while j < len(answers) and answers[j][0] <= i:
                view.answered(answers[j][1])
                j += 1
            view.apply(own.get(i) or public[i])
        while j < len(answers) and answers[j][0] <= len(public):  # given after the last published event
            view.answered(answers[j][1])
            j += 1
        self._fed, self._answered = len(public), j
        view._settle_window()  # read while a discard or a kan may be answered: the seat's options, as offered
        return view

    # -- the seat's own tiles ------------------------------------------------------------------------------

    @property
    def hand(self) -> list[Tile]:
        """The seat's closed tiles (the drawn tile last)."""
        return self.seat_view.hand

    @property
    def counts(self) -> list[int]:
        """The seat's closed tiles as 34 counts (a new list)."""
        return self.seat_view.counts

    @property
    def drawn_tile(self) -> Tile | None:
        """The tile the seat just drew, while it holds it."""
        return self.seat_view.drawn_tile

    @property
    def waits(self) -> list[int]:
        """The kinds the seat's closed hand waits on (between its turns)."""
        return self.seat_view.waits

    @property
    def furiten(self) -> bool:
        """Whether the seat is furiten (see :attr:`SeatView.furiten <jantaku.table.seatview.SeatView.furiten>`)."""
        return self.seat_view.furiten

    # -- the table ---------------------------------------------------------------------------------------

    def melds(self, seat: int | None = None) -> list[Meld]:
        """A seat's melds (the view's own by default), in the order they were made."""
        return self.seat_view.melds(seat)

    def river(self, seat: int) -> list[Tile]:
        """A seat's discards in order, the called ones included."""
        return self.seat_view.river(seat)

    def riichi(self, seat: int) -> bool:
        """Whether a seat's riichi stands (accepted)."""
        return self.seat_view.riichi(seat)

    def closed_count(self, seat: int) -> int:
        """How many closed tiles a seat holds."""
        return self.seat_view.closed_count(seat)

    @property
    def dora_indicators(self) -> list[Tile]:
        """The dora indicators showing."""
        return self.seat_view.dora_indicators

    def visible_counts(self) -> list[int]:
        """Per kind, the tiles the seat sees outside its closed hand: rivers, melds and dora indicators."""
        return self.seat_view.visible_counts()

    @property
    def scores(self) -> list[int]:
        """Every seat's points (a new list)."""
        return list(self.seat_view.scores)

    @property
    def tiles_left(self) -> int:
        """Tiles left to draw from the live wall."""
        return self.seat_view.tiles_left

    @property
    def seat_wind(self) -> int:
        """The seat's wind: 0 East (the dealer) .. 3 North."""
        return self.seat_view.seat_wind

    @property
    def round_wind(self) -> int:
        """The round's wind: 0 East .. 3 North."""
        return self.seat_view.round_wind

    @property
    def hand_number(self) -> int:
        """The hand's number within its round (1-4: East 1 .. East 4)."""
        return self.seat_view.hand_number

    @property
    def dealer(self) -> int:
        """The dealer's seat."""
        return self.seat_view.dealer

    @property
    def honba(self) -> int:
        """The honba counter of this hand."""
        return self.seat_view.honba

    @property
    def deposits(self) -> int:
        """The riichi sticks on the table: those carried into the hand and each riichi accepted in it."""
        return self.seat_view.deposits

    @property
    def rules(self) -> Ruleset:
        """The game's rule set."""
        return self._rules

    @property
    def events(self) -> Sequence[dict[str, Any]]:
        """This hand's events so far as the seat saw them (another's draws and dealt tiles ``"?"``), from
        ``start_kyoku``: a live sequence that grows as the hand goes on (kept past the hand's end, it holds the
        whole hand)."""
        return _LiveEvents(self)

    # -- deciding ----------------------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions the seat may take now, as the table offers them."""
        return self.seat_view.legal_actions()

    def offered_win(self, action: Action) -> tuple[Hand, WinConditions] | None:
        """The hand and conditions an offered win (``tsumo`` or ``ron``) would be scored on, as the table scores
        it; ``None`` when no winning tile is on the table."""
        return self.seat_view.offered_win(action)

    def facts(self) -> dict[str, Any]:
        """The view's state as plain data (:meth:`SeatView.facts <jantaku.table.seatview.SeatView.facts>`)."""
        return self.seat_view.facts()


class _LiveEvents(Sequence[dict[str, Any]]):
    """A view's events, read up to date each time."""

    __slots__ = ("_of",)

    def __init__(self, of: PlayerView) -> None:
        self._of = of

    def __len__(self) -> int:
        return len(self._of.seat_view.events)

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        return self._of.seat_view.events[index]

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return iter(list(self._of.seat_view.events))
