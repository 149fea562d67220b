"""The web table's Analyse page (jantaku.web.analyse): a small analysis from the browser and its report, the
limits that keep it small, and what it refuses (files, external bots, too many games)."""

from __future__ import annotations

import threading
import time

import pytest
from starlette.testclient import TestClient

from jantaku.web.app import create_app
from jantaku.web.heavy import HeavyLimits
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
    pictures = page.text.count("<img ")
    # forest plots of the paired differences, key measures, two histograms, yaku
    assert pictures == data["pictures"] >= 6
    for n in range(pictures):
        img = client.get(f"{data['report']}/{n}.png")
        assert img.status_code == 200 and img.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get(f"{data['report']}/{pictures}.png").status_code == 404
    assert "Paired differences from kiriage=false" in page.text and "Holm" in page.text
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


def test_an_analysis_runs_in_a_worker_within_its_limits(tmp_path, monkeypatch):
    """Issue 32: an analysis held the server for 398 s. It now runs in a worker process: the server answers
    meanwhile, a request finding every worker busy is turned away, and the deadline ends the worker (the next
    analysis gets a fresh one)."""
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), heavy=HeavyLimits(workers=1, queue=0))
    pool = app.state.heavy
    short = HeavyLimits(workers=1, queue=0, deadlines=(("analyse", 0.3),))
    with TestClient(app) as client:
        results = {}
        body = {"games": 2, "bots": "random", "rules": "mleague"}
        t = threading.Thread(target=lambda: results.update(first=client.post("/api/analyse", json=body)))
        t.start()
        deadline = time.monotonic() + 60
        while pool.stats["jobs"] == 0 and time.monotonic() < deadline:
            time.sleep(0.02)
        assert pool.stats["jobs"] == 1
        assert client.get("/api/analyse/limits").status_code == 200
        busy = client.post("/api/analyse", json=body)
        t.join(120)
        assert busy.status_code == 503 and "busy" in busy.json()["error"], busy.text
        assert results["first"].status_code == 200, results["first"].text
        assert pool.stats["refused"] == 1
        pool.limits = short  # the host's --heavy-deadline analyse=0.3
        slow = client.post("/api/analyse", json={**body, "bots": "strong", "games": 6})
        assert slow.status_code == 503 and "took longer than 0.3 s and was stopped" in slow.json()["error"]
        assert "jantaku analyze" in slow.json()["error"] and pool.stats["timeouts"] == 1
        assert client.get("/api/status").json()["heavy"]["deadlines"]["analyse"] == 0.3
        pool.limits = HeavyLimits(workers=1, queue=0)
        again = client.post("/api/analyse", json=body)  # a fresh worker
        assert again.status_code == 200, again.text
        assert client.get(again.json()["report"]).status_code == 200
