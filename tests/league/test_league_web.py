"""The league pages' JSON API at /league of the web table (Starlette's TestClient), on SQLite and PostgreSQL:
an organiser with the event's password records a game; the public reads the standings; refusals."""

from __future__ import annotations

import gzip
from pathlib import Path
from urllib.parse import urlencode

import pytest
from starlette.testclient import TestClient

from jantaku.web.app import create_app
from jantaku.web.league import FAILED_PER_CLIENT, FAILED_PER_EVENT, FAILED_WINDOW, LoginLimiter
from jantaku.web.limits import MAX_INFLATED, MAX_UPLOAD
from jantaku.web.storage import SqliteStore

from .simulated import entries_of, simulated_game

PW = {"X-League-Password": "s3cret-pw"}


@pytest.fixture
def client(tmp_path, db_url):
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), league_db=db_url)
    with TestClient(app) as c:
        yield c


def test_pages_are_served(client):
    for path in ("/league/", "/league/event?name=x", "/league/admin", "/league/table"):
        r = client.get(path)
        assert r.status_code == 200 and "/static/league.js" in r.text
    assert client.get("/static/league.js").status_code == 200
    assert "mleague" in client.get("/league/api/presets").json()["presets"]


def test_organiser_records_a_hanchan(client):
    r = client.post("/league/api/events", json={"name": "Cup", "rules": "mleague", "password": "s3cret-pw"})
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
    client.post("/league/api/events", json={"name": "Cup", "rules": "mu", "password": "s3cret-pw"})
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


RECORD = Path(__file__).parent.parent / "data/records/tenhou-mjlog/mjx-houou/2010081709gm-00a9-0000-fe3371ad.mjlog"
MAPPING = {"反陽子さん": "Ann", "ASAPIN": "Bo", "でこじ": "Cy", "デジタル仙人": "Di"}
UPLOAD = {**PW, "Content-Type": "application/octet-stream"}


def _event(client, name: str, rules: str, players=("Ann", "Bo", "Cy", "Di")) -> None:
    body = {"name": name, "rules": rules, "password": "s3cret-pw"}
    assert client.post("/league/api/events", json=body).status_code == 201
    for p in players:
        assert client.post(f"/league/api/events/{name}/players", json={"name": p}, headers=PW).status_code == 201


def _import_url(event: str, mapping: dict[str, str], **extra: str) -> str:
    params = [("file", "game.mjlog"), *(("map", f"{k}={v}") for k, v in mapping.items()), *extra.items()]
    return f"/league/api/events/{event}/import?{urlencode(params)}"


def test_organiser_imports_an_online_record(client):
    # what `jantaku league import` does, from the organiser's page: the upload's names, then the mapped import
    _event(client, "Online", "tenhou")
    raw = RECORD.read_bytes()
    r = client.post(_import_url("Online", {}, names="1"), content=raw, headers=UPLOAD)
    assert r.status_code == 200 and r.json() == {"games": [{"names": list(MAPPING)}]}
    assert client.get("/league/api/events/Online").json()["games"] == []  # the names alone store nothing
    r = client.post(_import_url("Online", MAPPING), content=gzip.compress(raw), headers=UPLOAD)
    assert r.status_code == 201, r.text
    [g] = r.json()["games"]
    assert g["players"] == ["Ann", "Bo", "Cy", "Di"] and g["entries"] > 8
    game = client.get(f"/league/api/games/{g['game']}").json()
    assert game["source"] == "import" and game["result"]["final"] == [-20.0, 16.0, -45.0, 49.0]  # the record's
    audit = client.get("/league/api/events/Online/audit", headers=PW).json()["audit"]
    assert audit[-1]["action"] == "import_record" and audit[-1]["detail"]["file"] == "game.mjlog"
    # the same record again is refused, naming the game it would duplicate; forced, it is stored (issue 34)
    r = client.post(_import_url("Online", MAPPING), content=raw, headers=UPLOAD)
    assert r.status_code == 409 and f"as game {g['game']}" in r.json()["error"]
    assert len(client.get("/league/api/events/Online").json()["games"]) == 1
    r = client.post(_import_url("Online", MAPPING) + "&force=1", content=raw, headers=UPLOAD)
    assert r.status_code == 201 and len(client.get("/league/api/events/Online").json()["games"]) == 2
    # the Mahjong Soul record (tenhou.net/6 JSON as Mahjong Soul's viewer writes it) reads the same way
    ms = Path(__file__).parent.parent / "data/records/tenhou6-json/mahjongsoul/jade_room_south_2024.json"
    r = client.post(_import_url("Online", {}, names="1"), content=ms.read_bytes(), headers=UPLOAD)
    assert r.status_code == 200 and len(r.json()["games"][0]["names"]) == 4


def test_import_refusals(client):
    _event(client, "Online", "tenhou")
    raw = RECORD.read_bytes()
    r = client.post(_import_url("Online", {"反陽子さん": "Ann"}), content=raw, headers=UPLOAD)
    assert r.status_code == 400 and "'ASAPIN', 'でこじ', 'デジタル仙人' are not players" in r.json()["error"]
    r = client.post(_import_url("Online", MAPPING), content=b"<mjloggm ver='2.3'><GO type='169'/>", headers=UPLOAD)
    assert r.status_code == 400 and "game.mjlog" in r.json()["error"] and "/tmp" not in r.json()["error"]
    r = client.post(_import_url("Online", MAPPING, names="1"), content=b"<mjloggm ver='2.3'/>", headers=UPLOAD)
    assert r.status_code == 400 and r.json()["error"] == "game.mjlog: no hand to import"
    r = client.post(_import_url("Online", MAPPING), content=b'{"not": "a record"}', headers=UPLOAD)
    assert r.status_code == 400 and "game.mjlog" in r.json()["error"]
    r = client.post(_import_url("Online", MAPPING), content=b"\x1f\x8b\x08garbage", headers=UPLOAD)
    assert r.status_code == 400 and "broken gzip data" in r.json()["error"]
    r = client.post(_import_url("Online", MAPPING), content=b"  ", headers=UPLOAD)
    assert r.status_code == 400 and "the upload is empty" in r.json()["error"]
    r = client.post(_import_url("Online", MAPPING), content=b"<" + b" " * MAX_UPLOAD, headers=UPLOAD)
    assert r.status_code == 413 and "larger than 8 MiB" in r.json()["error"]
    bomb = gzip.compress(b" " * (MAX_INFLATED + 1))
    r = client.post(_import_url("Online", MAPPING), content=bomb, headers=UPLOAD)
    assert r.status_code == 413 and "inflates to more than" in r.json()["error"]
    r = client.post("/league/api/events/Online/import?file=x&map=nomapping", content=raw, headers=UPLOAD)
    assert r.status_code == 400 and "map takes NAME=PLAYER" in r.json()["error"]
    r = client.post(_import_url("Online", MAPPING), content=raw, headers={**UPLOAD, "X-League-Password": "no"})
    assert r.status_code == 403
    # a record from a room with other starting points is refused by the event's rule set (μ: 30,000)
    _event(client, "Mu", "mu")
    r = client.post(_import_url("Mu", MAPPING), content=raw, headers=UPLOAD)
    assert r.status_code == 400 and "starts at" in r.json()["error"]
    assert client.get("/league/api/events/Online").json()["games"] == []


def test_yame_and_pao_for_a_second_winner(client):
    _event(client, "T", "tenhou")
    gid = 0

    def new_game() -> int:
        body = {"players": ["Ann", "Bo", "Cy", "Di"]}
        return client.post("/league/api/events/T/games", json=body, headers=PW).json()["game"]

    def enter(entry, status=201):
        r = client.post(f"/league/api/games/{gid}/entries", json={"entry": entry}, headers=PW)
        assert r.status_code == status, r.text
        return r.json()

    # a double ron on East 1's dealer: Bo 2 han 30 fu, Cy a yakuman Di is liable for (tenhou: pao on a ron
    # splits the yakuman half and half with the discarder, 002 包牌)
    gid = new_game()
    two = {"winner": 1, "from": 0, "han": 2, "fu": 30}
    pao = {"winner": 2, "from": 0, "yakuman": 1, "pao": 3}
    out = enter({"kind": "win", "wins": [two, pao]})
    assert out["state"]["scores"] == [25000 - 2000 - 16000, 27000, 57000, 25000 - 16000]
    game = client.get(f"/league/api/games/{gid}").json()
    assert game["entries"][0]["data"]["wins"][1]["pao"] == 3
    bad = enter({"kind": "win", "wins": [two, {**pao, "pao": 2}]}, 400)
    assert "cannot be liable (pao) for their own hand" in bad["error"]
    # to South 4 with the dealer (Di) tenpai at a draw and first: tenhou asks them to stop or go on
    assert "nobody may stop the game now" in enter({"kind": "yame", "stop": True}, 400)["error"]
    gid = new_game()
    enter({"kind": "win", "wins": [{"winner": 3, "from": 0, "han": 5, "fu": 30}]})
    for _ in range(6):
        enter({"kind": "draw"})
    st = enter({"kind": "draw", "tenpai": [3]})["state"]
    assert st["hand"] == "S4" and st["yame_choice"] == 3
    assert "decides whether to stop now" in enter({"kind": "draw"}, 400)["error"]
    enter({"kind": "yame", "stop": True})
    game = client.get(f"/league/api/games/{gid}").json()
    assert game["status"] == "finished" and game["entries"][-1]["kind"] == "yame"


def test_wrong_passwords_are_rate_limited(client):
    _event(client, "Cup", "mu", players=())
    bad = {"X-League-Password": "guess"}
    for _ in range(FAILED_PER_CLIENT):
        assert client.post("/league/api/events/Cup/login", json={}, headers=bad).status_code == 403
    r = client.post("/league/api/events/Cup/login", json={}, headers=bad)
    assert r.status_code == 429 and "too many wrong organiser passwords" in r.json()["error"]
    assert 1 <= int(r.headers["retry-after"]) <= FAILED_WINDOW
    # the right password is not even checked from this address now
    assert client.post("/league/api/events/Cup/login", json={}, headers=PW).status_code == 429
    assert client.post("/league/api/events/Cup/teams", json={"name": "T"}, headers=PW).status_code == 429
    # another address still may; and the event's own limit counts every address's failures
    app = client.app
    others = [TestClient(app, client=(f"10.0.0.{i}", 4000)) for i in range(1, 4)]
    assert others[0].post("/league/api/events/Cup/login", json={}, headers=PW).status_code == 200
    for other in others[:2]:
        for _ in range(FAILED_PER_CLIENT):
            assert other.post("/league/api/events/Cup/login", json={}, headers=bad).status_code == 403
    assert FAILED_PER_EVENT == 3 * FAILED_PER_CLIENT
    # the event took its limit of wrong passwords: the guessers wait, even with the right password ...
    r = others[1].post("/league/api/events/Cup/login", json={}, headers=PW)
    assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
    r = others[2].post("/league/api/events/Cup/login", json={}, headers=bad)  # a new address guesses once
    assert r.status_code == 403
    assert others[2].post("/league/api/events/Cup/login", json={}, headers=bad).status_code == 429
    # ... and the organiser, at an address that sent no wrong password, goes on (issue 32)
    organiser = TestClient(app, client=("10.0.0.77", 4000))
    assert organiser.post("/league/api/events/Cup/login", json={}, headers=PW).status_code == 200
    assert organiser.post("/league/api/events/Cup/teams", json={"name": "T2"}, headers=PW).status_code == 201
    # another event is not locked by Cup's failures
    _event(others[2], "Other", "mu", players=("A",))
    # an organiser password is at least 8 characters
    r = organiser.post("/league/api/events", json={"name": "Short", "rules": "mu", "password": "1234567"})
    assert r.status_code == 400 and "8 characters or more" in r.json()["error"]


def test_login_limiter_window():
    now = [0.0]
    lim = LoginLimiter(per_client=3, per_event=5, window=60, clock=lambda: now[0])
    for i in range(3):
        now[0] = 10.0 * i
        assert lim.retry_after("a", 1) is None
        lim.failed("a", 1)
    assert lim.retry_after("a", 1) == 60 - 20  # the oldest failure (at 0 s) leaves the window at 60 s
    assert lim.retry_after("a", 2) == 40  # the address's limit holds for every event
    now[0] = 60.0
    assert lim.retry_after("a", 1) is None
    lim.failed("b", 1)
    lim.failed("c", 1)
    lim.failed("d", 1)
    # five failures for event 1 within the window, from anywhere: the guessers wait, another address does not
    assert lim.retry_after("b", 1) is not None and lim.retry_after("e", 1) is None
    lim.succeeded("b", 1)  # the right password from b: its guesses for event 1 are forgotten
    assert lim.retry_after("b", 1) is None


def test_out_of_range_ids_and_a_folder_as_file_name_are_named_4xx(client):
    """Issue 32: a game id beyond a database integer, and ``?file=..`` on the import, were plain-text 500s."""
    body = {"name": "Cup", "rules": "mleague", "password": "s3cret-pw"}
    assert client.post("/league/api/events", json=body).status_code == 201
    for gid in (str(2**63), str(-(2**63) - 1), "9" * 5000, "²", "1.5"):
        r = client.get(f"/league/api/games/{gid}")
        assert 400 <= r.status_code < 500 and r.headers["content-type"].startswith("application/json"), (gid, r.text)
    record = Path(__file__).parent.parent / "data/records/tenhou-mjlog/mjx-houou/2010081709gm-00a9-0000-fe3371ad.mjlog"
    for name in ("..", ".", "...", "../../etc/passwd"):
        r = client.post(f"/league/api/events/Cup/import?file={name}&names=1", content=record.read_bytes(), headers=PW)
        assert r.status_code < 500 and r.headers["content-type"].startswith("application/json"), (name, r.text)


def test_a_write_the_database_refuses_is_503_and_changes_nothing(client, monkeypatch):
    """A full disk (or a lock held too long) is the server's trouble, not the request's: 503, nothing changed."""
    import sqlalchemy as sa
    from sqlalchemy.exc import OperationalError

    _event(client, "Cup", "mu", players=("A",))
    before = client.get("/league/api/events/Cup").json()["players"]
    real = sa.Engine.begin

    def full(self):
        raise OperationalError("INSERT", {}, Exception("database or disk is full"))

    monkeypatch.setattr(sa.Engine, "begin", full)
    r = client.post("/league/api/events/Cup/players", json={"name": "B"}, headers=PW)
    assert r.status_code == 503 and "disk is full" in r.json()["error"] and "nothing was changed" in r.json()["error"]
    monkeypatch.setattr(sa.Engine, "begin", real)
    assert client.get("/league/api/events/Cup").json()["players"] == before


@pytest.mark.parametrize("creation", [None, "", "the-admin-token-1"])
def test_who_may_create_events_on_the_web(tmp_path, db_url, creation):
    """Issue 32: anyone could create events (143 in 15 s). A server on the network takes them with its admin
    token only (or from nobody); a server on the host's own machine from anyone."""
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), league_db=db_url, league_creation=creation)
    body = {"name": "Cup", "rules": "mleague", "password": "s3cret-pw"}
    with TestClient(app) as c:
        shown = c.get("/league/api/presets").json()["creation"]
        assert shown == {None: "open", "": "closed"}.get(creation, "token")
        if creation is None:
            assert c.post("/league/api/events", json=body).status_code == 201
            return
        r = c.post("/league/api/events", json=body)
        assert r.status_code == 403 and ("admin token" in r.json()["error"] or "no new events" in r.json()["error"])
        if creation:
            wrong = {"X-League-Admin-Token": "guess"}
            for _ in range(FAILED_PER_CLIENT - 1):
                assert c.post("/league/api/events", json=body, headers=wrong).status_code == 403
            assert c.post("/league/api/events", json=body, headers=wrong).status_code == 429
            right = TestClient(app, client=("10.0.0.5", 4000))
            r = right.post("/league/api/events", json=body, headers={"X-League-Admin-Token": creation})
            assert r.status_code == 201, r.text
        assert len(c.get("/league/api/events").json()["events"]) == (1 if creation else 0)


def test_jantaku_serve_decides_who_creates_events(tmp_path):
    import argparse

    from jantaku.cli.serve_cmd import league_creation
    from jantaku.errors import JantakuError

    def args(**kw):
        base = {"host": "127.0.0.1", "admin_token": None, "admin_token_file": None, "open_events": False}
        return argparse.Namespace(**{**base, **kw})

    assert league_creation(args()) is None  # this machine only: anyone
    assert league_creation(args(host="0.0.0.0")) == ""  # on the network: nobody by default
    assert league_creation(args(host="0.0.0.0", open_events=True)) is None
    assert league_creation(args(host="0.0.0.0", admin_token="a-long-secret-1")) == "a-long-secret-1"
    secret = tmp_path / "token"
    secret.write_text("from-a-file-secret\n")
    assert league_creation(args(host="0.0.0.0", admin_token_file=str(secret))) == "from-a-file-secret"
    with pytest.raises(JantakuError, match="12 characters"):
        league_creation(args(admin_token="short"))
    with pytest.raises(JantakuError, match="cannot read"):
        league_creation(args(admin_token_file=str(tmp_path / "missing")))


def test_organiser_renames_and_deletes(client):
    """Issue 32: the organiser renames and deletes an event, a player, a game on the web; nobody else can."""
    _event(client, "Cup", "mleague", players=("Ann", "Bo", "Cy", "Di", "Ed"))
    quick = {"players": ["Ann", "Bo", "Cy", "Di"], "scores": [40000, 30000, 20000, 10000]}
    g1 = client.post("/league/api/events/Cup/quick", json=quick, headers=PW).json()["game"]
    g2 = client.post("/league/api/events/Cup/quick", json=quick, headers=PW).json()["game"]
    nope = {"X-League-Password": "wrong-password"}
    assert client.post(f"/league/api/games/{g2}/delete", headers=nope).status_code == 403
    assert client.post(f"/league/api/games/{g2}/delete", headers=PW).status_code == 200
    assert client.get(f"/league/api/games/{g2}").status_code == 404
    event = client.get("/league/api/events/Cup").json()
    assert [g["id"] for g in event["games"]] == [g1] and event["standings"][0]["total"] == 60.0
    r = client.post("/league/api/events/Cup/rename-player", json={"name": "Ann", "to": "Bo"}, headers=PW)
    assert r.status_code == 409 and "exists already" in r.json()["error"]
    r = client.post("/league/api/events/Cup/rename-player", json={"name": "Ann", "to": "Anna"}, headers=PW)
    assert r.status_code == 200 and client.get("/league/api/events/Cup").json()["standings"][0]["player"] == "Anna"
    r = client.post("/league/api/events/Cup/delete-player", json={"name": "Anna"}, headers=PW)
    assert r.status_code == 409 and "delete the games first" in r.json()["error"]
    assert client.post("/league/api/events/Cup/delete-player", json={"name": "Ed"}, headers=PW).status_code == 200
    r = client.post("/league/api/events/Cup/rename", json={"name": "Bad/Name"}, headers=PW)
    assert r.status_code == 400
    r = client.post("/league/api/events/Cup/rename", json={"name": "Spring Cup"}, headers=PW)
    assert r.status_code == 200 and r.json()["name"] == "Spring Cup"
    assert client.get("/league/api/events/Cup").status_code == 404
    audit = [a["action"] for a in client.get("/league/api/events/Spring Cup/audit", headers=PW).json()["audit"]]
    assert {"delete_game", "rename_player", "delete_player", "rename_event"} <= set(audit)
    assert client.post("/league/api/events/Spring Cup/delete", json={}, headers=nope).status_code == 403
    assert client.post("/league/api/events/Spring Cup/delete", json={}, headers=PW).status_code == 200
    assert client.get("/league/api/events").json()["events"] == []
    assert client.get(f"/league/api/games/{g1}").status_code == 404


def _cup_with_a_game(client):
    client.post("/league/api/events", json={"name": "Cup", "rules": "mleague", "password": "s3cret-pw"})
    for p in "ABCD":
        client.post("/league/api/events/Cup/players", json={"name": p}, headers=PW)
    return client.post("/league/api/events/Cup/games", json={"players": list("ABCD")}, headers=PW).json()["game"]


def _ron(winner, loser, han, fu=30):
    return {"kind": "win", "wins": [{"winner": winner, "from": loser, "han": han, "fu": fu}]}


def test_ten_corrections_from_one_page_store_one_and_refuse_nine_saying_what_changed(client):
    """Issue 34: ten organisers correct the same entry from the same version of the page: one is stored (201),
    nine are refused (409) naming the change made meanwhile; an undo from the stale page is refused too."""
    gid = _cup_with_a_game(client)
    v = client.post(f"/league/api/games/{gid}/entries", json={"entry": _ron(1, 0, 1)}, headers=PW).json()["version"]
    codes = []
    for han in range(2, 12):
        body = {"entry": _ron(1, 0, han), "correct": True, "version": v}
        r = client.post(f"/league/api/games/{gid}/entries", json=body, headers=PW)
        codes.append(r.status_code)
        if r.status_code == 409:
            assert "changed since you loaded it" in r.json()["error"] and "correct last 1" in r.json()["error"]
    assert codes == [201] + [409] * 9
    r = client.post(f"/league/api/games/{gid}/undo", json={"version": v}, headers=PW)
    assert r.status_code == 409
    g = client.get(f"/league/api/games/{gid}").json()
    assert g["version"] == v + 1 and [e["data"]["wins"][0]["han"] for e in g["entries"]] == [2]
    assert client.post(f"/league/api/games/{gid}/undo", json={"version": v + 1}, headers=PW).status_code == 200
    assert client.post(f"/league/api/games/{gid}/undo", headers=PW).status_code in (400, 409)  # nothing left


def test_any_entry_is_previewed_then_corrected_on_the_web(client):
    gid = _cup_with_a_game(client)
    for e in (_ron(1, 0, 2), {"kind": "draw", "tenpai": [1]}, _ron(2, 3, 1, 40)):
        v = client.post(f"/league/api/games/{gid}/entries", json={"entry": e}, headers=PW).json()["version"]
    before = client.get(f"/league/api/games/{gid}").json()
    body = {"entry": _ron(1, 3, 2), "seq": 2, "preview": True}
    preview = client.post(f"/league/api/games/{gid}/entries", json=body, headers=PW).json()
    assert preview["entries"][0]["seq"] == 2 and preview["before"]["state"] == before["state"]
    assert client.get(f"/league/api/games/{gid}").json() == before  # a preview writes nothing
    body = {"entry": _ron(1, 3, 2), "seq": 2, "version": v}
    r = client.post(f"/league/api/games/{gid}/entries", json=body, headers=PW)
    assert r.status_code == 201, r.text
    after = client.get(f"/league/api/games/{gid}").json()
    assert after["state"] == preview["after"]["state"] and after["entries"][1]["data"] == _ron(1, 3, 2)
    r = client.post(f"/league/api/games/{gid}/entries", json={"entry": None, "seq": 7, "version": v + 1}, headers=PW)
    assert r.status_code == 404
    r = client.post(f"/league/api/games/{gid}/entries", json={"entry": None, "seq": "x"}, headers=PW)
    assert r.status_code == 400


def test_the_league_database_lies_beside_the_games_store(tmp_path, monkeypatch):
    """An application made with a games store and no league database keeps its league beside the store's file,
    never in the working folder (the browser tests' server left a league there, shared from run to run)."""
    work = tmp_path / "cwd"
    work.mkdir()
    monkeypatch.chdir(work)
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"))) as c:
        assert c.get("/league/api/events").json() == {"events": []}
    assert (tmp_path / "games.league.sqlite3").exists()
    assert list(work.iterdir()) == []
