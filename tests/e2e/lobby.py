"""Driving ``jantaku serve`` from its lobby in chromium, as a person does: a table created from the lobby's form, a
game played by clicking to its final table with a watchdog over the view (tests/e2e/test_e2e_serve*.py)."""

from __future__ import annotations

import shutil
import time
from collections.abc import Iterator
from pathlib import Path

from served import served as serve_process

from .driver import play_turn, wait_moved_or_ready

GAME_SECONDS = 900
"""The longest a whole East-only game may take here (about 2-7 minutes at the default pace)."""


def serve_in(work: Path, *options: str) -> Iterator[str]:
    """``jantaku serve --port P *options`` in the fresh folder ``work``: its URL (a module fixture's body); the
    folder is removed after."""
    with serve_process(work, *options) as (_, url):
        yield url
    shutil.rmtree(work, ignore_errors=True)


def create_from_lobby(page, url: str, rules: str = "tenhou", pace: str | None = None) -> None:
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


def play_game(page, label: str, hands: int | None = None) -> dict[str, int]:
    """Play by clicking until the final table shows (or until the result of the ``hands``-th hand shows),
    failing when the view stands still too long while the table does not wait for the person. Returns counts of
    what was clicked."""
    clicked: dict[str, int] = {}
    start, results = time.monotonic(), 0
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
            results += 1
            if hands is not None and results >= hands:
                return clicked
            page.locator("#result-dialog form button").click()  # close the result: the next hand is dealt
            continue
        if state["mine"]:
            what = play_turn(page, prefer_wins=True)
            clicked[what] = clicked.get(what, 0) + 1
            continue
        assert time.monotonic() - start < GAME_SECONDS, f"{label}: no final table after {GAME_SECONDS} s"
        wait_moved_or_ready(page, state["step"], label)  # the watchdog: a freeze fails here, naming the step
