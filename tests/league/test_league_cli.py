"""``jantaku league``: the organiser's commands, on SQLite and PostgreSQL, and their errors (one line, exit 2)."""

from __future__ import annotations

import json
from pathlib import Path

from jantaku.cli import main


def run(capsys, db, *args):
    code = main(["league", "--db", db, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_game_from_the_command_line(capsys, db_url):
    assert run(capsys, db_url, "create", "Cup", "--rules", "mu")[0] == 0
    run(capsys, db_url, "player", "Cup", "Ann", "Bo", "Cy", "Di")
    code, out, _ = run(capsys, db_url, "--json", "game", "Cup", "Ann", "Bo", "Cy", "Di", "--dealer", "Bo")
    gid = str(json.loads(out)["game"])
    code, out, _ = run(capsys, db_url, "win", gid, "Cy", "3", "40", "--from", "Ann")
    assert code == 0 and "Ann -5200, Cy +5200" in out
    # μ 2021 Art 65: one winner only
    code, _, err = run(capsys, db_url, "win", gid, "Cy", "3", "40", "--from", "Ann", "--also", "Di", "2", "30")
    assert code == 2 and "head bump gives the win to seat 2" in err and "Art 65" in err
    assert "Traceback" not in err and len(err.splitlines()) == 1
    code, _, err = run(capsys, db_url, "win", gid, "Cy", "1", "25", "--from", "Ann")
    assert code == 2 and "1 han 25 fu by ron cannot exist" in err
    code, _, err = run(capsys, db_url, "win", gid, "Cy", "3", "40")
    assert code == 2 and "either --tsumo or --from" in err
    code, out, _ = run(capsys, db_url, "draw", gid, "--tenpai", "Cy", "--correct")
    assert code == 0 and "entry 1 corrected" in out
    code, out, _ = run(capsys, db_url, "undo", gid)
    assert code == 0 and "entry 1 deleted" in out
    for _ in range(8):
        code, out, _ = run(capsys, db_url, "draw", gid)
    assert "game over" in out
    code, out, _ = run(capsys, db_url, "--json", "standings", "Cup")
    assert code == 0 and sorted(r["total"] for r in json.loads(out)["players"]) == [0.0] * 4
    code, out, _ = run(capsys, db_url, "log", "Cup")
    assert "correct_last" in out and "add_entry" in out


def test_errors_are_one_line(capsys, tmp_path):
    db = str(tmp_path / "x.db")
    code, _, err = run(capsys, db, "standings", "Nope")  # only reads: creates no database
    assert code == 2 and f"no league database at {db!r}: create an event first" in err
    assert not Path(db).exists()
    assert run(capsys, db, "create", "Other", "--rules", "mu")[0] == 0
    code, _, err = run(capsys, db, "standings", "Nope")
    assert code == 2 and err.strip() == "jantaku league: error: no event 'Nope'"
    code, _, err = run(capsys, "postgresql://me:hunter2@127.0.0.1:1/db", "events")
    assert code == 2 and "cannot open the database" in err and "hunter2" not in err
    code, _, err = run(capsys, "mysql://h/db", "standings", "Nope")
    assert code == 2 and "postgresql:// URL" in err
    run(capsys, db, "create", "Cup", "--rules", "mleague")
    code, _, err = run(capsys, db, "quick", "Cup", "A", "B", "C", "D", "--scores", "1,2,3")
    assert code == 2 and "a quick entry has four final scores, got [1, 2, 3]" in err
    code, _, err = run(capsys, db, "quick", "Cup", "A", "B", "C", "D", "--scores", "40000,30000,20000,10000")
    assert code == 2 and "no player 'A'" in err
    code, _, err = run(capsys, db, "quick", "Cup", "A", "B", "C", "D", "--scores", "x")
    assert code == 2 and "--scores are four whole numbers" in err
    code, _, err = run(capsys, db, "import", "Cup", str(tmp_path / "missing.mjlog"))
    assert code == 2 and "missing.mjlog: No such file" in err


def test_a_second_winner_with_pao_and_the_dealers_stop(capsys, db_url):
    # tenhou: a double ron; the all-last dealer tenpai and first chooses to stop (002 1.2)
    run(capsys, db_url, "create", "T", "--rules", "tenhou")
    run(capsys, db_url, "player", "T", "Ann", "Bo", "Cy", "Di")
    code, out, _ = run(capsys, db_url, "--json", "game", "T", "Ann", "Bo", "Cy", "Di", "--dealer", "Ann")
    gid = str(json.loads(out)["game"])
    args = ["win", gid, "Bo", "2", "30", "--from", "Ann", "--also-yakuman", "Cy", "1", "--also-pao", "Cy=Di"]
    code, out, err = run(capsys, db_url, "--json", *args)
    assert code == 0, err
    assert json.loads(out)["state"]["scores"] == [7000, 27000, 57000, 9000]  # Di and Ann halve Cy's yakuman
    code, _, err = run(capsys, db_url, *args[:-1], "Bo=Di")
    assert code == 2 and "--also-pao takes WINNER=PLAYER" in err
    code, out, _ = run(capsys, db_url, "--json", "game", "T", "Ann", "Bo", "Cy", "Di", "--dealer", "Ann")
    gid = str(json.loads(out)["game"])
    run(capsys, db_url, "win", gid, "Di", "5", "30", "--from", "Ann")
    for _ in range(6):
        run(capsys, db_url, "draw", gid)
    code, out, _ = run(capsys, db_url, "draw", gid, "--tenpai", "Di")
    assert "Di (the all-last dealer) may stop the game now" in out
    code, out, _ = run(capsys, db_url, "yame", gid, "stop")
    assert code == 0 and "game over" in out


def test_rename_and_delete_from_the_command_line(capsys, db_url):
    run(capsys, db_url, "create", "Cup", "--rules", "mleague")
    run(capsys, db_url, "player", "Cup", "A", "B", "C", "D", "E")
    run(capsys, db_url, "quick", "Cup", "A", "B", "C", "D", "--scores", "40000,30000,20000,10000")
    assert main(["league", "--db", db_url, "delete", "Cup", "--player", "A"]) == 2
    assert "delete the games first" in capsys.readouterr().err
    assert "game 1 of Cup deleted" in run(capsys, db_url, "delete", "Cup", "--game", "1")[1]
    assert main(["league", "--db", db_url, "delete", "Cup", "--game", "1"]) == 2  # once only
    capsys.readouterr()
    assert "is now Anna" in run(capsys, db_url, "rename", "Cup", "Anna", "--player", "A")[1]
    assert "player E deleted" in run(capsys, db_url, "delete", "Cup", "--player", "E")[1]
    assert "event Cup is now Spring" in run(capsys, db_url, "rename", "Cup", "Spring")[1]
    log = run(capsys, db_url, "log", "Spring")[1]
    assert all(a in log for a in ("delete_game", "rename_player", "delete_player", "rename_event"))
    assert "event Spring deleted" in run(capsys, db_url, "delete", "Spring")[1]
    assert "Spring" not in run(capsys, db_url, "events")[1]
