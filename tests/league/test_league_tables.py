"""Issue 34: players enter their own tables (personal codes, confirmations by the rest of the table, writes sent
again after a lost answer) and the round clock (000 Art 24(2)), on SQLite and PostgreSQL, through the store and
the web API the table page uses."""

from __future__ import annotations

import datetime as dt
import threading

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from jantaku.league import schema as t
from jantaku.league.errors import ConflictError, EntryError, LeagueError
from jantaku.web.app import create_app
from jantaku.web.league import FAILED_PER_CLIENT
from jantaku.web.storage import SqliteStore

PW = {"X-League-Password": "s3cret-pw"}
DRAW = {"kind": "draw", "tenpai": [0]}


def _ron(winner, loser, han, fu=30):
    return {"kind": "win", "wins": [{"winner": winner, "from": loser, "han": han, "fu": fu}]}


def _event(store, players="ABCDEFGH"):
    store.create_event("Club", "mu", admin_password="s3cret-pw")
    for p in players:
        store.add_player("Club", p)
    return store.issue_pins("Club")


def test_codes_are_issued_once_hashed_and_replaced_by_name(store):
    pins = _event(store)
    assert sorted(pins) == list("ABCDEFGH") and len(set(pins.values())) >= 2
    assert store.issue_pins("Club") == {}  # everyone has one: nothing new
    with store.engine.connect() as conn:
        stored = {r.name: r.pin_hash for r in conn.execute(sa.select(t.players.c.name, t.players.c.pin_hash))}
    assert all(pins[n] not in h for n, h in stored.items())  # never kept in the clear
    new = store.issue_pins("Club", ["C"])
    assert list(new) == ["C"] and store.check_pin("Club", "C", new["C"])
    assert new["C"] == pins["C"] or not store.check_pin("Club", "C", pins["C"])  # the old code stops working
    assert not store.check_pin("Club", "A", pins["B"]) or pins["A"] == pins["B"]
    assert not store.check_pin("Club", "nobody", pins["A"])
    audit = [a for a in store.audit_log("Club") if a["action"] == "issue_pins"]
    assert audit[-1]["detail"] == {"players": ["C"]} and all(p not in str(audit) for p in pins.values())


def test_a_players_entry_waits_for_the_other_three(store):
    _event(store)
    g = store.new_game("Club", list("ABCD"))
    out = store.add_entry(g, _ron(1, 0, 3), player="B")
    assert out["state"]["scores"][1] > 25000  # it counts at once
    entry = store.game(g)["entries"][0]
    assert entry["entered_by"] == "player B" and entry["confirmed"] == [1] and entry["waiting"] == ["A", "C", "D"]
    assert [(u["seq"], u["waiting"]) for u in store.unconfirmed("Club")] == [(1, ["A", "C", "D"])]
    store.confirm_entry(g, 1, player="A")
    store.confirm_entry(g, 1, player="A")  # twice: the same
    assert store.game(g)["entries"][0]["waiting"] == ["C", "D"]
    with pytest.raises(LeagueError, match="E does not sit at game"):
        store.confirm_entry(g, 1, player="E")
    version = store.game(g)["version"]
    store.confirm_entry(g, 1, player="C", expected_version=version)
    assert store.game(g)["version"] == version  # a confirmation changes no score, no version
    with pytest.raises(ConflictError, match="changed since you loaded it"):
        store.confirm_entry(g, 1, player="D", expected_version=version - 1)
    store.confirm_entry(g, 1, player="D")
    assert store.unconfirmed("Club") == []
    # the organiser's entries need nobody; the organiser accepts a player's for the table
    store.add_entry(g, DRAW)
    assert store.game(g)["entries"][1]["confirmed"] is None and store.unconfirmed("Club") == []
    store.add_entry(g, DRAW, player="C")
    assert len(store.unconfirmed("Club")) == 1
    store.confirm_entry(g, 3)
    assert store.unconfirmed("Club") == [] and store.game(g)["entries"][2]["confirmed"] is None


def test_a_player_changes_only_the_tables_unconfirmed_last_entry(store):
    _event(store)
    g = store.new_game("Club", list("ABCD"))
    with pytest.raises(LeagueError, match="E does not sit at game"):
        store.add_entry(g, DRAW, player="E")
    store.add_entry(g, _ron(1, 0, 3), player="B")
    out = store.correct_last(g, _ron(1, 0, 4), player="C")  # anyone of the table, while it waits
    assert out["replaced"] == _ron(1, 0, 3)
    assert store.game(g)["entries"][0]["confirmed"] == [2]  # the correction waits for the others again
    for p in "ABD":
        store.confirm_entry(g, 1, player=p)
    with pytest.raises(EntryError, match="confirmed by the whole table: ask the organiser"):
        store.correct_last(g, None, player="A")
    store.add_entry(g, DRAW)
    with pytest.raises(EntryError, match="written by the organiser"):
        store.correct_last(g, DRAW, player="A")
    assert len(store.game(g)["entries"]) == 2  # nothing written by the refusals
    store.correct_last(g, None)  # the organiser may
    assert len(store.game(g)["entries"]) == 1


def test_a_write_sent_again_is_stored_once(store):
    _event(store)
    g = store.new_game("Club", list("ABCD"))
    first = store.add_entry(g, _ron(1, 0, 3), player="B", request_id="phone-b-1", expected_seq=1)
    again = store.add_entry(g, _ron(1, 0, 3), player="B", request_id="phone-b-1", expected_seq=1)
    assert again["repeat"] and again["seq"] == first["seq"] == 1 and again["version"] == first["version"]
    assert len(store.game(g)["entries"]) == 1
    with pytest.raises(EntryError, match="request id"):
        store.add_entry(g, DRAW, request_id="x" * 65)


def test_the_same_write_from_two_threads_at_once_is_stored_once(db_url):
    from jantaku.league.store import LeagueStore

    s = LeagueStore(db_url)
    _event(s)
    g = s.new_game("Club", list("ABCD"))
    answers = []

    def send():
        own = LeagueStore(db_url)
        answers.append(own.add_entry(g, DRAW, player="A", request_id="same", expected_seq=1))
        own.close()

    threads = [threading.Thread(target=send) for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert len(s.game(g)["entries"]) == 1
    assert sorted(bool(a.get("repeat")) for a in answers) == [False, True, True, True]
    s.close()


def _age_clock(store, minutes):
    """Move every started clock ``minutes`` into the past (as if the round had been playing that long)."""
    with store.engine.begin() as conn:
        for r in conn.execute(sa.select(t.rounds.c.id, t.rounds.c.clock_start)).all():
            if r.clock_start is not None:
                start = r.clock_start - dt.timedelta(minutes=minutes)
                conn.execute(t.rounds.update().where(t.rounds.c.id == r.id).values(clock_start=start))


def test_when_the_time_is_up_the_hand_in_play_is_the_last(store):
    """000 Art 24(2): with a time limit, the game ends when the hand in play at the limit ends. The first hand a
    table enters after the round's time is up gets the clock's time_up entry before it; a table of another round
    plays on."""
    _event(store)
    r1 = store.seat_round("Club", "given", players=list("ABCDEFGH"), draw=False)
    other = store.new_game("Club", list("ABCD"))  # outside the round: no clock
    with pytest.raises(LeagueError, match="1 to 1440 minutes"):
        store.start_clock("Club", 1, 0)
    clock = store.start_clock("Club", 1, 60)
    assert 3590 < clock["seconds_left"] <= 3600
    g1, g2 = (x["game"] for x in r1["games"])
    store.add_entry(g1, _ron(1, 0, 2))  # in time: nothing happens
    assert [e["kind"] for e in store.game(g1)["entries"]] == ["win"]
    _age_clock(store, 61)
    assert store.clocks("Club")[0]["seconds_left"] == 0
    store.add_entry(g1, _ron(0, 1, 2), player="A")  # the hand in play when the time ran out
    g = store.game(g1)
    assert [(e["kind"], e["entered_by"]) for e in g["entries"]] == [
        ("win", "organiser"),
        ("time_up", "clock"),
        ("win", "player A"),
    ]
    assert g["status"] == "finished" and g["result"] is not None
    store.add_entry(g2, DRAW)  # the other table of the round: its hand in play is its last too
    assert store.game(g2)["status"] == "finished"
    store.add_entry(other, DRAW)
    assert store.game(other)["status"] == "playing" and len(store.game(other)["entries"]) == 1
    assert any(a["action"] == "time_up" and a["actor"] == "clock" for a in store.audit_log("Club"))


@pytest.fixture
def client(tmp_path, db_url):
    app = create_app(SqliteStore(tmp_path / "games.sqlite3"), league_db=db_url)
    with TestClient(app) as c:
        yield c


def _web_event(client):
    client.post("/league/api/events", json={"name": "Club", "rules": "mu", "password": "s3cret-pw"})
    for p in "ABCDEFGH":
        client.post("/league/api/events/Club/players", json={"name": p}, headers=PW)
    pins = client.post("/league/api/events/Club/pins", json={}, headers=PW)
    assert pins.status_code == 201
    given = {"method": "given", "players": list("ABCDEFGH"), "draw": False}
    rnd = client.post("/league/api/events/Club/rounds", json=given, headers=PW).json()
    return pins.json()["pins"], [g["game"] for g in rnd["games"]]


def _as(pins, name):
    return {"X-League-Player": name, "X-League-Pin": pins[name]}


def test_the_table_api(client):
    pins, (g1, g2) = _web_event(client)
    assert client.post("/league/api/events/Club/pins", json={}).status_code == 403  # the organiser's
    r = client.post("/league/api/events/Club/player-login", headers=_as(pins, "B"))
    assert r.status_code == 200 and [g["game"] for g in r.json()["games"]] == [g1]
    wrong = {"X-League-Player": "B", "X-League-Pin": "x"}
    assert client.post("/league/api/events/Club/player-login", headers=wrong).status_code == 403
    body = {"entry": _ron(1, 0, 3), "expected_seq": 1, "request_id": "b-1"}
    assert client.post(f"/league/api/games/{g2}/entries", json=body, headers=_as(pins, "B")).status_code == 403
    first = client.post(f"/league/api/games/{g1}/entries", json=body, headers=_as(pins, "B"))
    again = client.post(f"/league/api/games/{g1}/entries", json=body, headers=_as(pins, "B"))
    assert (first.status_code, again.status_code) == (201, 200) and again.json()["repeat"]
    waiting = client.get("/league/api/events/Club/unconfirmed", headers=PW).json()["unconfirmed"]
    assert [(u["game"], u["seq"], u["waiting"]) for u in waiting] == [(g1, 1, ["A", "C", "D"])]
    assert client.get("/league/api/events/Club/unconfirmed").status_code == 403
    version = client.get(f"/league/api/games/{g1}").json()["version"]
    for p in "ACD":
        r = client.post(f"/league/api/games/{g1}/confirm", json={"seq": 1, "version": version}, headers=_as(pins, p))
        assert r.status_code == 200, r.text
    assert client.get(f"/league/api/games/{g1}").json()["entries"][0]["waiting"] == []
    # what stays the organiser's
    fix = {"entry": _ron(1, 0, 2), "seq": 1}
    assert client.post(f"/league/api/games/{g1}/entries", json=fix, headers=_as(pins, "A")).status_code == 403
    assert client.post(f"/league/api/games/{g1}/undo", headers=_as(pins, "A")).status_code == 400
    assert client.post(f"/league/api/games/{g1}/entries", json=fix, headers=PW).status_code == 201
    # the clock
    assert client.post("/league/api/events/Club/clock", json={"round": 1, "minutes": 30}, headers=PW).status_code == 201
    rounds = client.get("/league/api/events/Club/clocks").json()["rounds"]
    assert rounds[0]["round"] == 1 and rounds[0]["minutes"] == 30 and rounds[0]["seconds_left"] > 1700
    assert client.get(f"/league/api/games/{g1}").json()["round"] == 1


def test_wrong_codes_are_limited(client):
    pins, _ = _web_event(client)
    wrong = {"X-League-Player": "A", "X-League-Pin": "not-it"}
    login = "/league/api/events/Club/player-login"
    codes = [client.post(login, headers=wrong).status_code for _ in range(FAILED_PER_CLIENT + 1)]
    assert codes[:FAILED_PER_CLIENT] == [403] * FAILED_PER_CLIENT and codes[-1] == 429
    assert "too many wrong personal codes" in client.post(login, headers=wrong).json()["error"]
    assert client.post("/league/api/events/Club/player-login", headers=_as(pins, "A")).status_code == 429
