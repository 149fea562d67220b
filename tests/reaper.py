"""Nothing a test run starts outlives it, even when the run is killed.

Every process a test starts (a Ray node and its workers, a PostgreSQL cluster, a ``jantaku serve``, chromium and
Playwright's driver, pytest-xdist's workers) inherits the test process's environment, and so the mark
``JANTAKU_TEST_RUN=<id>`` that ``tests/conftest.py`` sets at the start of the run. Services that double-fork
(``ray start``, ``pg_ctl``) leave their parent's process group and tree, but not their environment.

:func:`sweep` ends every process of this machine carrying the mark. The run sweeps when it ends, and a small
watcher (this file run as a program: ``python tests/reaper.py PID RUN_ID``), started in a session of its own so
that neither a signal to pytest's process group nor pytest's death reaches it, sweeps as soon as process ``PID``
(pytest) is gone: a run ended by SIGKILL, an out-of-memory kill or a CI time-out leaves nothing behind. The
watcher's own environment does not carry the mark.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import time
from pathlib import Path

MARK = "JANTAKU_TEST_RUN"


def marked(run_id: str, exclude: set[int] | frozenset[int] = frozenset()) -> list[int]:
    """The processes whose environment carries ``MARK=run_id`` (but ``exclude`` and zombies)."""
    needle = f"\0{MARK}={run_id}\0".encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) in exclude:
            continue
        with contextlib.suppress(OSError):
            if needle in b"\0" + (proc / "environ").read_bytes() + b"\0" and not _zombie(int(proc.name)):
                found.append(int(proc.name))
    return found


def sweep(run_id: str, exclude: set[int] | frozenset[int] = frozenset(), grace: float = 3.0) -> list[int]:
    """End the processes carrying the mark: SIGTERM, then SIGKILL for those left after ``grace`` seconds.
    Returns the processes found at first."""
    pids = marked(run_id, exclude)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)
    deadline = time.monotonic() + grace
    left = pids
    while left and time.monotonic() < deadline:
        time.sleep(0.1)
        left = marked(run_id, exclude)
    for pid in marked(run_id, exclude):  # including any started meanwhile
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    return pids


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z")
    except (OSError, IndexError):
        return True


def _alive(pid: int) -> bool:
    return Path(f"/proc/{pid}").exists() and not _zombie(pid)


def watch(pid: int, run_id: str, poll: float = 0.5) -> None:
    """Wait for process ``pid`` to end, then sweep the run's processes."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))  # the run ended normally and swept itself
    while _alive(pid):
        time.sleep(poll)
    sweep(run_id, exclude={os.getpid()})


if __name__ == "__main__":
    watch(int(sys.argv[1]), sys.argv[2])
