"""The view the table hands an agent (jantaku.table.playerview.PlayerView, issue 33): built from the events as its
seat received them, up to date whenever it is read, kept past its hand with the whole hand, and only for a seat."""

from __future__ import annotations

import pytest

from jantaku.bots.registry import make_bot
from jantaku.records.mjai import player_view_event
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.kyoku import IllegalActionError


def _play_until(game, agents, stop):
    while not game.over and not stop(game):
        seat = game.to_act()[0]
        game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))


@pytest.mark.parametrize("preset", ["mleague", "jielu"])
def test_a_view_kept_past_its_hand_holds_the_whole_hand_as_its_seat_saw_it(preset):
    game = Game(load_rules(preset), 3)
    agents = [make_bot("efficiency", f"3:{s}") for s in range(4)]
    first = game.kyoku
    kept = [game.view(s) for s in range(4)]  # asked for once, at the deal, and never again
    _play_until(game, agents, lambda g: g.kyoku is not first)
    assert not game.over and first.result is not None
    for s, view in enumerate(kept):
        assert list(view.events) == [player_view_event(e, s) for e in first.events]
        assert view.events[-1]["type"] == "end_kyoku"
        assert view.scores == list(first.result.scores)


def test_a_view_asked_for_mid_hand_knows_the_answers_given_before():
    """A seat that answered a discard before its view was first asked for is not offered the discard again while
    the others still decide; and a pass of a winning tile makes it furiten in the view as in the engine."""
    rules = load_rules("tenhou")
    checked = set()
    for seed in range(60):
        game = Game(rules, seed)
        agents = [make_bot("random", f"{seed}:{s}") for s in range(4)]
        while not game.over and len(checked) < 2:
            k = game.kyoku
            waiting = game.to_act()
            seat = waiting[0]
            legal = game.legal_actions(seat)
            if k._feed is None and k.phase == "responses" and len(waiting) > 1:
                passed = next(a for a in legal if a.kind == "none")
                game.apply(passed)  # answered before any view of the hand was asked for
                view = game.view(seat)
                assert game.kyoku is k and view.legal_actions() == k.legal_actions(seat) == []
                checked.add("answered")
                continue
            if k._feed is None and any(a.kind == "ron" for a in legal):
                game.apply(next(a for a in legal if a.kind == "none"))
                if game.kyoku is k and k.result is None and k.seats[seat].furiten_temp:
                    assert game.view(seat).furiten  # the first view of the hand, after the pass
                    checked.add("furiten")
                continue
            game.apply(agents[seat].act(None, legal))  # random bots never read a view
        if len(checked) == 2:
            return
    pytest.fail(f"only {checked} came up in 60 random games")


@pytest.mark.parametrize("seat", [-1, 4, True, 1.0, "0", None])
def test_a_view_is_for_a_seat(seat):
    game = Game(load_rules("tenhou"), 1)
    game.view(0)
    with pytest.raises(IllegalActionError, match="seat must be 0-3"):
        game.view(seat)


def test_a_view_that_is_never_read_is_never_built():
    """The table publishes its events for the views it handed out; a view's own state is built only when read."""
    game = Game(load_rules("tenhou"), 2)
    agents = [make_bot("random", f"2:{s}") for s in range(4)]
    hand = game.kyoku
    _play_until(game, agents, lambda g: len(g.kyoku.events) > 40)
    view = hand.view(1)
    assert view._view is None
    assert len(view.hand) in (13, 14) and view._view is not None
