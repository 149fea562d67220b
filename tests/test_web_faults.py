"""Nothing acknowledged is lost (issue 11): the web table under failing writes, a second server process on the
same database, kill -9, a full disk, and the limits on what it holds in memory.

- A move is stored before it is answered; a write the store refuses (disk full, database locked) answers 503
  and leaves the table exactly as it was (the same game goes on as if the refused move had never been sent).
- Two servers on one database (a SQLite file, a PostgreSQL database) never both accept a move for one step: the
  loser gets 409 and reads the table again.
- ``jantaku serve`` killed with SIGKILL during play and started again keeps every acknowledged move and every
  finished game; on a full disk it refuses the write and the table stays as it was.
- Finished and idle tables leave memory and come back on demand; tables held and created per address are
  capped; a restarted server holds no table until one is asked for.
"""

import contextlib
import http.client
import itertools
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import sqlalchemy as sa
from starlette.testclient import TestClient

from jantaku.web.app import create_app
from jantaku.web.storage import SqliteStore, SqlStore
from jantaku.web.store_engine import WRITE
from jantaku.web.tables import Conflict, TableManager, Unavailable
from seats import claim_all, create_claimed

HUMAN_AND_BOTS = ["human", "random", "random", "random"]


# -- a store whose writes fail on demand -----------------------------------------------------------------------


class _FailingStore(SqlStore):
    """A store whose writes' COMMIT fails with ``error`` while it is set (the transaction is then rolled back, as
    the database does on a full disk); reads go on."""

    def __init__(self, db) -> None:
        super().__init__(db)
        self.error: str | None = None
        sa.event.listen(self.engine, "commit", self._commit)

    def _commit(self, conn) -> None:
        if self.error and conn.get_execution_options().get(WRITE):
            raise sa.exc.OperationalError("COMMIT", None, sqlite3.OperationalError(self.error))


TWO_PEOPLE = ["human", "human", "random", "random"]


def _seeds(prefix):
    n = itertools.count()
    return lambda: f"{prefix}-{next(n)}"


def _view(client, tid, token):
    r = client.get(f"/api/tables/{tid}/view", params={"token": token})
    assert r.status_code == 200, r.text
    return r.json()


def _act(client, tid, token, step, index=0):
    return client.post(f"/api/tables/{tid}/act", json={"token": token, "step": step, "index": index})


def test_a_refused_write_leaves_the_table_exactly_as_it_was(tmp_path, games_db):
    store = _FailingStore(games_db)
    with (
        TestClient(create_app(store, seed_source=_seeds("fault"))) as c,
        TestClient(create_app(SqliteStore(tmp_path / "b.sqlite3"), seed_source=_seeds("fault"))) as ref,
    ):
        data = c.post("/api/tables", json={"rules": "tenhou", "seats": HUMAN_AND_BOTS}).json()
        ref_data = ref.post("/api/tables", json={"rules": "tenhou", "seats": HUMAN_AND_BOTS}).json()
        tid, token = data["id"], data["seats"][0]["token"]
        rid, rtoken = ref_data["id"], ref_data["seats"][0]["token"]
        for n in range(40):
            view = _view(c, tid, token)
            stored = store.get_table(tid)
            if n % 3 == 0:  # the disk is full for this move: refused, nothing changed, here or in the store
                store.error = "database or disk is full"
                r = _act(c, tid, token, view["step"])
                assert r.status_code == 503 and "database or disk is full" in r.json()["error"], r.text
                assert "nothing changed" in r.json()["error"]
                with c.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
                    assert ws.receive_json()["view"] == view
                    ws.send_json({"type": "act", "step": view["step"], "index": 0})
                    msg = ws.receive_json()
                    assert msg["type"] == "error" and msg["status"] == 503
                store.error = None
                assert _view(c, tid, token) == view
                assert store.get_table(tid) == stored
            # the same move, now stored: the game goes on exactly as on a server that never failed
            r = _act(c, tid, token, view["step"])
            assert r.status_code == 200, r.text
            expected = _act(ref, rid, rtoken, _view(ref, rid, rtoken)["step"]).json()
            got = r.json()
            assert {**got, "table": rid} == expected
            assert store.get_table(tid).actions == ref.app.state.store.get_table(rid).actions


def test_a_refused_write_of_a_new_table_stores_nothing(games_db):
    store = _FailingStore(games_db)
    with TestClient(create_app(store)) as c:
        store.error = "database is locked"
        for seats in (HUMAN_AND_BOTS, ["random"] * 4):
            r = c.post("/api/tables", json={"rules": "mleague", "seats": seats})
            assert r.status_code == 503 and "database is locked" in r.json()["error"]
        store.error = None
        assert c.get("/api/games").json() == {"games": []}
        assert c.app.state.manager.tables == {}
        with store.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT COUNT(*) FROM tables")).scalar() == 0


def test_sqlite_reporting_a_full_database_refuses_the_move(tmp_path):
    """SQLite's own SQLITE_FULL (the file may not grow): the move is refused and the table stays."""
    store = SqliteStore(tmp_path / "full.sqlite3")
    manager = TableManager(store)
    table = manager.create("tenhou", HUMAN_AND_BOTS, seed="full")
    token = table.seats[0].token
    with store.engine.connect() as conn:
        pages = conn.exec_driver_sql("PRAGMA page_count").scalar()
    _cap_pages(store, pages)
    refused = 0
    for _ in range(60):
        before = table.view(0)
        actions = store.get_table(table.id).actions
        try:
            manager.act(table.id, token, before["step"], 0)
        except Unavailable as e:
            assert "full" in e.message and e.status == 503
            assert table.view(0) == before and manager.get(table.id).view(0) == before
            assert store.get_table(table.id).actions == actions
            refused += 1
            break
        assert store.get_table(table.id).actions == table.actions  # every answered move is stored
    assert refused == 1
    _cap_pages(store, 1073741823)
    manager.act(table.id, token, before["step"], 0)  # room again: the same move goes through
    assert store.get_table(table.id).actions == table.actions


def _cap_pages(store, pages):
    """Let the store's SQLite file grow to ``pages`` pages at most, on every connection it opens from now on
    (those it holds are closed)."""
    for old in getattr(store, "_caps", []):
        sa.event.remove(store.engine, "connect", old)

    def cap(dbapi_conn, _record):
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages}")

    sa.event.listen(store.engine, "connect", cap)
    store._caps = [cap]
    store.engine.dispose()


# -- two server processes on one database ---------------------------------------------------------------------


def test_two_servers_on_one_database_never_both_accept_a_step(games_db):
    with TestClient(create_app(SqlStore(games_db))) as a, TestClient(create_app(SqlStore(games_db))) as b:
        data = claim_all(a, a.post("/api/tables", json={"rules": "tenhou", "seats": TWO_PEOPLE}).json())
        tid, tokens = data["id"], [data["seats"][0]["token"], data["seats"][1]["token"]]
        for _ in range(6):
            views = [_view(a, tid, t) for t in tokens]
            seat = 0 if views[0]["actions"] else 1
            token, step = tokens[seat], views[seat]["step"]
            assert _view(b, tid, token) == views[seat]  # both servers hold the table at this step
            won = _act(a, tid, token, step)
            assert won.status_code == 200
            lost = _act(b, tid, token, step)  # the same step, on the other server: refused
            assert lost.status_code == 409, lost.text
            assert _view(b, tid, token) == won.json()  # the loser reads the table again
        # the other way round, with b holding a table a loaded earlier: a's write is checked against the database
        views = [_view(a, tid, t) for t in tokens]
        seat = 0 if views[0]["actions"] else 1
        assert _act(b, tid, tokens[seat], views[seat]["step"]).status_code == 200
        r = _act(a, tid, tokens[seat], views[seat]["step"])
        assert r.status_code == 409
        stored = _stored(games_db, tid)
        held = [c.app.state.manager.get(tid) for c in (a, b)]
        assert len(stored.actions) == held[0].step == held[1].step
        assert _view(a, tid, tokens[seat]) == _view(b, tid, tokens[seat])


def test_a_table_read_again_from_the_database_keeps_its_watchers(games_db):
    with TestClient(create_app(SqlStore(games_db))) as a, TestClient(create_app(SqlStore(games_db))) as b:
        data = claim_all(a, a.post("/api/tables", json={"rules": "tenhou", "seats": TWO_PEOPLE}).json())
        tid, tokens = data["id"], [data["seats"][0]["token"], data["seats"][1]["token"]]
        views = [_view(a, tid, t) for t in tokens]
        seat = 0 if views[0]["actions"] else 1
        with b.websocket_connect(f"/ws/tables/{tid}?token={tokens[1 - seat]}") as ws:
            assert ws.receive_json()["view"] == views[1 - seat]
            moved = _act(a, tid, tokens[seat], views[seat]["step"])  # on the other server
            assert moved.status_code == 200
            assert _view(b, tid, tokens[seat]) == moved.json()  # b reads the table again ...
            pushed = ws.receive_json()  # ... and its watcher is told
            assert pushed["type"] == "view" and pushed["view"]["step"] > views[1 - seat]["step"]
            assert pushed["view"] == _view(a, tid, tokens[1 - seat])


def test_the_store_refuses_a_write_that_does_not_extend_its_step(games_db):
    """The compare-and-swap itself, raced from two connections: each step is taken exactly once."""
    first, second = TableManager(SqlStore(games_db)), TableManager(SqlStore(games_db))
    table = create_claimed(first, "tenhou", ["human", "human", "random", "random"], seed="race")
    tokens = [s.token for s in table.seats[:2]]
    for _ in range(15):
        view = first.get(table.id).view(0)
        seat = 0 if view["actions"] else 1
        step = first.get(table.id).view(seat)["step"]  # each seat's view has its own step
        results: list[str] = []

        def submit(manager, seat=seat, step=step, results=results):
            try:
                manager.act(table.id, tokens[seat], step, 0)
                results.append("ok")
            except Conflict:
                results.append("409")

        threads = [threading.Thread(target=submit, args=(m,)) for m in (first, second)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert sorted(results) == ["409", "ok"], results
        stored = _stored(games_db, table.id)
        assert len(stored.actions) == first.get(table.id).step == second.get(table.id).step
    for manager in (first, second):  # its clock, listener and lease threads first, then its store
        manager.close()
        manager.store.close()


def _stored(db, table_id):
    """The table as a third process reads it from the database."""
    store = SqlStore(db)
    try:
        return store.get_table(table_id)
    finally:
        store.close()


# -- memory ---------------------------------------------------------------------------------------------------


def test_finished_and_idle_tables_leave_memory_and_come_back(tmp_path):
    manager = TableManager(SqliteStore(tmp_path / "m.sqlite3"), idle_seconds=0.05)
    bots = [manager.create("mleague", ["random"] * 4, seed=f"b{i}") for i in range(5)]
    assert all(t.over for t in bots) and manager.tables == {}  # a finished game is kept in the store only
    table = manager.create("tenhou", HUMAN_AND_BOTS, seed="idle")
    token = table.seats[0].token
    manager.act(table.id, token, table.view(0)["step"], 0)
    before = table.view(0)
    time.sleep(0.1)
    manager._sweep(force=True)
    assert table.id not in manager.tables  # idle: left memory
    again = manager.get(table.id)
    assert again is not table and again.view(0) == before  # read back on demand
    # a person's game played to its end: it leaves memory, and its final view still works
    while not again.over:
        view = again.view(0)
        manager.act(table.id, token, view["step"], 0)
    final = again.view(0)
    manager._sweep(force=True)
    assert table.id not in manager.tables
    assert manager.get(table.id).view(0) == final and final["final"]["ranks"]
    assert manager.store.get_game(table.id).status == "finished"


def test_finished_games_do_not_accumulate_in_memory(tmp_path):
    with TestClient(create_app(SqliteStore(tmp_path / "s.sqlite3"), seed_source=_seeds("held"))) as c:
        for _ in range(8):
            assert c.post("/api/tables", json={"rules": "mleague", "seats": ["random"] * 4}).json()["over"]
        status = c.get("/api/status").json()
        assert status["tables_held"] == 0 and status["max_tables"] == 1000
        assert len(c.get("/api/games").json()["games"]) == 8
        data = c.post("/api/tables", json={"rules": "tenhou", "seats": HUMAN_AND_BOTS}).json()
        assert c.get("/api/status").json()["tables_held"] == 1
        assert _view(c, data["id"], data["seats"][0]["token"])["table"] == data["id"]


def test_caps_on_tables_held_and_created_per_address(tmp_path):
    app = create_app(SqliteStore(tmp_path / "c.sqlite3"), max_tables=2, creates_per_minute=4)
    with TestClient(app) as c:
        made = [c.post("/api/tables", json={"rules": "tenhou", "seats": HUMAN_AND_BOTS}) for _ in range(2)]
        assert [r.status_code for r in made] == [201, 201]
        ids = [r.json()["id"] for r in made]
        with (
            c.websocket_connect(f"/ws/tables/{ids[0]}?token={made[0].json()['seats'][0]['token']}") as w0,
            c.websocket_connect(f"/ws/tables/{ids[1]}?token={made[1].json()['seats'][0]['token']}") as w1,
        ):
            w0.receive_json(), w1.receive_json()
            r = c.post("/api/tables", json={"rules": "tenhou", "seats": HUMAN_AND_BOTS})  # both held are watched
            assert r.status_code == 503 and "limit of 2 tables" in r.json()["error"]
        r = c.post("/api/tables", json={"rules": "tenhou", "seats": HUMAN_AND_BOTS})  # unwatched: one leaves
        assert r.status_code == 201 and len(app.state.manager.tables) == 2
        tok = made[0].json()["seats"][0]["token"]
        assert _view(c, ids[0], tok)["table"] == ids[0]  # the one that left is read back
        r = c.post("/api/tables", json={"rules": "tenhou", "seats": ["random"] * 4})
        assert r.status_code == 429 and "at most 4 new tables a minute" in r.json()["error"]


def test_a_restarted_server_holds_no_table_until_asked(tmp_path):
    path = tmp_path / "r.sqlite3"
    manager = TableManager(SqliteStore(path))
    tables = [manager.create("tenhou", HUMAN_AND_BOTS, seed=f"r{i}") for i in range(20)]
    for t in tables:
        manager.act(t.id, t.seats[0].token, t.view(0)["step"], 0)
    views = {t.id: t.view(0) for t in tables}
    manager.store.close()
    app = create_app(db=path)
    with TestClient(app) as c:
        assert c.get("/api/games").status_code == 200
        assert app.state.manager.tables == {}  # nothing replayed at start
        t = tables[7]
        assert _view(c, t.id, t.seats[0].token) == views[t.id]
        assert list(app.state.manager.tables) == [t.id]  # only the table asked for


# -- jantaku serve as a real process --------------------------------------------------------------------------


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Server:
    """``jantaku serve`` in a subprocess on a free loopback port."""

    def __init__(self, db: Path, preexec=None) -> None:
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        argv = [sys.executable, "-m", "jantaku.cli", "serve", "--port", str(self.port), "--db", str(db)]
        argv += ["--tables-per-minute", "0"]
        argv += ["--pace", "instant", "--result-seconds", "0"]  # moves as fast as the workers send them
        self.proc = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=preexec, start_new_session=True
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                self.request("GET", "/api/presets")
                return
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    self.proc.kill()
                    raise RuntimeError(
                        f"jantaku serve did not start: {self.proc.stderr.read().decode()[-2000:]}"
                    ) from None
                time.sleep(0.1)

    def request(self, method: str, path: str, body=None, timeout: float = 10):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def kill9(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)
        self.proc.stderr.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.kill9()


def test_kill_9_during_play_loses_no_acknowledged_move(tmp_path):
    db = tmp_path / "games.sqlite3"
    server = _Server(db)
    try:
        games = []
        for _ in range(2):
            status, data = server.request("POST", "/api/tables", {"rules": "mleague", "seats": ["random"] * 4})
            assert status == 201 and data["over"]
            games.append(data["id"])
        seats: list[tuple[str, str]] = []
        for kinds in (HUMAN_AND_BOTS, HUMAN_AND_BOTS, ["human", "human", "efficiency", "random"]):
            status, data = server.request("POST", "/api/tables", {"rules": "tenhou", "seats": kinds})
            assert status == 201
            for s in data["seats"]:
                if s["kind"] == "human" and not s["claimed"]:  # the invited person opens the link
                    status, claimed = server.request("POST", f"/api/tables/{data['id']}/claim", {"invite": s["invite"]})
                    assert status == 200
                    s["token"] = claimed["token"]
            seats += [(data["id"], s["token"]) for s in data["seats"] if s["kind"] == "human"]
        acked: dict[tuple[str, str], dict] = {}  # the last acknowledged view of each seat
        moves: dict[str, int] = {}  # acknowledged moves per table
        acked_lock = threading.Lock()
        stop = threading.Event()

        def play(worker: int) -> None:
            rng = random.Random(worker)
            while not stop.is_set():
                tid, token = seats[rng.randrange(len(seats))]
                try:
                    status, view = server.request("GET", f"/api/tables/{tid}/view?token={token}")
                    if status != 200 or not view["actions"]:
                        continue
                    body = {"token": token, "step": view["step"], "index": rng.randrange(len(view["actions"]))}
                    status, after = server.request("POST", f"/api/tables/{tid}/act", body)
                except (OSError, http.client.HTTPException):
                    return  # the server is gone (killed before or while it answered: nothing acknowledged)
                if status == 200:
                    with acked_lock:
                        moves[tid] = moves.get(tid, 0) + 1
                        old = acked.get((tid, token))
                        if old is None or after["step"] >= old["step"]:
                            acked[(tid, token)] = after
                else:
                    assert status == 409, after  # another worker took the step

        workers = [threading.Thread(target=play, args=(w,)) for w in range(3)]
        for w in workers:
            w.start()
        deadline = time.monotonic() + 20
        while len(acked) < len(seats) or sum(moves.values()) < 100:
            assert time.monotonic() < deadline, "too few moves acknowledged"
            time.sleep(0.05)
        server.kill9()  # during play: requests are in flight
        stop.set()
        for w in workers:
            w.join(15)
        assert acked
        server = _Server(db)
        for (tid, token), view in acked.items():
            status, now = server.request("GET", f"/api/tables/{tid}/view?token={token}")
            assert status == 200, now
            assert now["step"] >= view["step"]  # nothing acknowledged was lost ...
            if now["step"] == view["step"]:
                assert now == view  # ... and what came back is exactly what was acknowledged
        store = SqliteStore(db)
        for tid in {tid for tid, _ in acked}:
            assert len(store.get_table(tid).actions) >= moves[tid]  # (a view's step is not the table's)
        for gid in games:
            status, game = server.request("GET", f"/api/games/{gid}")
            assert status == 200 and game["status"] == "finished" and game["events"][-1]["type"] == "end_game"
        # and play goes on after the restart
        tid, token = next((k for k, v in acked.items() if v["actions"]), seats[0])
        status, view = server.request("GET", f"/api/tables/{tid}/view?token={token}")
        if view["actions"]:
            body = {"token": token, "step": view["step"], "index": 0}
            assert server.request("POST", f"/api/tables/{tid}/act", body)[0] == 200
    finally:
        server.stop()


@contextlib.contextmanager
def _small_disk(folder: Path, size_kib: int):
    """A tmpfs of ``size_kib`` mounted at ``folder`` (root only); ``None`` where it cannot be mounted."""
    folder.mkdir()
    if os.geteuid() != 0:
        yield None
        return
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size_kib}k", "tmpfs", str(folder)], capture_output=True
    )
    if done.returncode != 0:
        yield None
        return
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def _fill(folder: Path) -> Path:
    """Fill the file system of ``folder`` to the last byte."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        for size in (1 << 16, 4096, 512, 1):
            with contextlib.suppress(OSError):
                while True:
                    f.write(b"\0" * size)
    return filler


@pytest.mark.parametrize("disk_kind", ["tmpfs", "file-size-limit"])
def test_a_full_disk_refuses_the_move_and_leaves_the_table(tmp_path, disk_kind):
    """On a real full disk: a small tmpfs filled to the last byte (root only; elsewhere this case falls back to
    the next), or a file size limit set on the server process, which the kernel enforces on every write."""
    with _small_disk(tmp_path / "disk", 4096) if disk_kind == "tmpfs" else contextlib.nullcontext() as disk:
        if disk is not None:
            db, preexec = disk / "games.sqlite3", None
        else:
            import resource

            (tmp_path / "limited").mkdir()
            db = tmp_path / "limited" / "games.sqlite3"
            limit = 192 * 1024

            def preexec():
                resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

        server = _Server(db, preexec)
        try:
            status, data = server.request("POST", "/api/tables", {"rules": "tenhou", "seats": HUMAN_AND_BOTS})
            assert status == 201
            tid, token = data["id"], data["seats"][0]["token"]
            path = f"/api/tables/{tid}/view?token={token}"
            filler = _fill(disk) if disk is not None else None
            refused = None
            for _ in range(600):
                status, view = server.request("GET", path)
                assert status == 200 and not view["over"], "the disk never filled"
                status, after = server.request("POST", f"/api/tables/{tid}/act", _first(view, token))
                if status == 503:
                    refused = view, after
                    break
                assert status == 200, after
            assert refused is not None, "the disk never filled"
            view, error = refused
            assert "nothing changed" in error["error"], error
            assert server.request("GET", path) == (200, view)  # the table is exactly as it was
            if filler is not None:
                filler.unlink()  # room again: the same move goes through
                status, after = server.request("POST", f"/api/tables/{tid}/act", _first(view, token))
                assert status == 200 and after["step"] > view["step"]
                view = after
            server.kill9()
            server = _Server(db)  # (without the file size limit)
            assert server.request("GET", path) == (200, view)  # every acknowledged move is there
        finally:
            server.stop()


def _first(view, token):
    return {"token": token, "step": view["step"], "index": 0}


def test_the_real_server_refuses_bad_websocket_messages_with_a_reason(tmp_path):
    """Over uvicorn: a deeply nested message is answered with a JSON error and the socket stays; one over the
    size cap closes the socket with 1009 and the reason (never a silent drop)."""
    import asyncio

    import websockets

    server = _Server(tmp_path / "ws.sqlite3")
    try:
        status, data = server.request("POST", "/api/tables", {"rules": "tenhou", "seats": HUMAN_AND_BOTS})
        assert status == 201
        url = f"ws://127.0.0.1:{server.port}/ws/tables/{data['id']}?token={data['seats'][0]['token']}"

        async def talk():
            async with websockets.connect(url) as ws:
                view = json.loads(await ws.recv())["view"]
                await ws.send("[" * 100_000)
                error = json.loads(await ws.recv())
                await ws.send(json.dumps({"type": "act", "step": view["step"], "index": 0}))
                after = json.loads(await ws.recv())
                await ws.send("x" * 300_000)
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await ws.recv()
                return error, after, closed.value.rcvd

        error, after, close = asyncio.run(talk())
        assert error == {"type": "error", "status": 400, "error": "the message nests deeper than 32 levels"}
        assert after["type"] == "view" and after["view"]["step"] > 0
        assert close.code == 1009 and "exceeds limit" in close.reason
    finally:
        server.stop()
