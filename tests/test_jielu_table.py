"""洁律 table play in the one engine: scenarios from constructed walls, checked against the 洁律麻将 document's
基本规则 and docs/rules/sources.md (洁律; "RULES.md 2" below means that section), and the same situations under a
riichi preset where the rule differs (so each test shows the switch, not an accident of the wall).

Seat 0 deals unless a test says otherwise; draws are in the raw order they happen (see scenario_walls.py).
"""

from __future__ import annotations

import json

import pytest

from jantaku.hand import Hand
from jantaku.jielu import best_value
from jantaku.meld import MeldKind
from jantaku.rules import load_rules
from jantaku.table import Game, IllegalActionError, Kyoku, Wall
from jantaku.table.actions import Action
from jantaku.table.kyoku import DRAWN
from jantaku.tiles import Tile
from scenario_walls import build_wall, find_action, play, run_out, step


def jielu(mode: str = "points", **changes):
    return load_rules("jielu").replace(jielu_mode=mode, **changes)


def draws_of(k: Kyoku) -> int:
    return sum(1 for e in k.events if e["type"] == "tsumo")


def hand_of(k: Kyoku, seat: int) -> Hand:
    st = k.seats[seat]
    return Hand(tuple(k.tile(i) for i in st.tiles), tuple(st.melds))


# == the wall: 不设置王牌 ========================================================================================


def test_every_tile_is_drawn_without_a_dead_wall():
    """004 不设置王牌: no dead wall, so all 84 tiles after the deal are drawn and there is no dora."""
    k = Kyoku(jielu(), Wall.from_seed(3))
    run_out(k)
    assert k.result is not None and k.result.kind == "exhaustive" and k.result.reason == "wall_empty"
    assert draws_of(k) == 136 - 52
    assert "dora_marker" not in k.events[0] and not any(e["type"] == "dora" for e in k.events)
    assert k.tiles_accounted()
    riichi = Kyoku(load_rules("tenhou"), Wall.from_seed(3))
    run_out(riichi)
    assert riichi.result is not None and riichi.result.kind == "exhaustive"
    assert draws_of(riichi) == 122 - 52  # the riichi table keeps 14 tiles back


def test_non_winners_complete_with_one_extra_wildcard():
    """004 未和牌时补充一张万能牌 / 第三位和牌或未和牌获得一倍得分: each player who has not won scores 1x its
    hand completed with one extra wildcard."""
    k = Kyoku(jielu(), Wall.from_seed(3))
    run_out(k)
    res = k.result
    assert res is not None and set(res.completions) == {0, 1, 2, 3}
    for s in range(4):
        expected = best_value(hand_of(k, s), extra_wildcards=1)
        assert res.completions[s].score == expected == res.deltas[s] == k.scores[s]


def test_kan_replacement_comes_from_the_wall_tail():
    """004 不设置王牌: a kong's replacement is the wall's last tile; the live wall shrinks from its end."""
    wall = build_wall({0: "1111m258p369s147z"}, tail=["7z"])
    k = Kyoku(jielu(), wall)
    step(k, ("ankan", 0, "1m"))
    assert k.phase == DRAWN and k.actor == 0 and k.tile(k.drawn).mpsz == "7z" and k.drawn == wall.tiles[135]
    assert k.live_end == 135 and not any(e["type"] == "dora" for e in k.events)
    run_out(k)
    assert draws_of(k) == 136 - 52  # 83 live draws and one replacement


def test_kan_on_the_last_tile_ends_the_hand():
    """004 海底牌可副露开杠: a kong on the last tile is allowed; nobody can draw its replacement, so the hand
    ends (004: 当所有玩家无需或无法摸牌时一局游戏结束). Under a riichi preset there is no kan after the last tile."""
    hands = {3: "111p258m369s1357z"}
    k = Kyoku(jielu(), build_wall(hands, tail=["1p"]))
    run_out(k, until=lambda k: k.tiles_left == 0 and k.phase == DRAWN)
    assert k.actor == 3 and k.tile(k.drawn).mpsz == "1p"
    step(k, ("ankan", 3, "1p"))
    assert k.result is not None and k.result.reason == "wall_empty"
    assert [m.kind for m in k.seats[3].melds] == [MeldKind.ANKAN]
    assert k.result.completions[3].hand.tile_count == 13
    assert k.tiles_accounted()
    riichi = Kyoku(load_rules("tenhou"), build_wall({1: hands[3]}, draws=[None] * 69 + ["1p"]))  # draw 69: seat 1
    run_out(riichi, until=lambda k: k.tiles_left == 0 and k.phase == DRAWN)
    assert riichi.actor == 1 and riichi.tile(riichi.drawn).mpsz == "1p" and find_action(riichi, "ankan", 1) is None


@pytest.mark.parametrize("call", ["pon", "kan"])
def test_calls_on_the_last_discard(call):
    """004 海底牌可副露开杠: the last discard may be called (a pon, then its discard; an open kong, after which
    nobody can draw)."""
    hands = {1: "555z258m369s1479p"}
    k = Kyoku(jielu(), build_wall(hands, tail=["5z"]))
    run_out(k, until=lambda k: k.tiles_left == 0 and k.phase == DRAWN)
    step(k, ("tg", 3))
    step(k, (call, 1))
    step(k, ("pass",))  # the others pass (with wildcards someone may be able to win on it)
    if call == "pon":
        assert k.actor == 1 and k.result is None
        step(k, ("d", 1, "9p"))
        run_out(k)
    assert k.result is not None and k.result.reason == "wall_empty"
    assert k.seats[1].melds[0].kind is (MeldKind.PON if call == "pon" else MeldKind.MINKAN)
    riichi = Kyoku(load_rules("tenhou"), build_wall({3: hands[1]}, draws=[None] * 69 + ["5z"]))  # draw 69: seat 1
    run_out(riichi, until=lambda k: k.tiles_left == 0 and k.phase == DRAWN)
    assert riichi.actor == 1
    step(riichi, ("tg", 1))
    assert riichi.result is not None  # no calls on the last discard: the hand ended at once


def test_kan_right_after_a_pon():
    """004 吃碰后可开杠: right after a pon the caller may declare a kong before discarding."""
    hands = {0: "2z258m369s1479p3z", 1: "22z1111s258m369p"}
    k = Kyoku(jielu(), build_wall(hands, tail=["6z"]))
    step(k, ("d", 0, "2z"))
    step(k, ("pon", 1))
    step(k, ("ankan", 1, "1s"))
    assert k.phase == DRAWN and k.actor == 1 and k.tile(k.drawn).mpsz == "6z"
    assert [m.kind for m in k.seats[1].melds] == [MeldKind.PON, MeldKind.ANKAN]
    no_switch = Kyoku(jielu(kan_after_call=False), build_wall(hands, tail=["6z"]))
    step(no_switch, ("d", 0, "2z"))
    step(no_switch, ("pon", 1))
    assert find_action(no_switch, "ankan", 1) is None


def test_no_furiten():
    """004 无振听: a player who let a winning tile pass may win on the next one at once; under a riichi preset
    the pass is temporary furiten until the player's own discard (000 Art 64)."""
    hands = {0: "2z147m258p369s79m3z", 1: "123m456p789s1122z", 3: "1z147m258p369s147p"}
    for preset, offered in (("jielu", True), ("tenhou", False)):
        k = Kyoku(load_rules(preset), build_wall(hands))
        play(k, [("d", 0, "9m"), ("tg", 1), ("tg", 2), ("d", 3, "1z")])
        assert find_action(k, "ron", 1) is not None
        step(k, ("pass",))
        step(k, ("d", 0, "2z"))
        assert (find_action(k, "ron", 1) is not None) is offered, preset


# == several winners (积分制) ====================================================================================

THREE_WAITING = {
    0: "5z1479m1479p1479s",
    1: "123m456m789m111z5z",
    2: "123p456p789p222z5z",
    3: "123s456s789s333z5z",
}


def test_several_rons_all_win_in_order_from_the_discarder():
    """004 有一炮多响, 按头跳顺序 (下家, 对家, 上家), 第一位和牌获得三倍得分, 第二位两倍, 第三位一倍; 三人和牌时
    一局结束. Each hand: 三连顺 6 + 混一色 6 + 九数齐 6 + 单箭 1 = 19."""
    k = Kyoku(jielu(), build_wall(THREE_WAITING))
    step(k, ("d", 0, "5z"))
    for seat in (3, 1, 2):
        step(k, ("ron", seat))
    res = k.result
    assert res is not None and res.reason == "three_winners"
    assert [(w.seat, w.from_seat, w.score.score) for w in res.wins] == [(1, 0, 19), (2, 0, 19), (3, 0, 19)]
    assert [w.payments for w in res.wins] == [(0, 57, 0, 0), (0, 0, 38, 0), (0, 0, 0, 19)]
    assert set(res.completions) == {0}
    assert k.scores == [res.completions[0].score, 57, 38, 19]


def test_original_mode_keeps_the_first_winner_and_pays_three_times_s_minus_4():
    """RULES.md 2 step 5 / 004 原版计分方式: 一人和牌后一局结束, 和牌者获得牌型分数减4的三倍的得分 - the first
    from the discarder's right wins: 3 x (19 - 4) = 45, each other player paying 15."""
    k = Kyoku(jielu("original"), build_wall(THREE_WAITING))
    step(k, ("d", 0, "5z"))
    for seat in (1, 2, 3):
        step(k, ("ron", seat))
    res = k.result
    assert res is not None and res.kind == "ron" and [w.seat for w in res.wins] == [1]
    assert res.deltas == [-15, 45, -15, -15] and sum(k.scores) == 0 and not res.completions


def test_a_winner_leaves_and_the_others_play_on():
    """RULES.md 2 step 4: the hand goes on after a win, the winner leaving the table; the next player still in
    the hand draws, and a chi is called from the previous player still in the hand."""
    hands = {0: "5z1m1479p1479s258m", 1: "123m456m789m111z5z", 2: "23m2589p369s1357z"}
    k = Kyoku(jielu(), build_wall(hands))
    step(k, ("d", 0, "5z"))
    step(k, ("ron", 1))
    step(k, ("pass",))  # the others let it go (with wildcards they might have won on it too)
    assert k.won == [False, True, False, False] and k.result is None
    assert k.phase == DRAWN and k.actor == 2
    play(k, [("tg", 2), ("tg", 3), ("d", 0, "1m")])
    assert find_action(k, "chi", 1) is None
    step(k, ("chi", 2, "23m"))
    step(k, ("pass",))
    assert k.seats[2].suppliers == [0] and k.seats[2].melds[0].kind is MeldKind.CHI
    win_at = max(i for i, e in enumerate(k.events) if e["type"] == "hora")
    run_out(k)
    assert not any(e.get("actor") == 1 for e in k.events[win_at + 1 :])
    assert k.tiles_accounted() and 1 not in k.result.completions


def test_robbing_an_added_kong_then_play_goes_on():
    """RULES.md 2: 杠上和 = winning on a kong's replacement or by robbing an added kong. The robbed kong never
    stands: the pung is back and its tile lies in the river; the next player still in the hand draws.
    Seat 2: 三连顺 6 + 九数齐 6 + 平和 1 + 杠上和 2 = 15, first winner x3 = 45."""
    hands = {0: "5p1479m147p1479s2z", 1: "55p9p258m369s1357z", 2: "123m456m789m11z46p"}
    # 洁律 has no red fives: the builder's id for "0p" is a plain 5p there
    k = Kyoku(jielu(), build_wall(hands, draws=[None, None, None, None, "0p"]))
    step(k, ("d", 0, "5p"))
    step(k, ("pon", 1))
    step(k, ("pass", 2))
    play(k, [("d", 1, "9s"), ("tg", 2), ("tg", 3), ("tg", 0)])
    step(k, ("kakan", 1, "5p"))
    step(k, ("ron", 2))
    step(k, ("pass",))
    (win,) = k.result.wins if k.result else k.wins
    assert (win.seat, win.from_seat, win.score.score, win.payments[2]) == (2, 1, 15, 45)
    assert "杠上和" in [f.name for f in win.score.fans]
    assert [m.kind for m in k.seats[1].melds] == [MeldKind.PON] and k.tile(k.seats[1].river[-1].tile).mpsz == "5p"
    assert k.phase == DRAWN and k.actor == 3 and k.tiles_accounted()


def test_heavenly_win():
    """RULES.md 2: 天和 = winning with the dealt hand and the first draw (32 points: the score is 32)."""
    k = Kyoku(jielu(), build_wall({0: "123m456m789m123p1z"}, draws=["1z"]))
    step(k, ("t", 0))
    (win,) = k.wins
    assert "天和" in [f.name for f in win.score.fans] and win.score.score == 32 and win.payments[0] == 96


def test_tsumo_needs_a_hand_worth_one_point():
    """004 1分起和: no choice of wildcards makes thirteen unrelated tiles worth a point, so no tsumo is offered and
    a tsumo sent anyway is refused, naming the rule, with nothing changed."""
    k = Kyoku(jielu(), build_wall({0: "19m19p19s1234567z"}, draws=["9m"]))
    assert find_action(k, "tsumo", 0) is None
    with pytest.raises(IllegalActionError, match="worth 1 point"):
        k.apply(Action("tsumo", 0, k.tile(k.drawn)))
    assert k.phase == DRAWN and len(k.events) == 2


def test_riichi_is_refused_naming_the_rule_set():
    k = Kyoku(jielu(), build_wall({0: "123m456p789s1122z"}, draws=["9m"]))
    with pytest.raises(IllegalActionError, match="rule set jielu has no riichi"):
        k.apply(Action("reach", 0, Tile("9m"), (), True))
    assert not any(a.kind == "reach" for a in k.legal_actions(0))


# == original mode: pao ===========================================================================================


def test_original_mode_pao_for_big_fans():
    """004 包付: the winner's 3 x (24 - 4) = 60 is paid first by the liable player - for 清一色 (12) the discarder,
    with 2 exposed melds: 2/4 of 3 x 8 = 12; for 三连刻 (111m 222m 333m, one of them exposed, not complete
    before the win) the discarder too, as the winning 2m belongs to it: 1/4 of 24 = 6 - and the remaining 42 is
    shared by the three: seat 0 pays 18 + 14 = 32, seats 2 and 3 pay 14 each."""
    hands = {
        0: "2m1479p1479s1357z",
        1: "111m22m33m44m55m6z7z",
        2: "3m258p369s1479p25z",
        3: "5m258p369s1479s46z",
    }
    k = Kyoku(jielu("original"), build_wall(hands))
    script = [("d", 0, "1z"), ("tg", 1), ("d", 2, "3m"), ("pon", 1), ("d", 1, "6z"), ("tg", 2)]
    script += [("d", 3, "5m"), ("pon", 1), ("d", 1, "7z"), ("tg", 2), ("tg", 3), ("d", 0, "2m"), ("ron", 1)]
    play(k, script)
    (win,) = k.result.wins
    fans = {f.name: f.melds for f in win.score.fans}
    assert win.score.score == 24 and fans["三连刻"] == ("111m", "222m", "333m") and "清一色" in fans
    assert k.result.deltas == [-32, 60, -14, -14]


# == whole games ==================================================================================================


@pytest.mark.parametrize("mode", ["points", "original"])
def test_a_game_is_four_hands_each_player_dealing_once(mode):
    """RULES.md 2: a game is 4 hands, each player dealing once (no repeat for a winning dealer, no honba); the
    final scores are the raw points."""
    game = Game(jielu(mode), seed=11)
    from jantaku.bots import make_bot

    bots = [make_bot("efficiency", s) for s in range(4)]
    while not game.over:
        seat = game.to_act()[0]
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    starts = [e for e in game.events if e["type"] == "start_kyoku"]
    assert [e["oya"] for e in starts] == [(game.first_dealer + i) % 4 for i in range(4)]
    assert all(e["honba"] == 0 and e["kyotaku"] == 0 for e in starts)
    assert game.result is not None and game.result.final == [float(p) for p in game.result.scores]
    wins = [e for e in game.events if e["type"] == "hora"]
    assert wins and all(e["score"] >= 1 for e in wins)
    if mode == "original":
        assert sum(game.result.scores) == 0


# == the command line =============================================================================================


def test_simulate_command_plays_jielu(capsys, tmp_path):
    from jantaku.cli import main

    code = main(["simulate", "--rules", "jielu", "--games", "2", "--seed", "1", "--quiet", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "2 games, 8 hands under jielu" in out and "fans per win" in out
    logs = sorted(tmp_path.iterdir())
    events = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert len(logs) == 2 and any(e["type"] == "hora" and e["fans"] and e["score"] >= 1 for e in events)
    code = main(["simulate", "--rules", "jielu", "--games", "1", "--out", str(tmp_path), "--format", "tenhou6"])
    assert code == 2 and "riichi games only" in capsys.readouterr().err
