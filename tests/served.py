"""Tests' helper: ``jantaku serve`` started as a person starts it (the installed command, a fresh folder, no
PYTHONPATH), waited for until it answers, and stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from jantaku.sim.ray_cluster import free_ports


def jantaku_command() -> list[str]:
    """The ``jantaku`` command beside this Python (as pip installed it), else ``python -m jantaku.cli``."""
    beside = Path(sys.executable).with_name("jantaku")
    return [str(beside)] if beside.exists() else [sys.executable, "-m", "jantaku.cli"]


@contextmanager
def served(folder: Path, *options: str, timeout: float = 60.0) -> Iterator[tuple[subprocess.Popen, str]]:
    """``jantaku serve --port P *options`` run in ``folder``: the process and its URL once it answers; stopped
    (terminated, killed after 20 s) at the end."""
    port = free_ports(1)[0]
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen(
        [*jantaku_command(), "serve", "--port", str(port), *options],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:
                urllib.request.urlopen(url, timeout=5).read()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    raise AssertionError(f"jantaku serve did not start: {proc.stdout.read()}") from None
                time.sleep(0.2)
        yield proc, url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()


def lease_holder(url: str, table_id: str) -> str | None:
    """The server process holding ``table_id``'s lease in the database at ``url`` (``None`` once there is no lease:
    the game is over)."""
    import sqlalchemy as sa

    from jantaku.web.storage import SqlStore

    store = SqlStore(url)
    try:
        with store.engine.connect() as conn:
            query = sa.text("SELECT holder FROM leases WHERE table_id = :t")
            return conn.execute(query, {"t": table_id}).scalar()
    finally:
        store.close()
