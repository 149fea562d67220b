"""Text checked once at the boundary (issue 32): a name with a lone surrogate, a control or bidirectional
character, too many characters, or (an event's) a character of a URL path is refused with a message naming the
field; never a 500 from the store. CSV exports never start a cell with a formula."""

from __future__ import annotations

import csv
import io

import pytest
from starlette.testclient import TestClient

from jantaku.league.errors import LeagueError
from jantaku.league.export import games_csv, standings_csv
from jantaku.league.store import LeagueStore
from jantaku.text import TextError, check_name, csv_cell
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

BAD = {
    "lone surrogate": ("a\ud800b", "surrogate"),
    "bidi override": ("East\u202eWest", "bidirectional"),
    "isolate": ("x\u2066y", "bidirectional"),
    "control": ("tab\there", "control"),
    "null": ("nul\x00l", "control"),
    "too long": ("x" * 41, "at most 40"),
    "empty": ("   ", "empty"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_check_name_refuses(name):
    value, words = BAD[name]
    with pytest.raises(TextError, match=words):
        check_name(value, "player name")


def test_check_name_keeps_what_people_write():
    for ok in ("Ann", "佐藤 一郎", "😀 Bo", "O'Neil-Smith", "Zoë"):
        assert check_name(f"  {ok} ", "player name") == ok
    with pytest.raises(TextError, match="address"):
        check_name("spring/2026", "event name", path=True)
    assert check_name("spring/2026", "player name") == "spring/2026"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"))) as c:
        yield c


@pytest.mark.parametrize("name", [n for n in BAD if n != "empty"])
def test_a_table_with_a_bad_name_is_refused_by_name(client, name):
    value = BAD[name][0]
    body = '{"rules": "tenhou", "seats": ["human", "random", "random", "random"], "names": ["Ann", %s, "", ""]}'
    import json

    text = body % json.dumps(value)  # a lone surrogate travels as the JSON escape \\ud800
    r = client.post("/api/tables", content=text.encode(), headers={"Content-Type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["error"].startswith("names[1]:"), r.json()


def test_league_names_are_checked_by_the_store(tmp_path):
    store = LeagueStore(f"sqlite:///{tmp_path / 'league.sqlite3'}")
    with pytest.raises(LeagueError, match="address"):
        store.create_event("Cup/2026", "mleague")
    store.create_event("Cup 2026", "mleague")
    for value, words in (("a\ud800", "surrogate"), ("Ann\u202e", "bidirectional"), ("x\ny", "control")):
        with pytest.raises(LeagueError, match=words):
            store.add_player("Cup 2026", value)
        with pytest.raises(LeagueError, match=words):
            store.add_team("Cup 2026", value)


def test_csv_exports_never_start_a_formula():
    assert [csv_cell(v) for v in ("=1+2", "+cmd|' /C calc'!A0", "-2", "@SUM(A1)", "\tx", "\rx", "Ann", 3, -2.5)] == [
        "'=1+2", "'+cmd|' /C calc'!A0", "'-2", "'@SUM(A1)", "'\tx", "'\rx", "Ann", 3, -2.5,
    ]  # fmt: skip
    row = {"place": 1, "player": "=HYPERLINK(\"http://x\")", "team": "+Red", "total": -12.5, "games": 1,
           "average_rank": 1.0, "ranks": [1, 0, 0, 0], "hands": 0, "wins": 0, "deal_ins": 0, "win_rate": None,
           "deal_in_rate": None, "penalties": 0.0}  # fmt: skip
    got = next(csv.DictReader(io.StringIO(standings_csv([row]))))
    assert got["player"] == '\'=HYPERLINK("http://x")' and got["team"] == "'+Red" and got["total"] == "-12.5"
    game = {"id": 1, "table": "A", "source": "web", "status": "finished", "players": ["@me", "b", "c", "d"],
            "result": {"scores": [1, 2, 3, 4], "ranks": [4, 3, 2, 1], "final": [-1, 0, 0, 1]}, "state": {}}  # fmt: skip
    assert next(csv.DictReader(io.StringIO(games_csv([game]))))["player"] == "'@me"


def test_digits_that_are_not_ascii_are_not_numbers(client):
    """``"²".isdigit()`` is true and ``int("²")`` fails: such a path or header is a named 4xx, never a 500."""
    import jantaku.web.analyse as analyse

    created = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random", "random"]})
    tid, owner = created.json()["id"], created.json()["owner_token"]
    for seat in ("²", "٣", "𝟙"):
        r = client.post(f"/api/tables/{tid}/seats/{seat}/reissue", json={"token": owner})
        assert r.status_code == 400 and "seat" in r.json()["error"], r.text
    with analyse._reports_lock:
        analyse._reports["boundary"] = ("<html></html>", [b"\x89PNG"])
    try:
        assert client.get("/analyse/report/boundary/0.png").status_code == 200
        for n in ("²", "٣"):
            assert client.get(f"/analyse/report/boundary/{n}.png").status_code == 404
    finally:
        with analyse._reports_lock:
            analyse._reports.pop("boundary", None)
