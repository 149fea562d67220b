"""Browser tests: the web table served in-process (uvicorn in a thread, a temporary SQLite file, fixed seeds)
and driven through Debian's chromium by Playwright. Server and browser live for this package's tests only, so
nothing of Playwright's stays around while the rest of the suite runs. A missing chromium is installed (as
root) or the session fails with the reason: these tests are never skipped."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator

import pytest

from jantaku.jielu.wincheck import warm_up
from jantaku.web.app import create_app
from jantaku.web.background import BackgroundServer
from jantaku.web.heavy import DEADLINES, WALL_FACTOR
from jantaku.web.storage import SqliteStore

from .chromium import LAUNCH_ARGS, ensure_chromium
from .reuse import PagePool

TIMEOUT_MS = 15_000

HEAVY_TIMEOUT_MS = int(max(DEADLINES[k] for k in DEADLINES if k != "analyse") * WALL_FACTOR * 1000)
"""The wait for a heavy request's answer (a review, a record upload, a table of four bots): the server runs it in
a worker process below its own priority and lets it take, on a busy machine, up to its deadline times the
wall-clock cap (jantaku.web.heavy.DEADLINES, WALL_FACTOR); an analysis has its own wait."""


@pytest.fixture(scope="session")
def chromium_path() -> str:
    try:
        path, seconds = ensure_chromium()
    except RuntimeError as e:
        pytest.fail(str(e), pytrace=False)
    if seconds:
        print(f"\n[e2e] installed chromium with apt-get in {seconds:.0f} s")
    return path


@pytest.fixture(scope="module")
def pg(pg_cluster):
    """The session's throwaway PostgreSQL cluster (tests/conftest.py) for the league pages; each test takes a
    fresh database from it (``fresh_url``)."""
    return pg_cluster


@pytest.fixture(scope="package")
def server(tmp_path_factory) -> Iterator[BackgroundServer]:
    warm_up()  # as `jantaku serve` does at start: no page waits for the 洁律 check's compiler
    seeds = itertools.count()
    store = SqliteStore(tmp_path_factory.mktemp("e2e") / "games.sqlite3")
    app = create_app(store, seed_source=lambda: f"e2e-{next(seeds)}")
    with BackgroundServer(app) as srv:
        yield srv
    store.close()


@pytest.fixture(autouse=True)
def _tables_end_with_their_test(request):
    """The tables a test created on the package's server leave it when the test ends: left there, a table with
    bots, a pace or a turn timer went on playing for the rest of the package's tests (a turn timer plays the
    absent person's moves), costing the run processor time for nothing."""
    server = request.getfixturevalue("server") if "server" in request.fixturenames else None
    yield
    if server is not None:
        manager = server.app.state.manager
        for table_id in list(manager.tables):
            manager.evict(table_id)


@pytest.fixture(scope="package")
def browser(chromium_path):
    from playwright.sync_api import sync_playwright

    start = time.monotonic()
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=chromium_path, args=LAUNCH_ARGS, headless=True)
        print(f"\n[e2e] chromium {b.version} started in {time.monotonic() - start:.1f} s")
        b.pool = PagePool(b)  # pages kept from one test to the next (tests/e2e/reuse.py)
        yield b
        b.pool.close()
        b.close()


@pytest.fixture
def page(browser, server):
    """A laptop-sized page (kept from an earlier test, cleared), failing the test on a JavaScript error."""
    with browser.pool.pages((1280, 900), 1, TIMEOUT_MS) as (p,):
        yield p


@pytest.fixture
def context(page):
    """The context of :func:`page`."""
    return page.context


SIZES = [(390, 844), (1366, 768)]
"""A phone and a laptop screen: the sizes every page is checked at (issue 13)."""


@pytest.fixture(params=SIZES, ids=["phone", "laptop"])
def sized(request, browser, server):
    """A page of one of :data:`SIZES` (``page.size_id`` says which; kept from an earlier test, cleared), failing
    the test on a JavaScript error."""
    width, height = request.param
    with browser.pool.pages((width, height), 1, TIMEOUT_MS) as (p,):
        p.size_id = f"{width}x{height}"
        yield p
