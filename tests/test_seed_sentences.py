"""Issue 12, section 2: the seed sentences an independent reading found, each tested with its article.

Article numbers: 000 μ (麻将连合 2021), 001 M-League (2023-08-11), 002 the general online rules, 003 眉笔.
"""

from __future__ import annotations

import io
import json

import pytest

from jantaku.bots.simple import EfficiencyBot, declare_tenpai
from jantaku.records.export import game_record
from jantaku.records.mjai import player_view_events, read_mjai, write_mjai
from jantaku.records.replay import replay_record
from jantaku.records.tenhou6 import write_tenhou6
from jantaku.rules import load_rules
from jantaku.table import Action, Game, IllegalActionError, Kyoku, Wall
from jantaku.table.kyoku import DECLARE
from jantaku.tiles import Tile, parse_tiles
from scenario_walls import build_wall, play, run_out

# Four noten hands without winds (as in test_table_scenarios), by absolute seat; tsumogiri keeps them noten.
NOTEN = ("147m258p369s2468s", "258m369p147s2468m", "369m147p258s2468p", "1379m1379p1379s5z")
TANKI_5P = "123m456p789s234s5p"  # tenpai on 5p, kept by tsumogiri


def noten_wall(dealer: int) -> Wall:
    return build_wall(dict(enumerate(NOTEN)), dealer=dealer, dora=["8s"])


def tenpai_wall(dealer: int, tenpai_seat: int) -> Wall:
    hands = dict(enumerate(NOTEN))
    hands[tenpai_seat] = TANKI_5P
    return build_wall(hands, dealer=dealer, dora=["8s"])


def game(preset: str, walls, **changes) -> Game:
    """A game with the first dealer at seat 0 and hands dealt by ``walls(game, index)``."""
    holder: list[Game] = []
    rules = load_rules(preset).replace(**changes) if changes else load_rules(preset)
    g = Game(rules, seed=1, first_dealer=0, walls=lambda i: walls(holder[0] if holder else None, i))
    holder.append(g)
    return g


def quiet(g: Game | None, i: int) -> Wall:
    return noten_wall(g.dealer if g is not None else 0)


def at(g: Game, round_wind: int, dealer: int, scores: list[int], honba: int = 0) -> None:
    g.resync(round_wind=round_wind, dealer=dealer, honba=honba, deposits=0, scores=scores, hand_index=g.hand_index)


# == 1. M-League chombo: the hand is played again without a new honba ==========================================


@pytest.mark.parametrize(("preset", "honba"), [("mleague", 0), ("mu", 0), ("meibi", 0), ("standard", 1)])
def test_chombo_replays_the_hand_without_a_honba(preset, honba):
    """001 7章4条6: 出现错和行为的对局，无论行为者是谁，此局均重新进行; 3章13条1: 连庄或平局情况下，下一局本场数增加1
    (a chombo is neither); 003 7章4条6 (本场棒不增加). `standard` (RULES.md) keeps its extra honba."""
    g = game(preset, quiet)
    run_out(g)  # East 1: all noten, the deal passes
    before = (g.round_name, g.kyoku.dealer, g.honba)
    g.chombo(2, "wrong tsumo")
    assert (g.round_name, g.kyoku.dealer) == before[:2], "the same hand again"
    assert g.honba == before[2] + honba and g.kyoku.honba == g.honba
    assert load_rules(preset).chombo_adds_honba is (preset == "standard")


# == 2. 眉笔 west round: strictly over 35,000 ===================================================================


@pytest.mark.parametrize(
    ("top", "strict", "over_after_s4"),
    [(35000, True, False), (35100, True, True), (35000, False, True)],
)
def test_meibi_west_round_needs_strictly_over_35000(top, strict, over_after_s4):
    """003 6章2条7: 如果南4局流局时，没有选手超过35000点，则进入西1局，直到有选手超过35000点时比赛结束: exactly
    35,000 is not 超过, so the game goes West and plays on there; `west_round_strict = False` (Tenhou's reading:
    30,000 or more ends the west round) would have ended it."""
    g = game("meibi", quiet, west_round_strict=strict)
    at(g, 1, 3, [top, 30000, 30000, 120000 - top - 60000])
    assert g.round_name == "S4"
    run_out(g)  # an all-noten draw: the scores stay
    assert g.over is over_after_s4
    if not over_after_s4:
        assert g.round_name == "W1"
        run_out(g)
        assert not g.over and g.round_name == "W2", "sudden death needs more than 35,000"


def test_standard_west_round_ends_at_30000():
    """002 1.2 南４局起對局結束的條件 ... 莊家不連莊且有人在原點以上時 (以上: 30,000 itself ends it)."""
    g = game("standard", quiet)
    at(g, 1, 3, [30000, 25000, 25000, 20000])
    run_out(g)
    assert g.over


# == 3. standard bust: 0 points or below =========================================================================


@pytest.mark.parametrize(("preset", "over"), [("standard", True), ("tenhou", False), ("meibi", False)])
def test_bust_at_exactly_zero(preset, over):
    """002 1.2 擊飛：有人點數在0點以下時對局結束 (以下 includes 0); Tenhou ends only below 0; 003 3章2条4 得点小于0.
    Seat 2 alone is tenpai at the draw: seat 0, with 1,000 points, pays 1,000 and has exactly 0."""
    g = game(preset, lambda gg, i: tenpai_wall(0, 2) if i == 0 else noten_wall(gg.dealer))
    at(g, 0, 0, [1000, 33000, 33000, 33000])
    run_out(g)
    assert g.scores[0] == 0
    assert g.over is over


# == 4. standard game end: the all-last dealer strictly over 30,000 and first =====================================


@pytest.mark.parametrize(
    ("preset", "dealer_before", "outcome"),
    [
        ("standard", 27000, "goes on"),  # 30,000 is not 超過原點
        ("standard", 27100, "over"),  # 30,100 and first: 莊家連莊時超過原點且成為首位時 ends it, no choice
        ("tenhou", 27000, "choice"),  # Tenhou asks the dealer at 30,000 or more
    ],
)
def test_all_last_dealer_tenpai_stop(preset, dealer_before, outcome):
    """002 1.2 南４局起對局結束的條件：莊家連莊時超過原點且成為首位時 (strictly over 30,000; a tenpai repeat is a
    連莊 too, and the text offers no choice); `tenhou` keeps Tenhou's: the dealer chooses at 30,000 or more.
    South 4, the dealer (seat 3) alone tenpai: +3,000."""
    g = game(preset, lambda gg, i: tenpai_wall(3, 3) if i == 0 else noten_wall(gg.dealer))
    at(g, 1, 3, [25000, 24000, 100000 - 49000 - dealer_before, dealer_before])
    run_out(g)
    assert g.results[-1].tenpai == [False, False, False, True]
    if outcome == "over":
        assert g.over and g.result.ranks[3] == 1
    elif outcome == "choice":
        assert not g.over and g.yame_choice == 3
    else:
        assert not g.over and g.yame_choice is None and g.round_name == "S4" and g.honba == 1


@pytest.mark.parametrize(("preset", "over"), [("standard", True), ("tenhou", False)])
def test_all_last_abortive_draw_stop(preset, over):
    """002 1.5 途中流局: 莊家連莊 - and 1.2 ends the game 莊家連莊時超過原點且成為首位時: the South 4 dealer,
    first with 31,000, declares nine terminals; Tenhou plays on after an abortive draw (RULES.md)."""
    hands = dict(enumerate(NOTEN))
    hands[3] = "19m19p19s1234z258m"
    g = game(preset, lambda gg, i: build_wall(hands, ["5p"], dealer=3, dora=["8s"]) if i == 0 else quiet(gg, i))
    at(g, 1, 3, [23000, 23000, 23000, 31000])
    play(g, [("kyuushu", 3)])
    assert g.results[-1].reason == "nine_terminals"
    assert g.over is over


# == 5. M-League: no closed kan after riichi that changes the number of yaku ======================================

KAN_HANDS = ["111m222m333p45s77z", "369m147p258s1357z", "4679m1469p1479s3z", "579m479p258s1246z"]


@pytest.mark.parametrize(("preset", "allowed"), [("mleague", False), ("meibi", True), ("standard", True)])
def test_third_kan_after_riichi(preset, allowed):
    """001 4章5条2: 允许立直后不改变面子构成的暗杠行为（也不可以增减手役的数量）: a third kan would add sankantsu,
    so M-League does not offer it; 003 4章5条2 立直后，如果不改变面子的构成时，可以暗杠（不考虑役的增减）. The dealer
    makes two closed kans (1m, 2m), declares riichi waiting on 3s-6s, and draws the fourth 3p."""
    wall = build_wall(KAN_HANDS, ["1m", None, None, None, "3p"], dora=["8s"], rinshan=["2m", "9p"])
    k = Kyoku(load_rules(preset), wall)
    play(k, [("ankan", 0, "1m"), ("ankan", 0, "2m"), ("r", 0, "9p"), ("tg", 1), ("tg", 2), ("tg", 3)])
    assert k.seats[0].riichi and k.to_act() == [0] and k.tile(k.drawn).mpsz == "3p"
    offered = [a for a in k.legal_actions(0) if a.kind == "ankan"]
    assert bool(offered) is allowed
    if not allowed:
        with pytest.raises(IllegalActionError, match="riichi"):
            k.apply(Action("ankan", 0, Tile("3p"), tuple(parse_tiles("3333p"))))


def test_second_kan_after_riichi_still_allowed_in_mleague():
    """001 4章5条2: a closed kan that changes neither the hand's melds nor its yaku stays allowed (a second kan
    adds no yaku)."""
    hands = ["111m222m333p45s77z", *KAN_HANDS[1:]]
    wall = build_wall(hands, ["1m", None, None, None, "2m"], dora=["8s"], rinshan=["9p"])
    k = Kyoku(load_rules("mleague"), wall)
    play(k, [("ankan", 0, "1m"), ("r", 0, "9p"), ("tg", 1), ("tg", 2), ("tg", 3), ("ankan", 0, "2m")])
    assert len(k.kan_owners) == 2


# == 6. 眉笔 abortive draws: the deal stays only with a tenpai dealer =============================================


@pytest.mark.parametrize(
    ("preset", "dealer_hand", "continues"),
    [
        ("meibi", NOTEN[0], False),
        ("meibi", TANKI_5P, True),
        ("standard", NOTEN[0], True),
    ],
)
def test_abortive_draw_and_the_deal(preset, dealer_hand, continues):
    """003 3章11条1: 流局是指没有出现和了者的局，以及第三章第2条第3点所描述的情况 (the abortive draws are 流局);
    3章12条3: 亲家和了、流局时听牌是连庄，其余状态都是轮庄: after four winds a noten meibi dealer passes the deal;
    002 1.5 途中流局: 莊家連莊. The honba grows either way (003 3章13条1 连庄及流局时)."""
    hands = [dealer_hand, *NOTEN[1:]]
    g = game(preset, lambda gg, i: build_wall(hands, ["1z"] * 4, dora=["8s"]) if i == 0 else quiet(gg, i))
    play(g, [("tg", 0), ("tg", 1), ("tg", 2), ("tg", 3)])
    assert g.results[-1].reason == "four_winds"
    assert g.results[-1].dealer_continues is continues
    assert (g.kyoku.dealer == 0) is continues and g.honba == 1


# == 7. Declaring tenpai is the player's act =======================================================================


def to_declare(k: Kyoku) -> None:
    run_out(k, until=lambda kk: kk.phase == DECLARE)


@pytest.mark.parametrize("silent", [False, True])
def test_mu_a_tenpai_player_may_stay_silent(silent):
    """000 Art 71: 流局时，宣言听牌的人需要整理手牌后公开手牌 ... 未听的人需要向听牌的人交付相应的听牌料: declaring is
    the player's act; staying silent, seat 2 counts as noten and nobody pays."""
    k = Kyoku(load_rules("mu"), tenpai_wall(0, 2))
    to_declare(k)
    assert k.phase == DECLARE and k.to_act() == [2]
    assert {a.kind for a in k.legal_actions(2)} == {"tenpai", "noten"}
    with pytest.raises(IllegalActionError, match="not asked"):
        k.apply(Action("tenpai", 1))
    k.apply(Action("noten" if silent else "tenpai", 2))
    r = k.result
    assert r.tenpai == [False, False, not silent, False]
    assert r.deltas == ([0, 0, 0, 0] if silent else [-1000, -1000, 3000, -1000])
    event = next(e for e in k.events if e["type"] == "ryukyoku")
    assert event["tenpais"] == r.tenpai and (event.get("silent") == [2]) is silent
    assert r.silent == ([2] if silent else [])
    assert all("silent" not in e for e in player_view_events(k.events, 0))


def test_mu_a_silent_dealer_passes_the_deal():
    """000 Art 22: 以下情况下，亲家移动至南家 ... (2) 流局时亲家没有宣言听牌时."""
    g = game("mu", lambda gg, i: tenpai_wall(0, 0) if i == 0 else quiet(gg, i))
    run_out(g, until=lambda kk: kk.phase == DECLARE)
    g.apply(Action("noten", 0))
    assert g.kyoku.dealer == 1 and g.round_name == "E2"


def test_a_riichi_hand_always_shows():
    """000 Art 73: 流局时，被判停和的立直者也必须展示手牌 (a riichi hand is shown): no choice for seat 0."""
    hands = ["123m456p789s234s9p", *NOTEN[1:]]
    wall = build_wall(hands, ["5p"], dora=["8s"])  # seat 0 draws 5p and declares riichi with 9p: tanki 5p
    k = Kyoku(load_rules("mu"), wall)
    play(k, [("r", 0, "9p")])
    run_out(k)
    assert k.result is not None and k.result.tenpai[0] and k.result.silent == []


def naked_tanki_kyoku(preset: str) -> Kyoku:
    """Seat 1 pons 1m, 2m, 3p and 4s and waits on 5z alone (裸单骑); the others only draw and discard."""
    hands = ["369m147p258s1234z", "11m22m33p44s679m9p5z", "4679m1469p1479s3z", "578m578p578s1267z"]
    k = Kyoku(load_rules(preset), build_wall(hands, ["1m", "2m", "3p", "4s"], dora=["8s"]))
    play(k, [("tg", 0), ("pon", 1), ("d", 1, "6m"), ("tg", 2), ("pon", 1), ("d", 1, "7m")])
    play(k, [("tg", 2), ("pon", 1), ("d", 1, "9m"), ("tg", 2), ("pon", 1), ("d", 1, "9p")])
    assert len(k.seats[1].tiles) == 1
    return k


@pytest.mark.parametrize(("preset", "asked"), [("mleague", [1]), ("meibi", [1]), ("mu", [1]), ("standard", [])])
def test_naked_single_wait_may_stay_silent(preset, asked):
    """001 3章11条3: 流局时听牌应当展示手牌（裸单骑可以宣告未听）; 003 3章11条3: 以公开手牌的行为作为宣称
    （裸单骑时也可以宣称无听）; 002 1.5 不聽 is the hand's state: `standard` shows every tenpai hand without asking."""
    k = naked_tanki_kyoku(preset)
    run_out(k, until=lambda kk: kk.phase == DECLARE)
    assert k.to_act() == asked
    if asked:
        k.apply(Action("noten", 1))
        assert k.result.tenpai == [False] * 4 and k.result.silent == [1]
    else:
        assert k.result.tenpai == [False, True, False, False]


@pytest.mark.parametrize("preset", ["mleague", "meibi"])
def test_a_closed_tenpai_hand_shows_where_only_naked_single_waits_may_stay_silent(preset):
    """001 3章11条3 / 003 3章11条3: only 裸单骑 may declare noten; another tenpai hand is shown."""
    k = Kyoku(load_rules(preset), tenpai_wall(0, 2))
    run_out(k, until=lambda kk: kk.phase == DECLARE)
    assert k.result is not None and k.result.tenpai == [False, False, True, False]


def test_the_bot_declares_unless_silence_ends_the_game_in_first_place():
    """000 Art 22(2): a dealer passes the deal by not declaring; the efficiency bot does so only as the dealer of
    the last hand who is first (the game then ends), and declares otherwise."""
    g = game("mu", lambda gg, i: tenpai_wall(gg.dealer if gg else 0, gg.dealer if gg else 0))
    for scores, want in (([26000, 23000, 23000, 28000], "noten"), ([30000, 23000, 23000, 24000], "tenpai")):
        at(g, 1, 3, scores)
        run_out(g, until=lambda kk: kk.phase == DECLARE)
        legal = g.legal_actions(3)
        assert declare_tenpai(g.view(3), legal).kind == want
        assert EfficiencyBot().act(g.view(3), legal).kind == want
    at(g, 0, 0, [40000, 20000, 20000, 20000])  # East 1: the game goes on anyway
    run_out(g, until=lambda kk: kk.phase == DECLARE)
    assert EfficiencyBot().act(g.view(0), g.legal_actions(0)).kind == "tenpai"


def test_silence_round_trips_through_mjai_and_tenhou6():
    """The record of a μ game whose dealer stayed silent in East 1: mjai writes the draw's shown hands and the
    silent seat, and replaying it gives the same game; the tenhou.net/6 export still works."""
    g = game("mu", lambda gg, i: tenpai_wall(0, 0) if i == 0 else quiet(gg, i))
    run_out(g, until=lambda kk: kk.phase == DECLARE)
    g.apply(Action("noten", 0))
    while not g.over:
        run_out(g)
    buf = io.StringIO()
    write_mjai(game_record(g), buf)
    rec = read_mjai(buf.getvalue())
    draw = next(e for e in rec.events if e["type"] == "ryukyoku")
    assert draw["silent"] == [0] and draw["tenpais"] == [False] * 4
    report = replay_record(rec)
    assert report.mismatches == [] and report.matched == report.hands == len(g.results)
    doc = write_tenhou6(game_record(g))
    assert json.dumps(doc) and len(doc["log"]) == len(g.results)


# == 8. Yellow and red cards, and the referee's penalties ===========================================================


@pytest.mark.parametrize("preset", ["mleague", "meibi"])
def test_two_yellow_cards_make_a_red_one(preset):
    """001 7章5条3: 一日中被出示两张黄牌则累计为红牌; 7章5条4: 被出示红牌的对局者，和错和处罚方式相同（从个人总分中
    扣除20pt）; 003 7章5条3-4 (与犯规相同的处罚（从个人总分中减去20分）)."""
    g = game(preset, quiet)
    assert g.card(1, "yellow", "played before calling") == "yellow"
    run_out(g)
    assert g.card(1, "yellow", "showed two wall tiles") == "red"
    assert g.card(2, "yellow", "slow", earlier_yellows=1) == "red"  # its first yellow came in an earlier game
    assert g.card(3, "red", "deliberately slow") == "red"
    while not g.over:
        run_out(g)
    r = g.result
    assert r.penalties == [0.0, 20.0, 20.0, 20.0]
    assert r.cards[1] == ["yellow", "yellow", "red"] and r.cards[3] == ["red"]
    no_penalty = [round(f + p, 1) for f, p in zip(r.final, r.penalties, strict=True)]
    plain = game(preset, quiet)
    while not plain.over:
        run_out(plain)
    assert no_penalty == plain.result.final
    cards = [e for e in g.events if e["type"] == "card"]
    assert [(e["actor"], e["card"], e["pt"]) for e in cards] == [
        (1, "yellow", 0.0),
        (1, "red", 20.0),
        (2, "red", 20.0),
        (3, "red", 20.0),
    ]
    end = g.events[-1]
    assert end["type"] == "end_game" and end["penalties"] == [0.0, 20.0, 20.0, 20.0]
    # the record round-trips: replaying it applies the cards to the settlement
    buf = io.StringIO()
    write_mjai(game_record(g), buf)
    rec = read_mjai(buf.getvalue())
    assert rec.final == r.final
    report = replay_record(rec)
    assert report.mismatches == [] and report.matched == report.hands


@pytest.mark.parametrize("preset", ["mu", "standard", "tenhou"])
def test_no_cards_where_the_rules_have_none(preset):
    """000 Art 68-73 (μ) give only 错和 and 停和; 002 has no referee: no cards."""
    g = game(preset, quiet)
    with pytest.raises(IllegalActionError, match="no yellow or red cards"):
        g.card(0, "yellow")


def test_card_arguments_are_checked():
    g = game("mleague", quiet)
    for args, words in (((4, "yellow"), "seat"), ((0, "green"), "yellow' or 'red"), ((0, "yellow", "", -1), None)):
        with pytest.raises(IllegalActionError, match=words or "earlier_yellows"):
            if len(args) == 4:
                g.card(args[0], args[1], args[2], earlier_yellows=args[3])
            else:
                g.card(*args)
    with pytest.raises(IllegalActionError, match="rank points"):
        g.penalty(0, -1)
    assert g.cards == [[], [], [], []] and g.penalties == [0.0] * 4


@pytest.mark.parametrize(("preset", "pt"), [("mleague", 60.0), ("meibi", 60.0), ("mu", 20.0)])
def test_a_deliberate_chombo_costs_three_times(preset, pt):
    """001 7章4条3: 被裁判认定为故意错和的，处罚增为三倍; 003 7章4条3: 故意的犯规 ... 处罚的分数为3倍; μ (000 Art 68)
    names no such factor."""
    g = game(preset, quiet)
    g.chombo(0, "broke the wall on purpose", deliberate=True)
    assert g.penalties[0] == pt
    assert next(e for e in g.events if e["type"] == "ryukyoku")["deliberate"] is True


def test_a_penalty_after_the_game_settles_again():
    """001 3章3条4: 垒牌时牌山遭到破坏的情况下，依照破坏程度对该对局者进行处罚 - a penalty of the referee's size; after
    the last hand the settlement is made again, and the record keeps one end_game."""
    g = game("mleague", quiet)
    while not g.over:
        run_out(g)
    before = list(g.result.final)
    g.penalty(2, 5.0, "broke the wall")
    assert g.result.final[2] == round(before[2] - 5.0, 1)
    assert [e["type"] for e in g.events].count("end_game") == 1
    assert g.events[-2] == {"type": "penalty", "actor": 2, "pt": 5.0, "reason": "broke the wall"}


@pytest.mark.parametrize("preset", ["mleague", "standard"])
def test_a_chombo_round_trips_through_the_record(preset):
    """001 7章4条6 (此局均重新进行) and 7章4条1 (-20pt): a game with a chombo in its second hand, written as mjai
    and replayed: the same hand is played again, and the settlement with the penalty matches."""
    g = game(preset, quiet)
    run_out(g)
    play(g, [("tg", g.kyoku.dealer), ("tg", (g.kyoku.dealer + 1) % 4)])
    g.chombo(3, "showed a wrong win", deliberate=preset == "mleague")
    while not g.over:
        run_out(g)
    assert g.result.penalties[3] == (60.0 if preset == "mleague" else 0.0)
    buf = io.StringIO()
    write_mjai(game_record(g), buf)
    report = replay_record(read_mjai(buf.getvalue()))
    assert report.mismatches == [] and report.matched == report.hands == len(g.results) + 1
