"""The run that ``tests/test_killed_run.py`` kills: one test that starts every kind of service the suite starts
(a Ray head node, a PostgreSQL cluster, a ``jantaku serve`` process, chromium through Playwright), writes the
run's mark into the file named by ``JANTAKU_KILL_READY`` and waits to be killed. Its name does not start with
``test_``: the suite does not collect it, ``tests/test_killed_run.py`` runs it by path."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import reaper
from e2e.chromium import LAUNCH_ARGS, ensure_chromium
from jantaku.sim.ray_cluster import free_ports, start_node
from pgserver import Cluster


def test_start_every_service_and_wait_to_be_killed(tmp_path):
    start_node(tempfile.mkdtemp(prefix="jantaku-ray-", dir="/tmp"), cpus=1, timeout=180)
    Cluster()
    port = free_ports(1)[0]
    subprocess.Popen(
        [sys.executable, "-m", "jantaku.cli", "serve", "--port", str(port), "--db", str(tmp_path / "games.sqlite3")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    from playwright.sync_api import sync_playwright

    pw = sync_playwright().start()
    browser = pw.chromium.launch(executable_path=ensure_chromium()[0], args=LAUNCH_ARGS, headless=True)
    browser.new_page().goto("about:blank")
    Path(os.environ["JANTAKU_KILL_READY"]).write_text(os.environ[reaper.MARK], encoding="utf-8")
    time.sleep(600)
