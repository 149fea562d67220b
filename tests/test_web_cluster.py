"""Several server processes on one PostgreSQL database (``jantaku serve --db postgresql://...`` more than once): a
move made through one process is pushed at once to the sockets of every other (LISTEN/NOTIFY), and a table's timed
steps are driven by exactly one process, the holder of its lease, which another takes over when the holder stops
or dies. In one process (two managers on two stores) for the mechanics, and as real processes (tests/served.py)
for a whole game and a ``kill -9``."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import urllib.error
import urllib.request

import pytest
import sqlalchemy as sa

from jantaku.web.errors import WebError
from jantaku.web.leases import LEASE_SECONDS, RETRY_SECONDS, Leases
from jantaku.web.manager import TableManager
from jantaku.web.options import SPECTATOR, TableOptions
from jantaku.web.storage import SqlStore, StoredTable
from served import lease_holder


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


def test_a_turn_timer_runs_on_when_the_other_process_takes_the_table_over(pg_cluster):
    """A person's decisions on a 3+5 timer are timed from the moment each was shown and spend one bank per hand,
    whichever process shows them and whichever drives the table: the bank spent through one process is spent in
    the other, and when the driver stops mid-decision the other times the person out at the stored deadline (not
    a whole decision after it took over)."""
    a, b = _pair(pg_cluster.fresh_url())
    try:
        t = a.create(
            "tenhou", ["human", "efficiency", "efficiency", "efficiency"], seed="timer-lease",
            options=TableOptions(pace=60, timer="3+5"),
        )  # fmt: skip
        token = t.seats[0].token
        b.get(t.id)
        _wait(lambda: a.leases.holds(t.id) or b.leases.holds(t.id), 5, "one process takes the lease")
        driver, other = (a, b) if a.leases.holds(t.id) else (b, a)

        def asked() -> dict:
            _wait(lambda: bool(other.get(t.id).view(0)["actions"]), 10, "the person is asked")
            return other.get(t.id).view(0)

        v = asked()
        time.sleep(5.0)  # 2 s past the decision's 3 s: off the bank
        other.act(t.id, token, v["step"], _choice(v["actions"]))  # through the process that does not drive
        v = asked()
        shown = time.monotonic() - (v["timer"]["seconds"] + v["timer"]["bank"] - v["timer"]["left"])
        assert v["timer"]["bank"] == pytest.approx(3.0, abs=0.3)  # the bank as spent, not 5 s again
        assert abs(driver.get(t.id).view(0)["timer"]["left"] - v["timer"]["left"]) < 0.5
        step = other.get(t.id).step
        time.sleep(1.0)
        driver.close()  # a clean stop: the other process takes the table over at once, 5 s before the deadline
        _wait(lambda: other.leases.holds(t.id), 5, "the other process takes over")
        _wait(lambda: other.get(t.id).step > step, 12, "the person timed out")
        timed_out = time.monotonic() - shown
        assert 5.5 < timed_out < 7.5, timed_out  # 3 s + the 3 s left of the bank after it was shown
        assert other.get(t.id).actions[step]["seat"] == 0
    finally:
        _close(a, b)


def test_a_call_window_is_shown_alike_through_both_processes(pg_cluster):
    """A move others may answer opens a call window of one pace at a paced table: the process that did not take
    the move opens it too when it reads the table again (its stored end: the same moment), so someone watching
    through either process sees the same scenes at the same times, never the table moving on a pace early."""
    a, b = _pair(pg_cluster.fresh_url())
    pace = 200
    try:
        _wait(lambda: a.notices.connected.is_set() and b.notices.connected.is_set(), 10, "both listen")
        t = a.create("tenhou", ["human", "efficiency", "efficiency", "efficiency"], options=TableOptions(pace=pace))
        token, tid = t.seats[0].token, t.id
        tables = {"a": a.get(tid), "b": b.get(tid)}
        seen: dict[str, list[tuple[float, tuple[int, str, int]]]] = {"a": [], "b": []}
        stop = threading.Event()

        def person() -> None:  # seat 0 plays through b: its discards are b's moves, the bots' the driver's
            while not stop.is_set():
                view = b.get(tid).view(0)
                if view["actions"]:
                    with contextlib.suppress(WebError):
                        b.act(tid, token, view["step"], _choice(view["actions"]))
                time.sleep(0.01)

        async def watch(where: str, listener) -> None:
            table = tables[where]
            while True:
                await listener.queue.get()
                seen[where].append((time.monotonic(), table.seen_key(SPECTATOR)))

        async def play() -> None:
            listeners = {k: tables[k].subscribe(SPECTATOR) for k in tables}
            tasks = [asyncio.create_task(watch(k, listeners[k])) for k in tables]
            thread = threading.Thread(target=person, daemon=True)
            thread.start()
            try:
                while sum(scene == "window" for _, (_, scene, _) in seen["a"]) < 20:
                    await asyncio.sleep(0.05)
                    assert not tables["a"].over
            finally:
                stop.set()
                await asyncio.to_thread(thread.join, 5)
                for task in tasks:
                    task.cancel()
                for k in tables:
                    tables[k].unsubscribe(listeners[k])

        asyncio.run(asyncio.wait_for(play(), 60))
    finally:
        _close(a, b)
    first = {k: {} for k in seen}  # when each scene was first shown through each process
    for k, pushed in seen.items():
        for at, key in pushed:
            first[k].setdefault(key, at)
    windows = [key for key in first["a"] if key[1] == "window"]
    both = [key for key in windows if key in first["b"]]
    # (a window whose move reached b only after it closed is rightly not shown there: a busy machine, or the last)
    assert len(both) >= len(windows) * 3 // 4, (len(windows), len(both))
    # the scene after each window (the table moving on) comes at the same time through both
    after = []
    keys = list(first["a"])
    for n, key in enumerate(keys[:-1]):
        nxt = keys[n + 1]
        if key[1] == "window" and nxt in first["b"]:
            after.append(first["b"][nxt] - first["a"][nxt])
    after.sort()
    median = after[len(after) // 2]
    print(f"the table moved on after {len(after)} call windows: b - a median {median * 1000:.0f} ms")
    # before the windows were stored, b moved on a whole pace before a after every one of them; a busy machine
    # may wake either process's clock late now and then
    early = [d for d in after if d < -pace / 1000 / 2]
    assert after and abs(median) < pace / 1000 / 3 and len(early) <= len(after) // 4, after


# -- two real server processes ---------------------------------------------------------------------------------

PACE_MS = 40
NORMAL_PACE_S = 0.45
"""A step at the default pace (``normal``, jantaku serve --help)."""


def _choice(actions: list[dict]) -> int:
    """A person's quick choice: a win when offered, else no call, else the drawn tile (else the first discard)."""
    by_type = {}
    for a in actions:
        by_type.setdefault(a["type"], []).append(a)
    for kind in ("tsumo", "ron", "none"):
        if kind in by_type:
            return by_type[kind][0]["index"]
    discards = by_type.get("dahai", [])
    drawn = [a for a in discards if a["tsumogiri"]]
    return (drawn or discards or actions)[0]["index"]


async def _http(url: str, body: dict | None = None) -> tuple[int, dict]:
    """GET ``url``, or POST ``body`` to it: the status and the JSON answer (``OSError``: no server there)."""

    def call() -> tuple[int, dict]:
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=20) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    return await asyncio.to_thread(call)


def _lags(seen: dict[str, list[tuple[float, int]]], until: float) -> list[float]:
    """For every view a watcher on one process was pushed (before ``until``), how much later the watcher on the
    other process was first at that step or past it (0 if it was there first)."""
    lags = []
    for here, there in (("a", "b"), ("b", "a")):
        for at, step in seen[here]:
            if at > until:
                continue
            later = [t for t, s in seen[there] if s >= step]
            if later:
                lags.append(max(0.0, min(later) - at))
    return lags


def test_two_servers_one_game_a_killed_driver_and_no_acknowledged_move_lost(pg_cluster, tmp_path):
    """Two ``jantaku serve`` processes on one database; one person through each, two bots, a watcher on each.
    Every move reaches the other process's watcher at once; the process driving the bots is killed with SIGKILL
    during the second hand; its person reconnects to the other process (as a proxy sends them), which takes
    the bots over, and the game is played to its end; every move acknowledged is in the stored game."""
    import websockets

    from served import served

    url = pg_cluster.fresh_url()
    options = ("--db", url, "--pace", str(PACE_MS), "--result-seconds", "0", "--tables-per-minute", "0")
    with served(tmp_path, *options) as (proc_a, base_a), served(tmp_path, *options) as (proc_b, base_b):
        procs, bases = {"a": proc_a, "b": proc_b}, {"a": base_a, "b": base_b}
        seen: dict[str, list[tuple[float, int]]] = {"a": [], "b": []}
        acked: dict[int, list[dict]] = {0: [], 1: []}
        unsure = {0: 0, 1: 0}
        killed: dict[str, float] = {}
        taken: list[float] = []

        async def run() -> dict:
            if True:
                seats = ["human", "human", "efficiency", "efficiency"]
                code, table = await _http(base_a + "api/tables", {"rules": "tenhou", "seats": seats, "length": "east"})
                assert code == 201, table
                tid = table["id"]
                code, claim = await _http(base_b + f"api/tables/{tid}/claim", {"invite": table["seats"][1]["invite"]})
                assert code == 200, claim
                tokens = {0: table["seats"][0]["token"], 1: claim["token"]}
                watch = table["spectator_link"].split("watch=")[1]
                status = {k: (await _http(bases[k] + "api/status"))[1]["cluster"] for k in bases}
                assert all(s["listening"] for s in status.values()), status
                nodes = {s["process"]: k for k, s in status.items()}

                def ws_url(where: str, token: str) -> str:
                    return bases[where].replace("http", "ws") + f"ws/tables/{tid}?token={token}"

                async def watcher(where: str) -> None:
                    with contextlib.suppress(websockets.ConnectionClosed, OSError):
                        async with websockets.connect(ws_url(where, watch)) as ws:
                            async for text in ws:
                                msg = json.loads(text)
                                if msg["type"] == "view":
                                    seen[where].append((time.monotonic(), msg["view"]["step"]))
                                    if msg["view"]["over"]:
                                        return

                async def person(seat: int, where: str) -> dict:
                    while True:
                        try:
                            async with websockets.connect(ws_url(where, tokens[seat])) as ws:
                                async for text in ws:
                                    msg = json.loads(text)
                                    if msg["type"] != "view":
                                        continue
                                    view = msg["view"]
                                    if view["over"]:
                                        return view
                                    if not view["actions"]:
                                        continue
                                    index = _choice(view["actions"])
                                    body = {"token": tokens[seat], "step": view["step"], "index": index}
                                    try:
                                        code, answer = await _http(bases[where] + f"api/tables/{tid}/act", body)
                                    except OSError:
                                        unsure[seat] += 1  # the process died with the move: stored or not
                                        raise
                                    if code == 200:
                                        move = {k: v for k, v in view["actions"][index].items() if k != "index"}
                                        acked[seat].append(move)
                                    else:  # another process moved first (409): the next view comes
                                        assert code == 409, answer
                        except (websockets.ConnectionClosed, OSError):
                            assert killed, f"seat {seat} lost its process {where} before any was killed"
                            where = "b" if where == "a" else "a"  # the proxy sends it to the process still up
                            await asyncio.sleep(0.2)

                async def killer() -> None:
                    while True:  # during the second hand, kill the process driving the bots
                        await asyncio.sleep(0.1)
                        code, view = await _http(base_a + f"api/tables/{tid}/view?token={watch}")
                        if code == 200 and view["hand_results"] >= 1:
                            break
                    where = nodes[await asyncio.to_thread(lease_holder, url, tid)]
                    killed[where] = time.monotonic()
                    procs[where].kill()
                    while nodes.get(await asyncio.to_thread(lease_holder, url, tid)) == where:
                        await asyncio.sleep(0.05)  # until the other process holds the table's lease
                    taken.append(time.monotonic() - killed[where])

                tasks = [watcher("a"), watcher("b"), killer()]
                views = await asyncio.wait_for(asyncio.gather(person(0, "a"), person(1, "b"), *tasks), timeout=150)
                return {"tid": tid, "views": views[:2]}

        out = asyncio.run(run())
    # the game ended for both people, the same way
    assert out["views"][0]["final"] == out["views"][1]["final"] and out["views"][0]["over"]
    store = SqlStore(url)
    stored = store.get_finished_table(out["tid"])
    store.close()
    for seat in (0, 1):
        mine = [a for a in stored.actions if a["seat"] == seat]
        it = iter(mine)  # every acknowledged move is stored, in order (a move cut off by the kill may be too)
        assert all(any(m == a for a in it) for m in acked[seat]), seat
        assert len(acked[seat]) <= len(mine) <= len(acked[seat]) + unsure[seat]
    (dead,) = killed
    alive = "b" if dead == "a" else "a"
    lags = sorted(_lags(seen, killed[dead]))
    p50, p99 = lags[len(lags) // 2], lags[int(len(lags) * 0.99)]
    # the other process took the table's lease over, and its watcher saw the table move on after that
    (took,) = taken
    over_at = killed[dead] + took
    last_before = max((step for at, step in seen[alive] if at <= over_at), default=-1)
    print(
        f"watchers' lag over {len(lags)} views: p50 {p50 * 1000:.0f} ms, p99 {p99 * 1000:.0f} ms; "
        f"process {dead} killed, process {alive} drove the table {took:.1f} s later"
    )
    assert any(step > last_before for at, step in seen[alive] if at > over_at)
    # within a step at the default pace (the game runs at 40 ms a step to be quick; a suite on 2 busy cores
    # delays the odd re-read of the table, so the bound is on 95 of 100 views, with p99 printed above)
    p95 = lags[int(len(lags) * 0.95)]
    assert p50 < PACE_MS / 1000 + 0.1 and p95 < NORMAL_PACE_S + 0.5, lags[-10:]
    assert took < LEASE_SECONDS + RETRY_SECONDS + 3.0


# -- a finished hand's result panel, closed through two processes ----------------------------------------------

RESULT_SECONDS = 20


def _ws(base: str, tid: str, token: str) -> str:
    return base.replace("http", "ws") + f"ws/tables/{tid}?token={token}"


async def _to_the_hold(base: str, tid: str, token: str) -> dict:
    """Play the seat of ``token`` through the process at ``base`` (quick choices, through its websocket) until
    its view holds the finished first hand under its result; that view."""
    import websockets

    async with websockets.connect(_ws(base, tid, token)) as ws:
        async for text in ws:
            msg = json.loads(text)
            if msg["type"] != "view":
                continue
            view = msg["view"]
            if view["hold"] is not None:
                return view
            assert view["hand_results"] == 0 and not view["over"], "the first hand was let go unseen"
            if view["actions"]:
                body = {"token": token, "step": view["step"], "index": _choice(view["actions"])}
                code, answer = await _http(base + f"api/tables/{tid}/act", body)
                assert code in (200, 409), answer  # 409: the table moved first (the next view comes)
    raise AssertionError("the socket closed before the hand ended")


async def _next_deal(ws) -> float:
    """Read a seat's socket until it shows the next deal (no hand held any more); when it came."""
    async for text in ws:
        msg = json.loads(text)
        if msg["type"] == "view" and msg["view"]["hold"] is None:
            assert msg["view"]["hand_results"] == 1
            return time.monotonic()
    raise AssertionError("the socket closed before the next deal")


def test_two_people_on_two_processes_close_the_result_and_the_next_deal_comes_at_once(pg_cluster, tmp_path):
    """Who closed a finished hand's result panel is stored with the table, and so is when its hold ends: two
    people at one table through two processes each close the panel, and the next deal comes at once (not when the
    result's 20 seconds are up); the other process's re-reads keep the hold's countdown, and a person reloading
    the page through the other process finds the panel as they left it (closed, the seconds still running). The
    same table played through one process lets the next deal come at once as before."""
    import websockets

    from served import served

    url = pg_cluster.fresh_url()
    options = ("--db", url, "--pace", "20", "--result-seconds", str(RESULT_SECONDS), "--tables-per-minute", "0")
    with served(tmp_path, *options) as (_, base_a), served(tmp_path, *options) as (_, base_b):

        async def table(claim_through: str) -> tuple[str, dict[int, str]]:
            seats = ["human", "human", "efficiency", "efficiency"]
            code, made = await _http(base_a + "api/tables", {"rules": "tenhou", "seats": seats})
            assert code == 201, made
            tid = made["id"]
            code, claim = await _http(claim_through + f"api/tables/{tid}/claim", {"invite": made["seats"][1]["invite"]})
            assert code == 200, claim
            return tid, {0: made["seats"][0]["token"], 1: claim["token"]}

        async def ready(base: str, tid: str, token: str) -> dict:
            code, view = await _http(base + f"api/tables/{tid}/ready", {"token": token})
            assert code == 200, view
            return view

        async def view(base: str, tid: str, token: str) -> dict:
            code, answer = await _http(base + f"api/tables/{tid}/view?token={token}")
            assert code == 200, answer
            return answer

        async def run() -> dict[str, float]:
            (two, tok2), (one, tok1) = await asyncio.gather(table(base_b), table(base_a))
            holds = await asyncio.gather(
                _to_the_hold(base_a, two, tok2[0]),
                _to_the_hold(base_b, two, tok2[1]),
                _to_the_hold(base_a, one, tok1[0]),
                _to_the_hold(base_a, one, tok1[1]),
            )
            held = time.monotonic()
            assert all(v["hold"]["ready"] is False for v in holds)
            left = min(v["hold"]["seconds_left"] for v in holds[:2])
            assert left > RESULT_SECONDS - 10, holds[0]["hold"]
            await asyncio.sleep(2.0)  # the hold's clock runs a while before anyone closes the panel

            # two processes: seat 0 closes the panel through A; B reads the table again and keeps the countdown
            assert (await ready(base_a, two, tok2[0]))["hold"]["ready"] is True
            deadline = time.monotonic() + 5
            while not (await view(base_b, two, tok2[0]))["hold"]["ready"]:
                assert time.monotonic() < deadline, "B never learnt that seat 0 closed the panel"
                await asyncio.sleep(0.05)
            other = (await view(base_b, two, tok2[1]))["hold"]
            expected = left - (time.monotonic() - held)
            assert other["ready"] is False and abs(other["seconds_left"] - expected) < 1.5, (other, expected)
            # seat 0 reloads the page through B: the panel is closed, its seconds run on
            async with (
                websockets.connect(_ws(base_b, two, tok2[0])) as ws0,
                websockets.connect(_ws(base_a, two, tok2[1])) as ws1,
            ):
                first = json.loads(await ws0.recv())["view"]
                expected = left - (time.monotonic() - held)
                assert first["hold"]["ready"] is True and abs(first["hold"]["seconds_left"] - expected) < 1.5
                assert json.loads(await ws1.recv())["view"]["hold"]["ready"] is False
                # seat 1 closes it through B: the next deal comes at once, on both processes
                closed = time.monotonic()
                assert (await ready(base_b, two, tok2[1]))["hold"] is None
                came = await asyncio.wait_for(asyncio.gather(_next_deal(ws0), _next_deal(ws1)), 10)
            cross = max(came) - closed

            # one process: both close it through A, as before
            await ready(base_a, one, tok1[0])
            async with websockets.connect(_ws(base_a, one, tok1[1])) as ws:
                assert json.loads(await ws.recv())["view"]["hold"]["ready"] is False
                closed = time.monotonic()
                await ready(base_a, one, tok1[1])
                alone = await asyncio.wait_for(_next_deal(ws), 10) - closed
            return {"cross": cross, "alone": alone, "hold_left": left - (closed - held)}

        out = asyncio.run(asyncio.wait_for(run(), 150))
    print(f"next deal after the last close: two processes {out['cross']:.2f} s, one process {out['alone']:.2f} s")
    assert out["cross"] < 2.0 and out["alone"] < 2.0, out
    assert out["hold_left"] > 10, out  # well before the result's seconds were up
