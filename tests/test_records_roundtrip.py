"""Round trips: a jantaku game -> tenhou.net/6 or mjai -> read back -> replayed through the engine, every hand
matching, under every riichi preset; and the CLI writes both formats."""

import json

import pytest

from jantaku.cli import main
from jantaku.records.export import game_record, save_game
from jantaku.records.load import read_records
from jantaku.records.mjai import read_mjai
from jantaku.records.record import rotate_seats
from jantaku.records.replay import replay_record
from jantaku.records.tenhou6 import read_tenhou6, write_tenhou6
from jantaku.rules import load_rules
from jantaku.sim.runner import play_game

PRESETS = ["tenhou", "standard", "mu", "mleague", "meibi", "mahjongsoul"]
BOTS = ["efficiency", "random", "efficiency", "efficiency"]


@pytest.mark.parametrize("preset", PRESETS)
def test_tenhou6_round_trip_replays(preset):
    rules = load_rules(preset)
    hands = 0
    for seed in (1, 2):
        game = play_game(rules, seed, BOTS)
        doc = json.loads(json.dumps(write_tenhou6(game_record(game), rule_disp=preset)))
        assert doc["rule"]["disp"] == preset and len(doc["log"]) == len(game.results)
        (back,) = read_tenhou6(doc)
        report = replay_record(back, preset)
        assert not report.mismatches, [str(m) for m in report.mismatches[:3]]
        assert report.matched == report.hands == len(game.results)
        hands += report.hands
    assert hands >= 8


@pytest.mark.parametrize("preset", PRESETS)
def test_mjai_round_trip_replays(preset, tmp_path):
    game = play_game(load_rules(preset), 3, BOTS)
    path = save_game(game, tmp_path / "g.mjson", "mjai")
    back = read_mjai(path)
    assert back.events == game.events
    report = replay_record(back, preset)
    assert not report.mismatches and report.matched == len(game.results)


def test_tenhou6_seats_the_first_dealer_at_zero():
    game = next(g for g in (play_game(load_rules("standard"), s, ["random"] * 4) for s in range(20)) if g.first_dealer)
    doc = write_tenhou6(game_record(game))
    first = doc["log"][0]
    assert first[0][0] == 0  # E1, dealer seat 0 in tenhou.net/6 numbering
    rotated = rotate_seats(game.events, game.first_dealer)
    start = next(e for e in rotated if e["type"] == "start_kyoku")
    assert start["oya"] == 0


def test_simulate_out_writes_both_formats(tmp_path, capsys):
    for fmt in ("mjai", "tenhou6"):
        out = tmp_path / fmt
        assert (
            main(["simulate", "--rules", "mleague", "--games", "2", "--out", str(out), "--format", fmt, "--quiet"]) == 0
        )
        files = sorted(out.iterdir())
        assert len(files) == 2
        for f in files:
            (rec,) = read_records(f)
            assert replay_record(rec, "mleague").mismatches == []
    capsys.readouterr()
