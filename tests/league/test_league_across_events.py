"""Issue 34: ratings across events (OpenSkill Plackett-Luce, from the openskill library), player profiles with
their history in every event, and series of events counted together, on SQLite and PostgreSQL; the pages
that show them."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from jantaku.league.errors import LeagueError, NotFoundError
from jantaku.league.ratings import rate
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

TOP = [45000, 35000, 25000, 15000]


def _two_events(store):
    for ev, rules in (("Spring", "mu"), ("Autumn", "mleague")):
        store.create_event(ev, rules)
        for name in "ABCDE":
            store.add_player(ev, name)
    store.quick_entry("Spring", list("ABCD"), TOP)
    store.quick_entry("Spring", list("BCDE"), TOP)
    store.quick_entry("Autumn", list("ABCE"), [40000, 30000, 20000, 10000])


def test_ratings_follow_the_games_in_order_across_events(store):
    _two_events(store)
    r = store.ratings()
    assert r["model"].startswith("OpenSkill Plackett-Luce")
    rows = {p["player"]: p for p in r["players"]}
    assert {n: rows[n]["games"] for n in "ABCDE"} == {"A": 2, "B": 3, "C": 3, "D": 2, "E": 2}
    # the same as rating the games by hand, in the order played
    by_hand = rate(
        [
            {"players": list("ABCD"), "ranks": [1, 2, 3, 4]},
            {"players": list("BCDE"), "ranks": [1, 2, 3, 4]},
            {"players": list("ABCE"), "ranks": [1, 2, 3, 4]},
        ]
    )
    assert r["players"] == by_hand
    only_spring = store.create_series("Spring only", ["Spring"])
    assert only_spring == {"name": "Spring only", "events": ["Spring"]}
    assert {p["player"]: p["games"] for p in store.ratings("Spring only")["players"]}["A"] == 1


def test_a_profile_spans_events(store):
    _two_events(store)
    p = store.profile("E")
    assert [(e["event"], e["rules"], e["games"], e["place"]) for e in p["events"]] == [
        ("Spring", "mu", 1, 4),  # D was 4th and 3rd: below E
        ("Autumn", "mleague", 1, 5),
    ]
    assert [(g["event"], g["rank"]) for g in p["games"]] == [("Spring", 4), ("Autumn", 4)]
    assert p["rating"]["games"] == 2
    with pytest.raises(NotFoundError, match="no player 'Z'"):
        store.profile("Z")


def test_a_series_sums_its_events_standings(store):
    _two_events(store)
    store.create_series("Year", ["Spring", "Autumn"])
    s = store.series("Year")
    spring = {r["player"]: r["total"] for r in store.standings("Spring")}
    autumn = {r["player"]: r["total"] for r in store.standings("Autumn")}
    totals = {r["player"]: r["total"] for r in s["standings"]}
    assert totals == {n: round(spring[n] + autumn[n], 1) for n in "ABCDE"}
    assert s["standings"][0]["total"] == max(totals.values())
    assert {r["player"]: r["events"] for r in s["standings"]}["D"] == 1
    with pytest.raises(LeagueError, match="exists already"):
        store.create_series("Year", ["Spring"])
    with pytest.raises(NotFoundError):
        store.create_series("Other", ["Nope"])
    store.delete_event("Autumn")  # a deleted event leaves the series
    assert store.series("Year")["events"] == ["Spring"]


def test_the_pages_and_api(tmp_path, db_url):
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), league_db=db_url)
    with TestClient(app) as c:
        c.post("/league/api/events", json={"name": "Cup", "rules": "mu", "password": "s3cret-pw"})
        pw = {"X-League-Password": "s3cret-pw"}
        for n in "ABCD":
            c.post("/league/api/events/Cup/players", json={"name": n}, headers=pw)
        c.post("/league/api/events/Cup/quick", json={"players": list("ABCD"), "scores": TOP}, headers=pw)
        assert c.get("/league/api/ratings").json()["players"][0]["player"] == "A"
        assert c.get("/league/api/players/B").json()["games"][0]["rank"] == 2
        assert c.get("/league/api/players/Nobody").status_code == 404
        assert c.post("/league/api/series", json={"name": "All", "events": ["Cup"]}).status_code == 201
        assert c.get("/league/api/series").json() == {"series": ["All"]}
        assert c.get("/league/api/series/All").json()["standings"][0]["player"] == "A"
        for path in ("/league/ratings", "/league/player?name=A"):
            assert c.get(path).status_code == 200
