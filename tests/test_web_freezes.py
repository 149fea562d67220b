"""The web table never freezes (issue 30): each of the three ways a game stopped moving, at its root.

- A table created (or read back) while the clock had nothing to do: the clock thread looked at the tables,
  found nothing due, and ended just before the new table was held; nothing drove it again.
- A game that ends on a discard (a ron, a draw): its last call window never closed, because a game over
  scheduled nothing; the seats not asked about that discard never saw the result or the final table.
- A person's own added kan at a paced table: the step of the call window and the step after it are equal, and
  only changes of the step were pushed, so the page kept showing the window (no replacement tile, no buttons).

The first runs on the real clock thread of a :class:`TableManager` (real time, a few seconds); the others on a
test clock, with a websocket listener's queue read as the server's push loop reads it.
"""

from __future__ import annotations

import asyncio
import time

import pytest

from jantaku.table import Game
from jantaku.web.storage import SqliteStore
from jantaku.web.tables import SPECTATOR, TableManager, TableOptions
from scenario_walls import build_wall
from seats import create_claimed

PACE_MS = 450  # `jantaku serve`'s default pace (normal)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _advance(m: TableManager, clock: Clock, seconds: float) -> None:
    end = clock.now + seconds
    while clock.now < end - 1e-9:
        clock.now = round(clock.now + 0.01, 6)
        m.run_due()


def _first_dealer(seed: str) -> int:
    from jantaku.rules import load_rules

    return Game(load_rules("tenhou"), seed=seed).first_dealer


def _seed(dealer_is_person: bool) -> str:
    """A seed whose first dealer is seat 0 (the person) or a bot."""
    return next(s for s in (f"freeze-{i}" for i in range(100)) if (_first_dealer(s) == 0) == dealer_is_person)


def test_a_table_created_while_the_clock_is_idle_is_played():
    m = TableManager(SqliteStore(":memory:"))  # the real clock thread, as `jantaku serve` runs it
    options = TableOptions(pace=PACE_MS)
    seats = ["human", "efficiency", "efficiency", "efficiency"]
    waiting = create_claimed(m, "tenhou", seats, seed=_seed(True), options=options)  # the person deals: nothing timed
    assert waiting.wake_at is None
    time.sleep(1.5)  # the clock looks, finds nothing due (the old clock thread ended here)
    table = create_claimed(m, "tenhou", seats, seed=_seed(False), options=options)  # a bot deals first
    first = table.view_step(0)
    deadline = time.monotonic() + 20
    while table.view_step(0) == first and time.monotonic() < deadline:
        time.sleep(0.1)
    assert table.view_step(0) != first, "the bots never moved at a table created on an idle server"
    m.close()


def _four_people(m: TableManager, walls, rules: str = "tenhou"):
    options = TableOptions(pace=PACE_MS, result_seconds=0)
    t = create_claimed(m, rules, ["human"] * 4, seed="freeze", options=options)
    t.game = Game(t.ruleset(), seed=t.seed, names=[i.name for i in t.seats], first_dealer=0, walls=walls)
    t.actions.clear()
    return t


def _do(m: TableManager, t, seat: int, kind: str, tile: str | None = None) -> None:
    v = t.view(seat)
    match = [a for a in v["actions"] if a["type"] == kind and (tile is None or a["tile"] == tile)]
    assert match, f"seat {seat} is not offered {kind} {tile or ''}: {[(a['type'], a['tile']) for a in v['actions']]}"
    m.act(t.id, t.seats[seat].token, v["step"], match[0]["index"])


def _pass_all(m: TableManager, t) -> None:
    for s in range(4):
        if any(a["type"] == "none" for a in t.view(s)["actions"]):
            _do(m, t, s, "none")


def test_a_game_ending_on_a_ron_shows_its_end_to_every_seat_and_spectator():
    # the dealer (seat 0) deals into seat 1's thirteen orphans on the first discard and goes below zero
    wall = build_wall(
        ["7z2345678m23456p", "19m19p19s1234566z", "234567p2345678s", "345678m345678s8p"],
        ["3z"],
    )
    clock = Clock()
    m = TableManager(SqliteStore(":memory:"), clock=clock)
    t = _four_people(m, lambda _i: wall)
    _do(m, t, 0, "dahai", "7z")
    _do(m, t, 1, "ron")
    assert t.over
    _advance(m, clock, PACE_MS / 1000 + 0.5)
    for seat in (0, 2, 3):  # the seats that only watched the discard
        v = t.view(seat)
        assert v["over"] and v["final"], f"seat {seat} never sees the end of the game"
    watch = t.spectator_view()
    assert watch["over"] and watch["final"]
    assert t.wake_at is None  # and then nothing is left to do


def test_a_persons_added_kan_is_pushed_with_its_replacement_tile():
    # seat 0 (dealer) pons seat 1's 5p, then draws the red five and adds it to the pon
    wall = build_wall(
        ["55p123m456m789s11z", "5p1379m1379p1379s", None, None],
        ["9p", "2z", "3z", "4z", "5z", "0p"],
        rinshan=["6z"],
    )
    clock = Clock()
    m = TableManager(SqliteStore(":memory:"), clock=clock)
    t = _four_people(m, lambda _i: wall)
    window = PACE_MS / 1000 + 0.05

    async def play() -> None:
        listener = t.subscribe(0)
        _do(m, t, 0, "dahai", "9p")
        _pass_all(m, t)
        _advance(m, clock, window)
        _do(m, t, 1, "dahai", "5p")
        _do(m, t, 0, "pon")
        _pass_all(m, t)
        _advance(m, clock, window)
        _do(m, t, 0, "dahai", "9s")
        for seat in (1, 2, 3):
            _pass_all(m, t)
            _advance(m, clock, window)
            v = t.view(seat)
            drawn = next(a for a in v["actions"] if a["type"] == "dahai" and a["tsumogiri"])
            m.act(t.id, t.seats[seat].token, v["step"], drawn["index"])
        _pass_all(m, t)
        _advance(m, clock, window)
        assert any(a["type"] == "kakan" for a in t.view(0)["actions"])
        _do(m, t, 0, "kakan")
        await asyncio.sleep(0)
        while not listener.queue.empty():
            listener.queue.get_nowait()
        _pass_all(m, t)
        _advance(m, clock, window)  # the kan's call window closes
        await asyncio.sleep(0)
        assert not listener.queue.empty(), "the page was not sent the table after the kan"
        v = t.view(0)
        assert v["drawn"] == "6z" and any(a["type"] == "dahai" for a in v["actions"])
        _do(m, t, 0, "dahai", "6z")  # and the hand goes on
        assert t.view(0)["players"][0]["river"][-1]["tile"] == "6z"
        t.unsubscribe(listener)

    asyncio.run(play())


@pytest.mark.parametrize("viewer", [0, SPECTATOR])
def test_every_change_of_scene_is_pushed_even_with_the_same_step(viewer):
    # the fingerprint a listener is told by moves when the call window closes, whatever the step does
    wall = build_wall(["7z2345678m23456p", "19m19p19s1234566z", "234567p2345678s", "345678m345678s8p"], ["3z"])
    clock = Clock()
    m = TableManager(SqliteStore(":memory:"), clock=clock)
    t = _four_people(m, lambda _i: wall)
    _do(m, t, 0, "dahai", "7z")
    during = t.seen_key(viewer)
    assert during[1] == "window"
    _do(m, t, 1, "ron")
    _advance(m, clock, PACE_MS / 1000 + 0.5)
    assert t.seen_key(viewer)[1] == "over"


def test_the_clock_stops_before_the_server_is_gone(tmp_path):
    """A server shutting down stops its table clock first (and waits for a step it is taking): no timed step is
    written after the store is closed."""
    from starlette.testclient import TestClient

    from jantaku.web.app import create_app

    app = create_app(SqliteStore(tmp_path / "games.sqlite3"))
    with TestClient(app) as client:
        body = {"rules": "tenhou", "seats": ["human"] + ["efficiency"] * 3, "pace": "normal"}
        r = client.post("/api/tables", json=body)
        assert r.status_code == 201
        thread = app.state.manager._clock_thread
        assert thread is not None and thread.is_alive()
    assert not thread.is_alive()
