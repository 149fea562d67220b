"""The strong bot reads from the game whether the others fold against a riichi, and prices its riichi by it."""

import dataclasses

import pytest

from jantaku.bots import make_bot
from jantaku.bots.folding import FoldWatch
from jantaku.bots.strong import RIICHI_WIN, StrongBot
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.actions import RIICHI


def _watched_game(bots, seed, watch_seat=0, east_only=False):
    """Play a game; a FoldWatch watches every view of ``watch_seat``, and is returned."""
    rules = load_rules("tenhou")
    if east_only:
        rules = dataclasses.replace(rules, rounds=1)
    game = Game(rules, seed, names=list(bots))
    agents = [make_bot(b, f"{seed}:{s}") for s, b in enumerate(bots)]
    watch = FoldWatch()
    while not game.over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        view = game.view(seat)
        if seat == watch_seat:
            watch.observe(view)
        game.apply(agents[seat].act(view, legal))
    return watch


def _pooled(bots, seeds, east_only=False):
    """One FoldWatch over several games (seat 0's view of each): a single game may hold only a few discards facing a
    riichi, and its share is far from the players' (one east-only game of strong bots read 0.0, another 1.0)."""
    pooled = FoldWatch()
    for seed in seeds:
        watch = _watched_game(bots, seed, east_only=east_only)
        pooled._safe += watch._safe
        pooled._total += watch._total
    return pooled


def test_players_who_never_fold_are_told_from_players_who_do():
    never = _watched_game(["efficiency"] * 4, 3)
    folding = _pooled(["strong"] * 4, range(4), east_only=True)
    assert never.share() < 0.35, never.share()  # the efficiency bot discards genbutsu about 34% of the time
    assert folding._total >= 100, folding._total
    assert folding.share() > 0.6, folding.share()


def test_a_watch_counts_each_discard_once_however_often_it_is_asked():
    rules = load_rules("tenhou")
    game = Game(rules, 5, names=["efficiency"] * 4)
    agents = [make_bot("efficiency", s) for s in range(4)]
    once, often = FoldWatch(), FoldWatch()
    kyoku = game.kyoku
    while not game.over and game.kyoku is kyoku:
        seat = game.to_act()[0]
        view = game.view(0)
        often.observe(view)
        often.observe(view)
        game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))
    once.observe(kyoku.view(0))
    assert (once._safe, once._total) == (often._safe, often._total)


def _riichi_position(seed_range=range(40)):
    """A position of an efficiency game where seat 0 may declare riichi."""
    rules = load_rules("tenhou")
    for seed in seed_range:
        game = Game(rules, seed, names=["efficiency"] * 4)
        agents = [make_bot("efficiency", s) for s in range(4)]
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if seat == 0 and any(a.kind == RIICHI for a in legal):
                return game, legal
            game.apply(agents[seat].act(game.view(seat), legal))
    pytest.fail("no riichi position in the seeds tried")


def test_against_players_who_never_fold_a_riichi_wins_as_often_as_silence():
    game, legal = _riichi_position()
    view = game.view(0)
    fresh = StrongBot(1)
    read = StrongBot(1)
    read._folds = _watched_game(["efficiency"] * 4, 3)  # it has watched a game of players who never fold
    assert read._folds.share() < 0.35

    def riichi_chances(bot):
        return {d.action: d.win_chance for d in bot.rank(view, legal) if d.action.kind == RIICHI}

    a, b = riichi_chances(fresh), riichi_chances(read)
    assert a and a.keys() == b.keys() and any(a.values())
    # the fresh bot takes the others to fold as strong players do (a riichi keeps RIICHI_WIN of the chance); the
    # bot that has seen them never fold keeps nearly all of it
    factor = [1 - (1 - RIICHI_WIN) * bot._folds.share() for bot in (fresh, read)]
    assert factor[0] < 0.95 and factor[1] > 0.97
    for action, chance in a.items():
        assert b[action] == pytest.approx(chance / factor[0] * factor[1], rel=1e-9)
        assert b[action] > chance or chance == 0
