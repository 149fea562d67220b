"""Rules that real Tenhou and Mahjong Soul games show, each with the game (or the seed article) it comes from.

pao over a second yakuman (``pao_scope``), the deal after a noten dealer's nagashi mangan, a riichi declaration
tile won on (the stick never stands), a robbed kan's tile held twice, the ``mahjongsoul`` rule set, and the
settlement a record states (read back from its own final points) with ``replay --check``'s exit status.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import pytest

from jantaku.cli import main
from jantaku.hand import Hand
from jantaku.records.load import read_records
from jantaku.records.mjlog import read_mjlog
from jantaku.records.replay import infer_settlement, replay_record
from jantaku.riichi import score_hand
from jantaku.riichi.conditions import ConditionError, WinConditions
from jantaku.rules import load_rules
from jantaku.rules.loader import diff_rules, preset_sources
from jantaku.table import Game, Kyoku, Wall
from jantaku.tiles import Tile, parse_tiles
from scenario_walls import build_wall, play, run_out, turns

DATA = Path(__file__).parent / "data" / "records"
MAHJONGSOUL = sorted((DATA / "tenhou6-json" / "mahjongsoul").glob("*.json"))


# == pao over a second yakuman ====================================================================================


def daisangen_wall(closed: str, last_draws: list[str]) -> Wall:
    """Seat 1 pons white from seat 0, green and then red from seat 2 (who becomes liable for daisangen);
    ``closed`` is the rest of seat 1's hand; ``last_draws`` are the draws of seats 2, 3, 0 (and 1) after."""
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
    ("preset", "deltas"),
    [
        # a real Tenhou game: daisangen completed by a pao player plus tsuuiisou, tsumo, 3 honba: the liable
        # player paid the whole 64,000 + 900, the others nothing
        ("tenhou", [0, 64900, -64900, 0]),
        # 001 8章1条3: 包牌者需要支付自己包牌的部分 (the liable yakuman, honba too); the tsuuiisou is an ordinary
        # tsumo (dealer 16,000, the others 8,000); Mahjong Soul settles the same way (RiichiEnv RULES.md)
        ("mleague", [-16000, 64900, -40900, -8000]),
        ("mahjongsoul", [-16000, 64900, -40900, -8000]),
        ("standard", [-16000, 64900, -40900, -8000]),  # 002 3.3: 全額支付該役滿役的點數 (that yakuman)
    ],
)
def test_pao_scope_on_a_tsumo_with_a_second_yakuman(preset, deltas):
    k = Kyoku(load_rules(preset), daisangen_wall("444z3z", ["1m", "9s", "3m", "3z"]), honba=3)
    play(k, [*PONS, ("tg", 2), ("tg", 3), ("tg", 0), ("t", 1)])
    r = k.result
    assert r.kind == "tsumo" and r.wins[0].seat == 1 and r.wins[0].pao == 2
    assert {"daisangen", "tsuuiisou"} <= {name for name, _ in r.wins[0].score.yaku}
    assert r.deltas == deltas


@pytest.mark.parametrize(
    ("preset", "deltas"),
    [
        # Tenhou halves the whole hand between the liable player and the discarder (RiichiEnv RULES.md: "the
        # total Ron amount is split 50/50"); the liable player pays the honba (pao_honba, Tenhou's logs)
        ("tenhou", [0, 64900, -32900, -32000]),
        # the liable yakuman halved, the tsuuiisou paid by the discarder alone (001 8章1条; Mahjong Soul)
        ("mleague", [0, 64900, -16900, -48000]),
        ("mahjongsoul", [0, 64900, -16900, -48000]),
    ],
)
def test_pao_scope_on_a_ron_with_a_second_yakuman(preset, deltas):
    k = Kyoku(load_rules(preset), daisangen_wall("444z3z", ["1m", "3z"]), honba=3)
    play(k, [*PONS, ("tg", 2), ("d", 3, "3z"), ("ron", 1)])
    r = k.result
    assert r.kind == "ron" and r.wins[0].from_seat == 3 and r.wins[0].pao == 2
    assert r.deltas == deltas


def test_pao_scope_in_the_calculator():
    """The same hand through ``score_hand``: one parameter, both scopes; a single yakuman pays the same."""
    from jantaku.meld import Meld

    melds = tuple(Meld.parse(m) for m in ("555z+", "666z+", "777z+"))
    hand = Hand(tuple(parse_tiles("44433z")), melds)
    c = WinConditions(win=Tile("3z"), tsumo=True, winner=1, seat_wind=1, pao=2, honba=3)
    assert score_hand(hand, c, load_rules("tenhou")).payments == [0, 64900, -64900, 0]
    assert score_hand(hand, c, load_rules("mleague")).payments == [-16000, 64900, -40900, -8000]


# == nagashi mangan and the deal ==================================================================================


def nagashi_wall() -> Wall:
    # the dealer (seat 0) draws and throws only terminals and honors, 18 of them, and ends noten; seat 2 is
    # tenpai on 5p all along
    yaochu = [t.mpsz for t in parse_tiles("19m19p19s1234567z 1m1p1s2z5z")]
    return build_wall(
        ["23558m2468p2468s", "367m367p367s888m4m", "123m456p789s234s5p", "147m147p147s9m9p9s3z"],
        turns({0: yaochu}),
        dora=["6s"],
    )


@pytest.mark.parametrize(("preset", "keeps"), [("standard", False), ("tenhou", False), ("meibi", False)])
def test_a_noten_dealers_nagashi_mangan_passes_the_deal(preset, keeps):
    """002 1.2, right after 流局滿貫: 流程：莊家聽牌時連莊，本場數＋1；莊家不聽牌時輪莊，進入下一局，本場數＋1;
    003 3章11条4: 流局满贯不影响连庄结算; a real Tenhou game: the dealer made nagashi mangan while noten, the
    deal passed and the honba counter went up."""
    walls = [nagashi_wall()]
    g = Game(load_rules(preset), seed=0, first_dealer=0, walls=lambda i: walls[i] if i < 1 else Wall.from_seed(i))
    run_out(g.kyoku)
    r = g.results[-1] if g.results else g.kyoku.result
    assert r.reason == "nagashi_mangan" and r.deltas == [12000, -4000, -4000, -4000]
    assert r.tenpai[0] is False and r.dealer_continues is keeps
    if g.kyoku.result is r:  # the game moves on once the hand is over
        g._hand_over(r)
    assert g.round_name == "E2" and g.kyoku.dealer == 1 and g.honba == 1


def test_nagashi_renchan_values_follow_the_seeds():
    assert not load_rules("standard").nagashi_renchan and not load_rules("tenhou").nagashi_renchan
    assert not load_rules("meibi").nagashi_renchan and not load_rules("mahjongsoul").nagashi_renchan
    assert "莊家不聽牌時輪莊" in preset_sources("standard")["nagashi_renchan"]
    assert "流局满贯不影响连庄结算" in preset_sources("meibi")["nagashi_renchan"]


# == a riichi declaration tile won on ===============================================================================


@pytest.mark.parametrize("preset", ["tenhou", "standard", "mahjongsoul", "mleague", "mu"])
def test_the_stick_of_a_riichi_declaration_won_on_never_stands(preset):
    """000 Art 40 若立直宣言牌未被荣和，立直即被认为成立; 001 4章 立直宣言牌未被荣和时即成立; 003 3章 立直宣言牌如果没有
    被荣和的话就成立; Tenhou and Mahjong Soul alike (a Mahjong Soul game, riichi_sengen_ron: the final points show
    the stick was never paid). The dealer declares riichi with 4m; seat 1 rons it with pinfu."""
    wall = build_wall(
        ["123m456p789s11z22z", "23m456p789p456s55s", "147m147p147s1234z", "369m369p369s5677z"], ["4m"], dora=["9m"]
    )
    k = Kyoku(load_rules(preset), wall)
    play(k, [("r", 0, "4m"), ("ron", 1)])
    r = k.result
    assert r.kind == "ron" and r.wins[0].seat == 1
    assert sum(r.deltas) == 0 and r.deltas[0] == -r.deltas[1] and r.deposits_left == 0
    assert k.scores[0] == load_rules(preset).starting_points + r.deltas[0] and k.deposits == 0
    assert not any(e["type"] == "reach_accepted" for e in k.events)


def test_mahjongsoul_riichi_sengen_ron_is_matched():
    rec = read_records(DATA / "tenhou6-json" / "mahjongsoul" / "riichi_sengen_ron.json")[0]
    report = replay_record(rec)
    assert report.matched == report.hands == 6 and report.unverifiable == 0 and not report.mismatches
    assert any("never stood" in n for n in report.notes) and report.final_checked


# == a robbed kan's tile held twice =================================================================================


@pytest.mark.parametrize("preset", ["tenhou", "mleague"])
def test_chankan_refused_when_the_winner_holds_another_copy(preset):
    """The kan being robbed holds the other three copies of the tile: a winner who also holds a copy in the
    closed tiles (123456789p222m55z, winning on 2m) is impossible; the reference and the fast scorer agree."""
    hand = Hand(tuple(parse_tiles("123456789p222m55z")))
    c = WinConditions(win=Tile("2m"), chankan=True, winner=1, seat_wind=1, discarder=2)
    with pytest.raises(ConditionError, match="robbed kan"):
        score_hand(hand, c, load_rules(preset))
    ok = Hand(tuple(parse_tiles("123456789p34m2m55z")))
    assert "chankan" in {
        n
        for n, _ in score_hand(
            ok, WinConditions(win=Tile("2m"), chankan=True, winner=1, seat_wind=1, discarder=2), load_rules(preset)
        ).yaku
    }


def test_cli_score_refuses_the_impossible_chankan(capsys):
    assert main(["score", "123456789p222m55z", "--win", "2m", "--chankan"]) == 2
    assert "robbed kan" in capsys.readouterr().err


# == Mahjong Soul =================================================================================================


def test_mahjong_soul_logs_are_recognised_and_replayed_under_mahjongsoul():
    """Mahjong Soul ranked games (Jade room) converted to tenhou.net/6: a ref like 220724-<uuid>, rule.disp
    玉の間南喰赤. Every hand and the final points (sc: (points - 25,000)/1,000 + uma 15/5/-5/-15, to 0.1) match."""
    assert len(MAHJONGSOUL) == 5
    hands = 0
    for path in MAHJONGSOUL:
        rec = read_records(path)[0]
        assert rec.rule_name == "mahjongsoul"
        report = replay_record(rec)
        assert not report.mismatches and report.matched == report.hands and report.complete
        assert report.final_checked
        assert report.settlement == "return 25,000, rank points +15/+5/-5/-15, rounding none (exact, to 0.1)"
        hands += report.hands
    assert hands == 42


def test_mahjongsoul_preset():
    ms = load_rules("mahjongsoul")
    assert (ms.starting_points, ms.return_points, ms.rank_points) == (25000, 25000, (15000, 5000, -5000, -15000))
    assert ms.final_rounding == "none" and ms.pao_scope == "yakuman" and ms.multiple_ron == "all"
    assert "triple_ron" not in ms.abortive_draws and ms.chankan_closed_kan == "kokushi"
    assert ms.double_yakuman == {"kokushi_musou_13", "suuankou_tanki", "junsei_chuuren_poutou", "daisuushii"}
    # the Bronze room's uma +15/+5/-5/-15: 43,600 first gives +33.6 (no oka)
    from jantaku.table import settle

    assert settle(ms, [43600, 31000, 15000, 10400], 0, 0).final == [33.6, 11.0, -15.0, -29.6]


def test_rules_diff_tenhou_mahjongsoul_names_a_source_for_every_difference(capsys):
    assert main(["rules", "--diff", "tenhou", "mahjongsoul"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["parameter", "tenhou", "mahjongsoul", "source"]
    rows = {line.split()[0]: line for line in lines[1:]}
    differing = {k for k, _, _ in diff_rules(load_rules("tenhou"), load_rules("mahjongsoul"))} - {"name", "title"}
    assert set(rows) == differing
    assert {"pao_scope", "double_yakuman", "return_points", "rank_points", "final_rounding"} <= differing
    for name in differing:
        assert "mahjongsoul:" in rows[name], rows[name]  # each Mahjong Soul value with its own source
    assert "RiichiEnv" in rows["pao_scope"] and "tenhou: Tenhou" in rows["pao_scope"]


# == the settlement a record states ===============================================================================


def _mjlog_bytes(name: str) -> bytes:
    raw = next((DATA / "tenhou-mjlog").rglob(name)).read_bytes()
    return gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw


def test_an_older_tenhou_game_settled_half_up():
    """A 2014 Tenhou game: -16,500 at the end is -46,500 from 30,000 and Tenhou wrote -67 (-47 - 20): half up,
    not five-down/six-up (which would give -66)."""
    rec = read_mjlog(_mjlog_bytes("tehou__2014050315gm-0041-0000-06a52f11_tw=2.mjlog"))[0]
    assert rec.final == [-67.0, 68.0, -11.0, 10.0]
    report = replay_record(rec)
    assert not report.mismatches and report.final_checked
    assert report.settlement == "return 30,000, rank points +40/+10/-10/-20, rounding half_up (to thousands, half up)"


def _with_owari(raw: bytes, finals: list[float]) -> bytes:
    m = re.search(rb'owari="([^"]+)"', raw)
    assert m
    parts = m.group(1).decode().split(",")
    for i, v in enumerate(finals):
        parts[2 * i + 1] = f"{v:.1f}"
    return raw[: m.start(1)] + ",".join(parts).encode() + raw[m.end(1) :]


def test_a_newer_tenhou_game_with_exact_final_points(tmp_path, capsys):
    """Newer Tenhou games print the final points to one decimal, unrounded (48.2, -35.3, -17.1, 4.2): the same
    game written that way is read back as 'none' and matches exactly."""
    raw = _mjlog_bytes("2019082700gm-00a9-0000-63d1f136.mjlog")
    rec = read_mjlog(raw)[0]
    end = next(e for e in rec.events if e["type"] == "end_game")["scores"]
    order = sorted(range(4), key=lambda s: -end[s])
    uma = dict(zip(order, (40.0, 10.0, -10.0, -20.0), strict=True))
    exact = [round((end[s] - 30000) / 1000 + uma[s], 1) for s in range(4)]
    assert any(x != int(x) for x in exact)
    path = tmp_path / "exact.mjlog"
    path.write_bytes(_with_owari(raw, exact))
    report = replay_record(read_mjlog(path)[0])
    assert not report.mismatches and report.final_checked
    assert report.settlement == "return 30,000, rank points +40/+10/-10/-20, rounding none (exact, to 0.1)"
    assert main(["replay", str(path), "--check"]) == 0
    assert "rounding none (exact, to 0.1): 1 record(s)" in capsys.readouterr().out


def test_final_points_that_fit_no_settlement_are_a_named_difference(tmp_path, capsys):
    raw = _mjlog_bytes("2019082700gm-00a9-0000-63d1f136.mjlog")
    rec = read_mjlog(raw)[0]
    bad = [x + (0.3 if i == 0 else 0.0) for i, x in enumerate(rec.final or [])]
    path = tmp_path / "odd.mjlog"
    path.write_bytes(_with_owari(raw, bad))
    report = replay_record(read_mjlog(path)[0])
    assert [m.what for m in report.mismatches] == ["settlement"] and report.settlement is None
    assert main(["replay", str(path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "end: settlement: expected" in out and "none fits" in out


def test_infer_settlement_prefers_the_rule_sets_own():
    tenhou = load_rules("tenhou")
    s = infer_settlement([38600, 29400, 22500, 9500], [48.0, 9.0, -17.0, -40.0], 0, tenhou)
    assert s is not None and s.rounding == "tenhou" and s.rank_points == (40000, 10000, -10000, -20000)
    assert infer_settlement([38600, 29400, 22500, 9500], [48.0, 9.0, -17.0], 0, tenhou) is None


# == replay --check exit status =====================================================================================


def test_replay_check_of_a_file_cut_to_100_bytes_exits_2(tmp_path, capsys):
    """Issue: `replay --check` exited 0 after checking nothing ("0 hands, 0 matched")."""
    src = DATA / "tenhou-mjlog" / "tenhou-python-bot" / "fixture-01.mjlog"
    cut = tmp_path / "cut.mjlog"
    cut.write_bytes(src.read_bytes()[:100])
    assert main(["replay", str(cut), "--check"]) == 2
    out = capsys.readouterr().out
    assert "0 hands" in out and "nothing was checked" in out


def test_replay_check_of_a_truncated_file_exits_2_and_says_what_was_skipped(tmp_path, capsys):
    raw = (DATA / "tenhou-mjlog" / "tenhou-python-bot" / "fixture-01.mjlog").read_bytes()
    inits = [m.start() for m in re.finditer(rb"<INIT ", raw)]
    cut = tmp_path / "half.mjlog"
    cut.write_bytes(raw[: inits[4] + 2000])  # whole hands, then one cut short
    assert main(["replay", str(cut), "--check"]) == 2
    out = capsys.readouterr().out
    # cut inside a tag: the reader sees whole hands only and notes the cut file
    assert "without </mjloggm> (truncated)" in out
    m = re.search(r"1 files, (\d+) hands, (\d+) matched, 1 not checked", out)
    assert m and m.group(1) == m.group(2) != "0"


def test_replay_check_of_an_unreadable_file_exits_2(tmp_path, capsys):
    bad = tmp_path / "broken.json"
    bad.write_text('{"log": [', encoding="utf-8")
    assert main(["replay", str(bad), "--check"]) == 2
    assert "cannot read" in capsys.readouterr().out


def test_replay_help_documents_the_exit_status(capsys):
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    out = capsys.readouterr().out
    assert "exit status:" in out and "0  every hand" in out and "2  the check is not whole" in out


def test_rules_show_prints_the_presets_own_source(capsys):
    assert main(["rules", "mahjongsoul"]) == 0
    out = capsys.readouterr().out
    assert "pao_scope = yakuman" in out and "mahjongsoul: RiichiEnv rule table" in out
