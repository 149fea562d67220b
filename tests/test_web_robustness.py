"""The web API under bad input (issue 11): every refusal is JSON ``{"error": ...}`` with a 4xx status naming the
problem, never a plain-text 500 or a dropped connection.

Covers deeply nested JSON (100,000 levels) and integers over 4,300 digits on every JSON endpoint and the
websocket, non-string tokens, the body size caps, a gzip upload that would inflate to 300 MB, the number
ranges of a scoring request, and a few hundred mutated real records uploaded (fixed seed)."""

import gzip
import itertools
import json
import random
import time
import tracemalloc
import zlib
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from jantaku.web.app import create_app
from jantaku.web.limits import MAX_INFLATED, MAX_JSON_BYTES, MAX_UPLOAD
from jantaku.web.storage import SqliteStore

RECORDS = Path(__file__).parent / "data" / "records"
DEEP = b"[" * 100_000 + b"]" * 100_000
DEEP_OBJECT = b'{"a":' * 40_000 + b"1" + b"}" * 40_000  # 240 KB: under the body cap
HUGE_INT = b"9" * 5000


@pytest.fixture
def client(tmp_path):
    n = itertools.count()
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=lambda: f"robust-{next(n)}")
    # raw bodies below are sent as JSON (a JSON body must say so: test_web_security.py)
    with TestClient(app, raise_server_exceptions=False, headers={"Content-Type": "application/json"}) as c:
        yield c


def _table(client, seats=("human", "random", "random", "random")):
    r = client.post("/api/tables", json={"rules": "tenhou", "seats": list(seats)})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["id"], data["seats"][0]["token"]


def _refused(r, status=None, *words):
    """A JSON ``{"error": ...}`` with a 4xx status (``status`` if given) whose message holds ``words``."""
    assert r.headers["content-type"].startswith("application/json"), (r.status_code, r.text[:200])
    body = r.json()
    assert set(body) == {"error"} and isinstance(body["error"], str), body
    assert 400 <= r.status_code < 500, (r.status_code, body)
    if status is not None:
        assert r.status_code == status, (r.status_code, body)
    for w in words:
        assert w in body["error"], body
    assert len(body["error"]) < 1000  # names the bad part, never repeats the input
    return body["error"]


def _json_endpoints(client):
    tid, token = _table(client)
    return tid, token, ["/api/tables", "/api/score", f"/api/tables/{tid}/act"]


def test_deep_nesting_and_huge_integers_on_json_endpoints(client):
    tid, token, paths = _json_endpoints(client)
    before = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()
    for path in paths:
        for body in (DEEP, DEEP_OBJECT, b'{"x": ' + DEEP + b"}"):
            _refused(client.post(path, content=body), 400, "nests deeper than 32 levels")
        for body in (b'{"honba": ' + HUGE_INT + b"}", b'{"step": -' + HUGE_INT + b', "token": "x"}'):
            _refused(client.post(path, content=body), 400, "5000 digits (at most 100)")
        _refused(client.post(path, content=b'{"step": 1e999}'), 400, "out of range")
        _refused(client.post(path, content=b'{"step": NaN}'), 400, "NaN is not a JSON number")
        _refused(client.post(path, content=b"\xff\xfe{"), 400, "not valid JSON")
        _refused(client.post(path, content=b"[1, 2]"), 400, "a JSON object")
        _refused(client.post(path, content=b'{"a":' * 100_000), 413, "larger than 256 KiB")  # 500 KB
    # nothing moved
    assert client.get(f"/api/tables/{tid}/view", params={"token": token}).json() == before


def test_deep_nesting_and_huge_integers_in_uploads(client):
    for path in ("/api/replay", "/api/replay/export"):
        for body in (DEEP, b'{"log": ' + DEEP + b"}", b'{"title": "x", "log": [[' + HUGE_INT + b"]]}"):
            _refused(client.post(path, content=body), 400, "upload")
        deep_gz = gzip.compress(DEEP)
        _refused(client.post(path, params={"name": "deep.json.gz"}, content=deep_gz), 400, "deep.json")


def test_act_token_must_be_a_string(client):
    tid, token = _table(client)
    step = client.get(f"/api/tables/{tid}/view", params={"token": token}).json()["step"]
    for bad in (5, ["x"], {}, None, True, 1.5):
        r = client.post(f"/api/tables/{tid}/act", json={"token": bad, "step": step, "index": 0})
        _refused(r, 400, "token")
    for bad_step in ("1", None, [1], 10**15):
        r = client.post(f"/api/tables/{tid}/act", json={"token": token, "step": bad_step, "index": 0})
        _refused(r)
    for bad_index in ("0", [0], None, -1, 10**15, {"type": "dahai", "tile": 5}, {"type": 5}):
        r = client.post(f"/api/tables/{tid}/act", json={"token": token, "step": step, "index": bad_index})
        _refused(r)
    # the seat still plays normally afterwards
    r = client.post(f"/api/tables/{tid}/act", json={"token": token, "step": step, "index": 0})
    assert r.status_code == 200 and r.json()["step"] > step


def test_create_table_rejects_odd_values(client):
    for body in (
        {"rules": ["tenhou"]},
        {"rules": "tenhou", "seats": [{}, "random", "random", "random"]},
        {"rules": "tenhou", "seats": [["human"], "random", "random", "random"]},
        {"rules": "tenhou", "seats": "human"},
        {"rules": "tenhou", "names": [1, 2, 3, 4]},
        {"rules": "tenhou", "names": "abcd"},
    ):
        _refused(client.post("/api/tables", json=body), 400)


def test_body_size_caps(client):
    big = json.dumps({"hand": "123m", "pad": "x" * (MAX_JSON_BYTES + 10)}).encode()
    for path in ("/api/score", "/api/tables"):
        _refused(client.post(path, content=big), 413, "larger than 256 KiB")
    # an upload over the cap, refused by its declared length before it is read ...
    r = client.post("/api/replay", content=b"x" * (MAX_UPLOAD + 1))
    _refused(r, 413, "larger than 8 MiB")

    # ... and one sent without a length (chunked), refused once it passes the cap
    def chunks():
        for _ in range(MAX_UPLOAD // 65536 + 2):
            yield b"y" * 65536

    _refused(client.post("/api/replay/export", content=chunks()), 413, "larger than 8 MiB")


def _gzip_bomb(size: int) -> bytes:
    """gzip data inflating to ``size`` zero bytes, made in 1 MiB steps (never holding ``size`` bytes)."""
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = bytes(1024 * 1024)
    parts = [c.compress(block) for _ in range(size // len(block))]
    parts.append(c.flush())
    return b"".join(parts)


def test_a_gzip_bomb_is_refused_early_without_the_memory(client):
    bomb = _gzip_bomb(300 * 1024 * 1024)
    assert len(bomb) < 400 * 1024  # about 300 KB sent ...
    tracemalloc.start()
    try:
        start = time.perf_counter()
        r = client.post("/api/replay", params={"name": "bomb.mjlog"}, content=bomb)
        elapsed = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    _refused(r, 413, "bomb.mjlog inflates to more than 32 MiB")
    assert peak < MAX_INFLATED + 16 * 1024 * 1024, peak  # ... 300 MB never allocated: 32 MiB and one step
    assert elapsed < 30  # a generous bound: it stops at 32 MiB instead of inflating 300 MB
    r = client.post("/api/replay/export", params={"name": "bomb.gz"}, content=bomb)
    _refused(r, 413, "inflates to more than 32 MiB")


def _mjlogs():
    """The corpus's mjlog files in a fixed order (some gzipped, some plain XML)."""
    return (p.read_bytes() for p in sorted((RECORDS / "tenhou-mjlog").rglob("*.mjlog")))


def test_gzip_uploads_that_are_cut_or_nested(client):
    mjlog = next(raw for raw in _mjlogs() if raw[:2] == b"\x1f\x8b")
    ok = client.post("/api/replay", params={"name": "a.mjlog"}, content=mjlog)
    assert ok.status_code == 200 and ok.json()["games"]
    _refused(client.post("/api/replay", content=mjlog[: len(mjlog) // 2]), 400, "cut short")
    _refused(client.post("/api/replay", content=gzip.compress(mjlog)), 400, "gzip data inside gzip data")
    _refused(client.post("/api/replay", content=b"\x1f\x8b\x08\x00garbage"), 400, "gzip")


def test_score_number_ranges(client):
    request = {"hand": "123m456p789s11222z", "win": "2z", "tsumo": True, "rules": "mleague"}
    assert client.post("/api/score", json=request).status_code == 200
    for field, value in (
        ("honba", 10**21),
        ("honba", 100),
        ("honba", -1),
        ("honba", 1.5),
        ("honba", "3"),
        ("deposits", 10**6),
        ("winner", 4),
        ("discarder", -1),
        ("pao", 7),
    ):
        _refused(client.post("/api/score", json={**request, field: value}), 400, field)
    ok = client.post("/api/score", json={**request, "honba": 99, "deposits": 3})
    assert ok.status_code == 200 and ok.json()["points"] > 0
    jielu = {"hand": "123m456p789s1134z", "rules": "jielu"}
    _refused(client.post("/api/score", json={**jielu, "extra_wildcards": 10**21}), 400, "extra_wildcards")
    for bad_rules in (["mleague"], {"a": 1}, 5):
        _refused(client.post("/api/score", json={**request, "rules": bad_rules}), 400, "rules")


def test_websocket_bad_messages_are_refused_and_the_socket_stays(client):
    tid, token = _table(client)
    with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
        view = ws.receive_json()["view"]
        for text, words in (
            (DEEP.decode(), "nests deeper than 32 levels"),
            ('{"type": "act", "step": ' + HUGE_INT.decode() + ', "index": 0}', "5000 digits (at most 100)"),
            ('{"type": "act", "step": 0, "index": 0, "x": ' + DEEP.decode() + "}", "nests deeper"),
            ("not json", "not valid JSON"),
            ('{"type": "act", "step": "0", "index": 0}', "step"),
            ('{"type": "act", "step": 0, "index": [0]}', "an action is"),
        ):
            ws.send_text(text)
            msg = ws.receive_json()
            assert msg["type"] == "error" and msg["status"] == 400 and words in msg["error"], msg
        ws.send_json({"type": "act", "step": view["step"], "index": 0})  # still open and playing
        after = ws.receive_json()
        assert after["type"] == "view" and after["view"]["step"] > view["step"]


def test_websocket_with_a_bad_token_is_closed_with_a_reason(client):
    tid, _ = _table(client)
    from starlette.websockets import WebSocketDisconnect

    with client.websocket_connect(f"/ws/tables/{tid}?token=forged") as ws:
        msg = ws.receive_json()
        assert msg["status"] == 403
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403 and "token" in closed.value.reason


def _mutations(data: bytes, rng: random.Random, n: int):
    for _ in range(n):
        b = bytearray(data)
        kind = rng.randrange(5)
        if kind == 0:  # flip bytes
            for _ in range(rng.randint(1, 4)):
                i = rng.randrange(len(b))
                b[i] ^= 1 << rng.randrange(8)
        elif kind == 1:  # delete a run
            i = rng.randrange(len(b))
            del b[i : i + rng.randint(1, 64)]
        elif kind == 2:  # cut
            del b[rng.randrange(1, len(b)) :]
        elif kind == 3:  # insert
            i = rng.randrange(len(b))
            b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
        else:  # duplicate a run
            i = rng.randrange(len(b))
            b[i:i] = b[i : i + rng.randint(1, 200)]
        yield bytes(b)


def test_mutated_record_uploads_never_give_a_server_error(client):
    r = client.post("/api/tables", json={"rules": "mleague", "seats": ["random"] * 4})
    mjai = client.get(f"/api/games/{r.json()['id']}/export", params={"format": "mjai"}).content
    mjlog_gz = next(raw for raw in _mjlogs() if raw[:2] == b"\x1f\x8b")
    sources = {
        "game.mjlog": mjlog_gz,
        "game.xml": gzip.decompress(mjlog_gz),
        "game.json": min((RECORDS / "tenhou6").glob("*.json"), key=lambda p: p.stat().st_size).read_bytes(),
        "game.mjson": mjai,
    }
    rng = random.Random(11)
    statuses: dict[int, int] = {}
    for name, data in sources.items():
        assert client.post("/api/replay", params={"name": name}, content=data).status_code == 200
        for k, mutated in enumerate(_mutations(data, rng, 75)):
            path = "/api/replay" if k % 3 else "/api/replay/export"
            r = client.post(path, params={"name": name, "format": "mjai"}, content=mutated)
            statuses[r.status_code] = statuses.get(r.status_code, 0) + 1
            if r.status_code != 200:
                _refused(r, 400)
    assert sum(statuses.values()) == 300 and set(statuses) <= {200, 400}, statuses
    assert statuses.get(400, 0) > 0  # the mutations did break records


def test_every_unknown_route_and_method_is_json(client):
    _refused(client.get("/api/nothing"), 404)
    _refused(client.get("/api/tables"), 405)
    _refused(client.get("/api/games/x/export", params={"format": "png"}), 400, "format")
    _refused(client.get("/api/games", params={"limit": "9" * 5000}), 400, "limit")
