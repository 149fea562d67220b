"""The web table's HTTP and websocket API (Starlette's TestClient), rejections included."""

import itertools
import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from jantaku.records.mjai import read_mjai
from jantaku.records.tenhou6 import read_tenhou6
from jantaku.web import app as web_app
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore
from seats import claim_all

MJLOG = next(Path(__file__).parent.joinpath("data/records/tenhou-mjlog").rglob("*.mjlog"))


def _seeds():
    """Fixed table seeds, so that every run plays the same games."""
    n = itertools.count()
    return lambda: f"api-test-{next(n)}"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=_seeds())) as c:
        yield c


def _table(client, seats=("human", "random", "random", "random"), rules="tenhou"):
    r = client.post("/api/tables", json={"rules": rules, "seats": list(seats)})
    assert r.status_code == 201, r.text
    return claim_all(client, r.json())  # each invited person opens their link


def _bot_game(client):
    data = _table(client, ["random"] * 4, "mleague")
    assert data["over"]
    return data["id"]


def test_pages_tiles_and_presets(client):
    for path in ("/", "/score", "/games"):
        r = client.get(path)
        assert r.status_code == 200 and "<html" in r.text
    for path in ("/static/play.js", "/static/i18n.js", "/static/style.css", "/static/score.js", "/static/games.js"):
        assert client.get(path).status_code == 200
    r = client.get("/tiles/0p.svg")
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert client.get("/tiles/8z.svg").json() == {"error": "no tile '8z'"}
    meta = client.get("/api/presets").json()
    assert {"mleague", "jielu"} <= set(meta["presets"]) and meta["bots"]
    r = client.get("/api/nothing")
    assert r.status_code == 404 and "error" in r.json()


def test_create_rejects_bad_requests(client):
    for body in (
        {"rules": "nope"},
        {"seats": ["human"]},
        {"seats": ["human", "x", "random", "random"]},
        {"rules": 5},
        {"names": "abc"},
    ):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and r.json()["error"], body
    r = client.post("/api/tables", content=b"{not json", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and "JSON" in r.json()["error"]
    assert client.post("/api/tables", json=[1, 2]).status_code == 400


def test_view_and_tokens(client):
    data = _table(client, ["human", "human", "random", "random"])
    tid, tok0, tok1 = data["id"], data["seats"][0]["token"], data["seats"][1]["token"]
    assert data["seats"][0]["link"] == f"/?table={tid}&token={tok0}"
    assert "token" not in data["seats"][2]
    v0 = client.get(f"/api/tables/{tid}/view", params={"token": tok0}).json()
    v1 = client.get(f"/api/tables/{tid}/view", params={"token": tok1}).json()
    assert v0["seat"] == 0 and v1["seat"] == 1 and v0["hand"] != v1["hand"]
    for params in ({}, {"token": "forged"}):  # no way to see another seat's hand without its token
        r = client.get(f"/api/tables/{tid}/view", params=params)
        assert r.status_code == 403 and "token" in r.json()["error"]
    r = client.get("/api/tables/unknown/view", params={"token": tok0})
    assert r.status_code == 404 and r.json() == {"error": "no table unknown"}


def test_actions_stale_second_tab_and_illegal(client):
    data = _table(client)
    tid, tok = data["id"], data["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    url = f"/api/tables/{tid}/act"
    bad = [
        ({"token": tok, "step": view["step"], "index": 999}, 400, "no legal action"),
        ({"token": tok, "step": view["step"] + 3, "index": 0}, 409, "stale"),
        ({"token": tok, "index": 0}, 400, "step"),
        ({"token": tok, "step": view["step"], "index": "0"}, 400, "an action is"),
        ({"token": "x", "step": view["step"], "index": 0}, 403, "token"),
        ({"token": tok, "step": view["step"], "action": {"type": "reach", "tile": view["hand"][0]}}, 400, "riichi"),
        ({"token": tok, "step": view["step"], "action": {"type": "dahai", "tile": "9q"}}, 400, "malformed"),
    ]
    for body, status, words in bad:
        r = client.post(url, json=body)
        assert r.status_code == status and words in r.json()["error"], (body, r.json())
    assert client.get(f"/api/tables/{tid}/view", params={"token": tok}).json() == view  # unchanged
    first = client.post(url, json={"token": tok, "step": view["step"], "index": 0})
    assert first.status_code == 200 and first.json()["step"] > view["step"]
    second = client.post(url, json={"token": tok, "step": view["step"], "index": 0})  # the second tab
    assert second.status_code == 409
    r = client.post("/api/tables/unknown/act", json={"token": tok, "step": 0, "index": 0})
    assert r.status_code == 404


def test_a_person_plays_a_whole_hand_through_the_api(client):
    data = _table(client, rules="mleague")
    tid, tok = data["id"], data["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    while view["hand_results"] == 0:
        assert view["actions"]
        r = client.post(f"/api/tables/{tid}/act", json={"token": tok, "step": view["step"], "index": 0})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["last_result"]["number"] == 1 and len(view["last_result"]["scores"]) == 4


def test_stored_games_and_exports(client):
    gid = _bot_game(client)
    games = client.get("/api/games").json()["games"]
    assert [g["id"] for g in games] == [gid] and games[0]["summary"]["ranks"]
    game = client.get(f"/api/games/{gid}").json()
    assert game["events"][0]["type"] == "start_game" and game["events"][-1]["type"] == "end_game"
    t6 = client.get(f"/api/games/{gid}/export", params={"format": "tenhou6"})
    assert t6.status_code == 200 and "attachment" in t6.headers["content-disposition"]
    assert len(read_tenhou6(t6.json())[0].hands()) == game["summary"]["hands"]
    mj = client.get(f"/api/games/{gid}/export", params={"format": "mjai"})
    assert len(read_mjai(mj.text).events) == len(game["events"])
    assert client.get(f"/api/games/{gid}/export", params={"format": "pdf"}).status_code == 400
    for path in ("/api/games/nope", "/api/games/nope/export"):
        r = client.get(path)
        assert r.status_code == 404 and "nope" in r.json()["error"]
    assert client.get("/api/games", params={"limit": "x"}).status_code == 400
    r = client.get(f"/api/tables/{gid}/view", params={"token": "x"})
    # a finished game of four bots is kept in the store only (no seat has a token to view it with)
    assert r.status_code == 404 and f"/api/games/{gid}" in r.json()["error"]


def test_replay_uploads(client, monkeypatch):
    gid = _bot_game(client)
    mj = client.get(f"/api/games/{gid}/export", params={"format": "mjai"}).content
    games = client.post("/api/replay", params={"name": "mine.mjson"}, content=mj).json()["games"]
    assert len(games) == 1 and games[0]["events"][-1]["type"] == "end_game" and games[0]["rules"] == "mleague"
    t6 = client.get(f"/api/games/{gid}/export", params={"format": "tenhou6"}).content
    assert client.post("/api/replay", content=t6).json()["games"][0]["events"][0]["type"] == "start_game"
    real = client.post("/api/replay", params={"name": MJLOG.name}, content=MJLOG.read_bytes())
    assert real.status_code == 200 and real.json()["games"][0]["events"][1]["type"] == "start_kyoku"
    for body in (b"", b"   ", b"hello", b'{"log": [[1, 2]]}', b"<mjloggm><INIT/></mjloggm>", b"\x1f\x8b broken"):
        r = client.post("/api/replay", params={"name": "bad/../x.json"}, content=body)
        assert r.status_code == 400 and r.json()["error"], body
        assert "/tmp" not in r.json()["error"]  # no server paths in messages
    monkeypatch.setattr(web_app, "MAX_UPLOAD", 100)
    assert client.post("/api/replay", content=b"x" * 1000).status_code == 413


def test_score(client):
    req = {
        "hand": "234m567p456s78999s",
        "win": "9s",
        "tsumo": True,
        "riichi": True,
        "dora": ["3m"],
        "seat_wind": "S",
        "winner": 1,
        "honba": 1,
        "rules": "mleague",
    }
    r = client.post("/api/score", json=req)
    assert r.status_code == 200 and r.json()["payments"] == [-2700, 5500, -1400, -1400]
    for body in (
        {"hand": "123m", "win": "1m"},
        {"hand": "234m567p456s78999s", "win": "9s", "rules": "/etc/passwd"},
        {"bogus": 1},
    ):
        r = client.post("/api/score", json=body)
        assert r.status_code == 400 and r.json()["error"]


def test_websocket_pushes_views_and_takes_actions(client):
    data = _table(client, ["human", "human", "random", "random"])
    tid, tokens = data["id"], [data["seats"][0]["token"], data["seats"][1]["token"]]
    views = [client.get(f"/api/tables/{tid}/view", params={"token": tok}).json() for tok in tokens]
    actor = 0 if views[0]["actions"] else 1  # the bots have played until one of the two must decide
    assert views[actor]["actions"] and not views[1 - actor]["actions"]
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[1 - actor]}") as other:
        first = other.receive_json()
        assert first == {"type": "view", "view": views[1 - actor]}
        # the actor acts over HTTP; the other seat's socket is told
        step = first["view"]["step"]
        r = client.post(f"/api/tables/{tid}/act", json={"token": tokens[actor], "step": step, "index": 0})
        assert r.status_code == 200
        pushed = other.receive_json()
        assert pushed["type"] == "view" and pushed["view"]["step"] > step and pushed["view"]["seat"] == 1 - actor
        other.send_text("not json")
        assert other.receive_json()["status"] == 400
        other.send_json({"type": "act", "step": 0, "index": 0})
        stale = other.receive_json()
        assert stale["type"] == "error" and stale["status"] == 409 and "stale" in stale["error"]
        other.send_json({"type": "hello"})
        assert other.receive_json()["status"] == 400
    views = [client.get(f"/api/tables/{tid}/view", params={"token": tok}).json() for tok in tokens]
    actor = 0 if views[0]["actions"] else 1
    with client.websocket_connect(f"/ws/tables/{tid}?token={tokens[actor]}") as ws:
        view = ws.receive_json()["view"]
        assert view["actions"]
        ws.send_json({"type": "act", "step": view["step"], "index": 0})  # acting through the socket
        after = ws.receive_json()
        assert after["type"] == "view" and after["view"]["step"] > view["step"]


def test_websocket_rejections(client):
    data = _table(client)
    for url, status in ((f"/ws/tables/{data['id']}?token=forged", 403), ("/ws/tables/nope?token=x", 404)):
        with client.websocket_connect(url) as ws:
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["status"] == status


def test_everything_survives_a_restart(tmp_path):
    path = tmp_path / "games.sqlite3"
    with TestClient(create_app(SqliteStore(path))) as c:
        gid = _bot_game(c)
        live = _table(c)
        tid, tok = live["id"], live["seats"][0]["token"]
        view = c.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
        view = c.post(f"/api/tables/{tid}/act", json={"token": tok, "step": view["step"], "index": 0}).json()
        c.app.state.store.close()
    with TestClient(create_app(db=path)) as c:
        assert c.get(f"/api/games/{gid}").json()["id"] == gid
        assert c.get(f"/api/tables/{tid}/view", params={"token": tok}).json() == view
        r = c.post(f"/api/tables/{tid}/act", json={"token": tok, "step": view["step"], "index": 0})
        assert r.status_code == 200


def test_serve_command_prints_the_address(monkeypatch, tmp_path, capsys):
    from jantaku.cli import main, serve_cmd
    from jantaku.sim.ray_cluster import free_ports

    calls = []

    def serve(app, sock, **kw):
        calls.append({"address": sock.getsockname()[:2], **kw})
        sock.close()

    monkeypatch.setattr(serve_cmd, "serve_forever", serve)
    port = free_ports(1)[0]
    assert main(["serve", "--port", str(port), "--db", str(tmp_path / "x.sqlite3")]) == 0
    assert f"http://127.0.0.1:{port}/" in capsys.readouterr().out
    assert calls == [
        {
            "address": ("127.0.0.1", port),
            "log_level": "warning",
            "ws": "websockets-sansio",
            "ws_max_size": 262144,
            "timeout_graceful_shutdown": 5,  # a review running at Ctrl-C is ended with its worker
            "proxy_headers": False,  # X-Forwarded-For believed from nobody without --proxy
        }
    ]
    assert (tmp_path / "x.sqlite3").exists()
    assert main(["serve", "--port", "0"]) == 2
    assert json.dumps(calls)


def test_replay_page_yaku_names_and_scoring_presets(client):
    r = client.get("/replay")
    assert r.status_code == 200 and 'id="upload"' in r.text
    assert client.get("/static/replay.js").status_code == 200
    names = client.get("/api/yaku").json()["yaku"]
    assert names["pinfu"] == {"kanji": "平和", "english": "Pinfu", "chinese": "平和"}
    assert {"dora", "aka_dora", "ura_dora", "kokushi_musou"} <= set(names)
    meta = client.get("/api/presets").json()
    assert set(meta["presets"]) <= set(meta["scoring"]) and meta["jielu"] == ["jielu", "jielu_original"]


def test_a_view_shows_waits_and_furiten_of_the_own_hand_only(client):
    data = _table(client, ["human", "human", "random", "random"])
    tid, tok = data["id"], data["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    waits = view["waits"]
    assert set(waits) == {"shanten", "tenpai"} and isinstance(waits["shanten"], int)
    for option in waits["tenpai"]:
        assert set(option) == {"discard", "waits", "furiten"}
        assert all(0 <= w["left"] <= 4 for w in option["waits"])


def test_rejections_leave_the_store_unchanged(client):
    store = client.app.state.store
    data = _table(client)
    tid, tok = data["id"], data["seats"][0]["token"]
    before = store.get_table(tid)
    view = client.get(f"/api/tables/{tid}/view", params={"token": tok}).json()
    for body in (
        {"token": tok, "step": view["step"], "index": 999},
        {"token": tok, "step": view["step"] - 1, "index": 0},
        {"token": "forged", "step": view["step"], "index": 0},
        {"token": tok, "step": view["step"], "action": {"type": "ron", "tile": "1m"}},
    ):
        assert client.post(f"/api/tables/{tid}/act", json=body).status_code in (400, 403, 409)
    after = store.get_table(tid)
    assert (after.actions, after.status) == (before.actions, before.status)
    games = client.get("/api/games").json()
    for body in (b"garbage", b'{"title": "x", "log": "no"}'):
        assert client.post("/api/replay", content=body).status_code == 400
    assert client.get("/api/games").json() == games  # an upload is read, never stored
    r = client.post("/api/tables", json={"rules": "mleague", "seats": ["human", "nobody", "random", "random"]})
    assert r.status_code == 400 and client.get("/api/games").json() == games


def test_a_person_declares_tenpai_or_stays_silent_at_the_draw(client, monkeypatch):
    """000 Art 71 (流局时，宣言听牌的人需要整理手牌后公开手牌) and Art 22(2): declaring tenpai is the player's act, so
    the web table asks the person at the exhaustive draw (μ). Four people only draw and discard; the one who is
    tenpai (on 5p) stays silent: nobody pays, and the hand is not shown."""
    from jantaku.rules import load_rules
    from jantaku.table import Wall, draw_seating
    from scenario_walls import build_wall

    dealer = draw_seating(load_rules("mu").seating, "api-test-0").first_dealer
    hands = dict(enumerate(("147m258p369s2468s", "258m369p147s2468m", "369m147p258s2468p", "1379m1379p1379s5z")))
    tenpai = (dealer + 2) % 4
    hands[tenpai] = "123m456p789s234s5p"
    wall = build_wall(hands, dealer=dealer, dora=["8s"])
    monkeypatch.setattr(Wall, "from_seed", classmethod(lambda cls, seed: wall))
    data = _table(client, ["human"] * 4, "mu")
    tid, tokens = data["id"], [s["token"] for s in data["seats"]]

    def view(seat):
        return client.get(f"/api/tables/{tid}/view", params={"token": tokens[seat]}).json()

    v = view(dealer)
    assert v["round"]["dealer"] == dealer
    while v["round"]["phase"] != "declare":
        seat = next(s for s in range(4) if view(s)["actions"])  # to_act names another seat on its turn only
        mine = view(seat)
        if mine["round"]["phase"] == "declare":
            break
        kinds = [a["type"] for a in mine["actions"]]
        index = (
            kinds.index("none")
            if "none" in kinds
            else next(a["index"] for a in mine["actions"] if a["type"] == "dahai" and a["tsumogiri"])
        )
        r = client.post(f"/api/tables/{tid}/act", json={"token": tokens[seat], "step": mine["step"], "index": index})
        assert r.status_code == 200, r.text
        v = r.json()
    mine = view(tenpai)
    assert mine["to_act"] == [tenpai] and mine["round"]["phase"] == "declare" and mine["last_result"] is None
    for other in set(range(4)) - {tenpai}:  # the others are told only that the table waits (the phase is private)
        assert view(other)["to_act"] == [] and view(other)["round"]["phase"] == "waiting"
    assert [a["type"] for a in mine["actions"]] == ["tenpai", "noten"]
    assert view(dealer)["actions"] == []
    noten = next(a["index"] for a in mine["actions"] if a["type"] == "noten")
    r = client.post(f"/api/tables/{tid}/act", json={"token": tokens[tenpai], "step": mine["step"], "index": noten})
    assert r.status_code == 200, r.text
    result = r.json()["last_result"]
    assert result["kind"] == "exhaustive" and result["tenpai"] == [False] * 4
    assert result["deltas"] == [0, 0, 0, 0] and result["tenpai_hands"] == {}
    assert "declareTenpai" in client.get("/static/i18n.js").text
