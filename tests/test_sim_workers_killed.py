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


def _kill_a_worker_once_busy(settle: float) -> tuple[threading.Thread, list[int]]:
    """A started thread that SIGKILLs one of this process's pool workers ``settle`` seconds after two are seen, and
    the list it puts the killed worker's pid in."""
    killed: list[int] = []

    def kill_one_worker() -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not killed:
            workers = _workers(os.getpid())
            if len(workers) >= 2:
                time.sleep(settle)  # work under way
                os.kill(workers[0], signal.SIGKILL)
                killed.append(workers[0])
            time.sleep(0.01)

    killer = threading.Thread(target=kill_one_worker)
    killer.start()
    return killer, killed


def test_a_killed_worker_loses_no_game():
    killer, killed = _kill_a_worker_once_busy(0.2)  # a few games under way
    summary = simulate("tenhou", 120, seed=5, bots=["random"], workers=2)
    killer.join()
    assert killed, "no worker was seen to kill"
    assert summary.games == 120
    alone = simulate("tenhou", 120, seed=5, bots=["random"], workers=1)
    assert summary.hands == alone.hands and summary.steps == alone.steps  # the same games
    assert [round(x, 9) for x in summary.mean_rank] == [round(x, 9) for x in alone.mean_rank]


def test_seed_ranges_are_short():
    assert _seed_ranges([3, 4, 5, 9, 11, 12]) == "3-5, 9, 11-12"


def test_a_dataset_whose_worker_is_killed_is_written_whole(tmp_path):
    """`jantaku dataset --workers 2` with a worker killed part way: its part is written again in a new pool, and
    the dataset is the one a single process writes (it ended in a BrokenProcessPool traceback)."""
    from jantaku.env.dataset import read_shards, write_shards

    records = Path(__file__).parent / "data" / "records" / "tenhou6-json"
    killer, killed = _kill_a_worker_once_busy(0.5)  # parts under way
    two = write_shards([records], tmp_path / "two", shard_size=3000, workers=2)
    killer.join()
    assert killed, "no worker was seen to kill"
    one = write_shards([records], tmp_path / "one", shard_size=3000)
    assert two["samples"] == one["samples"] > 20_000 and two["skipped"] == one["skipped"]
    a, b = (
        read_shards(tmp_path / "one", ("action", "record", "step")),
        read_shards(tmp_path / "two", ("action", "record", "step")),
    )
    for k in a:
        assert (a[k] == b[k]).all(), k
