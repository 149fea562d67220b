"""The pages under the server's Content-Security-Policy in a real browser: the play page (a table created from
the lobby, a turn played over the websocket), the calculator, the games list and the replay viewer (a stored
game and an uploaded log) work with no CSP violation reported; and a page of another origin in the same
browser can neither create a table nor move one (its requests reach the server and are refused)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.responses import HTMLResponse
from starlette.routing import Route

from jantaku.web.app import LOOPBACK_HOSTS, create_app
from jantaku.web.background import BackgroundServer
from jantaku.web.storage import SqliteStore

from .conftest import HEAVY_TIMEOUT_MS, TIMEOUT_MS
from .driver import play_turn, wait_ready

MJLOG = sorted(Path(__file__).parents[1].joinpath("data", "records", "tenhou-mjlog").rglob("*.mjlog"))[0]

WATCH_CSP = """
window.__csp = [];
document.addEventListener('securitypolicyviolation',
  (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI} ${e.sourceFile}:${e.lineNumber}`));
"""


@pytest.fixture(scope="module")
def guarded(tmp_path_factory) -> Iterator[BackgroundServer]:
    """The web table as ``jantaku serve`` runs it: answering only to the loopback names (and addresses)."""
    seeds = itertools.count()
    store = SqliteStore(tmp_path_factory.mktemp("e2e-sec") / "games.sqlite3")
    app = create_app(store, seed_source=lambda: f"e2e-sec-{next(seeds)}", allowed_hosts=LOOPBACK_HOSTS)
    with BackgroundServer(app) as srv:
        yield srv
    store.close()


@pytest.fixture
def watched(browser):
    """A page whose console messages, page errors and CSP violation events are recorded."""
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en-US")
    ctx.set_default_timeout(TIMEOUT_MS)
    ctx.add_init_script(WATCH_CSP)
    page = ctx.new_page()
    page.console_log = []
    page.on("console", lambda m: page.console_log.append(f"{m.type}: {m.text}"))
    page.on("pageerror", lambda e: page.console_log.append(f"pageerror: {e}"))
    yield page
    ctx.close()


def _no_violations(page, where: str) -> None:
    events = page.evaluate("() => window.__csp")
    console = [m for m in page.console_log if "Content Security Policy" in m or m.startswith("pageerror")]
    assert not events and not console, f"{where}: {events} {console}"


def test_the_pages_work_under_the_content_security_policy(watched, guarded):
    page = watched
    # the play page: a table from the lobby, a turn played (the move goes over the websocket)
    response = page.goto(guarded.url)
    assert "default-src 'self'" in response.headers["content-security-policy"]
    page.select_option("#rules", "tenhou")
    page.select_option("#kind0", "human")
    for s in (1, 2, 3):
        page.select_option(f"#kind{s}", "efficiency")
    page.click("#new-table button[type=submit]")
    page.wait_for_selector("#hand > img.tile")
    wait_ready(page)
    step = page.evaluate("() => document.body.dataset.step")
    assert play_turn(page) in ("dahai", "reach", "tsumo", "none")
    assert page.evaluate("() => document.body.dataset.step") != step
    assert page.locator("#hand > img.tile").first.evaluate("img => img.complete && img.naturalWidth > 0")
    _no_violations(page, "play page")
    # the calculator: tiles clicked, the hand scored
    page.goto(guarded.url + "score")
    page.wait_for_selector("#palette img[data-tile='9s']")
    for tile in ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "1z", "2z"):
        page.click(f"#palette img[data-tile='{tile}']")
    page.check("input[name=target][value=win]")
    page.click("#palette img[data-tile='2z']")
    page.click("#calc")
    page.locator("#score-result .score-column").first.wait_for()
    _no_violations(page, "calculator")
    assert page.locator("#honba").evaluate("i => i.getBoundingClientRect().width") < 120  # its class's width
    # a stored game from the games list, then an uploaded log, in the replay viewer
    body = {"rules": "tenhou", "seats": ["efficiency"] * 4}
    created = page.request.post(guarded.url + "api/tables", data=body, timeout=HEAVY_TIMEOUT_MS)
    assert created.status == 201, created.text()
    gid = created.json()["id"]
    page.goto(guarded.url + "games")
    page.locator(f"a.replay-link[href='/replay?game={gid}']").click()
    page.wait_for_selector("#viewer:not([hidden])")
    page.click("#next")
    page.click("#last")
    _no_violations(page, "replay of a stored game")
    page.goto(guarded.url + "replay")
    page.wait_for_selector("body[data-ready='1']")
    page.set_input_files("#upload", str(MJLOG))
    page.wait_for_selector("#viewer:not([hidden])")
    page.click("#next-hand")
    _no_violations(page, "replay of an upload")
    # the interface in Chinese (the language switch re-renders the page)
    page.select_option("#lang", "zh")
    _no_violations(page, "language switch")


ATTACKER = """<!doctype html><html><body><script>
window.attack = async (target, tableId, token, step) => {
  const plain = { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" } };
  const seats = ["human", "random", "random", "random"];
  await fetch(target + "api/tables", { ...plain, body: JSON.stringify({ rules: "tenhou", seats }) });
  await fetch(target + "api/tables/" + tableId + "/act", { ...plain, body: JSON.stringify({ token, step, index: 0 }) });
  const socket = await new Promise((resolve) => {
    const ws = new WebSocket(target.replace("http", "ws") + "ws/tables/" + tableId + "?token=" + token);
    ws.onopen = () => resolve("open");
    ws.onerror = () => resolve("refused");
  });
  return socket;
};
</script></body></html>"""


def test_a_page_of_another_origin_cannot_drive_the_table(watched, guarded):
    attacker_app = Starlette(routes=[Route("/", lambda request: HTMLResponse(ATTACKER))])
    manager = guarded.app.state.manager
    table = manager.create("tenhou", ["human", "efficiency", "efficiency", "efficiency"])
    token = table.seats[0].token
    before, held = table.step, len(manager.tables)
    with BackgroundServer(attacker_app) as attacker:
        page = watched
        page.goto(attacker.url)
        refused = []
        page.on("response", lambda r: refused.append((r.url, r.status)) if r.url.startswith(guarded.url) else None)
        outcome = page.evaluate(
            "([t, id, token, step]) => window.attack(t, id, token, step)", [guarded.url, table.id, token, before]
        )
    assert outcome == "refused"
    # both posts reached the server and were refused as cross-site; nothing was created or moved
    statuses = sorted(status for url, status in refused if "/api/" in url)
    assert statuses == [403, 403], refused
    assert manager.get(table.id).step == before
    assert len(manager.tables) == held
