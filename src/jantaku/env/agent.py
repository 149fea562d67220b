"""The environments' observation for an agent that plays at a table through views: a trained policy as a bot.

A bot is given ``act(view, legal)`` (:class:`~jantaku.table.playerview.PlayerView` and the legal actions) by
every part of jantaku that seats agents: simulations, ``jantaku evaluate``, the web table, ``jantaku bot``. A
policy trained on the environments (or on ``jantaku dataset``) reads the environments' observation instead.
:class:`ViewObserver` turns the one into the other: the seat's observation (the same array
:func:`~jantaku.env.encoding.encode` gives for the engine's state; it reads nothing the seat does not know), its
action mask and the map from action indices back to the legal actions.

Two facts of the game are not in a hand's view: how many hands came before and which seat dealt first. The
observer counts the hands it has been shown (one observer per seat per game, as a bot object is) and takes the
first dealer from the first hand it saw.

>>> from jantaku.rules import load_rules
>>> from jantaku.table import Game
>>> from jantaku.env.encoding import encode
>>> game = Game(load_rules("tenhou"), seed=3)
>>> seat = game.to_act()[0]
>>> obs, mask, legal = ViewObserver()(game.view(seat), game.legal_actions(seat))
>>> bool((obs == encode(game, seat)).all()), int(mask.sum()) == len(legal)
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from jantaku.table.actions import CONTINUE, STOP, Action
from jantaku.table.playerview import PlayerView

from .encoding import GameFacts, encode, legal_indices, mask_of
from .planes import check_names

__all__ = ["ViewObserver"]


class ViewObserver:
    """One seat's observations in one game, from the views it is given (see the module), with the optional planes
    ``extra_planes`` (:mod:`jantaku.env.planes`)."""

    def __init__(self, extra_planes: Sequence[str] = ()) -> None:
        self.extra_planes = check_names(extra_planes)
        self._hands = 0
        self._last: Any = None
        """The seat view of the hand seen last (a new hand gives its seat a new view)."""
        self._first_dealer = 0

    def __call__(self, view: PlayerView, legal: list[Action]) -> tuple[np.ndarray, np.ndarray, dict[int, Action]]:
        """``(observation, mask, {index: action})`` for the decision ``legal`` of the seat whose ``view`` this is."""
        sv = view.seat_view
        if sv is not self._last:
            if self._last is None:
                self._first_dealer = sv.dealer
            self._last = sv
            self._hands += 1
        yame = any(a.kind in (STOP, CONTINUE) for a in legal)
        hands_played = self._hands - (0 if yame else 1)  # the stop-or-go-on choice comes after the hand
        game: Any = GameFacts(view.rules, sv, hands_played, self._first_dealer, view.seat if yame else None)
        mapped = legal_indices(legal)
        obs = encode(game, view.seat, view=view, extra_planes=self.extra_planes)
        return obs, mask_of(mapped), mapped
