"""The 洁律 win rule a league may change: ``jielu_max_wildcards`` (a cap on the wildcards a win may use) and
``jielu_min_score`` (the least score S a win needs).

The document sets neither: any number of unfixed tiles may be wildcards (004 和牌时可将任意张未固定的手牌视为万能牌)
and a hand worth 1 point may win (004 1分起和); the defaults keep that. They are rule-maker's options, carried by the
rule set's fan table (:func:`jantaku.jielu.fantable.table_for_rules`), so the legal-win check (compiled and not),
the scoring of a win, the non-winners' completions, the bots and the score requests all obey them.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from jantaku import Hand
from jantaku.bots import make_bot
from jantaku.jielu import can_win, score_hand
from jantaku.jielu.fantable import default_fan_table, table_for_rules, with_win_rule
from jantaku.jielu.jsonio import score_request
from jantaku.jielu.search import best_completion
from jantaku.jielu.wincheck import win_check
from jantaku.riichi.conditions import WinConditions
from jantaku.rules import RulesError, load_rules
from jantaku.table import Game
from jantaku.table.actions import RON, TSUMO
from jantaku.tiles import Tile, counts34

NEEDS_THREE = "123m456m789m12345z"
"""Three melds and five different honors: a pair and a meld need three wildcards (worth 19 before halving: S 2)."""
ONE_POINT = "789m123678p88p234s"
"""A complete hand whose best reading is worth 1 point as a ron (平和 alone), 2 by tsumo (自摸和)."""


def jielu(**changes: int) -> object:
    return load_rules("jielu").replace(**changes)


def test_the_defaults_are_the_documents_rule() -> None:
    rules = load_rules("jielu")
    assert rules.jielu_max_wildcards == 14 and rules.jielu_min_score == 1
    assert load_rules("jielu_original").jielu_min_score == 1
    assert table_for_rules(rules) is default_fan_table()  # every existing result stays the same


def test_a_hand_needing_three_wildcards_wins_only_without_a_cap_of_two() -> None:
    hand = Hand.parse(NEEDS_THREE)
    free = table_for_rules(jielu())
    assert can_win(hand, table=free)
    result = score_hand(hand, table=free)
    assert result.is_win and len(result.wildcards) == 3 and result.score == 2
    capped = table_for_rules(jielu(jielu_max_wildcards=2))
    assert capped.max_wildcards == 2
    assert not can_win(hand, table=capped)
    assert not score_hand(hand, table=capped).is_win and score_hand(hand, table=capped).score == 0
    assert can_win(hand, table=table_for_rules(jielu(jielu_max_wildcards=3)))
    # the optimiser agrees with the compiled check under the cap
    assert best_completion(counts34(hand.closed), (), table=capped) is None
    # naming more wildcards than the cap allows is a clear error
    with pytest.raises(Exception, match="3 wildcards named; these rules allow at most 2"):
        score_hand(hand, wildcards=["1z", "2z", "3z"], table=capped)


def test_a_one_point_hand_does_not_win_under_a_minimum_of_two() -> None:
    hand = Hand.parse(ONE_POINT)
    plain = score_hand(hand)
    assert plain.score == 1 and [f.name for f in plain.fans] == ["平和"]
    two = table_for_rules(jielu(jielu_min_score=2))
    ron = WinConditions(win=Tile("8p"))
    assert can_win(hand, ron) and not can_win(hand, ron, table=two)
    result = score_hand(hand, ron, table=two)
    assert result.score == 1 and not result.is_win and result.min_score == 2
    assert "below the 2 a win needs" in result.explain() and "worth 1 point, below the 2" in result.shortfall
    # by tsumo 自摸和 adds a point: 2, a legal win under the minimum of 2
    tsumo = WinConditions(win=Tile("8p"), tsumo=True)
    assert can_win(hand, tsumo, table=two) and score_hand(hand, tsumo, table=two).is_win


def test_the_compiled_check_answers_as_the_optimiser_under_win_rules() -> None:
    """Random hands near complete (one to four tiles replaced) and random ones: the compiled check under each win
    rule says yes exactly when the optimiser (its cap, the least score as ``stop_at`` and ``floor``) finds a
    completion; and the best score with a non-winner's extra wildcard matches the optimiser too."""
    from test_jielu_wincheck import _case

    rules = [(2, 1), (1, 1), (0, 1), (14, 2), (14, 4), (2, 2)]
    answers: dict[tuple[int, int], list[bool]] = {r: [] for r in rules}
    for seed in range(48):
        closed, fixed = _case(seed, seed % 3, (-1, 0, 1, 2, 3, 4)[seed % 6])
        for cap, least in rules:
            table = table_for_rules(jielu(jielu_max_wildcards=cap, jielu_min_score=least))
            found = best_completion(closed, fixed, table=table, stop_at=least, floor=least - 1)
            answer = win_check(table)(closed, fixed)
            assert answer == (found is not None), (cap, least, closed, fixed)
            answers[cap, least].append(answer)
            if seed % 4 == 0 and sum(closed) > 2:  # a non-winner: one tile fewer and an extra wildcard
                short = list(closed)
                short[max(range(34), key=lambda k: short[k])] -= 1
                best = best_completion(short, fixed, extra=1, table=table)
                assert win_check(table).best_score(short, fixed, extra=1) == (best.score if best else 0)
                if best is not None:
                    assert best.wildcards <= max(cap, 1)
    for rule, seen in answers.items():
        assert any(seen) and not all(seen), rule  # both answers occur under every rule


def test_a_non_winners_extra_wildcard_counts_against_the_cap_but_stays() -> None:
    hand = Hand.parse("123m456m789m1234z")  # 13 tiles: three melds and four honors
    free = score_hand(hand, extra_wildcards=1)
    assert free.score >= 1 and len(free.wildcards) == 3  # the extra one and two of its own tiles
    two = score_hand(hand, extra_wildcards=1, table=table_for_rules(jielu(jielu_max_wildcards=2)))
    assert two.score == 0  # the extra wildcard and one more cannot complete it
    near = Hand.parse("123m456m789m111z2z")  # one tile short of a pair: the extra wildcard completes it
    for cap in (0, 1):
        table = table_for_rules(jielu(jielu_max_wildcards=cap, jielu_min_score=32))
        done = score_hand(near, extra_wildcards=1, table=table)
        assert len(done.wildcards) == 1 and done.wildcards[0].tile is None  # the gift, even under a cap of 0
        assert done.is_win and done.min_score == 1 and done.score < 32  # no minimum: this is no win


def _capped_games(rules: object, games: int, bots: tuple[str, ...]) -> tuple[int, int]:
    """Play ``games`` games; every win offered must be one the scorer accepts under the rules (at least the least
    score, within the cap), every win and completion scored within them. Returns (wins offered, wins)."""
    table = table_for_rules(rules)
    offered = wins = 0
    for seed in range(games):
        game = Game(rules, seed=seed)
        agents = [make_bot(bots[s], f"{seed}:{s}") for s in range(4)]
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            for action in legal:
                if action.kind in (TSUMO, RON):
                    hand, conditions = view.offered_win(action)
                    result = score_hand(hand, conditions, table=table)
                    assert result.is_win, (str(hand), conditions, result.shortfall)
                    assert len(result.wildcards) <= (table.max_wildcards if table.max_wildcards is not None else 14)
                    offered += 1
            game.apply(agents[seat].act(view, legal))
        for res in game.results:
            for w in res.wins:
                wins += 1
                assert w.score.score >= table.min_score
                if table.max_wildcards is not None:
                    assert len(w.score.wildcards) <= table.max_wildcards
            for c in res.completions.values():
                if table.max_wildcards is not None:
                    assert len(c.wildcards) <= max(1, table.max_wildcards)
    return offered, wins


@pytest.mark.parametrize(
    "changes",
    [
        {"jielu_max_wildcards": 1},
        {"jielu_max_wildcards": 2, "jielu_min_score": 2},
        {"jielu_min_score": 4, "jielu_mode": "original"},
    ],
    ids=["cap 1", "cap 2 min 2", "min 4 original"],
)
def test_the_table_never_offers_a_win_the_scorer_rejects(changes: dict[str, object]) -> None:
    rules = load_rules("jielu").replace(**changes)
    offered, wins = _capped_games(rules, 2, ("strong", "efficiency", "random", "efficiency"))
    assert offered >= wins >= 1


def test_the_strong_bot_prices_a_win_with_the_rule_sets_table() -> None:
    """Under the original mode the strong bot takes a win only above 4 points: it must score the offered win as the
    table pays it (the rule set's cap on wildcards included), not with the shipped table."""
    from jantaku.bots import strong

    class View:
        rules = jielu(jielu_max_wildcards=0)

        def offered_win(self, action: object) -> tuple[Hand, WinConditions]:
            return Hand.parse(NEEDS_THREE), WinConditions(win=Tile("5z"), tsumo=True)

    assert strong._jielu_win_score(View(), None) == 0  # type: ignore[arg-type]
    View.rules = jielu()
    assert strong._jielu_win_score(View(), None) == 2  # type: ignore[arg-type]


# -- rule files ------------------------------------------------------------------------------------------------


def test_rule_files_take_the_parameters(tmp_path: Path) -> None:
    path = tmp_path / "capped.toml"
    path.write_text('base = "jielu"\njielu_max_wildcards = 2\njielu_min_score = 3\n', encoding="utf-8")
    rules = load_rules(path)
    assert rules.jielu_max_wildcards == 2 and rules.jielu_min_score == 3
    table = table_for_rules(rules)
    assert (table.max_wildcards, table.min_score) == (2, 3) and table is table_for_rules(load_rules(path))
    # a score request under the file: a 2-point hand is refused with the reason
    out = score_request({"hand": NEEDS_THREE, "rules": str(path)})
    assert out["score"] == 0 and "no reading" in out["error"]
    out = score_request({"hand": "123m456p789s11z344z", "rules": str(path)})  # 5 points with 1 wildcard
    assert out["score"] == 5 and "error" not in out
    path.write_text('base = "jielu"\njielu_min_score = 8\n', encoding="utf-8")
    out = score_request({"hand": "123m456p789s11z344z", "rules": str(path)})
    assert out["score"] == 5 and out["error"].startswith("its best reading is worth 5 points, below the 8")
    assert json.dumps(out, ensure_ascii=False)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("jielu_max_wildcards = -1", "jielu_max_wildcards must not be negative"),
        ("jielu_max_wildcards = 1.5", "jielu_max_wildcards must be an integer"),
        ('jielu_max_wildcards = "2"', "jielu_max_wildcards must be an integer"),
        ("jielu_max_wildcards = true", "jielu_max_wildcards must be an integer"),
        ("jielu_max_wildcards = 15", "jielu_max_wildcards must lie within 0..14"),
        ("jielu_min_score = 0", "jielu_min_score must lie within 1..32"),
        ("jielu_min_score = -2", "jielu_min_score must not be negative"),
        ("jielu_min_score = 2.0", "jielu_min_score must be an integer"),
        ("jielu_min_score = 33", "jielu_min_score must lie within 1..32"),
    ],
)
def test_bad_values_are_clear_errors(tmp_path: Path, line: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(f'base = "jielu"\n{line}\n', encoding="utf-8")
    with pytest.raises(RulesError, match=message):
        load_rules(path)
    with pytest.raises(RulesError, match=message.split(" must")[0]):
        load_rules("jielu").replace(**{line.split(" =")[0]: json.loads(line.split("= ")[1])})


def test_the_score_command_says_why_a_hand_below_the_minimum_cannot_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from jantaku.cli import main

    path = tmp_path / "min8.toml"
    path.write_text('base = "jielu"\njielu_min_score = 8\n', encoding="utf-8")
    assert main(["score", "123m456p789s11z344z", "--win", "4z", "--rules", str(path)]) == 2
    err = capsys.readouterr().err
    assert "worth 5 points, below the 8 a win needs under these rules: it cannot win" in err
    assert "Traceback" not in err


def test_random_rules_keep_scores_within_their_rule() -> None:
    """Any hand scored under a capped table uses at most the cap; a win at the least score or more."""
    rng = random.Random(3)
    from test_jielu_wincheck import _case

    for seed in range(30):
        closed, _ = _case(seed, 0, rng.choice((0, 1, 2, 3, 4)))
        cap = rng.choice((0, 1, 2, 3))
        table = with_win_rule(default_fan_table(), max_wildcards=cap, min_score=rng.choice((1, 2, 3)))
        tiles = [Tile.from_kind(k) for k in range(34) for _ in range(closed[k])]
        result = score_hand(Hand(tuple(tiles), ()), table=table)
        assert len(result.wildcards) <= cap
        assert result.is_win == (result.score >= table.min_score) == can_win(Hand(tuple(tiles), ()), table=table)


def test_records_of_games_under_the_options_replay_exactly() -> None:
    """A record of a game under a minimum of 3 replays through the engine without a difference. This game has
    hands whose non-winner completes a hand worth points (the ryukyoku after the wins carries the last scores)
    and a hand whose wall runs out after one win (a result with a win, ended by the wall): the replay read both
    wrongly until the options made them common."""
    from jantaku.records.export import game_record
    from jantaku.records.replay import replay_record
    from jantaku.sim.runner import play_game

    rules = jielu(jielu_min_score=3)
    game = play_game(rules, 5, ["strong"] * 4)
    results = game.results
    assert any(c.score > 0 for r in results for c in r.completions.values())
    assert any(r.wins and r.reason == "wall_empty" for r in results)
    report = replay_record(game_record(game), rules)
    assert report.mismatches == [] and report.matched == len(results)
