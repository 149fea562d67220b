"""How the others at the table answer a riichi: do they fold?

A player who folds against a riichi discards its genbutsu (tiles the riichi player discarded, or that were passed
since the riichi); a player who does not fold discards them no more often than they happen to be in the hand. A
riichi is worth declaring partly by how many of the others fold: against players who never fold it wins as often
as the same wait silent. :class:`FoldWatch` follows the public discards of a game, hand after hand, and tells how
much the others fold, from 0 (never) to 1 (as strong players do).

Measured on jantaku's own bots (``tenhou``, discards made while another seat is in riichi, the seat itself not in
riichi): the ``efficiency`` bot, which never folds, discards genbutsu 34% of the time (1,719 discards in 20
hanchan); the ``strong`` bot 67% (657 discards in 6 hanchan). The upper anchor below is the strong bot's share;
the lower one sits above the efficiency bot's, so that a game's few dozen discards of players who never fold
read as that (on the tuning runs against three efficiency bots, 0.45 with a prior of 4 discards did as well as
pricing every riichi as if nobody folded, and better than 0.34 with a prior of 10).

>>> from jantaku.table import Game
>>> from jantaku.rules import load_rules
>>> from jantaku.bots import PlayerView
>>> watch = FoldWatch()
>>> watch.observe(Game(load_rules("tenhou"), seed=1).view(0))
>>> watch.share()   # nothing seen yet: the others are taken to fold as strong players do
1.0
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jantaku.tiles import Tile

from .base import hand_key

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .base import PlayerView

__all__ = ["FOLDER_SHARE", "NON_FOLDER_SHARE", "PRIOR_DISCARDS", "FoldWatch"]

NON_FOLDER_SHARE = 0.45
"""At most this share of genbutsu among a player's discards facing a riichi reads as never folding (the
``efficiency`` bot's is 0.34)."""
FOLDER_SHARE = 0.67
"""Share of genbutsu among the discards of a player who folds as a strong player does (the ``strong`` bot's)."""
PRIOR_DISCARDS = 4.0
"""Until the game shows otherwise, the others are taken to fold: this many discards at ``FOLDER_SHARE``."""


class FoldWatch:
    """Tallies, over a game, the others' discards made while someone else was in riichi, and how many were
    genbutsu to every riichi they faced. Call :meth:`observe` with each view the bot is asked with; a new hand
    is noticed by its round wind, number and honba changing."""

    def __init__(self) -> None:
        self._safe = 0
        self._total = 0
        self._hand: tuple[int, int, int] | None = None
        """The hand being watched: its round wind, number and honba (which no other hand of a game shares)."""
        self._events: Sequence[dict[str, Any]] | None = None
        """Its events as the view gave them (a live sequence: the end of a hand is read once the next starts)."""
        self._next = 0
        self._genbutsu: dict[int, set[int]] = {}
        """Per seat in riichi, the kinds it cannot win on: its own discards and those passed since."""
        self._own: dict[int, set[int]] = {}
        """Per seat, the kinds it has discarded this hand (set for all four seats when a hand starts)."""

    def observe(self, view: PlayerView) -> None:
        """Read the public discards and riichi declarations of the view's hand that are new since the last call."""
        events = view.events
        hand = hand_key(view)
        if hand != self._hand or len(events) < self._next:
            if self._events is not None:  # the discards of the last hand made after this seat's last decision
                self._read(self._events, view.seat)
            self._hand, self._next = hand, 0
            self._genbutsu, self._own = {}, {s: set() for s in range(4)}
        self._events = events
        self._read(events, view.seat)

    def _read(self, events: Sequence[dict[str, Any]], me: int) -> None:
        for e in events[self._next :]:
            t = e["type"]
            if t == "reach":
                actor = e["actor"]
                self._genbutsu[actor] = set(self._own[actor])
            elif t == "dahai":
                actor = e["actor"]
                kind = Tile.from_mjai(e["pai"]).kind
                facing = [r for r in self._genbutsu if r != actor]
                if actor != me and facing and actor not in self._genbutsu:
                    self._total += 1
                    self._safe += all(kind in self._genbutsu[r] for r in facing)
                self._own[actor].add(kind)
                for passed in self._genbutsu.values():
                    passed.add(kind)
        self._next = len(events)

    def share(self) -> float:
        """How much the others fold against a riichi: 0 never (genbutsu no more often than ``NON_FOLDER_SHARE``),
        1 as a strong player (``FOLDER_SHARE`` or more)."""
        seen = (self._safe + FOLDER_SHARE * PRIOR_DISCARDS) / (self._total + PRIOR_DISCARDS)
        return min(1.0, max(0.0, (seen - NON_FOLDER_SHARE) / (FOLDER_SHARE - NON_FOLDER_SHARE)))
