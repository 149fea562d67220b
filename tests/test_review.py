"""``jantaku review``: real records replayed, the bot asked at each decision, JSON and summary output."""

import json
from collections import Counter
from pathlib import Path

import pytest

from jantaku.bots.registry import make_bot
from jantaku.bots.review import board, decision_kind, review_record
from jantaku.cli import main
from jantaku.records.load import read_records
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.actions import Action
from jantaku.tiles import Tile

DATA = Path(__file__).parent / "data" / "records"
# a Tenhou top-room game (Houou table, 2014) from tests/data/records/tenhou-mjlog
MJLOG = sorted((DATA / "tenhou-mjlog").rglob("*.mjlog"))[0]
FIELDS = {"source", "kyoku", "honba", "actor", "decision", "actual", "bot", "ranking"}


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_review_json_gives_one_object_per_decision(capsys):
    code, out, err = run(capsys, "review", MJLOG, "--json", "--player", "all")
    assert code == 0, err
    lines = [json.loads(line) for line in out.splitlines()]
    report = review_record(read_records(MJLOG)[0])
    assert len(lines) == len(report.items) > 100  # a whole hanchan: hundreds of decisions
    for obj in lines:
        assert set(obj) >= FIELDS
        assert obj["actor"] in (0, 1, 2, 3)
        assert obj["actual"]["type"] in (
            "dahai",
            "reach",
            "chi",
            "pon",
            "daiminkan",
            "ankan",
            "kakan",
            "hora",
            "none",
            "ryukyoku",
        )
        chosen = [r["action"] for r in obj["ranking"]]
        assert obj["bot"] == chosen[0]
        assert obj["actual"] in chosen  # the player's action was one of the legal ones ranked
        same = all(obj["bot"].get(k) == obj["actual"].get(k) for k in ("type", "pai", "consumed"))
        assert obj["agree"] == same
    kinds = {o["decision"] for o in lines}
    assert {"discard", "call"} <= kinds
    # the strong bot's own-turn discards carry its chance of winning the hand, and only those
    discards = [o for o in lines if o["decision"] == "discard"]
    chances = [r["win_chance"] for o in discards for r in o["ranking"]]
    assert len(chances) == sum(len(o["ranking"]) for o in discards)
    assert all(0 <= c <= 1 for c in chances) and max(chances) > 0
    assert not any("win_chance" in r for o in lines if o["decision"] == "call" for r in o["ranking"])
    agreement = sum(o["agree"] for o in lines) / len(lines)
    assert 0 < agreement < 1
    assert {o["actor"] for o in lines} == {0, 1, 2, 3}


def test_review_one_player_and_every_kind_of_record(capsys):
    code, out, _ = run(capsys, "review", MJLOG, "--json", "--player", "2", "--bot", "efficiency")
    assert code == 0
    assert {json.loads(line)["actor"] for line in out.splitlines()} == {2}
    tenhou6 = sorted((DATA / "tenhou6").rglob("*.json"))[0]
    code, out, err = run(capsys, "review", tenhou6, "--json")
    assert code == 0, err
    assert out.strip() and all(set(json.loads(line)) >= FIELDS for line in out.splitlines())


def test_review_of_a_game_jantaku_stored(capsys, tmp_path):
    code, _, _ = run(
        capsys, "simulate", "--rules", "tenhou", "--games", "1", "--bots", "strong", "--out", tmp_path, "--quiet"
    )
    assert code == 0
    stored = next(tmp_path.iterdir())
    report = review_record(read_records(stored)[0], bot="strong", seed="0")
    # simulate's game 0 seeded its bots "0:SEAT", as the review does with seed "0": the strong bot, replayed
    # from the stored record, makes every one of its own decisions again
    assert report.items and not report.skipped
    assert report.agreement() == 1.0


def test_review_summary_shows_agreement_and_differences(capsys):
    code, out, _ = run(capsys, "review", MJLOG)
    assert code == 0
    assert "decisions reviewed with the strong bot" in out
    assert "agreement" in out and "costliest differences" in out
    for seat in range(4):
        assert any(line.split()[:1] == [str(seat)] for line in out.splitlines())


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--player", "7"], "--player is a seat 0-3 or 'all'"),
        (["--rules", "nosuch"], "nosuch"),
    ],
)
def test_review_bad_input_is_one_line(capsys, argv, message):
    code, _, err = run(capsys, "review", MJLOG, *argv)
    assert code == 2
    assert message in err and "Traceback" not in err


def test_review_missing_file(capsys, tmp_path):
    code, _, err = run(capsys, "review", tmp_path / "missing.mjlog")
    assert code == 2 and "no such file" in err


def test_decision_kinds():
    d = Action.discard
    from jantaku.tiles import Tile

    assert decision_kind([d(0, Tile("1m")), d(0, Tile("2m"))]) == "discard"
    assert decision_kind([d(0, Tile("1m")), Action.riichi(0, Tile("1m"))]) == "riichi"
    assert decision_kind([Action.passing(1), Action.pon(1, Tile("1m"), (Tile("1m"), Tile("1m")))]) == "call"
    assert decision_kind([Action.passing(1), Action("ron", 1, Tile("1m"))]) == "win"


def test_review_reads_mjai_records_as_it_reads_the_mjlog(capsys, tmp_path):
    from jantaku.records.mjai import write_mjai

    mjai = tmp_path / "game.mjson"
    write_mjai(read_records(MJLOG)[0], mjai)
    code, out, err = run(capsys, "review", mjai, "--json", "--bot", "efficiency")
    assert code == 0, err
    from_mjai = [json.loads(line) for line in out.splitlines()]
    code, out, _ = run(capsys, "review", MJLOG, "--json", "--bot", "efficiency")
    from_mjlog = [json.loads(line) for line in out.splitlines()]
    keys = ("kyoku", "honba", "actor", "decision", "actual", "bot")
    assert [[o[k] for k in keys] for o in from_mjai] == [[o[k] for k in keys] for o in from_mjlog]
    assert from_mjai and from_mjai[0]["source"].endswith("game.mjson")


def test_costliest_differences_name_the_deal_ins_the_bot_avoided(capsys):
    # the 2014 Houou game: seat 0 deals in twice, for 8000 in E1 (7p) and for 32000 in E3 (3s, a yakuman);
    # both times the strong bot keeps the tile and discards one no winner waits on
    report = review_record(read_records(MJLOG)[0])
    noted = sorted((it.kyoku, it.actor, it.actual["pai"], it.cost) for it in report.items if it.note == "deal-in")
    assert noted == [("E1", 0, "7p", 8000), ("E3", 0, "3s", 32000)]
    for it in report.items:
        if it.note:
            assert not it.agree and it.to_json()["cost"] == it.cost
        else:
            assert "note" not in it.to_json()
    code, out, _ = run(capsys, "review", MJLOG, "--player", "0")
    assert code == 0
    lines = out.splitlines()
    first = lines.index(next(line for line in lines if line.startswith("costliest differences")))
    assert "E3-0 seat 0 discard: played discard 3s" in lines[first + 1]
    assert "dealt in for 32000 points" in lines[first + 1]
    assert "dealt in for 8000 points" in lines[first + 2]


def test_a_bot_reviewing_its_own_game_agrees_with_itself(capsys, tmp_path):
    # M-League rules (head bump: a second ron is lost, and the record shows it as a pass): the efficiency bot's
    # random tie-breaks are drawn as in play, and the answers a higher claim overruled are not reviewed
    code, _, _ = run(
        capsys, "simulate", "--rules", "mleague", "--games", "1", "--bots", "efficiency", "--out", tmp_path, "--quiet"
    )
    assert code == 0
    report = review_record(read_records(next(tmp_path.iterdir()))[0], bot="efficiency", seed="0")
    assert len(report.items) > 400 and not report.skipped
    assert report.agreement() == 1.0


def _board_from_the_engine(k, seat):
    """The board as the engine knows it (the tiles by name; the reference for the seat view's board)."""
    me = k.seats[seat]
    drawn = k.drawn if k.phase == "drawn" and k.actor == seat and k.drawn in me.tiles else None
    discard = None
    if k.phase == "chankan" and k.kakan_tile is not None:
        discard = [k.actor, k.mjai(k.kakan_tile)]
    elif k.phase == "responses" and k.last_discard is not None:
        discard = [k.last_discard[0], k.mjai(k.last_discard[1])]

    def flags(r):
        return ("r" if r.riichi else "") + ("c" if r.called_by is not None else "") + ("t" if r.tsumogiri else "")

    return {
        "seat": seat,
        "dealer": k.dealer,
        "hand": sorted((k.mjai(i) for i in me.tiles if i != drawn), key=lambda n: Tile.from_mjai(n).sort_key),
        "drawn": k.mjai(drawn) if drawn is not None else None,
        "rivers": [[[k.mjai(r.tile), flags(r)] for r in st.river] for st in k.seats],
        "melds": [[{"kind": m.kind.value, "tiles": [t.mjai for t in m.tiles]} for m in st.melds] for st in k.seats],
        "riichi": [st.riichi for st in k.seats],
        "dora": [k.mjai(i) for i in k.dora_indicators()],
        "scores": list(k.scores),
        "tiles_left": k.tiles_left,
        "discard": discard,
    }


@pytest.mark.parametrize("preset", ["tenhou", "mleague", "jielu"])
def test_the_board_read_from_the_seats_view_is_the_table_the_seat_saw(preset):
    """Issue 33: the review's board is read from the seat's own view; at every decision of seeded games it
    shows what the engine shows that seat (calls, kans, riichi and robbed kans included)."""
    rules = load_rules(preset).replace(rounds=1)
    seen = Counter()
    for seed in range(3):
        game = Game(rules, seed)
        bots = [make_bot("efficiency" if s % 2 == 0 else "random", f"{seed}:{s}") for s in range(4)]
        while not game.over:
            seat = game.to_act()[0]
            k = game.kyoku
            if k.result is None and k.phase != "declare":
                b = board(game.view(seat))
                want = _board_from_the_engine(k, seat)
                b["hand"] = sorted(b["hand"], key=lambda n: Tile.from_mjai(n).sort_key)
                assert b == want, f"{preset} game {seed} seat {seat} in {k.phase}"
                seen[k.phase] += 1
            game.apply(bots[seat].act(game.view(seat), game.legal_actions(seat)))
    assert seen["drawn"] > 100 and seen["responses"] > 10, seen
