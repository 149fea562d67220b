"""The package people install: the wheel built from this checkout works in a fresh virtual environment, away
from the repository.

The wheel is built once (``pip wheel --no-deps`` from a copy of the project's files, so the checkout gets no
``build/`` folder) and installed without its dependencies into new virtual environments, so nothing is downloaded
beyond the build backend that pip's isolated build always fetches:

- one that sees the packages of the environment running the tests (a ``.pth`` file naming its site folders,
  so it works from a virtual environment as from the system Python: ``--system-site-packages`` would show the
  base interpreter's packages, not a virtual environment's);
- one that sees the core's dependencies alone (numpy and tqdm, a folder of links to them): the light core that
  ``pip install jantaku`` gives, where every optional part names the extra that installs it.

Every command runs from a scratch folder with no ``PYTHONPATH``, and must
use the installed package: its presets, the 洁律 fan table and the web pages come from inside the wheel.
The version is the one written in ``pyproject.toml``, and the CHANGELOG's newest entry is that version.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
import zipfile
from pathlib import Path

import pytest

import jantaku

ROOT = Path(__file__).parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]


def test_version_comes_from_the_metadata():
    assert jantaku.__version__ == importlib.metadata.version("jantaku")


def test_changelog_names_this_version():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    newest = re.search(r"^## (\S+)", text, re.M)
    assert newest and newest.group(1) == VERSION, "add a CHANGELOG.md entry for the version in pyproject.toml"


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("build")
    project = work / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "src", project / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(project), "--no-deps", "-w", str(work / "dist"), "-q"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    [built] = (work / "dist").glob("jantaku-*.whl")
    return built


def test_wheel_holds_the_data_files(wheel):
    assert wheel.name == f"jantaku-{VERSION}-py3-none-any.whl"
    names = set(zipfile.ZipFile(wheel).namelist())
    presets = {Path(n).stem for n in names if n.startswith("jantaku/rules/presets/") and n.endswith(".toml")}
    assert presets == {p.stem for p in (ROOT / "src" / "jantaku" / "rules" / "presets").glob("*.toml")}
    static = {p.name for p in (ROOT / "src" / "jantaku" / "web" / "static").iterdir() if p.is_file()}
    assert {f"jantaku/web/static/{n}" for n in static} <= names
    assert {"jantaku/jielu/fans.toml", "jantaku/py.typed", "jantaku/cli/__main__.py"} <= names
    migrations = {p.relative_to(ROOT / "src").as_posix() for p in (ROOT / "src/jantaku/league/alembic").rglob("*.*")}
    assert migrations >= {"jantaku/league/alembic/env.py", "jantaku/league/alembic/versions/0001_initial.py"}
    assert {m for m in migrations if "__pycache__" not in m} <= names
    assert not any("__pycache__" in n or n.startswith("tests/") for n in names)


def _make_venv(wheel: Path, base: Path, site_dirs: list[str]) -> tuple[Path, dict[str, str], Path]:
    """A new virtual environment in ``base`` that also sees ``site_dirs``, with the wheel installed; returns
    (bin folder, environment, scratch folder)."""
    env_dir = base / "env"
    subprocess.run([sys.executable, "-m", "venv", str(env_dir)], check=True, timeout=300)
    bindir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    probe = [str(bindir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]
    purelib = Path(subprocess.run(probe, check=True, capture_output=True, text=True, timeout=60).stdout.strip())
    (purelib / "_outer_site.pth").write_text("".join(d + "\n" for d in site_dirs), encoding="utf-8")
    proc = subprocess.run(
        [str(bindir / "python"), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    scratch = base / "elsewhere"
    scratch.mkdir()
    return bindir, env, scratch


def _outer_site_dirs() -> list[str]:
    """The site folders of the Python running the tests (a virtual environment's, or the system's)."""
    return [p for p in sys.path if p.endswith(("site-packages", "dist-packages")) and Path(p).is_dir()]


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory):
    """A fresh virtual environment with the wheel installed, seeing the test environment's packages."""
    return _make_venv(wheel, tmp_path_factory.mktemp("venv"), _outer_site_dirs())


@pytest.fixture(scope="module")
def light_venv(wheel, tmp_path_factory):
    """A fresh virtual environment with the wheel installed and the core's own dependencies alone beside it (the
    ``dependencies`` of pyproject.toml: numpy and tqdm)."""
    import importlib

    base = tmp_path_factory.mktemp("light")
    only = base / "core-only"
    only.mkdir()
    for name in _core_dependencies():
        module = importlib.import_module(name)
        site = Path(module.__file__).parents[1]
        for entry in site.iterdir():
            if entry.name == name or entry.name.startswith((f"{name}-", f"{name}.libs")):
                (only / entry.name).symlink_to(entry)
    return _make_venv(wheel, base, [str(only)])


def _core_dependencies() -> list[str]:
    """The import names of the core's dependencies (``numpy==2.4.6`` -> ``numpy``)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [re.split(r"[=<>!~\[ ;]", dep, maxsplit=1)[0].replace("-", "_") for dep in project["dependencies"]]


def _run(venv, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    bindir, env, scratch = venv
    return subprocess.run(
        [str(bindir / args[0]), *args[1:]],
        cwd=scratch,
        env=env,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_installed_package_is_the_wheel(venv):
    bindir = venv[0]
    code = "import jantaku, json; print(json.dumps([jantaku.__file__, jantaku.__version__]))"
    proc = _run(venv, "python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    where, version = json.loads(proc.stdout)
    assert Path(where).resolve().is_relative_to(bindir.parent.resolve()), where
    assert version == VERSION
    proc = _run(venv, "jantaku", "--version")
    assert proc.stdout.strip() == f"jantaku {VERSION}"


def test_jantaku_score_and_rules_from_the_wheel(venv):
    proc = _run(venv, "jantaku", "score", "234m567p456s78999s", "--win", "9s", "--tsumo", "--riichi", "--dora", "3m")
    assert proc.returncode == 0, proc.stderr
    assert "4 han 20 fu: 7800 points (2600 all)" in proc.stdout  # the dealer (seat E by default)
    # the 洁律 fan table is read from inside the wheel (scoring a 洁律 hand from the installed package would first
    # compile its check, a minute of a core on every run of the suite; the engine's 洁律 tests score them)
    code = (
        "import json, jantaku.jielu as j, importlib.resources as r; t = j.default_fan_table(); "
        "print(json.dumps([t.points['三连顺'], len(t.points), str(r.files('jantaku.jielu') / 'fans.toml')]))"
    )
    proc = _run(venv, "python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    points, fans, where = json.loads(proc.stdout)
    assert points == 6 and fans == 49 and Path(where).resolve().is_relative_to(venv[0].parent.resolve())
    proc = _run(venv, "jantaku", "rules")
    assert proc.returncode == 0 and all(name in proc.stdout for name in ("mleague", "mu", "jielu"))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_jantaku_league_from_the_wheel(venv):
    """The league recorder's migrations run from the installed package (a new SQLite database)."""
    proc = _run(venv, "jantaku", "league", "--db", "wheel-league.db", "create", "Cup", "--rules", "mu")
    assert proc.returncode == 0 and "created under mu" in proc.stdout, proc.stdout + proc.stderr


def test_jantaku_serve_from_the_wheel(venv):
    bindir, env, scratch = venv
    port = _free_port()
    proc = subprocess.Popen(
        [str(bindir / "jantaku"), "serve", "--port", str(port), "--db", str(scratch / "games.sqlite3")],
        cwd=scratch,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as r:
                    page = r.read().decode("utf-8")
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"jantaku serve did not answer: {proc.stdout.read()}") from None
                time.sleep(0.3)
        assert "<html" in page.lower()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/presets", timeout=5) as r:
            assert "mleague" in json.loads(r.read())["presets"]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/static/style.css", timeout=5) as r:
            assert r.status == 200 and r.read()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:  # pragma: no cover
            proc.kill()
            proc.wait()
    assert (scratch / "games.sqlite3").exists()


def test_the_light_core_needs_its_own_dependencies_alone(light_venv):
    proc = _run(light_venv, "python", "-c", "import sqlalchemy")
    assert proc.returncode != 0, "the light environment must not see the other packages"
    proc = _run(light_venv, "jantaku", "score", "234m567p456s78999s", "--win", "9s", "--tsumo", "--riichi")
    assert proc.returncode == 0 and "3 han 20 fu" in proc.stdout, proc.stdout + proc.stderr
    proc = _run(light_venv, "jantaku", "shanten", "123m456p789s1122z")
    assert proc.returncode == 0, proc.stderr
    proc = _run(light_venv, "jantaku", "simulate", "--rules", "mleague", "--games", "1", "--quiet")
    assert proc.returncode == 0 and proc.stdout.startswith("1 games, "), proc.stdout + proc.stderr
    record = ROOT / "examples" / "records" / "2010102910gm-00a9-0000-cdb9804c.mjlog"
    proc = _run(light_venv, "jantaku", "replay", "--check", str(record))
    assert proc.returncode == 0 and "11 matched" in proc.stdout, proc.stdout + proc.stderr


@pytest.mark.parametrize(
    ("args", "extra"),
    [
        (["serve"], "web"),
        (["league", "events"], "league"),
        (["score", "123m456m789m123p11z", "--win", "1z", "--tsumo", "--rules", "jielu"], "jielu"),
        (["simulate", "--rules", "jielu", "--games", "1"], "jielu"),
        (["analyze", "--rules", "mu,meibi", "--games", "2", "--html", "r.html"], "lab"),
        (["simulate", "--games", "1", "--ray"], "ray"),
    ],
)
def test_a_missing_extra_is_named(light_venv, args, extra):
    proc = _run(light_venv, "jantaku", *args)
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert f"pip install 'jantaku[{extra}]'" in proc.stderr, proc.stderr
    assert "Traceback" not in proc.stderr


def test_a_missing_extra_is_named_to_a_program(light_venv):
    code = (
        "from jantaku.extras import MissingExtra\n"
        "for name in ('jantaku.env', 'jantaku.web.app', 'jantaku.league.store', 'jantaku.jielu.wincheck'):\n"
        "    try:\n"
        "        __import__(name)\n"
        "    except MissingExtra as e:\n"
        "        print(e)\n"
    )
    proc = _run(light_venv, "python", "-c", code)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert [re.search(r"jantaku\[(\w+)\]", line).group(1) for line in lines] == ["env", "web", "league", "jielu"], lines
