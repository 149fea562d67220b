"""The recorder's hand entries, validations and settlements, without a database.

Each validation is checked with the rule document's article its message cites."""

from __future__ import annotations

import pytest

from jantaku.league.errors import EntryError
from jantaku.league.recording import replay_entries
from jantaku.rules import load_rules

from .simulated import entries_of, simulated_game

ML, MU, STD, MEIBI = (load_rules(n) for n in ("mleague", "mu", "standard", "meibi"))


def win(winner, frm, han=None, fu=None, **kw):
    w = {"winner": winner, "from": frm, **kw}
    if han is not None:
        w["han"] = han
    if fu is not None:
        w["fu"] = fu
    return w


def entry(*wins, riichi=()):
    return {"kind": "win", "wins": list(wins), "riichi": list(riichi)}


def error_of(rules, entries, first_dealer=0):
    with pytest.raises(EntryError) as e:
        replay_entries(rules, first_dealer, entries)
    return str(e.value)


# -- han and fu that cannot exist (M-League 2023 6章3条, 9章1条5, 9章2条12; μ 2021 Art 56) ----------------


@pytest.mark.parametrize(
    ("w", "words", "article"),
    [
        (win(1, 0, 1, 20), "1 han 20 fu by ron cannot exist", "6章3条3-5"),  # 20 fu: pinfu tsumo only
        (win(1, 0, 3, 20), "3 han 20 fu by ron cannot exist", "Art 56(6)-(7)"),
        (win(1, None, 1, 20), "1 han 20 fu by tsumo cannot exist", "9章1条5"),  # pinfu tsumo is 2 han
        (win(1, 0, 1, 25), "1 han 25 fu by ron cannot exist", "9章2条12"),  # seven pairs is 2 han
        (win(1, None, 2, 25), "2 han 25 fu by tsumo cannot exist", "Art 51(12)"),  # + menzen tsumo: 3
        (win(1, 0, 2, 35), "35 fu cannot exist", "6章3条4"),  # rounded up to tens
        (win(1, 0, 0, 30), "han must be a whole number 1-100", ""),
        (win(1, 0, 2, 120), "fu must be a whole number 20-110", ""),
    ],
)
def test_impossible_han_fu(w, words, article):
    msg = error_of(ML, [entry(w)])
    assert words in msg and article in msg
    assert msg.startswith("entry 1 (E1, 0 honba): ")


def test_possible_han_fu_pay_as_the_seeds_tables():
    # 眉笔 6章4条's tables: 2 han 25 fu ron 1,600 (seven pairs); 2 han 20 fu tsumo 400/700; dealer 700 all
    g = replay_entries(MEIBI, 0, [entry(win(1, 2, 2, 25))])
    assert g.scores == [30000, 31600, 28400, 30000]
    g = replay_entries(MEIBI, 0, [entry(win(1, None, 2, 20))])
    assert g.scores == [29300, 31500, 29600, 29600]
    g = replay_entries(MEIBI, 0, [entry(win(0, None, 2, 20))])
    assert g.scores == [32100, 29300, 29300, 29300]


# -- riichi --------------------------------------------------------------------------------------------------


def test_riichi_without_1000_points_where_the_rule_set_forbids_it():
    # standard (the online rules, 002: Tenhou needs 1,000 points): seat 3 pays two dealer mangan, left with 700
    to_700 = [entry(win(0, 3, 5)), entry(win(0, 3, 5))]
    g = replay_entries(STD, 0, to_700)
    assert g.scores[3] == 25000 - 12000 - 12300 == 700
    msg = error_of(STD, [*to_700, {"kind": "draw", "tenpai": [3], "riichi": [3]}])
    assert "seat 3 has 700 points and cannot declare riichi" in msg and "online rules" in msg and "Art 42" in msg
    # μ allows it (its preset's decision: the document is silent)
    g = replay_entries(MU, 0, [entry(win(0, 3, 5))] * 3 + [{"kind": "draw", "tenpai": [3], "riichi": [3]}])
    assert g.scores[3] == 30000 - 36000 - 1000 + 3000


def test_riichi_sticks_go_to_the_next_winner_with_the_honba():
    # M-League 2023 4章8条5 (the next winner collects the sticks), 3章13条 (honba)
    g = replay_entries(ML, 0, [{"kind": "draw", "tenpai": [0, 1], "riichi": [0, 1]}])
    assert (g.scores, g.honba, g.deposits, g.hand_name) == ([25500, 25500, 23500, 23500], 1, 2, "E1")
    g = replay_entries(ML, 0, [{"kind": "draw", "tenpai": [0, 1], "riichi": [0, 1]}, entry(win(2, 3, 1, 30))])
    assert (g.scores, g.honba, g.deposits, g.hand_name) == (
        [25500, 25500, 23500 + 1000 + 300 + 2000, 23500 - 1300],
        0,
        0,
        "E2",
    )


def test_riichi_player_not_tenpai_at_the_draw_is_a_chombo():
    msg = error_of(ML, [{"kind": "draw", "tenpai": [], "riichi": [2]}])
    assert "chombo" in msg and "7章4条" in msg and "Art 68(4)" in msg


# -- several winners -----------------------------------------------------------------------------------------


def test_second_winner_under_head_bump():
    # μ 2021 Art 65 / M-League 2023 5章1条3: only the first from the discarder's right wins
    for rules, article in ((ML, "5章1条3"), (MU, "Art 65")):
        msg = error_of(rules, [entry(win(1, 0, 2, 30), win(3, 0, 3, 30))])
        assert "head bump gives the win to seat 1" in msg and article in msg


def test_double_ron_and_three_rons():
    g = replay_entries(
        STD, 0, [{"kind": "draw", "tenpai": [0], "riichi": [0]}, entry(win(3, 1, 2, 30), win(2, 1, 1, 30))]
    )
    # seat 2 is first from seat 1's right: the honba and the stick go to seat 2 (002 3.3 二家和)
    assert g.scores == [25000 + 3000 - 1000, 24000 - 2000 - 1000 - 300, 24000 + 1000 + 1000 + 300, 24000 + 2000]
    msg = error_of(STD, [entry(win(0, 1, 2, 30), win(2, 1, 1, 30), win(3, 1, 1, 30))])
    assert "three rons on one discard abort the hand" in msg and "online rules 1.2" in msg
    # 眉笔 lets all win (its preset's decision)
    assert (
        replay_entries(MEIBI, 0, [entry(win(0, 1, 2, 30), win(2, 1, 1, 30), win(3, 1, 1, 30))]).scores[1]
        == 30000 - 2900 - 1000 - 1000
    )


def test_other_bad_wins():
    assert "cannot win on their own discard" in error_of(ML, [entry(win(1, 1, 2, 30))])
    assert "a tsumo has one winner" in error_of(STD, [entry(win(1, None, 2, 30), win(2, 0, 2, 30))])
    assert "pao (liability) applies only to a yakuman" in error_of(ML, [entry(win(1, 0, 2, 30, pao=2))])
    assert "several yakuman count as one" in error_of(MU, [entry(win(1, 0, yakuman=2))])


def test_abortive_and_nagashi_where_the_rule_set_has_none():
    msg = error_of(ML, [{"kind": "abortive", "reason": "four_riichi"}])
    assert "has no abortive draws" in msg and "3章11条1" in msg
    assert "no nagashi mangan" in error_of(MU, [{"kind": "draw", "tenpai": [], "nagashi": [1]}])
    g = replay_entries(STD, 0, [{"kind": "abortive", "reason": "four_riichi", "riichi": [0, 1, 2, 3]}])
    assert (g.deposits, g.honba, g.hand_name) == (4, 1, "E1")
    g = replay_entries(STD, 0, [{"kind": "draw", "tenpai": [], "nagashi": [2]}])
    assert g.scores == [21000, 23000, 33000, 23000]  # a mangan tsumo (002 1.2 流局滿貫)


def test_pao_splits_a_ron_and_takes_a_tsumo():
    # μ 2021 Art 67: tsumo - the liable player pays everything; ron - half each with the discarder
    g = replay_entries(MU, 0, [entry(win(1, None, yakuman=1, pao=2))])
    assert g.scores == [30000, 62000, -2000, 30000]
    g = replay_entries(MU, 0, [entry(win(1, 3, yakuman=1, pao=2))])
    assert g.scores == [30000, 62000, 14000, 14000]


def test_hand_given_as_tiles_is_scored_by_jantaku():
    w = {"winner": 1, "from": 0, "hand": "234m567p456s78999s", "win": "9s", "dora": "3m"}
    g = replay_entries(ML, 0, [entry(w, riichi=[1])])
    # riichi, pinfu (78s waiting on 6s-9s, 99s the pair), dora 1 (4m): 3 han 30 fu, 3,900; the stick comes back
    assert g.scores == [21100, 28900, 25000, 25000]
    msg = error_of(ML, [entry({"winner": 1, "from": 0, "hand": "234m567p456s78999s", "win": "1m"})])
    assert "seat 1's hand '234m567p456s78999s'" in msg


# -- chombo, cards, penalties --------------------------------------------------------------------------------


def test_chombo_and_cards_follow_the_engine():
    # M-League 2023 7章4条: 20pt off, the hand replayed, sticks of the hand returned, no honba added
    g = replay_entries(ML, 0, [{"kind": "chombo", "seat": 2}])
    assert (g.scores, g.hand_name, g.honba) == ([25000] * 4, "E1", 0)
    # 7章5条3: two yellow cards in a day make a red card, 20pt
    g = replay_entries(ML, 0, [{"kind": "card", "seat": 1, "color": "yellow", "reason": "slow", "earlier_yellows": 1}])
    assert g.outcomes[-1]["card"] == "red"
    msg = error_of(MU, [{"kind": "card", "seat": 1, "color": "yellow"}])
    assert "has no yellow or red cards" in msg


def test_game_over_refuses_hands():
    entries = [{"kind": "draw", "tenpai": []} for _ in range(8)]
    g = replay_entries(ML, 0, entries)
    assert g.over and g.result is not None
    assert "the game is over" in error_of(ML, [*entries, {"kind": "draw", "tenpai": []}])


# -- settlement examples of the seeds ------------------------------------------------------------------------


def test_mleague_tie_example():
    # M-League 2023 6章2条6: three at 28,600, the first dealer's left... 13,200; 1 stick: +19 / +13.9 / +13.9 / -46.8
    g = replay_entries(ML, 0, [{"kind": "final", "scores": [28600, 28600, 28600, 13200], "deposits": 1}])
    assert g.result.final == [19.0, 13.9, 13.9, -46.8]


def test_mleague_rank_point_examples():
    # 6章2条4: 35,800 second -> +15.8; 41,600 first -> +61.6
    g = replay_entries(ML, 0, [{"kind": "final", "scores": [41600, 35800, 13000, 9600], "deposits": 0}])
    assert g.result.final[:2] == [61.6, 15.8]


def test_meibi_examples():
    # 眉笔 6章2条4: 40,800 second -> +10.8; 46,600 first -> +46.6 (zero line 35,000, +35/+5/-5/-15)
    g = replay_entries(MEIBI, 0, [{"kind": "final", "scores": [40800, 46600, 20000, 12600], "deposits": 0}])
    assert g.result.final == [10.8, 46.6, -20.0, -37.4]
    # 6章2条6: equal points rank by seat order from the first dealer; leftover sticks split among those first
    g = replay_entries(MEIBI, 2, [{"kind": "final", "scores": [35000, 35000, 25000, 24000], "deposits": 1}])
    assert g.result.ranks == [1, 2, 3, 4] and g.result.deposits_to == [500, 500, 0, 0]


def test_mu_examples():
    # μ 2021 Art 43(3): sticks left at the end go to nobody; Art 68 (A): a chombo costs 20pt
    g = replay_entries(MU, 0, [{"kind": "final", "scores": [45000, 30000, 25000, 19000], "deposits": 1}])
    assert g.result.final == [15.0 + 12.0, 0.0 + 4.0, -5.0 - 4.0, -11.0 - 12.0]
    # and (the preset's decision) equal points split the rank points: seats 2 and 3 share +4 and -4
    g = replay_entries(MU, 0, [{"kind": "chombo", "seat": 3}, entry(win(1, 0, 3, 30)), *[{"kind": "draw"}] * 7])
    assert g.result.scores == [26100, 33900, 30000, 30000]
    assert g.result.final == [-3.9 - 12.0, 3.9 + 12.0, 0.0, 0.0 - 20.0]


def test_quick_entry_must_add_up():
    msg = error_of(ML, [{"kind": "final", "scores": [30000, 30000, 30000, 9000], "deposits": 0}])
    assert "add up to 99000, not 100000" in msg


# -- the engine's own games ----------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["mleague", "mu"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_simulated_games_settle_as_the_engine(rules, seed):
    game = simulated_game(rules, seed)
    replayed = replay_entries(load_rules(rules), game.first_dealer, entries_of(game))
    assert replayed.over
    assert replayed.result.scores == game.result.scores
    assert replayed.result.final == game.result.final
    assert replayed.result.ranks == game.result.ranks


def test_all_last_dealer_may_stop_where_the_rule_set_asks():
    # tenhou (tenpai_yame = choice): the all-last dealer, tenpai at a draw and first, chooses to stop or go on
    tenhou = load_rules("tenhou")
    to_s4 = [entry(win(3, 0, 5)), *[{"kind": "draw"}] * 6, {"kind": "draw", "tenpai": [3]}]
    g = replay_entries(tenhou, 0, to_s4)
    assert (g.hand_name, g.yame_choice, g.over) == ("S4", 3, False)
    assert "decides whether to stop now" in error_of(tenhou, [*to_s4, {"kind": "draw"}])
    g = replay_entries(tenhou, 0, [*to_s4, {"kind": "yame", "stop": True}])
    assert g.over and g.result.ranks[3] == 1
    g = replay_entries(tenhou, 0, [*to_s4, {"kind": "yame", "stop": False}, {"kind": "draw"}])
    assert g.over  # the repeat ended in a draw with the dealer noten: the game is over
    assert "nobody may stop the game now" in error_of(tenhou, [{"kind": "yame", "stop": True}])


# -- values reachable only by ron, riichi minimums (issue 34) ---------------------------------------------------


@pytest.mark.parametrize("rules", [ML, MU, STD, MEIBI])
@pytest.mark.parametrize(
    ("w", "riichi", "words", "article"),
    [
        (win(1, None, 1, 110), (), "1 han 110 fu by tsumo cannot exist", "眉笔 6章4条2"),  # its table: "-"
        (win(1, None, 1, 40), (1,), "a riichi winner's 1 han 40 fu by tsumo cannot exist", "9章1条1-2"),
        (win(1, None, 2, 20), (1,), "riichi and menzen tsumo and pinfu make 3 han", "9章1条1-2"),
        (win(1, 0, 2, 25), (1,), "riichi and seven pairs (2) make 3 han", "9章2条12"),
        (win(1, None, 3, 25), (1,), "make 4 han at least", "9章1条1-2"),
    ],
)
def test_values_only_a_ron_or_a_hand_without_riichi_can_have(rules, w, riichi, words, article):
    msg = error_of(rules, [entry(w, riichi=riichi)])
    assert words in msg and article in msg


@pytest.mark.parametrize(
    ("w", "riichi"),
    [
        (win(1, None, 1, 100), ()),  # two concealed terminal kans, a double-wind pair, a closed wait
        (win(1, 0, 1, 110), ()),  # by ron
        (win(1, None, 2, 110), ()),
        (win(1, None, 2, 40), (1,)),  # riichi and menzen tsumo
        (win(1, None, 3, 20), (1,)),  # and pinfu
        (win(1, 0, 3, 25), (1,)),  # riichi and seven pairs
        (win(1, 0, 1, 30), (1,)),  # riichi alone, by ron
    ],
)
def test_the_least_values_such_hands_can_have_are_accepted(w, riichi):
    g = replay_entries(ML, 0, [entry(w, riichi=riichi)])
    assert g.scores[1] > 25000


# -- time (issue 34) ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", [MU, ML])
def test_when_time_is_up_the_hand_in_play_is_the_last(rules):
    """μ 2021 Art 24(2): with a time limit the game ends when the hand in which time ran out ends - here a
    dealer's tenpai draw in East 1, which would otherwise repeat the dealer."""
    draw = {"kind": "draw", "tenpai": [0], "riichi": []}
    g = replay_entries(rules, 0, [draw, {"kind": "time_up"}, draw])
    assert g.over and g.result is not None and g.hand_name == "E1"
    assert g.outcomes[1] == {"hand": "E1", "time_up": True}
    assert g.result.ranks[0] == 1
    assert "the game is over" in error_of(rules, [{"kind": "time_up"}, draw, draw])
    assert not replay_entries(rules, 0, [draw, draw]).over  # without it the dealer plays on
