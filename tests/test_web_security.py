"""Browser safety of the web table (issue 13, "Browser security"): a page on another site must not drive a
server on the user's machine. Foreign Host names (DNS rebinding) are refused, cross-site state-changing
requests and websocket handshakes are refused, JSON bodies must say so, every answer carries the security
headers, and a seat's link can be revoked and reissued."""

from __future__ import annotations

import itertools
import json
import re
import socket
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from jantaku.cli import main
from jantaku.web.app import LOOPBACK_HOSTS, create_app
from jantaku.web.background import BackgroundServer
from jantaku.web.storage import SqliteStore

BASE = "http://127.0.0.1:8000"
WS = "ws://127.0.0.1:8000"  # the test client opens websockets at this host only when told
SAME_ORIGIN = {"Origin": BASE}
FOREIGN = "https://evil.example"
MJLOG = next(Path(__file__).parent.joinpath("data/records/tenhou-mjlog").rglob("*.mjlog"))


def _app(path: Path, hosts=(*LOOPBACK_HOSTS, "mahjong.example.org")):
    n = itertools.count()
    return create_app(SqliteStore(path), seed_source=lambda: f"sec-{next(n)}", allowed_hosts=hosts)


@pytest.fixture
def client(tmp_path):
    with TestClient(_app(tmp_path / "games.sqlite3"), base_url=BASE) as c:
        yield c


def _table(client, seats=("human", "human", "random", "random")):
    r = client.post("/api/tables", json={"rules": "tenhou", "seats": list(seats)}, headers=SAME_ORIGIN)
    assert r.status_code == 201, r.text
    return r.json()


def _refused(r, status: int, *words: str) -> str:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json")
    message = r.json()["error"]
    for word in words:
        assert word in message, message
    return message


def _assert_security_headers(r) -> None:
    csp = r.headers["content-security-policy"]
    directives = {d.split()[0]: d.split()[1:] for d in csp.split(";") if d.strip()}
    assert directives["default-src"] == ["'self'"]
    assert directives["script-src"] == ["'self'"] and directives["style-src"] == ["'self'"]
    assert directives["frame-ancestors"] == ["'none'"]
    assert "unsafe-inline" not in csp and "unsafe-eval" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "DENY"
    assert r.headers["referrer-policy"] == "no-referrer"


# -- headers --------------------------------------------------------------------------------------------------


def test_every_page_and_answer_carries_the_security_headers(client):
    data = _table(client)
    tid, token = data["id"], data["seats"][0]["token"]
    answers = {
        "page": client.get(f"/?table={tid}&token={token}"),
        "score page": client.get("/score"),
        "games page": client.get("/games"),
        "replay page": client.get("/replay"),
        "script": client.get("/static/play.js"),
        "style": client.get("/static/style.css"),
        "tile": client.get("/tiles/1m.svg"),
        "presets": client.get("/api/presets"),
        "view": client.get(f"/api/tables/{tid}/view", params={"token": token}),
        "not found": client.get("/api/tables/nope/view", params={"token": token}),
        "no route": client.get("/nowhere"),
        "refused host": client.get("/", headers={"Host": "evil.example"}),
    }
    for what, r in answers.items():
        assert r.status_code in (200, 404, 421), (what, r.status_code)
        _assert_security_headers(r)
    assert answers["page"].headers["content-type"].startswith("text/html")
    assert answers["script"].headers["content-type"].startswith("text/javascript")
    # answers that carry a token, and the pages whose address holds one, are never cached
    step = answers["view"].json()["step"]
    act = client.post(f"/api/tables/{tid}/act", json={"token": token, "step": step, "index": 0})
    reissue = client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": data["owner_token"]})
    for r in (answers["page"], answers["view"], act, reissue):
        assert r.headers["cache-control"] == "no-store", r.request.url
    created = client.post("/api/tables", json={"rules": "tenhou", "seats": ["human", "random", "random", "random"]})
    assert created.headers["cache-control"] == "no-store"
    _assert_security_headers(created)
    # a tile keeps its own caching
    assert answers["tile"].headers["cache-control"].startswith("public")


def test_the_pages_hold_no_inline_script_or_style():
    static = Path(__file__).parents[1] / "src" / "jantaku" / "web" / "static"
    for page in static.glob("*.html"):
        html = page.read_text()
        for tag in html.split("<script")[1:]:
            assert 'src="/static/' in tag.split(">", 1)[0], f"{page.name}: an inline <script>"
        assert " style=" not in html and "<style" not in html, f"{page.name}: an inline style"
        assert not re.search(r"\son[a-z]+\s*=", html), f"{page.name}: an inline event handler"
        assert "javascript:" not in html.lower()


# -- Host -----------------------------------------------------------------------------------------------------


def test_a_foreign_host_name_is_refused(client):
    for host in ("evil.example", "evil.example:8000", "127.0.0.1.evil.example", "localhost.evil.example:8000"):
        _refused(client.get("/api/presets", headers={"Host": host}), 421, "host name", "--allowed-host")
        _refused(
            client.post("/api/score", json={"hand": "123m"}, headers={"Host": host, "Origin": f"http://{host}"}), 421
        )
    _refused(client.get("/", headers={"Host": "a b"}), 400, "not a host name")
    # the names the server was started for, and any IP address (an address cannot be rebound), are answered
    for host in ("127.0.0.1:8000", "localhost:8000", "LOCALHOST", "[::1]:8000", "mahjong.example.org", "192.168.1.5"):
        assert client.get("/api/presets", headers={"Host": host}).status_code == 200, host


def test_a_foreign_host_name_cannot_open_a_websocket(client):
    data = _table(client)
    url = f"{WS}/ws/tables/{data['id']}?token={data['seats'][0]['token']}"
    with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers={"Host": "evil.example"}):
        pass
    assert refused.value.code == 1008 and "evil.example" in refused.value.reason


def test_without_a_list_every_host_name_is_answered(tmp_path):
    with TestClient(_app(tmp_path / "g.sqlite3", hosts=None), base_url="http://anything.example") as c:
        assert c.get("/api/presets").status_code == 200


# -- Origin ---------------------------------------------------------------------------------------------------


def test_a_cross_site_post_is_refused(client):
    data = _table(client)
    tid, token = data["id"], data["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()
    act = {"token": token, "step": view["step"], "index": 0}
    for origin in (FOREIGN, "http://127.0.0.1:8001", "null", "http://localhost:8000", "http://127.0.0.1"):
        headers = {"Origin": origin}
        _refused(client.post("/api/tables", json={"seats": ["human"] * 4}, headers=headers), 403, "cross-site")
        _refused(client.post(f"/api/tables/{tid}/act", json=act, headers=headers), 403, origin)
        _refused(client.post("/api/score", json={"hand": "123m"}, headers=headers), 403)
        reissue = client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": token}, headers=headers)
        _refused(reissue, 403)
        # the classic cross-site form post: text/plain, which needs no CORS preflight
        plain = {**headers, "Content-Type": "text/plain"}
        _refused(client.post(f"/api/tables/{tid}/act", content=json.dumps(act), headers=plain), 403)
        _refused(client.post("/api/replay", content=MJLOG.read_bytes(), headers=plain), 403)
        for method in ("PUT", "DELETE", "PATCH"):
            _refused(client.request(method, f"/api/tables/{tid}/act", headers=headers), 403)
    # nothing moved
    assert client.get(f"/api/tables/{tid}/view", params={"token": token}).json() == view
    # reading is no change: a foreign page's GET is answered (and the browser keeps the answer from it)
    assert client.get("/api/presets", headers={"Origin": FOREIGN}).status_code == 200


def test_same_origin_and_origin_less_requests_are_allowed(client):
    data = _table(client)  # same-origin
    tid, token = data["id"], data["seats"][0]["token"]
    for headers in (SAME_ORIGIN, {"Origin": "http://127.0.0.1:8000/"}, {}, {"Origin": BASE.upper()}):
        view = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()
        r = client.post(
            f"/api/tables/{tid}/act", json={"token": token, "step": view["step"], "index": 0}, headers=headers
        )
        assert r.status_code in (200, 400), r.text  # 400: the seat had nothing to do (not a refusal of origin)
        assert "cross-site" not in r.text
        score = client.post("/api/score", json={"hand": "123m456p789s11122z", "win": "2z"}, headers=headers)
        assert score.status_code == 200, score.text
    # the default port is the same origin as no port
    with TestClient(_app(Path(client.app.state.store.path).with_name("p.sqlite3")), base_url="http://localhost") as c:
        assert (
            c.post(
                "/api/score", json={"hand": "123m456p789s11122z", "win": "2z"}, headers={"Origin": "http://localhost"}
            ).status_code
            == 200
        )
    # the record upload takes the file's bytes, with whatever type the page's file has
    for headers in (SAME_ORIGIN, {}, {**SAME_ORIGIN, "Content-Type": "application/octet-stream"}):
        r = client.post("/api/replay", params={"name": MJLOG.name}, content=MJLOG.read_bytes(), headers=headers)
        assert r.status_code == 200 and r.json()["games"], r.text


def test_a_cross_site_websocket_is_refused(client):
    data = _table(client)
    url = f"{WS}/ws/tables/{data['id']}?token={data['seats'][0]['token']}"
    for origin in (FOREIGN, "null", "http://127.0.0.1:9999"):
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url, headers={"Origin": origin}):
            pass
        assert refused.value.code == 1008 and "cross-site" in refused.value.reason
    for headers in (SAME_ORIGIN, {}):
        with client.websocket_connect(url, headers=headers) as ws:
            assert ws.receive_json()["type"] == "view"


def test_a_refused_handshake_is_http_403_from_the_real_server(tmp_path):
    """Under uvicorn (as ``jantaku serve`` runs) the refused handshake is answered 403 and never upgraded."""
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    app = _app(tmp_path / "real.sqlite3")
    with BackgroundServer(app) as server:
        table = app.state.manager.create("tenhou", ["human", "random", "random", "random"])
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{table.id}?token={table.seats[0].token}"
        rebound = url.replace("127.0.0.1", "rebound.example")  # a name that leads to this server (DNS rebinding)
        for target, origin in ((url, FOREIGN), (rebound, None)):
            sock = socket.create_connection(("127.0.0.1", server.port))
            with pytest.raises(InvalidStatus) as refused, connect(target, sock=sock, origin=origin, open_timeout=10):
                pass
            assert refused.value.response.status_code == 403
        with connect(url, origin=f"http://127.0.0.1:{server.port}", open_timeout=10) as ws:
            assert json.loads(ws.recv(timeout=10))["type"] == "view"


# -- JSON bodies ----------------------------------------------------------------------------------------------


def test_a_json_body_must_say_it_is_json(client):
    data = _table(client)
    tid, token = data["id"], data["seats"][0]["token"]
    view = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()
    act = json.dumps({"token": token, "step": view["step"], "index": 0})
    bodies = {
        "/api/tables": json.dumps({"rules": "tenhou", "seats": ["human"] * 4}),
        f"/api/tables/{tid}/act": act,
        "/api/score": json.dumps({"hand": "123m456p789s11122z", "win": "2z"}),
        f"/api/tables/{tid}/seats/1/reissue": json.dumps({"token": data["owner_token"]}),
    }
    for path, body in bodies.items():
        for media in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
            headers = {**SAME_ORIGIN, "Content-Type": media} if media else SAME_ORIGIN
            r = client.post(path, content=body, headers=headers)
            _refused(r, 415, "Content-Type: application/json", media.split(";")[0] if media else "none")
    assert client.get(f"/api/tables/{tid}/view", params={"token": token}).json() == view
    # with its type (and a charset) it is taken
    r = client.post(
        "/api/score", content=bodies["/api/score"], headers={"Content-Type": "application/json; charset=utf-8"}
    )
    assert r.status_code == 200, r.text


# -- reissuing a seat's link ----------------------------------------------------------------------------------


def test_a_reissued_link_replaces_the_old_one(client, tmp_path):
    data = _table(client)  # the creator sits at seat 0; seat 1 is an invitation
    tid, owner, old0, invite = data["id"], data["owner_token"], data["seats"][0]["token"], data["seats"][1]["invite"]
    assert owner != old0 and len(owner) >= 20 and "token" not in data["seats"][1]
    # the seat itself reissues its link
    r = client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": old0})
    assert r.status_code == 200, r.text
    new0 = r.json()["token"]
    assert new0 != old0 and r.json() == {"seat": 0, "token": new0, "link": f"/?table={tid}&token={new0}"}
    _refused(client.get(f"/api/tables/{tid}/view", params={"token": old0}), 403)
    view = client.get(f"/api/tables/{tid}/view", params={"token": new0})
    assert view.status_code == 200 and view.json()["seat"] == 0
    # the creator replaces seat 1's invitation before anyone opened it: the old one is used up
    r = client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": owner})
    assert r.status_code == 200, r.text
    invite1 = r.json()["invite"]
    assert invite1 != invite and r.json() == {"seat": 1, "invite": invite1, "link": f"/?table={tid}&invite={invite1}"}
    _refused(client.post(f"/api/tables/{tid}/claim", json={"invite": invite}), 409, "new link")
    r = client.post(f"/api/tables/{tid}/claim", json={"invite": invite1})
    assert r.status_code == 200 and r.json()["seat"] == 1
    token1 = r.json()["token"]
    # a claimed seat is its holder's: the creator can no longer replace it (nor its own seat with the owner token)
    _refused(client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": owner}), 409, "held")
    _refused(client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": owner}), 409, "held")
    # the old link can neither act nor watch
    step = client.get(f"/api/tables/{tid}/view", params={"token": new0}).json()["step"]
    _refused(client.post(f"/api/tables/{tid}/act", json={"token": old0, "step": step, "index": 0}), 403)
    with client.websocket_connect(f"{WS}/ws/tables/{tid}?token={old0}") as ws:
        assert ws.receive_json()["status"] == 403
    # another seat, an old token, a bot seat, a bad seat
    _refused(client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": new0}), 403, "creator")
    _refused(client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": old0}), 403)
    _refused(client.post(f"/api/tables/{tid}/seats/2/reissue", json={"token": owner}), 400, "bot")
    _refused(client.post(f"/api/tables/{tid}/seats/7/reissue", json={"token": owner}), 400, "seat")
    _refused(client.post(f"/api/tables/{tid}/seats/x/reissue", json={"token": owner}), 400, "seat")
    _refused(client.post(f"/api/tables/{tid}/seats/0/reissue", json={}), 400, "token")
    _refused(client.post("/api/tables/nope/seats/0/reissue", json={"token": owner}), 404)
    # it is stored: after a restart the new links work and the old ones do not
    path = client.app.state.store.path
    with TestClient(create_app(SqliteStore(path)), base_url=BASE) as again:
        _refused(again.get(f"/api/tables/{tid}/view", params={"token": old0}), 403)
        assert again.get(f"/api/tables/{tid}/view", params={"token": new0}).json()["seat"] == 0
        assert again.get(f"/api/tables/{tid}/view", params={"token": token1}).json()["seat"] == 1
        _refused(again.post(f"/api/tables/{tid}/claim", json={"invite": invite1}), 409)


def test_a_reissue_closes_the_old_links_websocket(client):
    data = _table(client)
    tid = data["id"]
    old = client.post(f"/api/tables/{tid}/claim", json={"invite": data["seats"][1]["invite"]}).json()["token"]
    with client.websocket_connect(f"{WS}/ws/tables/{tid}?token={old}") as ws:
        assert ws.receive_json()["type"] == "view"
        assert client.post(f"/api/tables/{tid}/seats/1/reissue", json={"token": old}).status_code == 200
        message = ws.receive_json()
        assert message["type"] == "error" and message["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403


def test_another_process_on_the_same_file_honours_a_reissue(tmp_path):
    path = tmp_path / "shared.sqlite3"
    with TestClient(_app(path), base_url=BASE) as a, TestClient(_app(path), base_url=BASE) as b:
        data = _table(a)
        tid, old = data["id"], data["seats"][0]["token"]
        step = b.get(f"/api/tables/{tid}/view", params={"token": old}).json()["step"]  # b holds the table now
        r = a.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": old})
        new = r.json()["token"]
        _refused(b.get(f"/api/tables/{tid}/view", params={"token": old}), 403)
        _refused(b.post(f"/api/tables/{tid}/act", json={"token": old, "step": step, "index": 0}), 403)
        assert b.get(f"/api/tables/{tid}/view", params={"token": new}).json()["seat"] == 0
        # b's next move keeps the new link (it does not write the old seats back)
        assert b.post(f"/api/tables/{tid}/act", json={"token": new, "step": step, "index": 0}).status_code == 200
        _refused(a.get(f"/api/tables/{tid}/view", params={"token": old}), 403)
        assert a.get(f"/api/tables/{tid}/view", params={"token": new}).status_code == 200


def test_a_finished_tables_links_stay_as_they_are(client):
    data = _table(client, ("human", "random", "random", "random"))
    tid, token, manager = data["id"], data["seats"][0]["token"], client.app.state.manager
    table = manager.get(tid)
    while not table.over:  # the person always takes the first legal action (a whole game: under a second)
        manager.act(tid, token, table.view_step(0), 0)
    _refused(client.post(f"/api/tables/{tid}/seats/0/reissue", json={"token": data["owner_token"]}), 409, "over")
    assert client.get(f"/api/tables/{tid}/view", params={"token": token}).json()["over"]


def test_a_table_of_bots_has_no_owner_token(client):
    r = client.post("/api/tables", json={"rules": "tenhou", "seats": ["random"] * 4})
    assert r.json()["over"] and "owner_token" not in r.json()  # nobody to give a link to


# -- jantaku serve --allowed-host -----------------------------------------------------------------------------


def test_serve_answers_to_its_host_and_allowed_names(tmp_path, monkeypatch):
    from jantaku.cli import serve_cmd

    started = {}
    monkeypatch.setattr(
        serve_cmd, "serve_forever", lambda app, sock, **kw: (started.update(app=app, **kw), sock.close())
    )
    db = str(tmp_path / "s.sqlite3")
    from jantaku.sim.ray_cluster import free_ports

    port = str(free_ports(1)[0])
    argv = ["serve", "--db", db, "--port", port, "--host", "0.0.0.0", "--allowed-host", "Mahjong.Example.org"]
    argv += ["--allowed-host", "box"]
    assert main(argv) == 0
    with TestClient(started["app"], base_url="http://localhost:8000") as c:
        for host in ("localhost:8000", "mahjong.example.org", "box:8000", "10.0.0.7:8000"):
            assert c.get("/api/presets", headers={"Host": host}).status_code == 200, host
        _refused(c.get("/api/presets", headers={"Host": "rebound.example:8000"}), 421, "rebound.example")
    started.clear()
    assert main(["serve", "--db", db, "--port", port, "--host", "::1"]) == 0
    with TestClient(started["app"], base_url="http://[::1]:8000") as c:
        assert c.get("/api/presets").status_code == 200
        _refused(c.get("/api/presets", headers={"Host": "box"}), 421)


def test_serve_refuses_a_bad_allowed_host(tmp_path, capsys):
    assert main(["serve", "--db", str(tmp_path / "s.sqlite3"), "--allowed-host", "http://x.example/"]) == 2
    assert "--allowed-host" in capsys.readouterr().err
