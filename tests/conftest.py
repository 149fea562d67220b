"""Suite-wide hooks.

``JANTAKU_TEST_CPU=FILE`` names a file that gets, for each test, its id, the seconds it took and the processor
seconds it cost (the worker's and the processes it started and waited for): what the suite's time on busy
cores depends on (``python tests/cpu_report.py FILE`` sums it by module).

``JANTAKU_TEST_TRACE=FILE`` names a file that gets each test's id as the test starts, written through at once:
when the test process is ended from outside pytest (a library that exits the process, the kernel), pytest prints
no summary, and this file still says which test was running. ``.ci/run`` sets it and prints the last line when
pytest ends without its summary.

Every process the run starts carries the mark ``JANTAKU_TEST_RUN`` in its environment, and is ended when the run
ends, however it ends (``tests/reaper.py``: a sweep at the end, and a watcher that sweeps when pytest is killed).
The 洁律 check is compiled into numba's cache once, before the workers start.

``pg_cluster`` is a throwaway PostgreSQL server (tests/pgserver.py), started once per test process by the first
test that runs on PostgreSQL; ``fresh_url()`` gives each test a schema of its own.

Each worker sets what lives at the start of each test module apart from the garbage collector (``gc.freeze``):
the imports of numba, Ray, torch, Playwright and the earlier modules' caches grew a worker to a million objects,
and every full collection walked them all again (15-17 of them a worker, 0.4-0.6 s each, and pytest's five at
the end of the run).

The run keeps Python's bytecode caches (``__pycache__``, ignored by git) even where ``PYTHONDONTWRITEBYTECODE``
is set, for itself and the processes it starts: its workers and the hundreds of commands the tests run would
otherwise each compile the same sources and rewrite the same test modules again (about 9 s of processor time a
worker, a third of a command's start).
"""

from __future__ import annotations

import gc
import os
import resource
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

import reaper
from pgserver import Cluster, PostgresUnavailable

sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

_TRACE = os.environ.get("JANTAKU_TEST_TRACE")
_CPU = os.environ.get("JANTAKU_TEST_CPU")


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput"):  # a pytest-xdist worker: the controller marked the run
        return
    run_id = uuid.uuid4().hex
    os.environ[reaper.MARK] = run_id
    env = {k: v for k, v in os.environ.items() if k != reaper.MARK}
    watcher = subprocess.Popen(
        [sys.executable, str(Path(reaper.__file__)), str(os.getpid()), run_id],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # out of pytest's process group: a signal to the group does not end it
    )
    config.stash[_WATCHER] = (run_id, watcher)
    # Compile the 洁律 check into numba's cache once, before pytest-xdist starts its workers: on a fresh clone
    # every worker and every command the tests start would otherwise compile it again (20-60 s each).
    from jantaku.jielu.wincheck import warm_up

    warm_up()


def pytest_unconfigure(config: pytest.Config) -> None:
    started = config.stash.get(_WATCHER, None)
    if started is None:
        return
    run_id, watcher = started
    left = reaper.sweep(run_id, exclude={os.getpid(), *_ancestors()})
    if left:
        print(f"\n[tests] ended {len(left)} process(es) the run had left running", file=sys.stderr)
    watcher.terminate()
    watcher.wait(timeout=10)


_WATCHER = pytest.StashKey[tuple[str, subprocess.Popen]]()


def _ancestors() -> set[int]:
    pids, pid = set(), os.getppid()
    while pid > 1:
        pids.add(pid)
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            break
    return pids


HEAVY_MODULES = (
    "tests/e2e/test_e2e_league.py",
    "tests/e2e/test_e2e_endings.py",
    "tests/test_sim_ray.py",
    "tests/e2e/test_e2e_league_forms.py",
    "tests/league/test_league_web.py",
    "tests/e2e/test_e2e_league_tables.py",
    "tests/test_web_cluster.py",
    "tests/e2e/test_e2e_cluster.py",
    "tests/test_web_analyse.py",
    "tests/e2e/test_e2e_serve_jielu.py",
    "tests/test_web_heavy.py",
    "tests/test_env_bc.py",
    "tests/e2e/test_e2e_pace.py",
    "tests/e2e/test_e2e_details.py",
    "tests/test_readme.py",
    "tests/test_seatview.py",
    "tests/e2e/test_e2e_layout.py",
    "tests/test_wheel.py",
    "tests/test_lab.py",
    "tests/test_dataset.py",
    "tests/e2e/test_e2e_play.py",
    "tests/test_table_harness.py",
    "tests/test_web_faults.py",
    "tests/test_cli_bad_input.py",
    "tests/e2e/test_e2e_analyse.py",
    "tests/test_hosting_script.py",
    "tests/league/test_league_store.py",
    "tests/e2e/test_e2e_review.py",
    "tests/test_docs.py",
    "tests/league/test_league_tables.py",
    "tests/e2e/test_e2e_pages.py",
    "tests/test_jielu_wincheck.py",
    "tests/test_fuzz_parsers.py",
    "tests/test_web_privacy.py",
    "tests/test_mjai_identity.py",
    "tests/test_killed_run.py",
    "tests/test_env_rllib.py",  # last: its Ray instance should not overlap test_sim_ray's
)
"""The modules that take longest (measured on 2 cores: the modules of 14 s or more in a run of 0.12.0's suite with
``--durations=0``), longest first (the RLlib module last). They are handed out right after the
``first`` tests, so that the run ends on short modules that fill the workers evenly instead of on one long one
(``--no-loadscope-reorder`` keeps this order; xdist would otherwise hand out the modules with most tests first,
and a module of one long test last). tests/test_suite_schedule.py checks that every name here exists."""


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int:
    """``--numprocesses=auto``: a worker per core and two more (``--maxprocesses`` caps it). Much of the suite
    waits rather than computes: the ``first`` test (a whole game at the default pace) keeps one worker waiting
    on the game's pace for minutes, and the browser and server tests wait on pages, servers and paces. On 2
    cores, 3 workers left a third of the processor idle (9:51 for the suite); 4 took 8:57, and 10:27 with one
    core kept busy by another program, every test passing."""
    return (os.cpu_count() or 1) + 2


def _schedule_rank(item: pytest.Item) -> int:
    if item.get_closest_marker("first") is not None:
        return -1
    path = item.nodeid.split("::", 1)[0]
    return HEAVY_MODULES.index(path) if path in HEAVY_MODULES else len(HEAVY_MODULES)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``first`` run first: the longest waits (a whole game at the default pace) then overlap the
    rest of the suite on the other workers instead of ending it. The heavy modules follow, longest first."""
    items.sort(key=_schedule_rank)


def _cpu_seconds() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    if not _CPU:
        return (yield)
    wall, cpu = time.perf_counter(), _cpu_seconds()
    try:
        return (yield)
    finally:
        with open(_CPU, "a", encoding="utf-8") as f:
            f.write(f"{item.nodeid}\t{time.perf_counter() - wall:.2f}\t{_cpu_seconds() - cpu:.2f}\n")


_MODULE = [""]
"""The test module whose first test made the worker freeze what lived then (see the module's docstring)."""


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    module = item.nodeid.split("::", 1)[0]
    if module != _MODULE[0]:
        _MODULE[0] = module
        gc.collect()  # the garbage of the modules before, then what lives on out of every later collection's way
        gc.freeze()


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    if _TRACE:
        with open(_TRACE, "a", encoding="utf-8") as f:
            f.write(nodeid + "\n")


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    try:
        cluster = Cluster()
    except PostgresUnavailable as e:
        pytest.fail(str(e), pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def games_db(request, tmp_path) -> str:
    """The web table's games database, each test run on both: a SQLite file, and a PostgreSQL URL whose tables
    live in a new schema of ``pg_cluster``."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    return request.getfixturevalue("pg_cluster").fresh_url()
