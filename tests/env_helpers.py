"""Shared by the tests of jantaku.env: scripted policies that play through the environments' action indices."""

from __future__ import annotations

from jantaku.bots import EfficiencyBot
from jantaku.env.encoding import legal_indices


def index_of(legal_map, action):
    """The action index that stands for the engine action ``action`` (the first, for a discard whose code
    index and tsumogiri index both stand for it)."""
    for i, a in sorted(legal_map.items()):
        if a == action:
            return i
    raise AssertionError(f"{action!r} has no index in {legal_map}")


class ScriptedSeats:
    """Per seat an EfficiencyBot, asked about the engine's state and answering with an action index;
    ``prefer`` lists indices taken whenever legal (to force calls the bot avoids, such as open kans)."""

    def __init__(self, seed, prefer=()):
        self.bots = [EfficiencyBot(f"{seed}:{s}") for s in range(4)]
        self.prefer = tuple(prefer)

    def choose(self, game, seat, mask):
        legal = game.legal_actions(seat)
        legal_map = legal_indices(legal)
        assert sorted(legal_map) == [int(i) for i in mask.nonzero()[0]], "the mask is the legal actions' indices"
        for i in self.prefer:
            if i in legal_map:
                return i
        return index_of(legal_map, self.bots[seat].act(game.view(seat), legal))
