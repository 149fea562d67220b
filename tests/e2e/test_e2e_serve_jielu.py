"""A whole 洁律 game on the real thing: a ``jantaku serve`` process started as the README starts it (its default
options; only ``--port`` is given, a free one), driven in chromium from the lobby to the final table: the hand goes
on after a win, and some hand has several winners. Its own server and module, so that it runs beside the
default-pace games of tests/e2e/test_e2e_serve.py instead of after them."""

from __future__ import annotations

import json
import urllib.request

import pytest

from .lobby import create_from_lobby, play_game, serve_in
from .tables import pages


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``jantaku serve --port P`` in a fresh folder: its URL; stopped after the module."""
    yield from serve_in(tmp_path_factory.mktemp("serve"))


def test_a_whole_jielu_game_with_several_winners_in_a_hand(browser, served):
    """A 洁律 game from the lobby to its final table: the hand goes on after a win, and some hand has several
    winners. The fast pace (0.15 s a step) only shortens the test (four 洁律 hands at the default pace take 2-3
    minutes, and tests/e2e/test_e2e_serve.py plays at the default pace): the code that drives the table is the
    same at any pace."""
    with pages(browser, (1366, 768), 1, timeout_ms=30_000) as (page,):
        create_from_lobby(page, served, rules="jielu", pace="fast")
        assert page.locator("#auto-riichi_discard").count() == 0  # 洁律 has no riichi
        play_game(page, "the 洁律 game")
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
