"""The agent interface and what a seat may see.

An agent is anything with ``act(view, legal) -> Action``: it gets a :class:`PlayerView` (its own hand and
everything public, never another player's closed tiles) and the list of its legal actions, and returns one
of them. The same interface serves jantaku's bots, external mjai processes and people at the web table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from jantaku.table.playerview import PlayerView

if TYPE_CHECKING:
    from jantaku.table.actions import Action

__all__ = ["Agent", "PlayerView", "hand_key", "unseen_counts"]


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
    >>> view = game.view(0)  # not the dealer: 13 tiles; one dora indicator is showing
    >>> sum(view.counts), sum(unseen_counts(view))
    (13, 122)
    """
    counts = view.counts
    visible = view.visible_counts()
    return [max(0, 4 - counts[k] - visible[k]) for k in range(34)]


class Agent(Protocol):
    """Chooses one of the legal actions."""

    def act(self, view: PlayerView, legal: list[Action]) -> Action: ...
