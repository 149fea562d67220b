"""The web table's Analyse page (jantaku.web.analyse): a small analysis from the browser and its report, the
limits that keep it small, and what it refuses (files, external bots, too many games)."""

from __future__ import annotations

import threading
import time

import pytest
from starlette.testclient import TestClient

from jantaku.web import analyse as web_analyse
from jantaku.web.app import create_app
from jantaku.web.limits import ANALYSE_MAX_GAMES, ANALYSE_MAX_TOTAL_GAMES
from jantaku.web.storage import SqliteStore


@pytest.fixture
def client(tmp_path):
    with TestClient(create_app(SqliteStore(tmp_path / "games.sqlite3"))) as c:
        yield c


def test_page_and_limits(client):
    page = client.get("/analyse")
    assert page.status_code == 200 and "analyse.js" in page.text
    lim = client.get("/api/analyse/limits").json()
    assert lim["games"] == ANALYSE_MAX_GAMES and "strong" in lim["bots"] and "mleague" in lim["presets"]
    assert lim["available"] is True and "install" not in lim  # the test install has the lab extra


def test_the_limits_say_when_the_lab_extra_is_missing(client, monkeypatch):
    import jantaku.web.analyse as analyse

    monkeypatch.setattr(analyse, "lab_available", lambda: False)
    lim = client.get("/api/analyse/limits").json()
    assert lim["available"] is False and lim["install"] == "pip install 'jantaku[lab]'"


def test_an_analysis_and_its_report(client):
    body = {"rules": "mleague", "sweep": "kiriage=false,true", "games": 2, "seed": 1, "bots": "efficiency"}
    res = client.post("/api/analyse", json=body)
    assert res.status_code == 200, res.text
    data = res.json()
    assert list(data["rule_sets"]) == ["kiriage=false", "kiriage=true"]
    assert data["rule_sets"]["kiriage=true"]["games"] == 2
    page = client.get(data["report"])
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    # the server's pages allow no inline content: pictures and style sheet are the server's own addresses
    assert "data:image" not in page.text and "<style>" not in page.text
    assert '<link rel="stylesheet" href="/static/analyse.css">' in page.text
    for n in range(4):
        img = client.get(f"{data['report']}/{n}.png")
        assert img.status_code == 200 and img.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(f"{data['report']}/4.png").status_code == 404
    assert client.get("/analyse/report/0000000000000000").status_code == 404
    # the same request gives the same measures
    again = client.post("/api/analyse", json=body).json()
    assert again["rule_sets"] == data["rule_sets"] and again["report"] != data["report"]


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ({"rules": "/etc/passwd"}, "the web page takes presets"),
        ({"rules": "examples/rules/my_league.toml"}, "the web page takes presets"),
        ({"bots": "mjai:sh"}, "the web page's bots are"),
        ({"games": ANALYSE_MAX_GAMES + 1}, f"games must be 2-{ANALYSE_MAX_GAMES}"),
        ({"games": "8"}, "games must be a whole number"),
        ({"rules": "mleague,mu,meibi", "games": ANALYSE_MAX_GAMES}, f"at most {ANALYSE_MAX_TOTAL_GAMES} games"),
        ({"rules": "mleague", "sweep": "starting_points=1,2,3,4,5"}, "at most 4 rule sets"),
        ({"sweep": "nosuch=1,2"}, "unknown rule parameter 'nosuch'"),
        ({"extra": 1}, "unknown field 'extra'"),
    ],
)
def test_refusals(client, body, message):
    res = client.post("/api/analyse", json={"games": 2, "bots": "efficiency", **body})
    assert res.status_code == 400 and message in res.json()["error"], res.text


def test_one_analysis_at_a_time_and_the_loop_keeps_serving(client, monkeypatch):
    started, release = threading.Event(), threading.Event()

    def slow(args):
        started.set()
        release.wait(10)
        return {"rule_sets": {}}, "0" * 16

    monkeypatch.setattr(web_analyse, "_run", slow)
    results = {}
    t = threading.Thread(target=lambda: results.update(first=client.post("/api/analyse", json={"games": 2})))
    t.start()
    assert started.wait(10)
    # while it plays, the event loop answers other requests, and a second analysis is turned away
    t0 = time.monotonic()
    assert client.get("/api/analyse/limits").status_code == 200
    assert time.monotonic() - t0 < 8  # held on the event loop, it would wait for the 10 s release
    busy = client.post("/api/analyse", json={"games": 2})
    assert busy.status_code == 503 and "another analysis is running" in busy.json()["error"]
    release.set()
    t.join(10)
    assert results["first"].status_code == 200
