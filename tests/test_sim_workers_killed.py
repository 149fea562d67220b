"""Issue 35: `simulate --workers N` with a worker process killed part way (out of memory, a signal): the chunk it
was playing is played again in a new pool, so every game is summarised (it ended in a BrokenProcessPool
traceback and every finished game's statistics were lost)."""

from __future__ import annotations

import os
import signal
import threading
import time
from pathlib import Path

from jantaku.sim.runner import _seed_ranges, simulate


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            out.append(int(stat.parent.name))
    return out


def _workers(pid: int) -> list[int]:
    """The pool workers of ``pid``: the children of its fork server (the workers are not forked from the caller,
    jantaku.sim.pool)."""
    out = []
    for child in _children(pid):
        try:
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"forkserver" in cmdline:
            out.extend(_children(child))
    return out


def test_a_killed_worker_loses_no_game():
    killed: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            workers = _workers(os.getpid())
            if len(workers) >= 2:
                time.sleep(0.2)  # a few games under way
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
            time.sleep(0.01)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    summary = simulate("tenhou", 120, seed=5, bots=["random"], workers=2)
    killer.join()
    assert killed, "no worker was seen to kill"
    assert summary.games == 120
    alone = simulate("tenhou", 120, seed=5, bots=["random"], workers=1)
    assert summary.hands == alone.hands and summary.steps == alone.steps  # the same games
    assert [round(x, 9) for x in summary.mean_rank] == [round(x, 9) for x in alone.mean_rank]


def test_seed_ranges_are_short():
    assert _seed_ranges([3, 4, 5, 9, 11, 12]) == "3-5, 9, 11-12"
