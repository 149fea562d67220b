"""Issue 34: seating over many rounds - balanced tables (the fewest repeated opponents), winds balanced when no
draw decides them, a prescripted schedule made ahead, substitutes - on SQLite and PostgreSQL, and what they
do to the standings."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from starlette.testclient import TestClient

from jantaku.league.errors import LeagueError
from jantaku.league.seating import group_players, make_schedule, repeats
from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore

SIXTEEN = [f"p{i:02d}" for i in range(16)]


def _rounds(store, event):
    """The event's rounds as lists of tables (players in seat order)."""
    by_round: dict[int, list[list[str]]] = {}
    for g in store.games(event):
        by_round.setdefault(g["round"], []).append(g["players"])
    return [by_round[r] for r in sorted(by_round)]


def _wind_repeats(rounds):
    """How many (player, wind) pairs came up more than once, none more than twice."""
    winds = Counter((p, w) for tables in rounds for t in tables for w, p in enumerate(t))
    assert max(winds.values()) <= 2, winds
    return sum(n > 1 for n in winds.values())


def test_a_random_seat_order_repeats_winds_far_more():
    import random

    rng = random.Random(3)
    rounds = [[rng.sample(t, 4) for t in group_players(SIXTEEN, "random", seed=n)] for n in range(4)]
    winds = Counter((p, w) for tables in rounds for t in tables for w, p in enumerate(t))
    assert sum(n > 1 for n in winds.values()) > 8


def _event(store, players=SIXTEEN, teams=None):
    store.create_event("Cup", "mu")
    for t in sorted(set((teams or {}).values())):
        store.add_team("Cup", t)
    for p in players:
        store.add_player("Cup", p, team=(teams or {}).get(p))


def test_balanced_rounds_repeat_opponents_far_less_than_random_ones(store):
    _event(store)
    for n in range(4):
        store.seat_round("Cup", "balanced", seed=n, draw=False)
    balanced = repeats(_rounds(store, "Cup"))
    randomly = [repeats([group_players(SIXTEEN, "random", seed=f"{s}:{n}") for n in range(4)]) for s in range(5)]
    assert balanced <= 6 and min(randomly) > 2 * balanced, (balanced, randomly)
    # no draw: each player sits at the wind they have sat least - over four rounds nearly everyone has had all
    # four winds (a table of four who all sat East before cannot all avoid it); a random seat order gives
    # about three players in four a repeated wind
    assert _wind_repeats(_rounds(store, "Cup")) <= 8


def test_a_schedule_made_ahead_is_followed_and_ends(store):
    teams = {p: "RGBY"[i % 4] for i, p in enumerate(SIXTEEN)}
    _event(store, teams=teams)
    store.add_player("Cup", "spare", substitute=True)
    with pytest.raises(LeagueError, match="make a schedule first"):
        store.seat_round("Cup", "prescripted")
    schedule = store.make_schedule("Cup", 3, seed=5)
    assert store.schedule("Cup") == schedule and len(schedule) == 3
    assert all(sorted(p for t in r for p in t) == SIXTEEN for r in schedule)  # everyone but the substitute
    assert all(len({teams[p] for p in t}) == 4 for r in schedule for t in r)  # teammates apart
    for _ in range(3):
        store.seat_round("Cup", "prescripted", draw=False)
    assert _rounds(store, "Cup") == schedule  # seats as scheduled, East first
    with pytest.raises(LeagueError, match="schedule has 3 round"):
        store.seat_round("Cup", "prescripted")
    assert _wind_repeats(schedule) <= 8
    assert repeats(schedule) <= repeats([group_players(SIXTEEN, "random", seed=n) for n in range(3)])


def test_the_schedule_balances_as_the_rounds_go():
    s = make_schedule(SIXTEEN, 5, seed=2)
    assert repeats(s) <= 12  # a perfect 16-player, 5-round schedule has none; random seating about 40
    with pytest.raises(LeagueError, match="1 to 100 rounds"):
        make_schedule(SIXTEEN, 0)


def test_a_substitute_plays_in_someones_place_and_scores_as_themselves(store):
    _event(store, players="ABCD")
    store.add_player("Cup", "S", substitute=True)
    r = store.seat_round("Cup", "random", seed=1)
    assert "S" not in r["games"][0]["players"]  # never drawn
    gid = r["games"][0]["game"]
    seat = r["games"][0]["players"].index("B")
    store.add_entry(gid, {"kind": "draw", "tenpai": [0]})
    out = store.substitute(gid, seat, "S")
    assert out == {"game": gid, "seat": seat, "out": "B", "in": "S", "entries": 1}
    with pytest.raises(LeagueError, match="sits at game"):
        store.substitute(gid, 0, "S")
    store.quick_entry("Cup", list("ACDS"), [45000, 35000, 25000, 15000])
    totals = {row["player"]: row for row in store.standings("Cup")}
    assert totals["S"]["games"] == 1 and totals.get("B", {"games": 0})["games"] == 0
    assert any(a["action"] == "substitute" and a["detail"]["out"] == "B" for a in store.audit_log("Cup"))


def test_the_web_api_seats_by_schedule_and_substitutes(tmp_path, db_url):
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), league_db=db_url)
    pw = {"X-League-Password": "s3cret-pw"}
    with TestClient(app) as c:
        c.post("/league/api/events", json={"name": "Cup", "rules": "mu", "password": "s3cret-pw"})
        for p in "ABCDEFGH":
            c.post("/league/api/events/Cup/players", json={"name": p}, headers=pw)
        c.post("/league/api/events/Cup/players", json={"name": "S", "substitute": True}, headers=pw)
        made = c.post("/league/api/events/Cup/schedule", json={"rounds": 2, "seed": 1}, headers=pw)
        assert made.status_code == 201 and len(made.json()["schedule"]) == 2
        ev = c.get("/league/api/events/Cup").json()
        assert ev["schedule"] == made.json()["schedule"] and [p["substitute"] for p in ev["players"]][-1] is True
        seat = {"method": "prescripted", "draw": False, "round": 1}
        r = c.post("/league/api/events/Cup/rounds", json=seat, headers=pw).json()
        again = c.post("/league/api/events/Cup/rounds", json=seat, headers=pw)  # a second page, the same round
        assert again.status_code == 409 and "not 1" in again.json()["error"]
        assert [g["players"] for g in r["games"]] == made.json()["schedule"][0]
        gid = r["games"][0]["game"]
        sub = c.post(f"/league/api/games/{gid}/substitute", json={"seat": 1, "player": "S"}, headers=pw)
        assert sub.status_code == 200 and c.get(f"/league/api/games/{gid}").json()["players"][1] == "S"
        assert c.post(f"/league/api/games/{gid}/substitute", json={"seat": 1, "player": "S"}).status_code == 403
        assert c.get("/league/print?name=Cup").status_code == 200


def test_pairs_counted_once():
    assert repeats([[["a", "b", "c", "d"]], [["a", "b", "e", "f"]]]) == 1
    assert repeats([[list("abcd")], [list("abcd")]]) == len(list(itertools.combinations("abcd", 2)))


def test_a_round_seated_by_someone_else_meanwhile_is_refused_not_doubled(store):
    """Issue 34 (nothing lost): two organisers seat "round 2" from the same page: the second is refused."""
    from jantaku.league.errors import ConflictError

    _event(store, players="ABCDEFGH")
    store.seat_round("Cup", "random", seed=1, expected_round=1)
    store.seat_round("Cup", "random", seed=2, expected_round=2)
    with pytest.raises(ConflictError, match="this would be round 3, not 2"):
        store.seat_round("Cup", "random", seed=3, expected_round=2)
    assert len(store.games("Cup")) == 4
