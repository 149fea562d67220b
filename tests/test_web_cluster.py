"""Several server processes on one PostgreSQL database (``jantaku serve --db postgresql://...`` more than once): a
move made through one process is pushed at once to the sockets of every other (LISTEN/NOTIFY), and a table's timed
steps are driven by exactly one process, the holder of its lease, which another takes over when the holder stops
or dies. In one process (two managers on two stores) for the mechanics, and as real processes (tests/served.py)
for a whole game and a ``kill -9``."""

from __future__ import annotations

import asyncio
import time

import pytest
import sqlalchemy as sa

from jantaku.web.leases import Leases
from jantaku.web.manager import TableManager
from jantaku.web.options import TableOptions
from jantaku.web.storage import SqlStore, StoredTable


def _pair(url: str) -> tuple[TableManager, TableManager]:
    """Two managers, each on a store of its own on the database at ``url``: two server processes, in one."""
    return (
        TableManager(SqlStore(url), creates_per_minute=0),
        TableManager(SqlStore(url), creates_per_minute=0),
    )


def _close(*managers: TableManager) -> None:
    for m in managers:
        m.close()
        m.store.close()


def _wait(predicate, seconds: float, what: str) -> float:
    """Wait until ``predicate()`` holds (at most ``seconds``); how long it took."""
    start = time.monotonic()
    while not predicate():
        if time.monotonic() - start > seconds:
            raise AssertionError(f"not within {seconds} s: {what}")
        time.sleep(0.01)
    return time.monotonic() - start


def test_a_lease_has_one_holder_and_is_taken_over_once_it_lapses(pg_cluster):
    store = SqlStore(pg_cluster.fresh_url())
    store.save_table(StoredTable("t1", "c", "u", "tenhou", "s", [], []))
    times = {"seconds": 1.0, "renew_seconds": 0.3, "margin": 0.2, "retry_seconds": 0.2}
    a, b = Leases(store.engine, "a", **times), Leases(store.engine, "b", **times)
    assert a.take("t1") and a.holds("t1") and not b.take("t1") and not b.holds("t1")
    assert not b.take("t1") and b.next_try("t1") > time.monotonic()  # b asks again only after retry_seconds
    time.sleep(0.25)
    assert a.renew({"t1"}) == set() and not b.take("t1")  # renewed: still a's
    b.renew({"t1"}, watched={"t1"})  # b has a socket on the table: a learns that someone watches it
    assert a.renew({"t1"}) == {"t1"}
    time.sleep(1.05)  # a stopped renewing (a process killed outright): the lease lapses
    assert not a.holds("t1")  # a stopped counting on it before the database did
    assert b.take("t1") and b.holds("t1")
    assert a.renew({"t1"}) == set() and not a.holds("t1") and not a.take("t1")  # a learns it lost the table
    b.close()  # a clean stop drops the lease: a takes the table over at once
    time.sleep(0.25)
    assert a.take("t1")
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT holder FROM leases")).scalars().all() == ["a"]
    a.renew(set())  # a table no longer held in memory: its lease is dropped
    with store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM leases")).scalar() == 0
    with pytest.raises(ValueError, match="renew_seconds"):
        Leases(store.engine, "c", seconds=1.0, renew_seconds=1.0)
    store.close()


def test_a_move_through_one_process_is_pushed_to_the_sockets_of_the_other(pg_cluster):
    a, b = _pair(pg_cluster.fresh_url())
    try:
        assert a.cluster_status()["listening"] is not None
        _wait(lambda: a.notices.connected.is_set() and b.notices.connected.is_set(), 10, "both listen")
        t = a.create("tenhou", ["human", "human", "efficiency", "efficiency"], options=TableOptions(pace=0))
        owner_token, invite = t.seats[0].token, t.seats[1].invite
        _, seat, token = b.claim(t.id, invite)  # the second person opens the invitation through the other process
        assert seat == 1
        _wait(lambda: a.tables[t.id].seats[1].token == token, 5, "the claim reaches the first process")

        async def play() -> list[float]:
            tb = b.get(t.id)
            person, watcher = tb.subscribe(1), tb.subscribe(None)
            delays = []
            for _ in range(12):  # whoever is asked moves, through the process the move's person uses
                ta = a.get(t.id)
                asked = [s for s in (0, 1) if ta.view(s)["actions"]]
                if not asked:
                    break
                seat = asked[0]
                manager, tok = (a, owner_token) if seat == 0 else (b, token)
                before = tb.view_step(1)
                while not watcher.queue.empty():
                    watcher.queue.get_nowait()
                started = time.monotonic()
                moved = await asyncio.to_thread(manager.act, t.id, tok, manager.get(t.id).view(seat)["step"], 0)
                if manager is a:  # the other process's sockets are told once it read the move
                    while await asyncio.wait_for(watcher.queue.get(), 5) < moved.step:
                        pass
                    delays.append(time.monotonic() - started)
                    assert tb.step == moved.step and tb.view_step(1) >= before
                while not person.queue.empty():
                    person.queue.get_nowait()
                assert a.get(t.id).spectator_view() == tb.spectator_view()  # both show the same table
            tb.unsubscribe(person)
            tb.unsubscribe(watcher)
            return delays

        delays = asyncio.run(play())
        assert delays and max(delays) < 2.0, delays
    finally:
        _close(a, b)


def test_one_process_drives_a_paced_table_and_the_other_takes_over_when_it_stops(pg_cluster):
    a, b = _pair(pg_cluster.fresh_url())
    try:
        pace = TableOptions(pace=60)
        t = a.create("tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="lease", options=pace)
        token = t.seats[0].token
        b.get(t.id)  # both hold it in memory, both see its timed steps due
        _wait(lambda: a.leases.holds(t.id) or b.leases.holds(t.id), 5, "one process takes the lease")
        driver, other = (a, b) if a.leases.holds(t.id) else (b, a)
        assert not other.leases.holds(t.id)
        steps = []

        def play_on(manager: TableManager, moves: int) -> None:
            for _ in range(moves):
                _wait(lambda: bool(manager.get(t.id).view(0)["actions"]) or manager.get(t.id).over, 10, "a turn")
                view = manager.get(t.id).view(0)
                if view["over"]:
                    return
                manager.act(t.id, token, view["step"], 0)
                steps.append(manager.get(t.id).step)

        play_on(other, 3)  # the person plays through the process that does not drive: the driver moves the bots
        with driver.store.engine.connect() as conn:
            holders = conn.execute(sa.text("SELECT holder FROM leases")).scalars().all()
        assert holders == [driver.store.node]
        driver.close()  # a clean stop: its lease is dropped and the other takes the table over at once
        took = _wait(lambda: other.leases.holds(t.id), 5, "the other process takes over")
        play_on(other, 3)
        assert took < 2.5 and steps == sorted(steps) and len(set(steps)) == len(steps)
    finally:
        _close(a, b)
