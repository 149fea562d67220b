"""Whole games on the real thing: a ``jantaku serve`` process started as the README starts it (its default
options; only ``--port`` is given, a free one), driven in chromium from the lobby to the final table.

- A whole East-only game of one person against three default bots at the default pace, in a table whose first
  dealer is a bot, created on an idle server (the first table of a server, and so with the clock idle), then a
  second game on the same server after the first ended. Before issue 30's fix the first table stood still at
  its first step about three times in four.
- A watchdog over each game: the page's view must move within :data:`WATCHDOG` seconds whenever the table is not
  waiting for the person (a step is 0.45 s at the default pace, a bot's turn two steps); a view that stands
  still longer fails, naming the step.
"""

from __future__ import annotations

import json
import shutil
import time
import urllib.request

import pytest

from served import served as serve_process

from .driver import play_turn
from .tables import pages

pytestmark = pytest.mark.first  # minutes of waiting on the default pace: start it first, beside everything else

WATCHDOG = 12.0
"""Seconds a view may stand still while the table does not wait for the person (pace 0.45 s a step, a call
window, a bot's draw and discard; no turn timer by default; a result panel is closed at once)."""

GAME_SECONDS = 900
"""The longest a whole East-only game may take here (about 2-4 minutes at the default pace)."""


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``jantaku serve --port P`` in a fresh folder: its URL; stopped after the module."""
    work = tmp_path_factory.mktemp("serve")
    with serve_process(work) as (_, url):
        yield url
    shutil.rmtree(work, ignore_errors=True)


def _create_from_lobby(page, url: str, rules: str = "tenhou", pace: str | None = None) -> None:
    """Lobby, one person at seat 0 against the default bots, East only; again until a bot deals first."""
    for _ in range(30):
        page.goto(url)
        page.select_option("#rules", rules)
        page.select_option("#opt-length", "east")
        if pace is not None:
            page.select_option("#opt-pace", pace)
        page.click("#new-table button[type=submit]")
        page.wait_for_function("() => typeof view !== 'undefined' && view !== null")
        if page.evaluate("() => view.round.dealer !== view.seat"):
            return
    raise AssertionError("30 tables in a row dealt by the person")


def _play_game(page, label: str) -> dict[str, int]:
    """Play by clicking until the final table shows, failing when the view stands still too long while the
    table does not wait for the person. Returns counts of what was clicked."""
    clicked: dict[str, int] = {}
    start = time.monotonic()
    last_step, since = None, time.monotonic()
    while True:
        state = page.evaluate(
            """() => ({
                step: document.body.dataset.step || '',
                mine: (document.getElementById('status').dataset.mine === '1'),
                dialog: document.getElementById('result-dialog').open,
                final: !!document.querySelector('#result-dialog .final'),
                over: !!(view && view.over),
            })"""
        )
        if state["final"] and state["over"]:
            return clicked
        if state["dialog"]:
            page.locator("#result-dialog form button").click()  # close the result: the next hand is dealt
            last_step, since = None, time.monotonic()
            continue
        if state["mine"]:
            what = play_turn(page, prefer_wins=True)
            clicked[what] = clicked.get(what, 0) + 1
            last_step, since = None, time.monotonic()
            continue
        if state["step"] != last_step:
            last_step, since = state["step"], time.monotonic()
        elif time.monotonic() - since > WATCHDOG:
            raise AssertionError(
                f"{label}: the view stood still at step {last_step} for {WATCHDOG:.0f} s while the table did not "
                "wait for the person"
            )
        assert time.monotonic() - start < GAME_SECONDS, f"{label}: no final table after {GAME_SECONDS} s"
        time.sleep(0.1)


def test_two_whole_games_on_a_fresh_server_at_its_default_pace(browser, served):
    with pages(browser, (1366, 768), 1, timeout_ms=30_000) as (page,):
        start = time.monotonic()
        _create_from_lobby(page, served)
        first = _play_game(page, "the first game")
        first_seconds = time.monotonic() - start
        assert first.get("dahai", 0) >= 10, first
        rows = page.locator("#result-dialog .final tr[data-seat]")
        assert rows.count() == 4
        # the second game, after the first ended (its table left the clock's care): the fast pace here only
        # shortens the test; what is checked is that a table created then is driven at all
        _create_from_lobby(page, served, pace="fast")
        _play_game(page, "the second game")
        assert page.locator("#result-dialog .final tr[data-seat]").count() == 4
        print(f"\n[e2e] a whole East-only game at the default pace took {first_seconds:.0f} s")


def test_a_whole_jielu_game_with_several_winners_in_a_hand(browser, served):
    """A 洁律 game on the same server from the lobby to its final table: the hand goes on after a win, and some
    hand has several winners. The fast pace (0.15 s a step) only shortens the test (four 洁律 hands at the default
    pace take 2-3 minutes, and the riichi game above already runs at the default pace): the code that drives the
    table is the same at any pace."""
    with pages(browser, (1366, 768), 1, timeout_ms=30_000) as (page,):
        _create_from_lobby(page, served, rules="jielu", pace="fast")
        assert page.locator("#auto-riichi_discard").count() == 0  # 洁律 has no riichi
        _play_game(page, "the 洁律 game")
        table = page.evaluate("() => new URLSearchParams(location.search).get('table')")
        with urllib.request.urlopen(f"{served}api/games/{table}", timeout=10) as r:
            events = json.loads(r.read())["events"]
    wins_per_hand, wins = [], 0
    for e in events:
        if e["type"] == "hora":
            wins += 1
        elif e["type"] in ("end_kyoku", "end_game") and wins:
            wins_per_hand.append(wins)
            wins = 0
    assert sum(1 for e in events if e["type"] == "start_kyoku") == 4
    assert max(wins_per_hand) >= 2, wins_per_hand  # the hand went on after a win
