"""A test run killed midway leaves no process behind: no Ray node, PostgreSQL server, web server or browser.

A child pytest runs ``tests/killed/services.py``, which starts one of each and waits; once they are up, the
child is killed with SIGKILL (no hook of its own runs). Its watcher (``tests/reaper.py``) must then end every
process it started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import reaper

ROOT = Path(__file__).parents[1]


def _names(pids: list[int]) -> str:
    out = []
    for pid in pids:
        with contextlib.suppress(OSError):
            out.append(Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")[:120])
    return "\n".join(out)


def test_a_killed_run_leaves_no_service_running(tmp_path):
    ready = tmp_path / "ready"
    env = {**os.environ, "JANTAKU_KILL_READY": str(ready)}
    env.pop("PYTEST_XDIST_WORKER", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", "--no-header",
         "tests/killed/services.py"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 240
        while not ready.exists() or not ready.read_text():
            assert child.poll() is None, child.stdout.read().decode(errors="replace")[-3000:]
            assert time.monotonic() < deadline, "the services did not start in 240 s"
            time.sleep(0.5)
        run_id = ready.read_text()
        running = reaper.marked(run_id, exclude={child.pid})
        seen = _names(running)
        for what in ("raylet", "gcs_server", "postgres", "jantaku.cli serve", "chrom"):
            assert what in seen, f"{what} is not among the child run's processes:\n{seen}"
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        deadline = time.monotonic() + 60
        while (left := reaper.marked(run_id)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not left, f"left running after the run was killed:\n{_names(left)}"
    finally:
        if child.poll() is None:
            child.kill()
        reaper.sweep(ready.read_text() if ready.exists() and ready.read_text() else "none")
