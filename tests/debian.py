"""Debian packages the tests need (chromium for the browser tests, PostgreSQL's server for the league tests),
installed with apt-get when they are missing and the tests run as root, so the README's test command works on a
fresh machine. The suite's workers ask at once: one installs while the others wait on a lock file and then find
the package there, and apt's own lock, held by another apt run on the machine, is waited for, not failed on."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

APT_LOCK_WAIT = 600.0
"""Seconds to wait for apt's lock while another apt run holds it (an unattended upgrade, another suite)."""


class InstallFailed(RuntimeError):
    """apt-get could not install a package; the message holds apt's own."""


def apt_install(package: str, present: Callable[[], str | None]) -> tuple[str | None, float]:
    """What ``present()`` finds once ``package`` is installed, and the seconds spent installing it (0 when it was
    there already or another worker installed it). ``(None, 0.0)`` when it is missing and cannot be installed here
    (not root, or no apt-get); raises :class:`InstallFailed` when apt-get fails."""
    found = present()
    if found:
        return found, 0.0
    apt = shutil.which("apt-get")
    if apt is None or os.geteuid() != 0:
        return None, 0.0
    start = time.monotonic()
    with open(Path(tempfile.gettempdir()) / "jantaku-tests-apt.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes (or the process ends)
        found = present()  # another worker installed it while this one waited
        if found:
            return found, 0.0
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        for cmd in ([apt, "update", "-q"], [apt, "install", "-y", "-q", package]):
            _run_apt(cmd, env)
    return present(), time.monotonic() - start


def _run_apt(cmd: list[str], env: dict[str, str]) -> None:
    """Runs one apt-get command, waiting while another apt run holds apt's lock."""
    deadline = time.monotonic() + APT_LOCK_WAIT
    while True:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900, check=False)
        if done.returncode == 0:
            return
        locked = "Could not get lock" in done.stderr or "Unable to lock" in done.stderr
        if not locked or time.monotonic() > deadline:
            raise InstallFailed(f"`{' '.join(cmd)}` failed ({done.returncode}): {done.stderr.strip()[-2000:]}")
        time.sleep(5)
