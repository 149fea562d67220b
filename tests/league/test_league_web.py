"""The league pages' JSON API at /league of the web table (Starlette's TestClient), on SQLite and PostgreSQL:
an organiser with the event's password records a game; the public reads the standings; refusals."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

from .simulated import entries_of, simulated_game

PW = {"X-League-Password": "s3cret"}


@pytest.fixture
def client(tmp_path, db_url):
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), league_db=db_url)
    with TestClient(app) as c:
        yield c


def test_pages_are_served(client):
    for path in ("/league/", "/league/event?name=x", "/league/admin"):
        r = client.get(path)
        assert r.status_code == 200 and "/static/league.js" in r.text
    assert client.get("/static/league.js").status_code == 200
    assert "mleague" in client.get("/league/api/presets").json()["presets"]


def test_organiser_records_a_hanchan(client):
    r = client.post("/league/api/events", json={"name": "Cup", "rules": "mleague", "password": "s3cret"})
    assert r.status_code == 201
    for team in ("Red", "Blue"):
        assert client.post("/league/api/events/Cup/teams", json={"name": team}, headers=PW).status_code == 201
    for i, p in enumerate("ABCD"):
        body = {"name": p, "team": "Red" if i % 2 == 0 else "Blue"}
        assert client.post("/league/api/events/Cup/players", json=body, headers=PW).status_code == 201
    game = simulated_game("mleague", 2)
    rnd = client.post(
        "/league/api/events/Cup/rounds", json={"method": "given", "players": list("ABCD"), "draw": False}, headers=PW
    ).json()
    assert rnd["games"][0]["players"] == list("ABCD") and rnd["games"][0]["first_dealer"] == 0
    gid = client.post(
        "/league/api/events/Cup/games", json={"players": list("ABCD"), "first_dealer": game.first_dealer}, headers=PW
    ).json()["game"]
    for n, e in enumerate(entries_of(game), 1):
        r = client.post(f"/league/api/games/{gid}/entries", json={"entry": e, "expected_seq": n}, headers=PW)
        assert r.status_code == 201, r.text
    g = client.get(f"/league/api/games/{gid}").json()
    assert g["status"] == "finished" and g["result"]["final"] == game.result.final
    ev = client.get("/league/api/events/Cup").json()
    totals = {r["player"]: r["total"] for r in ev["standings"]}
    assert [totals[p] for p in "ABCD"] == game.result.final
    teams = {t["team"]: t["total"] for t in ev["team_standings"]}
    assert teams["Red"] == round(game.result.final[0] + game.result.final[2], 1)
    csv = client.get("/league/api/events/Cup/export?format=csv&what=standings")
    assert csv.status_code == 200 and csv.text.startswith("place,player")
    assert client.get("/league/api/events/Cup/history?player=A").json()["history"][-1]["total"] == game.result.final[0]
    audit = client.get("/league/api/events/Cup/audit", headers=PW).json()["audit"]
    assert sum(a["action"] == "add_entry" for a in audit) == len(game.results)


def test_refusals(client):
    client.post("/league/api/events", json={"name": "Cup", "rules": "mu", "password": "s3cret"})
    for p in "ABCD":
        client.post("/league/api/events/Cup/players", json={"name": p}, headers=PW)
    gid = client.post("/league/api/events/Cup/games", json={"players": list("ABCD")}, headers=PW).json()["game"]
    bad = {"entry": {"kind": "win", "wins": [{"winner": 1, "from": 0, "han": 1, "fu": 20}]}}
    r = client.post(f"/league/api/games/{gid}/entries", json=bad, headers=PW)
    assert r.status_code == 400 and "1 han 20 fu by ron cannot exist" in r.json()["error"]
    r = client.post(f"/league/api/games/{gid}/entries", json=bad, headers={"X-League-Password": "nope"})
    assert r.status_code == 403 and r.json()["error"] == "wrong organiser password"
    ok = {"entry": {"kind": "draw", "tenpai": [0]}, "expected_seq": 1}
    assert client.post(f"/league/api/games/{gid}/entries", json=ok, headers=PW).status_code == 201
    r = client.post(f"/league/api/games/{gid}/entries", json=ok, headers=PW)
    assert r.status_code == 409 and "someone else" in r.json()["error"]
    assert client.get("/league/api/events/Nope").status_code == 404
    r = client.post("/league/api/events", json={"name": "X", "rules": "mu"})
    assert r.status_code == 400 and "password" in r.json()["error"]
    r = client.post("/league/api/events/Cup/teams", content=b"{}", headers={**PW, "Content-Type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/league/api/events/Cup/teams", json={"name": "T"}, headers={**PW, "Origin": "http://evil.example"})
    assert r.status_code == 403  # the web table's cross-site guard covers /league too
