"""Playing the web table by clicking, as a person would: used by the browser tests and tools/screenshots.py.

Every decision is taken from what the page shows (the hand's tile pictures, the action buttons); the server
is only reached through the page.
"""

from __future__ import annotations

import time
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from jantaku.shapes.waits import discard_options

READY = """() => {
  const d = document.getElementById('result-dialog');
  const s = document.getElementById('status');
  return (d && d.open) || (s && (s.dataset.mine === '1'));
}"""

_READY_OR_MOVED = f"""(last) => ({READY})() || (document.body.dataset.step || '') !== last"""
"""The page's own test, polled in the page (one round trip a change rather than one a poll): the person is
asked, a result panel is open, or the view moved from step ``last``."""


def _step(page: Any) -> str:
    return page.evaluate("() => document.body.dataset.step || ''")


WATCHDOG = 12.0
"""Seconds a page's view may stand still while the person is not asked and no result panel is open (a step is at
most 0.45 s at the default pace, a bot's turn two steps, a call window one): longer is a freeze."""


def wait_moved_or_ready(page: Any, last: str, label: str = "the page") -> None:
    """Wait until the view leaves step ``last``, the person is asked, or a result panel opens; a view that stands
    still at ``last`` for :data:`WATCHDOG` seconds meanwhile is a frozen table (an AssertionError naming the
    step)."""
    try:
        page.wait_for_function(_READY_OR_MOVED, arg=last, polling=50, timeout=WATCHDOG * 1000)
    except PlaywrightTimeout:
        raise AssertionError(
            f"{label}: the view stood still at step {last} for {WATCHDOG:.0f} s, the person not asked"
        ) from None


def wait_ready(page: Any, limit: float = 600.0) -> None:
    """Wait until the person must decide or a result panel is open; a watchdog over the wait fails, naming the
    step, when the view stands still for :data:`WATCHDOG` seconds meanwhile (a frozen table)."""
    start = time.monotonic()
    while not page.evaluate(READY):
        step = _step(page)
        assert time.monotonic() - start < limit, f"not asked to act after {limit:.0f} s (step {step})"
        wait_moved_or_ready(page, step)


def _click_and_wait(page: Any, locator: Any) -> None:
    before = _step(page)
    locator.click()
    page.wait_for_function(
        "(before) => document.body.dataset.step !== before || document.getElementById('result-dialog').open",
        arg=before,
    )


_TILE_NAMES = "els => els.map(e => e.getAttribute('data-tile'))"


def _best_discard(page: Any) -> Any:
    """The hand tile to click: the drawn tile by default, the most efficient discard when chasing a win."""
    tiles = page.locator("#hand > img.tile.playable")
    names = tiles.evaluate_all(_TILE_NAMES)
    closed = page.locator("#hand > img.tile").evaluate_all(_TILE_NAMES)
    if len(closed) % 3 == 2:
        for option in discard_options("".join(closed)):
            kind = option.discard
            choices = [i for i, n in enumerate(names) if n == kind or (kind[0] == "5" and n == "0" + kind[1])]
            if choices:
                # keep a red five when a plain five of the same kind can go
                choices.sort(key=lambda i: names[i].startswith("0"))
                return tiles.nth(choices[0])
    return tiles.last


def play_turn(page: Any, prefer_wins: bool = True, take_wins: bool = True) -> str:
    """Take one decision by clicking; returns what was clicked (``dahai``, ``reach``, ``tsumo``, ``none``...).
    With ``take_wins`` false an offered tsumo or ron is let go (a discard, or a pass)."""
    actions = page.locator("#actions button[data-action]")
    kinds = actions.evaluate_all("els => els.map(e => e.getAttribute('data-action'))")
    for win in ("tsumo", "ron"):
        if take_wins and win in kinds:
            _click_and_wait(page, page.locator(f"#actions button[data-action={win}]").first)
            return win
    if prefer_wins and "reach" in kinds:
        page.locator("#actions button[data-action=reach]").click()
        page.locator("#hand img.riichi-choice").first.wait_for()
        choice = page.locator("#hand img.riichi-choice")
        _click_and_wait(page, choice.last)
        return "reach"
    if "none" in kinds:  # a call is offered: pass, to keep the hand closed
        _click_and_wait(page, page.locator("#actions button[data-action=none]"))
        return "none"
    if page.locator("#hand > img.tile.playable").count():
        _click_and_wait(page, _best_discard(page) if prefer_wins else page.locator("#hand > img.tile.playable").last)
        return "dahai"
    # anything else the rules offer (nine terminals, the dealer's choice at the end): the first button
    _click_and_wait(page, actions.first)
    return kinds[0] if kinds else "?"


def play_until_result(page: Any, max_turns: int | None = None, prefer_wins: bool = True) -> list[str]:
    """Click through the hand until its result panel opens (or ``max_turns`` decisions were taken); returns
    the decisions taken."""
    taken: list[str] = []
    while max_turns is None or len(taken) < max_turns:
        wait_ready(page)
        if page.evaluate("() => document.getElementById('result-dialog').open"):
            return taken
        taken.append(play_turn(page, prefer_wins))
        if len(taken) > 400:
            raise AssertionError(f"no hand result after 400 decisions: {taken[-10:]}")
    return taken
