"""Exporting an uploaded log (POST /api/replay/export): real Tenhou logs (mjlog, tenhou.net/6, mjx) and mjai
out as tenhou.net/6 JSON and mjai lines, read back to the same events; rejections answer 4xx and store nothing.
Also: the replay viewer's wall count (70, or 84 without a dead wall, less the hand's tsumo events) is the table
engine's ``tiles_left`` after every event, kans and their replacement draws included."""

import itertools
import json
import random
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from jantaku.rules import load_rules
from jantaku.table.game import Game
from jantaku.table.kyoku import ENDED
from jantaku.web import app as web_app
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

RECORDS = Path(__file__).parent / "data" / "records"
MJLOG = sorted(RECORDS.joinpath("tenhou-mjlog").rglob("*.mjlog"))[0]
TENHOU6 = RECORDS / "tenhou6-json" / "edge-cases-b" / "ranked_game.json"  # 3 hands, with final rank points
TWINS = sorted(RECORDS.joinpath("tenhou6-json", "mjx-twins").glob("*.json"))[0]  # several games in one file
MJX = RECORDS / "mjx-walls" / "first-example.json"

# what the play is: a tenhou.net/6 file cannot hold all of a Tenhou mjlog's or mjx file's other fields (the
# dice, a riichi stick's deltas, the yaku and fu of a win as Tenhou's text)
PLAY = ("type", "target", "pai", "consumed", "tehais", "dora_marker", "bakaze", "kyoku", "honba", "oya")


def _play(e: dict) -> dict:
    out = {k: e.get(k) for k in PLAY}
    if e["type"] != "ryukyoku":
        out["actor"] = e.get("actor")
    if e["type"] in ("hora", "ryukyoku", "end_game"):
        out["deltas"], out["scores"] = e.get("deltas"), e.get("scores")
    return out


@pytest.fixture
def client(tmp_path):
    seeds = itertools.count()
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), seed_source=lambda: f"export-{next(seeds)}")
    with TestClient(app) as c:
        yield c


def _upload(client, body: bytes, name: str) -> list[dict]:
    r = client.post("/api/replay", params={"name": name}, content=body)
    assert r.status_code == 200, r.text
    return r.json()["games"]


def _export(client, body: bytes, name: str, fmt: str, game: int = 0):
    return client.post("/api/replay/export", params={"format": fmt, "name": name, "game": game}, content=body)


def _filename(response) -> str:
    disposition = response.headers["content-disposition"]
    assert disposition.startswith('attachment; filename="') and disposition.endswith('"')
    return disposition[len('attachment; filename="') : -1]


def _with_final(events: list[dict], final: list[float] | None) -> list[dict]:
    """The events as the mjai export writes them: the source's rank points on ``end_game``."""
    if final is None:
        return events
    return [{**e, "final": final} if e["type"] == "end_game" else e for e in events]


@pytest.mark.parametrize("path", [MJLOG, TENHOU6, MJX], ids=["mjlog", "tenhou6", "mjx"])
def test_an_uploaded_log_exports_as_mjai_and_reads_back_the_same(client, path):
    games = _upload(client, path.read_bytes(), path.name)
    game = games[0]
    assert game["exports"] == ["tenhou6", "mjai"]
    r = _export(client, path.read_bytes(), path.name, "mjai")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/x-ndjson")
    assert _filename(r) == path.stem.replace("=", "") + ("-1" if len(games) > 1 else "") + ".mjson"
    again = _upload(client, r.content, "again.mjson")[0]
    assert again["events"] == _with_final(game["events"], game["final"])
    assert again["final"] == game["final"] and again["red_fives"] == game["red_fives"]
    # and the mjai file exports again to the very same lines
    assert _export(client, r.content, "again.mjson", "mjai").content == r.content


@pytest.mark.parametrize("path", [MJLOG, TENHOU6, MJX], ids=["mjlog", "tenhou6", "mjx"])
def test_an_uploaded_log_exports_as_tenhou6(client, path):
    games = _upload(client, path.read_bytes(), path.name)
    game = games[0]
    r = _export(client, path.read_bytes(), path.name, "tenhou6")
    assert r.status_code == 200 and r.headers["content-type"].startswith("application/json")
    assert _filename(r) == path.stem.replace("=", "") + ("-1" if len(games) > 1 else "") + ".json"
    doc = r.json()
    assert doc["name"] == next(e for e in game["events"] if e["type"] == "start_game")["names"]
    assert len(doc["log"]) == sum(e["type"] == "start_kyoku" for e in game["events"])
    if game["final"] is not None:  # the final scores and rank points as Tenhou's "sc"
        assert doc["sc"][1::2] == [int(x) if float(x).is_integer() else x for x in game["final"]]
    again = _upload(client, r.content, "again.json")[0]
    assert again["final"] == game["final"]
    if path == TENHOU6:  # tenhou.net/6 in, tenhou.net/6 out: the same events
        assert again["events"] == game["events"]
    else:  # the same hands, draws, discards, calls and payments; only what tenhou.net/6 cannot hold differs
        assert [_play(e) for e in again["events"]] == [_play(e) for e in game["events"]]


def test_each_game_of_a_file_of_several_exports_by_its_number(client):
    games = _upload(client, TWINS.read_bytes(), TWINS.name)
    assert len(games) > 2
    r = _export(client, TWINS.read_bytes(), TWINS.name, "mjai", game=2)
    assert r.status_code == 200 and f'{TWINS.stem}-3.mjson"' in r.headers["content-disposition"]
    assert _upload(client, r.content, "third.mjson")[0]["events"] == games[2]["events"]
    r = _export(client, TWINS.read_bytes(), TWINS.name, "tenhou6", game=2)
    assert _upload(client, r.content, "third.json")[0]["events"] == games[2]["events"]
    r = _export(client, TWINS.read_bytes(), TWINS.name, "mjai", game=len(games))
    assert r.status_code == 400 and f"holds {len(games)} game(s)" in r.json()["error"]


def test_a_jielu_log_exports_as_mjai_only(client):
    created = client.post("/api/tables", json={"rules": "jielu", "seats": ["random"] * 4})
    gid = created.json()["id"]
    body = client.get(f"/api/games/{gid}/export", params={"format": "mjai"}).content
    game = _upload(client, body, "jielu.mjson")[0]
    assert game["family"] == "jielu" and game["exports"] == ["mjai"]
    r = _export(client, body, "jielu.mjson", "tenhou6")
    assert r.status_code == 400 and "riichi games only" in r.json()["error"]
    r = _export(client, body, "jielu.mjson", "mjai")
    assert r.status_code == 200 and _upload(client, r.content, "x.mjson")[0]["events"] == game["events"]


def test_malformed_exports_are_refused_and_nothing_is_stored(client, monkeypatch):
    games = client.get("/api/games").json()
    for body in (b"", b"   ", b"hello", b'{"log": [[1, 2]]}', b"<mjloggm><INIT/></mjloggm>", b"\x1f\x8b broken"):
        for fmt in ("tenhou6", "mjai"):
            r = _export(client, body, "bad/../x.json", fmt)
            assert r.status_code == 400 and r.json()["error"], body
            assert "/tmp" not in r.json()["error"] and "jantaku-upload" not in r.json()["error"]
    good = MJLOG.read_bytes()
    for params in ({"format": "pdf"}, {"game": "x"}, {"game": "-1"}):
        r = client.post("/api/replay/export", params={"name": "x.mjlog", **params}, content=good)
        assert r.status_code == 400 and r.json()["error"]
    # a deal with a tile that is not one: read as mjai, refused as tenhou.net/6 with the reason
    events = _upload(client, good, MJLOG.name)[0]["events"]
    broken = [dict(e) for e in events]
    deal = next(e for e in broken if e["type"] == "start_kyoku")
    deal["dora_marker"] = "0z"
    body = "".join(json.dumps(e) + "\n" for e in broken).encode()
    r = _export(client, body, "broken.mjson", "tenhou6")
    assert r.status_code == 400 and "0z" in r.json()["error"]
    assert client.get("/api/replay/export").status_code == 405
    monkeypatch.setattr(web_app, "MAX_UPLOAD", 100)
    assert _export(client, good, "big.mjlog", "mjai").status_code == 413
    assert client.get("/api/games").json() == games  # an upload is read, never stored


@pytest.mark.parametrize("preset", ["tenhou", "jielu"])
def test_the_viewers_wall_count_is_the_engines(preset):
    """replay.js wallLeft(): (122 with a dead wall, else 136) - 52 dealt - the hand's tsumo events, at least 0.
    Random play that takes every kan it may: replacement draws shorten the live wall as the engine counts it."""
    rules = load_rules(preset)
    checked = kans = 0
    for seed in range(20):
        if checked > 500 and kans >= 3:
            break
        rng = random.Random(seed)
        game = Game(rules, seed=f"wall-{seed}")
        while not game.over and game.to_act():
            seat = game.to_act()[0]
            actions = game.legal_actions(seat)
            kan = [a for a in actions if "kan" in str(a.kind)]
            kyoku = game.kyoku
            game.apply(kan[0] if kan and rng.random() < 0.9 else rng.choice(actions))
            if kyoku.phase == ENDED:
                continue
            deal = kyoku.events[0]
            draws = sum(e["type"] == "tsumo" for e in kyoku.events)
            assert max(0, (122 if deal.get("dora_marker") else 136) - 52 - draws) == kyoku.tiles_left
            checked += 1
            kans += kyoku.events[-1]["type"] == "tsumo" and kyoku.drawn_rinshan
    assert checked > 500 and kans >= 3
