"""Issue 32: heavy requests (record uploads, reviews, analyses, league imports) run in worker processes within
limits a host sets: their count per address and in all, a deadline, a memory cap, an event count, and workers
replaced so that memory stays flat. Real worker processes throughout."""

from __future__ import annotations

import contextlib
import dataclasses
import gzip
import json
import os
import select
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from jantaku.cli.serve_cmd import HEAVY_DEFAULTS
from jantaku.rules import load_rules
from jantaku.sim.runner import play_game
from jantaku.web.app import create_app
from jantaku.web.heavy import DEADLINES, WALL_FACTOR, HeavyLimits
from jantaku.web.limits import MAX_RECORD_EVENTS
from jantaku.web.storage import SqliteStore

TWINS = Path(__file__).parent / "data/records/tenhou6-json/mjx-twins/2010102910gm-00a9-0000-cdb9804c.json"
"""Eleven real hands (1,251 events), one a line."""


def _client(tmp_path: Path, **limits) -> TestClient:
    return TestClient(create_app(SqliteStore(tmp_path / "g.sqlite3"), heavy=HeavyLimits(**limits)))


def test_the_command_lines_defaults_are_the_pools():
    defaults = {f.name: f.default for f in dataclasses.fields(HeavyLimits)}
    assert defaults["deadlines"] == ()  # DEADLINES, which --help lists
    from jantaku.cli import build_parser

    serve = next(a for a in build_parser()._actions if a.__class__.__name__ == "_SubParsersAction").choices["serve"]
    helped = next(a.help for a in serve._actions if a.dest == "heavy_deadline")
    assert all(kind in helped and f"{seconds:g}" in helped for kind, seconds in DEADLINES.items())
    assert {k: defaults[k] for k in HEAVY_DEFAULTS} == HEAVY_DEFAULTS


def test_an_upload_with_too_many_events_is_refused_by_count(tmp_path):
    copies = 2 * MAX_RECORD_EVENTS // 1251  # twice the limit: its lower bound, counted before reading, is over
    body = gzip.compress(TWINS.read_bytes() * copies)
    with _client(tmp_path) as client:
        r = client.post("/api/replay", params={"name": "many.json.gz"}, content=body)
        assert r.status_code == 413, r.text[:300]
        error = r.json()["error"]
        assert f"at most {MAX_RECORD_EVENTS}" in error and error.startswith("many.json")
        assert "events or more" in error  # counted before the games were read
        ok = client.post("/api/replay", params={"name": "few.json.gz"}, content=gzip.compress(TWINS.read_bytes()))
        assert ok.status_code == 200 and len(ok.json()["games"]) == 11


def test_a_worker_over_its_memory_is_refused_and_replaced(tmp_path):
    # 340 MB of address space: enough for a worker (about 235 MB at its peak as it starts) and a small record,
    # not for 26 MB of records read at once
    big = gzip.compress(TWINS.read_bytes() * 3000)  # 26 MB inflated
    with _client(tmp_path, memory_mb=340) as client:
        r = client.post("/api/replay", params={"name": "huge.json.gz"}, content=big)
        assert r.status_code == 413 and "more memory than the server allows" in r.json()["error"], r.text[:300]
        ok = client.post("/api/replay", params={"name": "small.json"}, content=TWINS.read_bytes())
        assert ok.status_code == 200, ok.text[:300]
        status = client.get("/api/status").json()["heavy"]
        assert status["memory_mb"] == 340 and status["jobs"] == 2


def test_workers_are_replaced_after_their_jobs_and_end_with_the_server(tmp_path):
    with _client(tmp_path, recycle_after=1) as client:
        pool = client.app.state.heavy
        for _ in range(3):
            assert client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes()).status_code == 200
        assert pool.stats["recycled"] == 3 and pool.stats["jobs"] == 3
        worker = next(iter(pool._workers), None)
    assert worker is None  # every worker was ended after its job
    with _client(tmp_path) as client:
        pool = client.app.state.heavy
        assert client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes()).status_code == 200
        (worker,) = pool._workers
        pid = worker.process.pid
        os.kill(pid, 0)  # alive between jobs
    deadline = time.monotonic() + 10
    while _alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(pid)  # the application's end ended it


def test_a_deadline_counts_the_workers_processor_time_not_its_waiting(tmp_path):
    """A worker held back (stopped here, as a busy machine holds back a worker below the server's priority) is not
    cut off at its deadline: the deadline counts the processor time the job used. Held back past WALL_FACTOR times
    the deadline, the request ends all the same (503) and the worker is replaced."""
    import signal
    import threading

    def resume(pid: int, seconds: float) -> None:
        time.sleep(seconds)
        with contextlib.suppress(ProcessLookupError):  # ended meanwhile (past the wall-clock cap)
            os.kill(pid, signal.SIGCONT)

    def held(pid: int, seconds: float) -> threading.Thread:
        os.kill(pid, signal.SIGSTOP)
        thread = threading.Thread(target=resume, args=(pid, seconds))
        thread.start()
        return thread

    with _client(tmp_path, deadlines=(("replay", 1.0),)) as client:
        pool = client.app.state.heavy
        assert client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes()).status_code == 200
        (worker,) = pool._workers
        assert worker.cpu_seconds() is not None  # this machine tells a process's processor time (/proc)
        thread = held(worker.process.pid, 2.0)  # twice the deadline, in wall-clock time
        start = time.monotonic()
        r = client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes())
        thread.join()
        assert r.status_code == 200, r.text[:300]
        assert time.monotonic() - start >= 1.9 and pool.stats["timeouts"] == 0
        thread = held(worker.process.pid, 1.2 * WALL_FACTOR)  # past the wall-clock cap
        r = client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes())
        thread.join()
        assert r.status_code == 503 and "took longer than 1 s" in r.json()["error"], r.text[:300]
        assert pool.stats["timeouts"] == 1
        assert client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes()).status_code == 200


def test_a_new_workers_start_up_is_not_counted_in_its_first_jobs_deadline(tmp_path):
    """A worker's start-up (importing jantaku: most of a second of processor time, more on a busy machine) comes
    before its ready frame and is not the job's: a small upload under a 0.2 s deadline is read by a fresh worker,
    and again by the fresh worker that replaces one ended at its deadline."""
    events = play_game(load_rules("tenhou"), "start-up", ["efficiency"] * 4).events
    first_hand = events[: next(i for i, e in enumerate(events) if e["type"] == "end_kyoku") + 1]
    small = "\n".join(json.dumps(e) for e in first_hand).encode()
    with _client(tmp_path, deadlines=(("replay", 0.2),)) as client:
        pool = client.app.state.heavy
        for _ in range(2):
            r = client.post("/api/replay", params={"name": "a.mjson"}, content=small)
            assert r.status_code == 200, r.text[:300]
            (worker,) = pool._workers
            assert worker.cpu_seconds() > 0.2  # its start-up alone took longer than the deadline
            pool._forget(worker)  # ended, as at a deadline: the next request starts a new one
        assert pool.stats["timeouts"] == 0


def test_a_quick_reply_sent_with_the_ready_frame_is_not_missed():
    """A fresh worker's ready frame and a quick job's reply can reach the pool together: reading the first must
    leave the second where the pool waits for it (a buffered read took both, and the pool then waited on an empty
    pipe until the deadline: a 503 for a one-millisecond job)."""
    from jantaku.web.heavy import WorkerError, _Worker

    class Late(_Worker):
        def _start_up(self) -> None:
            # wait until the worker has started, taken the job and answered it: both frames are then in the
            # pipe, and the worker sleeps waiting for another job
            end = time.monotonic() + 30
            while time.monotonic() < end and not (
                select.select([self._out], [], [], 0)[0] and (self.cpu_seconds() or 0) > 0.3 and _state(self.pid) == "S"
            ):
                time.sleep(0.1)
            super()._start_up()

        @property
        def pid(self) -> int:
            return self.process.pid

    worker = Late(1024)
    try:
        with pytest.raises(WorkerError) as err:
            worker.call("replay_read", (b"hello", "x.json"), 5.0)
        assert err.value.status == 400
    finally:
        worker.end()


def _state(pid: int) -> str:
    return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[0]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def test_a_killed_worker_is_answered_and_replaced(tmp_path):
    with _client(tmp_path) as client:
        pool = client.app.state.heavy
        assert client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes()).status_code == 200
        (worker,) = pool._workers
        worker.process.kill()
        worker.process.wait()
        ok = client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes())
        assert ok.status_code == 200 and pool.stats["jobs"] == 2


@pytest.mark.parametrize(
    "limits, message",
    [({"workers": 0}, "at least 1"), ({"queue": -1}, "0 or more"), ({"memory_mb": 100}, "at least 256")],
)
def test_bad_limits_are_named(limits, message):
    with pytest.raises(ValueError, match=message):
        HeavyLimits(**limits)


def test_stopping_jantaku_serve_ends_a_heavy_job_in_flight(tmp_path):
    """Ctrl-C on a server busy with an analysis: the server stops within its grace time and leaves no worker."""
    import threading

    from flood import call
    from served import served

    with served(tmp_path) as (proc, url):
        body = {"games": 12, "bots": "strong", "rules": "mleague"}
        threading.Thread(target=call, args=(url + "api/analyse", "POST", body), daemon=True).start()
        deadline = time.monotonic() + 60
        while call(url + "api/status")[1]["heavy"]["jobs"] < 1:
            assert time.monotonic() < deadline, "the analysis never started"
            time.sleep(0.1)
        workers = _children(proc.pid)
        assert workers  # the worker process doing the analysis
        started = time.monotonic()
        proc.send_signal(2)  # Ctrl-C
        proc.wait(timeout=30)
        stopped = time.monotonic() - started
    assert stopped < 15
    time.sleep(0.5)
    assert not [pid for pid in workers if _alive(pid)]


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().split(") ", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == pid:
            found.append(int(stat.parent.name))
    return found


def test_a_table_of_four_bots_is_played_in_a_worker_and_stored(tmp_path):
    from jantaku.web.tables import TableManager

    app = create_app(SqliteStore(tmp_path / "g.sqlite3"), seed_source=lambda: "four-bots")
    with TestClient(app) as client:
        made = client.post("/api/tables", json={"rules": "mleague", "seats": ["efficiency"] * 4})
        assert made.status_code == 201 and made.json()["over"] is True, made.text
        assert app.state.heavy.stats["jobs"] == 1  # played by the worker, not by the server's process
        game = client.get(f"/api/games/{made.json()['id']}").json()
    assert game["status"] == "finished" and game["events"][-1]["type"] == "end_game"
    # the game the server's own process would have played with the same seed
    here = TableManager(SqliteStore(tmp_path / "other.sqlite3")).create("mleague", ["efficiency"] * 4, seed="four-bots")
    assert here.over and here.game.events == game["events"]


def test_stored_games_of_bots_alone_expire(tmp_path):
    from jantaku.web.storage import StoredGame
    from jantaku.web.tables import TableManager

    store = SqliteStore(tmp_path / "g.sqlite3")
    bots = [{"kind": "bot", "name": f"bot {s}", "bot": "random"} for s in range(4)]
    people = [{"kind": "human", "name": "Ann"}, *bots[1:]]
    for gid, created, players in [
        ("old-bots", "2020-01-01T00:00:00Z", bots),
        ("old-people", "2020-01-01T00:00:00Z", people),
        ("new-bots", "2999-01-01T00:00:00Z", bots),
    ]:
        store.save_game(StoredGame(gid, created, "mleague", players, "finished", [], {}))
    assert TableManager(store, bot_games_days=0).expire_bot_games(force=True) == 0  # 0: kept forever
    m = TableManager(store, bot_games_days=30)
    assert m.expire_bot_games(force=True) == 1
    assert store.get_game("old-bots") is None
    assert store.get_game("old-people") is not None and store.get_game("new-bots") is not None
    assert m.expire_bot_games() == 0  # at most once an hour


@pytest.mark.parametrize(
    "option, message",
    [
        (["--heavy-workers", "0"], "heavy workers: at least 1"),
        (["--heavy-memory", "100"], "at least 256 MB"),
        (["--bot-games-days", "-1"], "--bot-games-days must be 0-1000000"),
        (["--heavy-deadline", "nosuch=3"], "no kind 'nosuch'"),
        (["--heavy-deadline", "review=0"], "more than 0 and at most 3600"),
        (["--heavy-deadline", "review"], "more than 0 and at most 3600"),
        (["--heavy-deadline", "review=x"], "KIND=SECONDS"),
    ],
)
def test_jantaku_serve_names_a_bad_limit(tmp_path, capsys, option, message):
    from jantaku.cli import main

    assert main(["serve", "--db", str(tmp_path / "g.sqlite3"), *option]) == 2
    assert message in capsys.readouterr().err


def test_an_idle_worker_ends_and_the_next_job_gets_a_fresh_one(tmp_path):
    """A server idle for a while gives its workers' memory back (a worker waits ``idle_seconds`` for a job)."""
    with _client(tmp_path, idle_seconds=1.0) as client:
        pool = client.app.state.heavy
        assert client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes()).status_code == 200
        (worker,) = pool._workers
        worker.process.wait(timeout=30)  # ended by itself, about a second later
        assert worker.process.returncode == 0
        again = client.post("/api/replay", params={"name": "a.json"}, content=TWINS.read_bytes())
        assert again.status_code == 200 and pool.stats["crashed"] == 0
        assert worker not in pool._workers and len(pool._workers) == 1
