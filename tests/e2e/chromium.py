"""Debian's chromium for the browser tests and the screenshots: found, or installed with apt-get when we are root.

Playwright's own browser download is never used (``playwright install`` cannot reach its servers here); the
Python package only drives the system chromium through ``executable_path``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from debian import apt_install

CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/lib/chromium/chromium")

LAUNCH_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
]
"""Headless, as root, and without the background connections a closed network refuses."""


def find_chromium() -> str | None:
    """The chromium binary, or ``None``."""
    env = os.environ.get("JANTAKU_CHROMIUM")
    if env and Path(env).exists():
        return env
    for path in CANDIDATES:
        if Path(path).exists():
            return path
    found = shutil.which("chromium")
    return found


def ensure_chromium() -> tuple[str, float]:
    """The chromium binary and the seconds spent installing it (0 when it was there).

    Installs Debian's ``chromium`` package with apt-get when it is missing and we are root (once, however many
    workers ask at the same time: tests/debian.py); otherwise raises ``RuntimeError`` saying what to install."""
    path, seconds = apt_install("chromium", find_chromium)
    if path is None:
        raise RuntimeError(
            "the browser tests need Debian's chromium (/usr/bin/chromium): run `apt-get install -y chromium` "
            "as root (or set JANTAKU_CHROMIUM to a chromium binary)"
        )
    return path, seconds
