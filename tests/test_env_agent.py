"""A policy seated as a bot sees the environments' observation: ViewObserver against the engine's encoding."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium")

from jantaku.bots import EfficiencyBot
from jantaku.env.agent import ViewObserver
from jantaku.env.encoding import encode, legal_indices
from jantaku.rules import load_rules
from jantaku.table import Game


@pytest.mark.parametrize(("preset", "seed"), [("tenhou", 5), ("tenhou", 102), ("mleague", 2), ("jielu", 1), ("mu", 8)])
def test_the_observation_from_views_is_the_engines_at_every_decision_of_a_whole_game(preset, seed):
    """Four efficiency bots play a whole game; before each decision the acting seat's observer (one per seat for
    the whole game, as a bot object is) gives the same observation, mask and actions as the engine's encoding.
    Tenhou's seed 102 ends with the all-last dealer's choice to stop or play on (after the hand, counted)."""
    game = Game(load_rules(preset), seed)
    observers = [ViewObserver() for _ in range(4)]
    bots = [EfficiencyBot(f"{seed}:{s}") for s in range(4)]
    decisions = stops = 0
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        obs, mask, mapped = observers[seat](view, legal)
        np.testing.assert_array_equal(obs, encode(game, seat), err_msg=f"decision {decisions}, seat {seat}")
        assert mapped == legal_indices(legal)
        assert sorted(np.flatnonzero(mask).tolist()) == sorted(mapped)
        stops += game.yame_choice is not None
        game.apply(bots[seat].act(view, legal))
        decisions += 1
    assert decisions > (40 if preset == "jielu" else 400)
    assert game.hands_played >= (1 if preset == "jielu" else 4)
    assert stops == (1 if seed == 102 else 0)
