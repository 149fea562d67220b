"""Table scenarios: hands built tile by tile (tests/scenario_walls.py) and played by script, checked against
the rule documents (000 μ 2021, 001 M-League 2023-08-11, 002 the general online rules / Tenhou, 003 眉笔) and
the project's decisions where they are silent (docs/rules/sources.md; "RULES.md" below means that page).

Seats are absolute; unless a test says otherwise seat 0 deals, so seats 0-3 are East, South, West, North and
play goes 0 -> 1 -> 2 -> 3. "Draws" are the raw order of live draws as they happen.
"""

from __future__ import annotations

import pytest

from jantaku.rules import load_rules
from jantaku.table import Action, Game, IllegalActionError, Kyoku, Wall, draw_seating, settle
from jantaku.tiles import Tile, parse_tiles
from scenario_walls import build_wall, closed_hand, find_action, play, run_out, snapshot, step, turns

# -- helpers -------------------------------------------------------------------------------------------------


def new_kyoku(preset: str, wall: Wall, **kw) -> Kyoku:
    return Kyoku(load_rules(preset), wall, **kw)


def kinds(k: Kyoku, kind: str, seat: int) -> list[Action]:
    return [a for a in k.legal_actions(seat) if a.kind == kind]


def yaku_names(win) -> list[str]:
    return [name for name, _ in win.score.yaku]


def assert_illegal(k: Kyoku, action: Action, *fragments: str) -> None:
    """``apply`` must raise IllegalActionError whose message names the rule, and change nothing."""
    before = snapshot(k)
    twin = k.copy()
    with pytest.raises(IllegalActionError) as err:
        k.apply(action)
    message = str(err.value).lower()
    for fragment in fragments:
        assert fragment.lower() in message, f"{action!r}: message {str(err.value)!r} does not name {fragment!r}"
    assert snapshot(k) == before, f"{action!r} changed the state"
    assert twin.events == k.events and twin.scores == k.scores
    assert [closed_hand(twin, s) for s in range(4)] == [closed_hand(k, s) for s in range(4)]


def dora_events(k: Kyoku) -> int:
    return sum(1 for e in k.events if e["type"] == "dora")


# Four noten hands without winds, used wherever the other players only draw and discard.
NOTEN = ("147m258p369s2468s", "258m369p147s2468m", "369m147p258s2468p", "1379m1379p1379s5z")


# == abortive draws ===========================================================================================

NINE_TERMINALS = "19m19p19s1234z258m"


@pytest.mark.parametrize("preset", ["standard", "tenhou", "meibi"])
def test_nine_terminals_is_the_players_choice(preset):
    """002 1.5 九種九牌: 在第1巡內，手牌中有9種以上幺九牌時，可以選擇宣言途中流局 (a choice: the hand may also go
    on); RULES.md: nine terminals in standard and meibi. 002 途中流局: 莊家連莊且本場數＋1; 003 3章12条3 流局时听牌是
    连庄，其余状态都是轮庄: the meibi dealer who declared it is not waiting, so the deal passes."""
    wall = build_wall([NINE_TERMINALS, NOTEN[1], NOTEN[2], NOTEN[0]], ["5p"])
    k = new_kyoku(preset, wall)
    assert kinds(k, "ryukyoku", 0), "nine different terminals and honors after the first draw: the choice is offered"
    going_on = k.copy()
    step(going_on, ("d", 0, "5p"))
    assert going_on.result is None and going_on.to_act() == [1]
    step(k, ("kyuushu", 0))
    assert k.result.kind == "abortive" and k.result.reason == "nine_terminals"
    assert k.result.dealer_continues is (preset != "meibi") and k.result.deltas == [0, 0, 0, 0]
    assert_illegal(k, Action("dahai", 0, Tile("5p")), "ended")


@pytest.mark.parametrize("called", [False, True])
def test_nine_terminals_only_in_an_uninterrupted_first_go_around(called):
    """002 2.0 第一巡 ... 在該巡內成立 ... 九種九牌; 破一發：鳴牌、開杠 ... 可以立即結束1巡. After a call the first
    go-around is over and nine terminals can no longer be declared."""
    wall = build_wall(["6p147m258p369s246s", "66p19m19s23468m17z", NOTEN[2], NINE_TERMINALS], ["9s", "3z", "4z", "5s"])
    k = new_kyoku("standard", wall)
    script = [("d", 0, "6p")]
    script += [("pon", 1), ("d", 1, "1z")] if called else [("tg", 1)]
    play(k, script)
    run_out(k, until=lambda kk: kk.phase == "drawn" and kk.actor == 3)
    assert bool(kinds(k, "ryukyoku", 3)) is (not called)


@pytest.mark.parametrize("preset", ["mu", "mleague"])
def test_no_nine_terminals_where_there_are_no_abortive_draws(preset):
    """001 3章11条1: 任何情况下都没有途中流局; RULES.md: μ has no abortive draws."""
    wall = build_wall([NINE_TERMINALS, NOTEN[1], NOTEN[2], NOTEN[0]], ["5p"])
    k = new_kyoku(preset, wall)
    assert not kinds(k, "ryukyoku", 0)
    assert_illegal(k, Action("ryukyoku", 0), "nine terminals")


@pytest.mark.parametrize(("preset", "aborts"), [("standard", True), ("meibi", True), ("mu", False), ("mleague", False)])
def test_four_winds(preset, aborts):
    """002 1.5 四風連打: 在第1巡內，四家打出同樣的風牌時途中流局; 003 3章2条3 lists 四风连打; 001 3章11条1 and
    RULES.md (μ): no abortive draws, the hand goes on. 003 3章12条3: the noten meibi dealer passes the deal."""
    wall = build_wall(NOTEN, ["1z", "1z", "1z", "1z"])
    k = new_kyoku(preset, wall)
    play(k, [("tg", 0), ("tg", 1), ("tg", 2), ("tg", 3)])
    if aborts:
        assert k.result is not None and k.result.kind == "abortive" and k.result.reason == "four_winds"
        assert k.result.dealer_continues is (preset != "meibi")
    else:
        assert k.result is None and k.to_act() == [0] and k.tiles_left == 70 - 5


FOUR_RIICHI_HANDS = ("123m456m789m123p9p", "123s456s789s456p1m", "234m567p678s22z33z", "345s678p789m11z44z")


@pytest.mark.parametrize(("preset", "aborts"), [("standard", True), ("meibi", True), ("mu", False), ("mleague", False)])
def test_four_riichi(preset, aborts):
    """002 1.5 四家立直: 場上所有人立直後，途中流局 (the fourth stick is posted: the declaration discard was not
    won on); 003 3章2条3 lists 四家立直; 001 3章11条1 / RULES.md μ: no abortive draw, play goes on."""
    wall = build_wall(FOUR_RIICHI_HANDS, ["5z", "6z", "7z", "9s"])
    start = load_rules(preset).starting_points
    k = new_kyoku(preset, wall)
    play(k, [("r", 0, "5z"), ("r", 1, "6z"), ("r", 2, "7z"), ("r", 3, "9s"), ("pass",)])
    assert k.scores == [start - 1000] * 4 and k.deposits == 4
    if aborts:
        assert k.result.kind == "abortive" and k.result.reason == "four_riichi"
        assert k.result.deposits_left == 4 and k.result.dealer_continues
    else:
        assert k.result is None and k.to_act() == [0]


def four_kans_wall() -> Wall:
    # seat 0: three closed kans on its first turn; seat 1: the fourth; seat 2 holds a quad it may not declare
    return build_wall(
        ["2222m3333m4444m9p", "6666p178m257s39s1z", "8888s19m19p3z4z5z6z7z", "179m1379p1379s2z5s"],
        ["7z", "1p", "9m", "1m"],
        rinshan=["1s", "9s", "5s", "2z"],
        dora=["3p"],
    )


@pytest.mark.parametrize("preset", ["standard", "tenhou", "meibi"])
def test_four_kans_by_several_players_abort(preset):
    """002 1.5 四杠散了: 一局中，多人累計的第4次杠完成後，途中流局; 003 3章2条3 lists 四杠散了."""
    k = new_kyoku(preset, four_kans_wall())
    play(k, [("ankan", 0, "2m"), ("ankan", 0, "3m"), ("ankan", 0, "4m"), ("d", 0, "7z")])
    play(k, [("ankan", 1, "6p"), ("tg", 1), ("pass",)])
    assert k.result is not None and k.result.kind == "abortive" and k.result.reason == "four_kans"


@pytest.mark.parametrize("preset", ["mu", "mleague"])
def test_four_kans_by_several_players_play_on_without_a_fifth(preset):
    """001 3章11条1 (no abortive draw) and 4章5条4: 一局中全体成员开杠次数不得超过四次; 000 Art 29: 一局中总计
    最多可以开四次杠，不可以开第五次杠."""
    k = new_kyoku(preset, four_kans_wall())
    play(k, [("ankan", 0, "2m"), ("ankan", 0, "3m"), ("ankan", 0, "4m"), ("d", 0, "7z")])
    play(k, [("ankan", 1, "6p"), ("tg", 1), ("pass",)])
    assert k.result is None and k.to_act() == [2]
    assert "8888s" in closed_hand(k, 2) and not kinds(k, "ankan", 2)
    assert_illegal(k, Action("ankan", 2, Tile("8s"), tuple(parse_tiles("8888s"))), "kan")


@pytest.mark.parametrize("preset", ["standard", "tenhou", "meibi"])
def test_four_kans_by_one_player_do_not_abort(preset):
    """002 1.5 四杠散了: 一人4杠則對局繼續，但禁止再杠 (the hand goes on; nobody may make a fifth kan)."""
    wall = build_wall(
        ["2222m3333m4444m6m", "8888s19m19p3z4z5z6z7z", "79m147p257s2468p1z", "179m1379p1379s5z2z"],
        ["6m", "2s"],
        rinshan=["6m", "6m", "9p", "1z"],
        dora=["3p"],
    )
    k = new_kyoku(preset, wall)
    play(k, [("ankan", 0, "2m"), ("ankan", 0, "3m"), ("ankan", 0, "4m"), ("ankan", 0, "6m"), ("d", 0, "1z"), ("pass",)])
    assert k.result is None, f"one player's four kans ended the hand: {k.result}"
    assert k.to_act() == [1] and not kinds(k, "ankan", 1), "a fifth kan is never allowed"


def triple_ron_wall() -> Wall:
    # seat 0 discards 3p; seats 1 (penchan), 2 (ryanmen) and 3 (kanchan) all wait on it, each with a dragon pung
    return build_wall(
        ["3p19m19s1234z58m7s6s", "555z123m789m99s12p", "666z456s678m22s45p", "777z345m678s88p24p"],
        ["9p"],
        dora=["9s"],
    )


@pytest.mark.parametrize("preset", ["standard", "tenhou"])
def test_triple_ron_is_an_abortive_draw(preset):
    """002 1.5 三家和了: 三家同時對一張舍牌宣言榮和時，途中流局; 途中流局 ... 莊家連莊且本場數＋1."""
    k = new_kyoku(preset, triple_ron_wall(), honba=1, deposits=1)
    play(k, [("d", 0, "3p"), ("ron", 1), ("ron", 2), ("ron", 3)])
    r = k.result
    assert r.kind == "abortive" and r.reason == "triple_ron" and not r.wins
    assert r.deltas == [0, 0, 0, 0] and r.deposits_left == 1 and r.dealer_continues
    assert k.scores == [25000] * 4


def test_triple_ron_meibi_three_winners():
    """003 5章1条3: 和了者一局不限制人数。允许一张牌被多人和了; RULES.md: triple ron is NOT an abortive draw in
    meibi (all three win), honba and sticks go to the winner nearest the discarder."""
    k = new_kyoku("meibi", triple_ron_wall(), honba=1, deposits=1)
    play(k, [("d", 0, "3p"), ("ron", 1), ("ron", 2), ("ron", 3)])
    r = k.result
    assert r.kind == "ron" and [w.seat for w in r.wins] == [1, 2, 3]
    pts = {w.seat: w.score.points for w in r.wins}
    assert r.deltas[1] == pts[1] + 300 + 1000
    assert r.deltas[2] == pts[2] and r.deltas[3] == pts[3]
    assert r.deltas[0] == -(pts[1] + pts[2] + pts[3] + 300)


@pytest.mark.parametrize("preset", ["mu", "mleague"])
def test_three_rons_head_bump(preset):
    """000 Art 65: 同一局中只能有一名选手和牌 ... 优先级顺序为放铳者的下家、对面、上家; 001 5章1条3: 一局最多只能
    有一个人和牌 ... 即有头跳."""
    k = new_kyoku(preset, triple_ron_wall(), honba=0 if preset == "mu" else 1, deposits=1)
    play(k, [("d", 0, "3p"), ("ron", 1), ("ron", 2), ("ron", 3)])
    r = k.result
    assert r.kind == "ron" and [w.seat for w in r.wins] == [1]
    assert r.deltas[2] == 0 and r.deltas[3] == 0


# == several rons on one discard ===============================================================================


def double_ron_wall() -> Wall:
    # seat 1: riichi pinfu tanyao on 3p-6p; seat 3: chun and a 12p penchan on 3p; seat 2 deals in with 3p
    return build_wall(
        ["19m19p19s34z56z2p8s7p", "234m678m234s66s45p", "3p19m19p1357s234z8p", "777z456m789m12p99s"],
        ["1z", "2z", "8m", "1s", "9s", "7s", "9m", "3s", "1p", "5s", "2m"],
        dora=["1z"],
        ura=["1z"],
    )


DOUBLE_RON_SCRIPT = [
    ("tg", 0),
    ("tg", 1),
    ("tg", 2),
    ("tg", 3),
    ("tg", 0),
    ("r", 1, "7s"),
    ("tg", 2),
    ("tg", 3),
    ("tg", 0),
    ("tg", 1),
    ("d", 2, "3p"),
    ("ron", 3),
    ("ron", 1),
]


@pytest.mark.parametrize(
    ("preset", "winners", "deltas"),
    [
        # seat 1: riichi pinfu tanyao 30 fu = 3900; seat 3: chun 40 fu = 1300 + 2 honba + 2 sticks
        ("standard", [3, 1], [0, 3900, -5800, 3900]),
        ("meibi", [3, 1], [0, 3900, -5800, 3900]),
        ("mleague", [3], [0, 0, -1900, 3900]),
        ("mu", [3], [0, 0, -1300, 3300]),  # μ has no honba counter
    ],
)
def test_multiple_ron_variants(preset, winners, deltas):
    """002 3.3 二家和: 兩家同時對一張舍牌宣言榮和時，承認兩家的榮和。供托、本場只結算給上家 (the winner nearest the
    discarder); 003 5章1条3: all winners (RULES.md: honba and sticks to the nearest); 000 Art 65 and 001 5章1条3:
    head bump, the discarder's 下家 first. Seat 2 deals in; seat 3 (its 下家) comes before seat 1."""
    k = new_kyoku(preset, double_ron_wall(), honba=0 if preset == "mu" else 2, deposits=1)
    play(k, DOUBLE_RON_SCRIPT)
    r = k.result
    assert r.kind == "ron" and [w.seat for w in r.wins] == winners
    assert r.deltas == deltas
    assert r.deposits_left == 0


# == robbing a kan ===========================================================================================


def chankan_wall() -> Wall:
    # seat 0 discards 3p, seat 1 pons it and later adds the fourth 3p; seat 2 waits on 3p (12p penchan)
    return build_wall(
        ["19p28s33z58m4s6s7p1z3p", "33p19m1s9s567z24z8p7s", "12p456m789m234s99s", "147m258p369s2468s"],
        ["2z", "8s", "9p", "6z", "3p"],
        dora=["4z"],
        rinshan=["1p"],
    )


CHANKAN_SCRIPT = [("d", 0, "3p"), ("pon", 1), ("d", 1, "1m"), ("tg", 2), ("tg", 3), ("tg", 0), ("kakan", 1, "3p")]


@pytest.mark.parametrize("preset", ["standard", "mleague", "mu", "meibi"])
def test_chankan_of_an_added_kan(preset):
    """000 Art 51(6) 抢杠: 别人加杠时，这张牌如果可以作为和牌则可以作为役。这时杠不成立; 001 4章5条5: 若杠被抢杠，
    则杠不成立，杠宝牌指示牌也无需再行翻开 (no kan dora for a robbed kan)."""
    k = new_kyoku(preset, chankan_wall())
    play(k, CHANKAN_SCRIPT)
    assert k.to_act() == [2] and find_action(k, "ron", 2, "3p")
    step(k, ("ron", 2))
    r = k.result
    assert r.kind == "ron" and r.wins[0].seat == 2 and r.wins[0].from_seat == 1
    assert "chankan" in yaku_names(r.wins[0])
    assert r.deltas == [0, -1300, 1300, 0]  # chankan 1 han, 40 fu
    assert len(k.dora_indicators()) == 1 and dora_events(k) == 0


@pytest.mark.parametrize("preset", ["mleague", "standard", "meibi"])
def test_chankan_keeps_ippatsu(preset):
    """001 9章1条3: 有一发权利的情况下若抢杠和牌，因为杠不成立，所以抢杠可以与一发复合。且此时不翻杠宝牌; RULES.md:
    ippatsu with chankan: both count (mleague, standard, meibi). Seat 2 declares riichi, and within the same
    go-around robs seat 1's added kan."""
    k = new_kyoku(preset, chankan_wall())
    script = [("r", 2, "8s") if s == ("tg", 2) else s for s in CHANKAN_SCRIPT]
    play(k, [*script, ("ron", 2)])
    names = yaku_names(k.result.wins[0])
    assert {"riichi", "ippatsu", "chankan"} <= set(names)
    assert len(k.dora_indicators()) == 1


def test_no_chankan_in_furiten():
    """002 1.4 振聽：不能榮和（包括搶杠）; 001 5章5条2. Seat 2 waits on 3p-6p and has thrown a 6p: the added kan of 3p
    is not offered to it, and the kan goes on."""
    wall = build_wall(
        ["19p28s33z58m4s6s7p1z3p", "33p19m1s9s567z24z8p7s", "45p456m789m234s99s", "147m258p369s2468s"],
        ["2z", "6p", "9p", "6z", "3p"],
        dora=["4z"],
        rinshan=["1p"],
    )
    k = new_kyoku("standard", wall)
    play(k, CHANKAN_SCRIPT)
    assert k.phase == "drawn" and k.to_act() == [1] and k.drawn_rinshan


def kokushi_ankan_wall() -> Wall:
    # seat 1 draws the fourth East and makes a closed kan; seat 2 waits on East with thirteen orphans
    return build_wall(
        ["5z19m19p19s2468m35p", "111z2468m2468p35s", "19m19p19s2345677z", "147m258p369s2468s"], ["7s", "1z"]
    )


@pytest.mark.parametrize(
    ("preset", "robbed"), [("standard", True), ("meibi", True), ("tenhou", False), ("mu", False), ("mleague", False)]
)
def test_chankan_of_a_closed_kan_only_by_thirteen_orphans(preset, robbed):
    """RULES.md: robbing a closed kan: kokushi only (standard, meibi: 003 4章5条6 除了国士无双手役外，抢暗杠是不成立的);
    never in tenhou, μ (000 Art 51(6): only an added kan) and M-League (001 4章5条6: 任何情况下都没有抢暗杠)."""
    k = new_kyoku(preset, kokushi_ankan_wall())
    play(k, [("tg", 0), ("ankan", 1, "1z")])
    if robbed:
        assert k.to_act() == [2] and find_action(k, "ron", 2, "1z")
        step(k, ("ron", 2))
        w = k.result.wins[0]
        assert (w.seat, w.from_seat) == (2, 1) and "kokushi_musou" in yaku_names(w)
        assert k.result.deltas[1] == -32000
    else:
        assert k.phase == "drawn" and k.to_act() == [1] and k.drawn_rinshan, (
            "the kan stands: seat 1 draws its replacement"
        )
        assert k.result is None


def test_a_closed_kan_only_thirteen_orphans_may_rob_leaves_other_waits_unharmed():
    """000 Art 64 / 001 5章5条: furiten follows a winning tile the player could have taken. A closed kan of 9m
    may be robbed by thirteen orphans only (RULES.md; 003 4章5条6): seat 2 (kokushi, waiting on 9m) passes and is
    furiten; seat 3, waiting on 6m-9m with an ordinary hand, could never rob it and is not."""
    wall = build_wall(
        ["2468m2468p2468s3z", "999m2357p2357s46z", "11m19p19s1234567z", "78m123p456p789s11z"], ["7z", "9m"]
    )
    k = new_kyoku("standard", wall)
    play(k, [("tg", 0), ("ankan", 1, "9m")])
    assert k.to_act() == [2]
    step(k, ("pass", 2))
    assert k.phase == "drawn" and k.actor == 1 and k.drawn_rinshan
    assert k.seats[2].furiten_temp and not k.seats[3].furiten_temp


def test_robbed_closed_kan_turns_no_kan_dora_meibi():
    """003 4章5条5: 在杠子展示确认后，杠宝牌产生 ... 抢杠导致杠不成立时，杠宝牌不产生; 4章5条6: 除了国士无双手役外，
    抢暗杠是不成立的 (so a closed kan robbed by thirteen orphans never stood: no new indicator)."""
    k = new_kyoku("meibi", kokushi_ankan_wall())
    play(k, [("tg", 0), ("ankan", 1, "1z"), ("ron", 2)])
    assert k.result.kind == "ron" and k.result.wins[0].seat == 2
    assert len(k.dora_indicators()) == 1, "the robbed kan turned a kan dora indicator"
    assert dora_events(k) == 0


# == pao =====================================================================================================


def daisangen_wall(closed: str, last_draws: list[str]) -> Wall:
    """Seat 1 pons white from seat 0, green and then red from seat 2 (who becomes liable); ``closed`` is the
    rest of seat 1's hand; ``last_draws`` are the draws of seats 2, 3, 0 (and 1) after the third pon."""
    return build_wall(
        ["5z19m19p19s2468m35p", "55z66z77z1s4s7s" + closed, "6z7z2468p2468s35m9m", "1z2z357m357s79p1m1p9s"],
        ["8m", "3s", "7p", *last_draws],
        dora=["2s"],
    )


PONS = [
    ("d", 0, "5z"),
    ("pon", 1),
    ("d", 1, "1s"),
    ("d", 2, "6z"),
    ("pon", 1),
    ("d", 1, "4s"),
    ("d", 2, "7z"),
    ("pon", 1),
    ("d", 1, "7s"),
]


@pytest.mark.parametrize(
    ("preset", "closed", "win", "honba", "deltas"),
    [
        # daisangen alone, 1 honba: the liable seat 2 pays the yakuman and the honba
        ("standard", "123m9p", "9p", 1, [0, 32300, -32300, 0]),
        # 001 8章1条3's example: daisangen + tsuuiisou, 1 honba, seat 2 (West) liable for daisangen
        ("mleague", "444z3z", "3z", 1, [-16000, 64300, -40300, -8000]),
        ("meibi", "444z3z", "3z", 1, [-16000, 64300, -40300, -8000]),
        # μ counts several yakuman as one (Art 54): the liable player pays it all; no honba in μ
        ("mu", "444z3z", "3z", 0, [0, 32000, -32000, 0]),
    ],
)
def test_pao_daisangen_tsumo_liable_pays(preset, closed, win, honba, deltas):
    """000 Art 67: 打出的牌成为大三元第三组 ... 这一家若自摸和牌则打出这张牌的人需要支付全部点数; 001 8章1条:
    自摸时需要包牌者付全部点数 ... 2. 本场积棒也由包牌家全部支付 3. 双倍役满 ... 包牌者需要支付自己包牌的部分 (例：
    东家16000点、西家32300+8000点、北家8000点); 003 8章1条 (same example); 002 3.3 包牌: 自摸和時全額支付."""
    wall = daisangen_wall(closed, ["1m", "9s", "3m", win])
    k = new_kyoku(preset, wall, honba=honba)
    play(k, [*PONS, ("tg", 2), ("tg", 3), ("tg", 0), ("t", 1)])
    r = k.result
    assert r.kind == "tsumo" and r.wins[0].seat == 1 and r.wins[0].pao == 2
    assert "daisangen" in yaku_names(r.wins[0])
    assert r.deltas == deltas


@pytest.mark.parametrize(
    ("preset", "honba", "deltas"),
    [
        ("standard", 1, [0, 32300, -16300, -16000]),
        ("tenhou", 1, [0, 32300, -16300, -16000]),
        ("mleague", 1, [0, 32300, -16300, -16000]),
        ("meibi", 1, [0, 32300, -16300, -16000]),
        ("mu", 0, [0, 32000, -16000, -16000]),
    ],
)
def test_pao_daisangen_ron_split(preset, honba, deltas):
    """000 Art 67: 荣和时则要和放铳者分别支付一半的点数; 001 8章1条: 其他人放铳时需要包牌者和放铳者平分放铳点数,
    2. 本场积棒也由包牌家全部支付; 003 8章1条2: 本场点由包牌者承担; 002 3.3 本場清算…由支付者均攤 would have the
    liable player and the discarder halve the honba (pao_honba = shared); standard and tenhou have the liable player
    pay it (a real Tenhou record; decision). Seat 3 deals in the 9p; seat 2 fed the third dragon."""
    wall = daisangen_wall("123m9p", ["1m", "9p"])
    k = new_kyoku(preset, wall, honba=honba)
    play(k, [*PONS, ("tg", 2), ("d", 3, "9p"), ("ron", 1)])
    r = k.result
    assert r.kind == "ron" and r.wins[0].seat == 1 and r.wins[0].from_seat == 3 and r.wins[0].pao == 2
    assert r.deltas == deltas


@pytest.mark.parametrize("preset", ["mleague", "meibi"])
def test_no_pao_when_the_other_dragons_are_concealed(preset):
    """001 8章1条1(1): 出现暗杠或副露的两种三元牌的情况下，被副露第三种三元牌; 003 8章1条1(1): 已暗槓以及副露的
    三元牌达到两种时 (only closed kans and calls count). Seat 1 holds white and green as concealed pungs and pons
    red from seat 2: nobody is liable, and seat 3, who deals in, pays the whole yakuman."""
    wall = build_wall(
        ["5z19m19p19s2468m35p", "555z666z77z123m9p1s", "7z6z2468p2468s35m9m", "1z2z357m357s79p1m1p9s"],
        ["8m", "3s", "4z", "2p", "5s"],
        dora=["2s"],
    )
    k = new_kyoku(preset, wall)
    play(k, [("tg", 0), ("d", 1, "1s"), ("d", 2, "7z"), ("pon", 1), ("d", 1, "3s"), ("tg", 2), ("d", 3, "9p")])
    step(k, ("ron", 1))
    w = k.result.wins[0]
    assert "daisangen" in yaku_names(w) and w.pao is None
    assert k.result.deltas == [0, 32000, 0, -32000]


def suukantsu_wall() -> Wall:
    # seat 1: three closed kans, then an open kan on seat 2's 4p, and wins on the replacement tile
    return build_wall(
        ["147m258p369s1z2z3z4z", "2222m3333m6666m4p", "19m1s457m357s2568p", "179m1379p1379s5z6z"],
        ["5z", "4p", "4p"],
        rinshan=["4p", "9s", "5s", "9s"],
        dora=["6z"],
    )


@pytest.mark.parametrize(
    ("preset", "pao", "deltas"),
    [
        ("mleague", 2, [0, 32300, -32300, 0]),  # the player who fed the fourth kan pays all, honba included
        ("standard", None, [-16100, 32300, -8100, -8100]),  # no suukantsu pao: an ordinary tsumo
    ],
)
def test_pao_suukantsu_mleague_only(preset, pao, deltas):
    """001 8章1条1(3): 四杠子 出现一家三个暗杠或明杠的情况下，被明杠第四个杠 (liable), 8章1条2 honba too;
    002 3.3 包牌 names only 大三元、大四喜 (RULES.md: no suukantsu pao in standard)."""
    k = new_kyoku(preset, suukantsu_wall(), honba=1)
    play(k, [("tg", 0), ("ankan", 1, "2m"), ("ankan", 1, "3m"), ("ankan", 1, "6m"), ("d", 1, "5s")])
    play(k, [("d", 2, "4p"), ("kan", 1), ("t", 1)])
    r = k.result
    assert r.kind == "tsumo" and "suukantsu" in yaku_names(r.wins[0])
    assert r.wins[0].pao == pao
    assert r.deltas == deltas


# == nagashi mangan ============================================================================================


def nagashi_wall() -> Wall:
    # the dealer draws (and throws) only terminals and honors, 18 of them; seat 2 is tenpai on 5p all along
    yaochu = [t.mpsz for t in parse_tiles("19m19p19s1234567z 1m1p1s2z5z")]
    return build_wall(
        ["23558m2468p2468s", "367m367p367s888m4m", "123m456p789s234s5p", "147m147p147s9m9p9s3z"],
        turns({0: yaochu}),
        dora=["6s"],
    )


@pytest.mark.parametrize(
    ("preset", "reason", "deltas"),
    [
        ("standard", "nagashi_mangan", [12000, -4000, -4000, -4000]),
        ("meibi", "nagashi_mangan", [12000, -4000, -4000, -4000]),
        ("mu", None, [-1000, -1000, 3000, -1000]),
        ("mleague", None, [-1000, -1000, 3000, -1000]),
    ],
)
def test_nagashi_mangan(preset, reason, deltas):
    """002 1.5 流局滿貫: 荒牌平局時有人舍牌全部是幺九牌，而且沒有被別人鳴牌時 ... 不進行聽牌清算而進行滿貫清算;
    003 9章4条 流局满贯, 3章11条4: 不结算听牌费 ... 流局满贯不影响连庄结算 (a noten dealer does not repeat);
    RULES.md: not in μ or M-League (tenpai payments instead)."""
    k = new_kyoku(preset, nagashi_wall())
    run_out(k)
    r = k.result
    assert r.kind == "exhaustive" and r.reason == reason
    assert r.deltas == deltas
    assert r.tenpai == [False, False, True, False]
    if preset == "meibi":
        assert not r.dealer_continues


@pytest.mark.parametrize("preset", ["standard", "meibi"])
def test_nagashi_mangan_void_when_a_discard_was_called(preset):
    """002 1.5 流局滿貫: 舍牌全部是幺九牌，而且沒有被別人鳴牌時. The same hand, but seat 3 pons the dealer's
    last-but-one discard (a white dragon): no nagashi mangan, ordinary tenpai payments."""
    yaochu = [t.mpsz for t in parse_tiles("19m19p19s1234567z 1m1p1s2z5z")]
    draws = turns({0: yaochu})
    draws += [None] * (69 - len(draws)) + ["9s"]  # after the pon the dealer draws the last tile
    wall = build_wall(
        ["23558m2468p2468s", "367m367p367s888m4m", "123m456p789s234s5p", "147m147p147s9m9p55z"], draws, dora=["6s"]
    )
    k = new_kyoku(preset, wall)
    run_out(k, until=lambda kk: kk.phase == "responses" and kk.tiles_left == 1 and 3 in kk.to_act())
    play(k, [("pon", 3), ("d", 3, "1m")])
    run_out(k)
    r = k.result
    assert r.kind == "exhaustive" and r.reason is None
    assert r.deltas == [-1000, -1000, 3000, -1000]


# == furiten ===================================================================================================


def test_discard_furiten_blocks_ron_but_not_tsumo():
    """002 1.4 舍牌振聽: 打出過自己的待牌的狀態 ... 振聽：不能榮和（包括搶杠），只能自摸和; 001 5章5条2: 振听的时候只能
    自摸和牌; 000 Art 63. Seat 1 waits on 3p-6p after throwing a 6p: offered a chi on the dealer's 3p, never ron."""
    wall = build_wall(
        ["19p28s33z58m4s6s7p1z3p", "123m456m789s45p99p", NOTEN[2], NOTEN[3]], ["2z", "6p", "4z", "7z", "9m", "3p"]
    )
    k = new_kyoku("standard", wall)
    play(k, [("tg", 0), ("tg", 1), ("tg", 2), ("tg", 3), ("d", 0, "3p")])
    assert k.to_act() == [1] and find_action(k, "chi", 1) and find_action(k, "ron", 1) is None
    assert_illegal(k, Action("ron", 1, Tile("3p")), "furiten")
    play(k, [("pass", 1)])
    assert find_action(k, "tsumo", 1, "3p"), "furiten does not stop a tsumo"
    step(k, ("t", 1))
    assert k.result.kind == "tsumo" and k.result.wins[0].seat == 1


def test_discard_furiten_counts_called_discards():
    """000 Art 63: 自己的舍牌（被其他家吃、碰、或者杠的牌也包括在内）和手牌能构成和牌型时构成振听. Seat 1 throws 6p,
    seat 3 pons it; seat 1 (waiting on 3p-6p) still may not ron the dealer's 3p."""
    wall = build_wall(
        ["19p28s33z58m4s6s7p1z3p", "123m456m789s45p99p", NOTEN[2], "66p147m258s369s1z2z"], ["2z", "6p", "4z"]
    )
    k = new_kyoku("mu", wall)
    play(k, [("tg", 0), ("tg", 1), ("pon", 3), ("d", 3, "1z"), ("d", 0, "3p")])
    assert k.seats[1].river[-1].called_by == 3
    assert find_action(k, "ron", 1) is None
    assert_illegal(k, Action("ron", 1, Tile("3p")), "furiten")


def test_temporary_furiten_after_passing_cleared_by_own_discard():
    """002 1.4 同巡振聽: 錯過榮和後，在1巡內處於振聽狀態，下次打牌時解除; 000 Art 64: 直到自己下一次打牌之前都不
    可以荣和; 001 5章5条3. Seat 2 (tanyao, 3p-6p) passes on 3p, cannot ron 6p in the same go-around, can after
    its own discard."""
    wall = build_wall(
        ["3p19m19s1234z58m7s6s", "6p19m19p2z3z4z5z6z7z8s9s", "234m567m345s45p88s", "6p147m147s2589p1z"],
        ["2z", "1p", "9p", "3z"],
    )
    k = new_kyoku("standard", wall)
    step(k, ("d", 0, "3p"))
    assert find_action(k, "ron", 2, "3p")
    play(k, [("pass", 2), ("d", 1, "6p")])
    assert find_action(k, "ron", 2) is None, "temporary furiten: no ron until seat 2's own discard"
    play(k, [("tg", 2), ("d", 3, "6p")])
    assert find_action(k, "ron", 2, "6p"), "seat 2's own discard ended the temporary furiten"
    step(k, ("ron", 2))
    assert k.result.wins[0].seat == 2


def test_riichi_furiten_is_permanent():
    """002 1.4 立直振聽: 立直後錯過和牌時也會進入振聽狀態，不解除，此後只能自摸和; 000 Art 64: 若已立直则直到本局
    结束都不可以荣和; 001 4章8条7."""
    wall = build_wall(
        ["6p19m19s1234z58m7s9p", NOTEN[1], "234m567m345s45p88s", "3p147m147s2589p1z"],
        ["1p", "9p", "7z", "2z", "7z", "1s", "9s", "5z", "8p", "4z", "3p"],
    )
    k = new_kyoku("standard", wall)
    play(k, [("tg", 0), ("tg", 1), ("r", 2, "7z"), ("d", 3, "3p")])
    assert find_action(k, "ron", 2, "3p")
    play(k, [("pass", 2), ("tg", 0), ("tg", 1), ("tg", 2), ("tg", 3), ("d", 0, "6p")])
    assert find_action(k, "ron", 2) is None, "riichi furiten is not lifted by the player's own discard"
    play(k, [("tg", 1)])
    assert find_action(k, "tsumo", 2, "3p")
    step(k, ("t", 2))
    assert k.result.kind == "tsumo" and "double_riichi" in yaku_names(k.result.wins[0])


# == kuikae ====================================================================================================


@pytest.mark.parametrize(("preset", "forbidden"), [("mleague", True), ("standard", True), ("mu", False)])
def test_kuikae_after_chi(preset, forbidden):
    """001 7章2条2(3) 食替: 碰或吃的时候，副露的对子或搭子和副露后打出的牌能组成面子的行为 (判停和); RULES.md:
    standard forbidden (not offered), μ allowed. Seat 1 chis 3m with 45m: 3m and 6m would swap."""
    wall = build_wall(["3m19p19s1234z58m7s9m", "45m3m6m19p19s12z2p8p7s", NOTEN[2], NOTEN[3]], ["5z"])
    k = new_kyoku(preset, wall)
    play(k, [("d", 0, "3m"), ("chi", 1, "45m")])
    step(k, ("pass",))
    assert k.phase == "called" and k.to_act() == [1]
    offered = {a.tile.mpsz for a in kinds(k, "dahai", 1)}
    if forbidden:
        assert not offered & {"3m", "6m"}
        assert_illegal(k, Action("dahai", 1, Tile("6m")), "kuikae")
        assert_illegal(k, Action("dahai", 1, Tile("3m")), "kuikae")
    else:
        assert {"3m", "6m"} <= offered
        step(k, ("d", 1, "6m"))
        assert k.seats[1].river[-1].tile >> 2 == Tile("6m").kind


@pytest.mark.parametrize(("preset", "forbidden"), [("mleague", True), ("standard", True), ("mu", False)])
def test_kuikae_after_pon(preset, forbidden):
    """001 7章2条2(3) and 003 7章2条2(3): after a pon, discarding a tile that makes a set with the called pair
    is 食替; μ allows it (RULES.md). Seat 2 holds three 2p and pons the fourth."""
    wall = build_wall(["147m58p369s2468s1z", "19m19p19s1234z58m7s", "222p19m19s567z3m6m8s", NOTEN[3]], ["5z", "2p"])
    k = new_kyoku(preset, wall)
    play(k, [("tg", 0), ("tg", 1), ("pon", 2, "22p"), ("pass",)])
    assert k.phase == "called" and k.to_act() == [2]
    offered = {a.tile.mpsz for a in kinds(k, "dahai", 2)}
    assert ("2p" in offered) is (not forbidden)
    if forbidden:
        assert_illegal(k, Action("dahai", 2, Tile("2p")), "kuikae")


@pytest.mark.parametrize(("preset", "offered"), [("standard", False), ("mu", True)])
def test_a_call_that_leaves_only_kuikae_discards_is_not_offered(preset, offered):
    """Where kuikae is forbidden and not offered (RULES.md: standard), a chi after which every tile left in the hand
    would be 食替 (001 7章2条2(3)) is not offered at all; μ allows kuikae, so it is. Seat 1 pons three winds down
    to 3456m, then seat 0 discards 3m: chi with 45m would leave 3m and 6m, both forbidden."""
    wall = build_wall(["123z3m147p258s69m7s", "112233z3456m19p9s", NOTEN[2], NOTEN[3]], ["5z"])
    k = new_kyoku(preset, wall)
    for wind, extra in (("1z", "1p"), ("2z", "9p"), ("3z", "9s")):
        play(k, [("d", 0, wind), ("pon", 1), ("d", 1, extra), ("tg", 2), ("tg", 3)])
    assert len(k.seats[1].tiles) == 4
    step(k, ("d", 0, "3m"))
    chis = [a for a in k.legal_actions(1) if a.kind == "chi"]
    assert bool(chis) is offered
    if offered:
        step(k, ("chi", 1, "45m"))
        assert {a.tile.mpsz for a in kinds(k, "dahai", 1)} == {"3m", "6m"}


# == kan dora timing ===========================================================================================


def dora_between(k: Kyoku, kan_kind: str) -> bool:
    """Whether a new indicator turned between the last kan event and the replacement draw that followed."""
    idx = max(i for i, e in enumerate(k.events) if e["type"] == kan_kind)
    for e in k.events[idx + 1 :]:
        if e["type"] == "tsumo":
            return False
        if e["type"] == "dora":
            return True
    raise AssertionError("no replacement draw after the kan")


@pytest.mark.parametrize(
    ("preset", "kan_dora"), [("standard", 1), ("tenhou", 1), ("mleague", 1), ("meibi", 1), ("mu", 0)]
)
def test_kan_dora_after_a_closed_kan(preset, kan_dora):
    """001 4章5条5: 杠宝牌指示牌应在杠展示并被确认后及时翻开; RULES.md: standard/tenhou turn a closed kan's
    indicator at once too; 000 Art 16: 宝牌指示牌每局为一张 (μ: no kan dora at all)."""
    wall = build_wall(
        ["2222s147m258p369p", NOTEN[1], "369m147p58s2468p1z", NOTEN[3]], ["9m"], rinshan=["1z"], dora=["6z"]
    )
    k = new_kyoku(preset, wall)
    step(k, ("ankan", 0, "2s"))
    assert dora_between(k, "ankan") is bool(kan_dora), "a closed kan's indicator turns before the replacement draw"
    assert len(k.dora_indicators()) == 1 + kan_dora
    step(k, ("d", 0, "1z"))
    assert len(k.dora_indicators()) == 1 + kan_dora


def open_kan_wall() -> Wall:
    return build_wall(
        ["8p147m258s369s123z", "1379m1379s567z12p", "888p147s2589m346z", "2468m3456p246s19p"],
        ["4z"],
        rinshan=["7z"],
        dora=["3z"],
    )


# (indicators while the kan's player holds the replacement tile, indicators after its discard)
KAN_DORA_TIMING = [
    ("mleague", 2, 2),  # at once
    ("meibi", 2, 2),  # at once
    ("standard", 1, 2),  # after the replacement tile's discard
    ("tenhou", 1, 2),
    ("mu", 1, 1),  # never
]


@pytest.mark.parametrize(("preset", "holding", "after_discard"), KAN_DORA_TIMING)
def test_kan_dora_after_an_open_kan(preset, holding, after_discard):
    """001 2章6条2 (每一次杠行为成立会增加一张宝牌) and 4章5条5 (及时翻开), RULES.md: M-League and meibi turn it
    at once for every kan kind; RULES.md standard (Tenhou): an open kan's indicator turns after the replacement
    draw's discard; μ (000 Art 16): never. Seat 2 calls an open kan on seat 0's 8p."""
    k = new_kyoku(preset, open_kan_wall())
    play(k, [("d", 0, "8p"), ("kan", 2)])
    assert k.phase == "drawn" and k.to_act() == [2] and k.drawn_rinshan
    assert len(k.dora_indicators()) == holding
    assert dora_between(k, "daiminkan") is (holding == 2)
    step(k, ("tg", 2))
    assert len(k.dora_indicators()) == after_discard


@pytest.mark.parametrize(("preset", "holding", "after_discard"), KAN_DORA_TIMING)
def test_kan_dora_after_an_added_kan(preset, holding, after_discard):
    """As above for an added kan (加杠), once nobody robs it (001 4章5条5: 若杠被抢杠 ... 无需再行翻开)."""
    k = new_kyoku(preset, chankan_wall())
    play(k, [*CHANKAN_SCRIPT, ("pass", 2)])
    assert k.phase == "drawn" and k.to_act() == [1] and k.drawn_rinshan
    assert len(k.dora_indicators()) == holding
    step(k, ("tg", 1))
    assert len(k.dora_indicators()) == after_discard


# == the end of the wall =======================================================================================


def last_tile_wall() -> Wall:
    # seat 1 draws the 70th and last live tile (the fourth 1s, holding three) and throws its 7z; seat 3 waits on
    # 7z-4p (every other copy is in a hand, so nothing happens before)
    return build_wall(
        ["4p19m19p9s123456z3s", "111s7z2468m2468p5s", "7z13579m13579p2s8s", "234m567m234s77z44p"],
        [None] * 69 + ["1s"],
        dora=["8s"],
    )


@pytest.mark.parametrize("preset", ["standard", "mleague", "mu"])
def test_no_kan_after_the_last_tile_and_no_calls_on_the_last_discard(preset):
    """001 2章3条: 摸到海底牌的人不可以杠; 2章4条: 河底牌不可以被吃、碰或杠; 000 Art 34: 壁牌还剩余14张时，不可以
    吃、碰、或杠; 003 2章3-4条 (same). The last discard can still be won on (002 河底撈魚)."""
    k = new_kyoku(preset, last_tile_wall())
    run_out(k, until=lambda kk: kk.tiles_left == 0 and kk.phase == "drawn")
    assert k.to_act() == [1] and k.seats[1].counts[Tile("1s").kind] == 4
    assert not kinds(k, "ankan", 1)
    assert_illegal(k, Action("ankan", 1, Tile("1s"), tuple(parse_tiles("1111s"))), "last tile")
    step(k, ("d", 1, "7z"))
    assert k.to_act() == [3]
    assert {a.kind for a in k.legal_actions(3)} == {"ron", "none"}, "no pon on the last discard, ron only"
    assert_illegal(k, Action("pon", 3, Tile("7z"), tuple(parse_tiles("77z"))), "last discard")
    step(k, ("ron", 3))
    assert "houtei" in yaku_names(k.result.wins[0])


# == riichi ====================================================================================================

TENPAI_AFTER_9S = "123m456m789m11p23p"


def test_riichi_needs_a_tenpai_hand():
    """000 Art 36: 听牌的话，可以宣言立直; 002 2.1 立直: 門前聽牌時，宣言立直後成立的役."""
    wall = build_wall([TENPAI_AFTER_9S, NOTEN[1], NOTEN[2], NOTEN[3]], ["9s"])
    k = new_kyoku("standard", wall)
    riichi_tiles = {a.tile.mpsz for a in kinds(k, "reach", 0)}
    assert riichi_tiles == {"9s", "1p"}  # 11p23p+9s: keep the pair or the 123p run
    assert_illegal(k, Action("reach", 0, Tile("2p")), "tenpai")
    step(k, ("r", 0, "9s"))
    assert k.seats[0].riichi


def test_riichi_needs_a_closed_hand():
    """000 Art 36: 在没有碰、吃、或明杠时听牌的话，可以宣言立直; 001 4章8条1: 在门清状态下."""
    wall = build_wall(
        ["5z19m19p19s2468m35p", "55z123m456m789p1s9s", NOTEN[2], NOTEN[3]], ["2z", "6z", "3z", "4z", "9s"]
    )
    k = new_kyoku("standard", wall)
    play(k, [("d", 0, "5z"), ("pon", 1), ("d", 1, "9s"), ("tg", 2), ("tg", 3), ("tg", 0)])
    assert k.to_act() == [1] and not kinds(k, "reach", 1), "tenpai, but the hand is open"
    assert_illegal(k, Action("reach", 1, Tile("9s"), (), True), "closed")


@pytest.mark.parametrize(("preset", "allowed"), [("standard", False), ("mu", True), ("mleague", True)])
def test_riichi_below_1000_points(preset, allowed):
    """RULES.md: standard needs 1,000 points to declare riichi (Tenhou); μ and M-League allow it below 1,000."""
    wall = build_wall([TENPAI_AFTER_9S, NOTEN[1], NOTEN[2], NOTEN[3]], ["9s"])
    k = new_kyoku(preset, wall, scores=[900, 33100, 33000, 33000])
    assert bool(kinds(k, "reach", 0)) is allowed
    if not allowed:
        assert_illegal(k, Action("reach", 0, Tile("9s"), (), True), "1000 points")


def test_riichi_stick_is_not_posted_when_the_declaration_tile_is_won_on():
    """000 Art 40: 若立直宣言牌未被荣和，立直即被认为成立; 001 4章8条1: 立直宣言牌未被荣和时即成立 (no stick when the
    declaring discard deals in)."""
    wall = build_wall([TENPAI_AFTER_9S, "777z456m789p123s9s", NOTEN[2], NOTEN[3]], ["9s"], dora=["2z"])
    k = new_kyoku("standard", wall)
    play(k, [("r", 0, "9s"), ("ron", 1)])
    r = k.result
    assert r.wins[0].seat == 1 and not k.seats[0].riichi
    assert r.deltas == [-1300, 1300, 0, 0] and k.scores == [23700, 26300, 25000, 25000] and r.deposits_left == 0


def riichi_end_wall() -> Wall:
    # seats 1 and 2 are tenpai from the start and only draw and throw
    return build_wall([NOTEN[0], "123m456m789m11p23p", "123s456s789s11z55z", NOTEN[3]], [None] * 70, dora=["8s"])


@pytest.mark.parametrize(
    ("preset", "at_four", "at_three"), [("standard", True, False), ("mu", True, True), ("mleague", True, True)]
)
def test_riichi_and_the_tiles_left(preset, at_four, at_three):
    """RULES.md: standard needs at least 4 tiles left in the live wall (Tenhou); μ and M-League allow riichi
    with fewer, except by the player who drew the last tile (001 4章8条3: 允许 ... 没有摸牌机会的立直。摸到海底
    牌的人不可以立直)."""
    k = new_kyoku(preset, riichi_end_wall())
    run_out(k, until=lambda kk: kk.phase == "drawn" and kk.tiles_left == 4)
    assert k.to_act() == [1] and bool(kinds(k, "reach", 1)) is at_four
    run_out(k, until=lambda kk: kk.phase == "drawn" and kk.tiles_left == 3)
    assert k.to_act() == [2] and bool(kinds(k, "reach", 2)) is at_three
    if not at_three:
        assert_illegal(k, Action("reach", 2, k.tile(k.drawn), (), True), "4 tiles")
    run_out(k, until=lambda kk: kk.phase == "drawn" and kk.tiles_left == 0)
    assert k.to_act() == [1] and not kinds(k, "reach", 1), "nobody declares riichi on the last tile"


@pytest.mark.parametrize(
    ("preset", "hand", "allowed"),
    [
        # 111m 456p 789s 23s 55z waits 1s-4s; the kan of the drawn 1m changes nothing
        ("mleague", "111m456p789s23s55z", True),
        ("standard", "111m456p789s23s55z", True),
        ("meibi", "111m456p789s23s55z", True),
        ("mu", "111m456p789s23s55z", False),  # 000 Art 51(10): 立直后不可以吃、碰、或者杠
        # 111m 23m 456p 789s 55z waits 1m-4m-5z (11m+123m is a reading too): the kan would change the waits
        ("mleague", "111m23m456p789s55z", False),
        ("standard", "111m23m456p789s55z", False),
    ],
)
def test_closed_kan_after_riichi(preset, hand, allowed):
    """001 4章5条2: 允许立直后不改变面子构成的暗杠行为; 003 4章5条2: 立直后，如果不改变面子的构成时，可以暗杠; 002 2.1
    立直後除暗杠自摸牌外不能變動手牌; 000 Art 51(10): no kan at all after riichi (RULES.md)."""
    wall = build_wall([hand, NOTEN[1], NOTEN[2], "679m1379p1379s25z"], ["9p", "2z", "3z", "4z", "1m"], dora=["8p"])
    k = new_kyoku(preset, wall)
    play(k, [("r", 0, "9p"), ("tg", 1), ("tg", 2), ("tg", 3)])
    assert k.seats[0].riichi and k.to_act() == [0]
    assert bool(kinds(k, "ankan", 0)) is allowed
    if not allowed:
        assert_illegal(k, Action("ankan", 0, Tile("1m"), tuple(parse_tiles("1111m"))), "riichi")


# == ippatsu ===================================================================================================


@pytest.mark.parametrize("preset", ["standard", "mleague"])
@pytest.mark.parametrize("called", [False, True])
def test_ippatsu_is_broken_by_a_call(preset, called):
    """002 2.0 一發巡: 打立直牌後的1巡 ... 破一發：鳴牌、開杠 ... 可以立即結束1巡; 001 9章1条3 一发. Seat 0 declares
    riichi and draws its winning tile on its next turn; in between seat 2 pons (or not)."""
    hands = ["234m567m345s45p88s", "1z19m19p19s2z3z4z5z6z", "11z258m369p147s28m", NOTEN[3]]
    draws = ["9m", "7z", "4z", "3p"] if called else ["9m", "1z", "4z", "7z", "3p"]
    wall = build_wall(hands, draws, dora=["8s"], ura=["8s"])
    k = new_kyoku(preset, wall)
    play(k, [("r", 0, "9m"), ("d", 1, "1z")])
    play(k, [("pon", 2), ("d", 2, "2m"), ("tg", 3)] if called else [("tg", 2), ("tg", 3)])
    step(k, ("t", 0))
    assert ("ippatsu" in yaku_names(k.result.wins[0])) is (not called)


# == illegal actions ===========================================================================================


def test_illegal_actions_raise_and_leave_the_state_unchanged():
    """Every illegal action raises IllegalActionError naming the rule and leaves the hand exactly as it was
    (compared with a copy: events, scores, hands, melds, rivers, flags, legal actions)."""
    wall = build_wall(
        [TENPAI_AFTER_9S, NOTEN[1], "99s78s258m369p14z5z", NOTEN[3]], ["9s", "3z", "4z", "1s", "6z"], dora=["8p"]
    )
    k = new_kyoku("standard", wall)
    assert_illegal(k, Action("dahai", 0, Tile("7z")), "no 7z")
    assert_illegal(k, Action("dahai", 1, Tile("2m")), "not asked to act")
    assert_illegal(k, Action("reach", 0, Tile("2p")), "tenpai")
    assert_illegal(k, Action("tsumo", 0, Tile("9s")), "tsumo")
    assert_illegal(k, Action("dahai", 0, Tile("1m"), (), True), "tsumogiri")
    assert_illegal(k, Action("none", 0), "nothing to pass")
    step(k, ("r", 0, "9s"))
    assert k.to_act() == [2], "seat 2 may pon the riichi tile"
    assert_illegal(k, Action("chi", 2, Tile("9s"), tuple(parse_tiles("78s"))), "chi only from the player to the left")
    assert_illegal(k, Action("ron", 2, Tile("9s")), "cannot ron")
    assert_illegal(k, Action("dahai", 0, Tile("1m")), "not asked")
    play(k, [("pass", 2), ("tg", 1), ("tg", 2), ("tg", 3)])
    assert k.to_act() == [0] and k.seats[0].riichi and k.deposits == 1
    assert_illegal(k, Action("dahai", 0, Tile("1m")), "after riichi")
    assert_illegal(k, Action("reach", 0, Tile("6z"), (), True), "already")
    assert_illegal(k, Action("ryukyoku", 0), "nine terminals")


# == games ======================================================================================================


def patch_walls(monkeypatch: pytest.MonkeyPatch, walls: list[Wall]) -> None:
    """Deal the game's hands from ``walls`` in order (Game takes each hand's wall from Wall.from_seed)."""
    it = iter(walls)

    def from_seed(cls, seed):
        return next(it)

    monkeypatch.setattr(Wall, "from_seed", classmethod(from_seed))


def noten_wall(dealer: int) -> Wall:
    """All four hands noten; everyone only draws and throws: an exhaustive draw, dealer noten."""
    return build_wall(dict(enumerate(NOTEN)), dealer=dealer, dora=["8s"])


def first_dealer(preset: str, seed: int) -> int:
    return draw_seating(load_rules(preset).seating, seed).first_dealer


def test_noten_wall_is_a_quiet_exhaustive_draw():
    """The helper wall the game tests use: no win, no nagashi, no tenpai, no abortive draw (002 1.5)."""
    k = new_kyoku("standard", noten_wall(2), dealer=2)
    run_out(k)
    assert k.result.kind == "exhaustive" and k.result.reason is None and k.result.deltas == [0, 0, 0, 0]


def test_abortive_draw_repeats_the_hand_with_a_honba(monkeypatch):
    """002 1.5 途中流局: 對局進行中因滿足特殊條件而直接結束本局，莊家連莊且本場數＋1; 000 Art 43(2) / 002 3.3 供托:
    the sticks stay on the table for the next winner. Four riichi in East 1."""
    seed = 3
    f = first_dealer("standard", seed)
    four = build_wall({(f + i) % 4: h for i, h in enumerate(FOUR_RIICHI_HANDS)}, ["5z", "6z", "7z", "9s"], dealer=f)
    patch_walls(monkeypatch, [four, noten_wall(f)])
    g = Game(load_rules("standard"), seed=seed)
    play(g, [("r", f, "5z"), ("r", (f + 1) % 4, "6z"), ("r", (f + 2) % 4, "7z"), ("r", (f + 3) % 4, "9s"), ("pass",)])
    assert g.results[-1].reason == "four_riichi"
    assert g.round_name == "E1" and g.kyoku.dealer == f and g.honba == 1 and g.deposits == 4
    assert g.kyoku.honba == 1 and g.kyoku.deposits == 4


def test_west_round_and_sudden_death(monkeypatch):
    """002 1.2 西入: 南4局結束時，若Top未到原點，則進入西場; 南４局起對局結束的條件 ... 莊家不連莊且有人在原點以上時;
    RULES.md: West with sudden death at 30,000. Eight noten draws (honba 8), then in West 1 the player after
    the dealer rons 3,200 + 2,400 and has 30,600: the game ends at once."""
    seed = 11
    f = first_dealer("standard", seed)
    w = (f + 1) % 4
    hands = {f: "9s147m258p369s246s", w: "666z777z123m456p9s"}
    others = [s for s in range(4) if s not in (f, w)]
    hands[others[0]], hands[others[1]] = NOTEN[2], NOTEN[3]
    win = build_wall(hands, ["1p"], dealer=f, dora=["1z"])
    patch_walls(monkeypatch, [noten_wall((f + i) % 4) for i in range(8)] + [win])
    g = Game(load_rules("standard"), seed=seed)
    for _ in range(8):
        run_out(g)
    assert not g.over and g.round_name == "W1" and g.kyoku.round_wind == 2 and g.honba == 8
    play(g, [("d", f, "9s"), ("ron", w)])
    assert g.over, "sudden death: someone reached 30,000 in the west round"
    assert g.result.scores[w] == 30600


def test_west_round_ends_after_west_4(monkeypatch):
    """002 1.2: 南４局起對局結束的條件 ... 西場結束時; 003 6章2条7 (the same shape): after West 4 the game ends even
    if nobody reached the target."""
    seed = 5
    f = first_dealer("standard", seed)
    patch_walls(monkeypatch, [noten_wall((f + i) % 4) for i in range(13)])
    g = Game(load_rules("standard"), seed=seed)
    names = []
    while not g.over:
        names.append(g.round_name)
        run_out(g)
    assert names[-1] == "W4" and len(names) == 12


def kokushi_dealer_wall(dealer: int) -> Wall:
    hands = {dealer: "19m19p19s1234567z", (dealer + 1) % 4: "1m258m369p147s246m"}
    hands[(dealer + 2) % 4], hands[(dealer + 3) % 4] = NOTEN[2], "2468m3579p2468s7z"
    return build_wall(hands, ["5m", "9p"], dealer=dealer, dora=["8s"])


@pytest.mark.parametrize(("preset", "ends"), [("standard", True), ("meibi", True), ("mleague", False), ("mu", False)])
def test_bust_ends_the_game(monkeypatch, preset, ends):
    """002 1.2 擊飛: 有人點數在0點以下時對局結束; 003 3章2条4: 得点小于0 ... 对局直接结束; 001 3章2条4: 在半庄进行过程
    中有选手点数用光的情况下也应当将对局进行至南四局结束; RULES.md: μ plays on. The dealer's thirteen orphans
    (48,000) on the next player's first discard."""
    seed = 2
    f = first_dealer(preset, seed)
    patch_walls(monkeypatch, [kokushi_dealer_wall(f), noten_wall(f)])
    g = Game(load_rules(preset), seed=seed)
    play(g, [("d", f, "5m"), ("d", (f + 1) % 4, "1m"), ("ron", f)])
    loser = (f + 1) % 4
    assert g.scores[loser] == load_rules(preset).starting_points - 48000 < 0
    assert g.over is ends
    if ends:
        with pytest.raises(IllegalActionError, match="over"):
            g.apply(Action("dahai", f, Tile("1z")))
    else:
        assert g.round_name == "E1" and g.kyoku.dealer == f


def dealer_haneman_wall(dealer: int) -> Wall:
    # the dealer: ittsu + chun + honitsu (6 han, 18,000) on 9p tanki; the next player throws the 9p
    nxt = (dealer + 1) % 4
    hands = {dealer: "123p456p789p777z9p", nxt: "9p147m258p369s246s"}
    hands[(dealer + 2) % 4], hands[(dealer + 3) % 4] = "258m147s2468m369s", "1379m1379s2468s5z"
    return build_wall(hands, ["1z", "2z"], dealer=dealer, dora=["1z"])


@pytest.mark.parametrize(("preset", "stops"), [("standard", True), ("mleague", False), ("meibi", False), ("mu", False)])
def test_all_last_dealer_stop(monkeypatch, preset, stops):
    """002 1.2 南４局起對局結束的條件：莊家連莊時超過原點且成為首位時; RULES.md: agari-yame in standard only (μ,
    M-League, meibi: the dealer repeats). Seven noten draws, then the South 4 dealer wins 18,000."""
    seed = 8
    f = first_dealer(preset, seed)
    last = (f + 3) % 4
    walls = [noten_wall((f + i) % 4) for i in range(7)] + [dealer_haneman_wall(last), noten_wall(last)]
    patch_walls(monkeypatch, walls)
    g = Game(load_rules(preset), seed=seed)
    for _ in range(7):
        run_out(g)
    assert g.round_name == "S4" and g.kyoku.dealer == last
    play(g, [("tg", last), ("d", f, "9p"), ("ron", last)])
    assert max(g.scores) == g.scores[last] >= 30000
    assert g.over is stops
    if not stops:
        assert g.round_name == "S4"


@pytest.mark.parametrize("first", [0, 2])
def test_mleague_tie_example(first):
    """001 6章2条6: 三人28600点，起家北家一人13200点，供托1根 ... 起家东家 +19pt, 起家南家 +13.9pt, 起家西家 +13.9pt,
    起家北家 -46.8pt (rank points split 20/15/15, the leftover stick 400/300/300, the first dealer's side first)."""
    scores = [0, 0, 0, 0]
    for rel, pts in enumerate([28600, 28600, 28600, 13200]):
        scores[(first + rel) % 4] = pts
    r = settle(load_rules("mleague"), scores, 1, first)
    expected = [0.0] * 4
    for rel, pt in enumerate([19.0, 13.9, 13.9, -46.8]):
        expected[(first + rel) % 4] = pt
    assert r.final == expected
    assert r.deposits_to[first] == 400 and sorted(r.deposits_to) == [0, 300, 300, 400]


@pytest.mark.parametrize(
    ("preset", "final", "deposits_to"),
    [
        # RULES.md: standard ranks ties by seat order from the first dealer (seat 1 here), leftover sticks to first
        ("standard", [14.5, 45.5, -25.0, -35.0], [0, 1000, 0, 0]),
        # 003 6章2条6: 按照起家顺序 ... 依次向下排名; 流局结束时的立直棒由同得点的选手均分 (first not decided: split)
        ("meibi", [10.5, 40.5, -20.0, -31.0], [500, 500, 0, 0]),
    ],
)
def test_ties_in_the_final_ranking(preset, final, deposits_to):
    """Two players tie for first; seat 1 deals first, so it ranks ahead of seat 0; one stick is left over."""
    scores = [34500, 34500, 15000, 15000] if preset == "standard" else [40000, 40000, 20000, 19000]
    r = settle(load_rules(preset), scores, 1, 1)
    assert r.ranks[1] == 1 and r.ranks[0] == 2
    assert r.deposits_to == deposits_to
    assert r.final == final


def s4_riichi_wall(dealer: int) -> Wall:
    # South 4: the player after the dealer declares riichi at once and stays tenpai; the dealer is noten
    r = (dealer + 1) % 4
    hands = {dealer: NOTEN[0], r: "123m456m789m11p23p"}
    hands[(dealer + 2) % 4], hands[(dealer + 3) % 4] = NOTEN[2], NOTEN[3]
    return build_wall(hands, [None, "9s"], dealer=dealer, dora=["8s"])


@pytest.mark.parametrize(
    ("preset", "deposits_to", "final"),
    [
        # μ Art 43(3): 比赛结束时仍有供托的，不交给任何选手; ties split (RULES.md)
        ("mu", [0, 0, 0, 0], [14.0, -5.0, -5.0, -5.0]),
        # 001 6章2条5: 以流局形式结束整个半庄的时候，立直棒加算至1位点数中
        ("mleague", [1000, 0, 0, 0], [48.0, -16.0, -16.0, -16.0]),
    ],
)
def test_leftover_deposits_at_the_end(monkeypatch, preset, deposits_to, final):
    """000 Art 43(3): the riichi stick left on the table at the end goes to nobody in μ; to first in M-League.
    Seven noten draws, then in South 4 the player after the dealer is tenpai with riichi and the wall runs out."""
    seed = 4
    f = first_dealer(preset, seed)
    last = (f + 3) % 4
    walls = [noten_wall((f + i) % 4) for i in range(7)] + [s4_riichi_wall(last)]
    patch_walls(monkeypatch, walls)
    g = Game(load_rules(preset), seed=seed)
    for _ in range(7):
        run_out(g)
    assert g.round_name == "S4"
    r = (last + 1) % 4
    play(g, [("tg", last), ("r", r, "9s")])
    run_out(g)
    assert g.over
    rel = [(r + i) % 4 for i in range(4)]  # the riichi player first
    assert [g.result.deposits_to[s] for s in rel] == deposits_to
    assert [g.result.final[s] for s in rel] == final


def test_passing_a_winning_tile_without_yaku_is_furiten_even_when_nobody_could_call():
    """000 Art 64: 有人打出可以构成自己和牌型的牌但是没有荣和时，直到自己下一次打牌之前都不可以荣和.
    Seat 2 is tenpai on a kanchan 2p with no yaku (234m789m13p99s567s); nobody can call the dealer's 2p,
    yet seat 2 must be furiten until its own next discard."""
    wall = build_wall(
        ["2p19m19s1234z58m7s6s", "159m19p234567z89s", "234m789m13p99s567s", "147m258s36s145z78p"],
        ["3z", "6z", "9m"],
    )
    k = new_kyoku("standard", wall)
    play(k, [("d", 0, "2p")])
    assert k.seats[2].furiten_temp, "a passed winning tile makes the seat furiten"
    play(k, [("tg", 1)])
    assert k.seats[2].furiten_temp
    play(k, [("tg", 2)])
    assert not k.seats[2].furiten_temp, "its own discard ends temporary furiten"


def test_dead_hand_loses_calls_riichi_and_wins_and_is_noten():
    """000 Art 70: 判处停和，并剥夺该局的吃、碰、杠、立直的权利; Art 72: 被判停和者视为未听;
    003 7章2条1: 被判和了放弃者，失去吃、碰、杠、立直的权利直至本局结束.
    Seat 1 (tenpai on 3p-6p, could chi) is ruled dead: the dealer's 3p offers it nothing, and at the exhaustive
    draw it is noten."""
    wall = build_wall(
        ["19p28s33z58m4s6s7p1z3p", "123m456m789s45p99p", NOTEN[2], NOTEN[3]], ["2z", "7z", "4z", "6z", "9m"]
    )
    k = new_kyoku("standard", wall)
    k.declare_dead_hand(1, "took a tile out of turn")
    assert k.events[-1] == {"type": "dead_hand", "actor": 1, "reason": "took a tile out of turn"}
    play(k, [("d", 0, "3p")])
    assert k.events[-1]["type"] == "tsumo", "a dead hand is offered neither ron nor chi: nobody was asked"
    assert k.phase == "drawn" and k.actor == 1
    assert all(a.kind == "dahai" for a in k.legal_actions(1)), "no riichi, kan or tsumo either"
    run_out(k)
    assert k.result.kind == "exhaustive" and k.result.tenpai[1] is False


def test_game_with_a_time_limit_ends_after_the_hand_in_which_time_runs_out():
    """000 Art 24(2): 有时间限制的规则下，达到时限的那一局结束时
    (the game ends with the hand in which the time ran out)."""
    from jantaku.bots import RandomBot
    from jantaku.rules import load_rules
    from jantaku.table import Game

    now = [0.0]
    game = Game(load_rules("mu").replace(time_limit_minutes=30.0), seed=4, clock=lambda: now[0])
    bots = [RandomBot(s) for s in range(4)]
    hands_before = None
    while not game.over:
        if len(game.results) == 2 and hands_before is None:
            now[0] = 30 * 60 + 1  # the limit passes during the third hand
            hands_before = 2
        seat = game.to_act()[0]
        game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    assert len(game.results) == 3 and game.events[-1]["type"] == "end_game"
