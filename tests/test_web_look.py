"""What the pages read from the server for issue 13's details: the favicon (an SVG tile at /favicon.svg and
/favicon.ico), and an uploaded tenhou.net/6 record's yaku names (Japanese as the log writes them) read into
the interface's languages, with the record's rank points."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.testclient import TestClient

from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

RANKED = Path(__file__).parent / "data" / "records" / "tenhou6-json" / "edge-cases-b" / "ranked_game.json"


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"))) as c:
        yield c


@pytest.mark.parametrize("path", ["/favicon.svg", "/favicon.ico"])
def test_the_favicon_is_a_tile(client, path):
    r = client.get(path)
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and "<path" in r.text
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.text == client.get("/tiles/7z.svg").text


def test_pages_link_the_favicon(client):
    for page in ("/", "/score", "/games", "/replay"):
        assert '<link rel="icon" href="/favicon.svg" type="image/svg+xml">' in client.get(page).text


def test_an_uploaded_tenhou6_record_names_its_yaku_in_every_language(client):
    r = client.post("/api/replay?name=ranked_game.json", content=RANKED.read_bytes())
    assert r.status_code == 200, r.text
    game = r.json()["games"][0]
    assert game["final"] == [-19.0, 65.0, -55.0, 9.0]
    names = game["yaku"]
    written = {y[0] for e in game["events"] if e["type"] == "hora" for y in e["yaku"]}
    assert set(names) == written == {"役牌 發", "混一色", "赤ドラ", "断幺九", "ドラ", "三色同順"}
    assert names["ドラ"] == {"kanji": "ドラ", "english": "dora", "chinese": "宝牌"}
    assert names["役牌 發"]["english"] == "Green dragon" and names["役牌 發"]["chinese"] == "役牌 发"
    assert names["三色同順"]["english"] == "Mixed triple sequence" and names["三色同順"]["chinese"] == "三色同顺"
    # the haneman is written without fu: the event says so (the page shows no fu)
    haneman = [e for e in game["events"] if e["type"] == "hora"][-1]
    assert haneman["fu"] is None and haneman["limit"] == 2 and haneman["han"] == 6
