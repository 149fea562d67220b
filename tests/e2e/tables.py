"""Helpers of the browser tests that set a table's first hand and open pages on it.

:func:`walled` gives the first hand of tables with a seed fixed starting hands and draws (the server runs in the
test's process, so its wall can be set); :func:`pages` opens fresh browser contexts of one size and fails the test
on any JavaScript error in them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from jantaku.rules import load_rules
from jantaku.table import Wall, draw_seating
from scenario_walls import build_wall

from .conftest import TIMEOUT_MS


def walled(
    monkeypatch: Any,
    rules: str,
    seed: str,
    hands_by_offset: Mapping[int, str],
    draws: Sequence[str],
    dora: str,
    rinshan: Sequence[str] = (),
) -> int:
    """The first hand of tables of ``rules`` with ``seed`` gets these hands (by seat offset from the dealer),
    draws, dora indicator and replacement tiles; returns the dealer's seat."""
    dealer = draw_seating(load_rules(rules).seating, seed).first_dealer
    hands = {(dealer + off) % 4: h for off, h in hands_by_offset.items()}
    wall = build_wall(hands, draws, dealer=dealer, dora=[dora], rinshan=list(rinshan))
    shuffled = Wall.from_seed

    def from_seed(cls, s):
        return wall if s == f"{seed}:0" else shuffled(s)

    monkeypatch.setattr(Wall, "from_seed", classmethod(from_seed))
    return dealer


def pages(browser: Any, size: tuple[int, int], n: int, timeout_ms: int = TIMEOUT_MS) -> Any:
    """``n`` pages of ``size``, each in its own browser context (kept from earlier tests and cleared: see
    tests/e2e/reuse.py), waiting up to ``timeout_ms``; a JavaScript error on any fails the test. A context manager
    giving the list of pages."""
    return browser.pool.pages(size, n, timeout_ms)
