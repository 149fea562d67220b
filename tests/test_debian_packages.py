"""The tests' Debian packages on a fresh machine (tests/debian.py: chromium for the browser tests, PostgreSQL's
server for the league tests): the suite's workers all ask at once; one installs each package, the others wait and
find it, and apt's lock held by another apt run is waited for.

A fresh machine without chromium used to fail 125 browser tests at setup: every worker ran ``apt-get update`` at
once and all but one failed on apt's lock. Here a stand-in for apt-get records what it is asked to do."""

from __future__ import annotations

import threading

import pytest

import debian

FAKE_APT = """#!/bin/sh
# a stand-in for apt-get: logs its command; "install P" creates P; the first LOCKED runs fail on apt's lock as
# apt-get does when another apt run holds it; two runs at once fail as the real apt-get's second one would
dir=$(dirname "$0")
n=$(cat "$dir/runs" 2>/dev/null || echo 0); echo $((n + 1)) > "$dir/runs"
if [ "$n" -lt "$(cat "$dir/locked")" ] || ! mkdir "$dir/busy" 2>/dev/null; then
  echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)" >&2; exit 100
fi
echo "$1 $4" >> "$dir/log"
sleep 0.2
[ "$1" = install ] && touch "$dir/$4"
rmdir "$dir/busy"
exit 0
"""


@pytest.fixture
def machine(tmp_path, monkeypatch):
    """A machine whose apt-get is the stand-in (the first ``locked`` runs find apt locked)."""
    apt = tmp_path / "apt-get"
    apt.write_text(FAKE_APT)
    apt.chmod(0o755)
    (tmp_path / "locked").write_text("0")
    monkeypatch.setattr(debian.shutil, "which", lambda name: str(apt) if name == "apt-get" else None)
    monkeypatch.setattr(debian.os, "geteuid", lambda: 0)
    monkeypatch.setattr(debian.tempfile, "gettempdir", lambda: str(tmp_path))
    monkeypatch.setattr(debian.time, "sleep", lambda s: None)
    return tmp_path


def _present(machine, package):
    return lambda: str(machine / package) if (machine / package).exists() else None


def test_workers_asking_at_once_install_each_package_once(machine):
    found: list[str | None] = []
    errors: list[BaseException] = []

    def worker(package: str) -> None:
        try:
            found.append(debian.apt_install(package, _present(machine, package))[0])
        except BaseException as e:
            errors.append(e)

    packages = ["chromium"] * 3 + ["postgresql"] * 2
    threads = [threading.Thread(target=worker, args=(p,)) for p in packages]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert sorted(found) == sorted(str(machine / p) for p in packages)
    log = (machine / "log").read_text().splitlines()
    assert sorted(line for line in log if line.startswith("install")) == [
        "install chromium",
        "install postgresql",
    ]
    assert len(log) == 4  # an update before each install, and nothing run twice


def test_apts_lock_held_by_another_apt_run_is_waited_for(machine):
    (machine / "locked").write_text("2")
    path, _ = debian.apt_install("chromium", _present(machine, "chromium"))
    assert path == str(machine / "chromium")
    assert (machine / "runs").read_text().strip() == "4"  # two locked tries, then update and install
    assert (machine / "log").read_text().split() == ["update", "install", "chromium"]


def test_another_apt_failure_is_reported_with_apts_message(machine):
    (machine / "apt-get").write_text("#!/bin/sh\necho 'E: Unable to locate package chromium' >&2\nexit 100\n")
    with pytest.raises(debian.InstallFailed, match="Unable to locate package chromium"):
        debian.apt_install("chromium", _present(machine, "chromium"))


def test_without_root_nothing_is_installed(machine, monkeypatch):
    monkeypatch.setattr(debian.os, "geteuid", lambda: 1000)
    assert debian.apt_install("chromium", _present(machine, "chromium")) == (None, 0.0)
    assert not (machine / "runs").exists()
