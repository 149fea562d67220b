"""How a hand ended: each winner's record (:class:`WinRecord`), the hand's result (:class:`HandResult`) and the
exhaustive draw's payments (:func:`exhaustive_draw_deltas`), which a recorder of games played at a table uses too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from jantaku.riichi.scoring import ScoreResult
from jantaku.rules import Ruleset

if TYPE_CHECKING:
    from jantaku.jielu import JieluResult

__all__ = ["HandResult", "WinRecord", "exhaustive_draw_deltas"]


@dataclass(frozen=True)
class WinRecord:
    """One winner of a hand: seat, who paid (``None`` for tsumo), the score and every seat's change.

    ``score`` is a riichi :class:`~jantaku.riichi.scoring.ScoreResult`, or under 洁律 a
    :class:`~jantaku.jielu.JieluResult`; ``payments`` is what the win changed for each seat (honba and deposits
    included; under 洁律's points mode the winner's gain, x3/x2/x1 by order of winning)."""

    seat: int
    from_seat: int | None
    score: ScoreResult | JieluResult
    pao: int | None = None
    payments: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass
class HandResult:
    """How a hand ended.

    ``kind``: ``ron``, ``tsumo``, ``exhaustive`` (wall empty) or ``abortive``; ``reason`` names an abortive
    draw (nine_terminals, four_winds, four_riichi, four_kans, triple_ron) or ``nagashi_mangan``.
    ``deltas`` are the hand's settlement per seat (riichi sticks posted during the hand are not in them,
    the sticks a winner collects are); ``scores`` are the points after the hand.

    Under 洁律's points mode a hand can have up to three winners, one after another: ``wins`` lists them in
    order, ``kind`` is ``exhaustive`` when nobody could draw any more (``reason`` ``wall_empty``) or the
    last win's kind when the third winner ended it (``reason`` ``three_winners``), and ``completions`` holds
    each non-winner's hand completed with one extra wildcard (its 1x score is in ``deltas``).
    """

    kind: str
    reason: str | None = None
    wins: list[WinRecord] = field(default_factory=list)
    deltas: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    tenpai: list[bool] = field(default_factory=lambda: [False] * 4)
    dealer_continues: bool = False
    deposits_left: int = 0
    scores: list[int] = field(default_factory=list)
    completions: dict[int, JieluResult] = field(default_factory=dict)
    silent: list[int] = field(default_factory=list)
    """Seats that were tenpai at an exhaustive draw but declared noten (``tenpai`` has them as noten)."""


def exhaustive_draw_deltas(rules: Ruleset, dealer: int, tenpai: list[bool], nagashi: list[int]) -> list[int]:
    """Each seat's change at an exhaustive draw: nagashi mangan paid as a mangan tsumo by each seat in
    ``nagashi`` (002 1.2 流局滿貫), else the noten payment shared between tenpai and noten seats (000 Art 71).
    A recorder of games played at a table uses it as the hand does.

    >>> from jantaku.rules import load_rules
    >>> exhaustive_draw_deltas(load_rules("standard"), 0, [True, False, False, False], [])
    [3000, -1000, -1000, -1000]
    >>> exhaustive_draw_deltas(load_rules("standard"), 0, [False] * 4, [2])
    [-4000, -2000, 8000, -2000]
    """
    deltas = [0, 0, 0, 0]
    if nagashi:
        for s in nagashi:
            for o in range(4):
                if o == s:
                    continue
                pay = 4000 if (s == dealer or o == dealer) else 2000
                deltas[o] -= pay
                deltas[s] += pay
        return deltas
    n_tenpai = sum(tenpai)
    if 0 < n_tenpai < 4 and rules.noten_payment:
        for s in range(4):
            if tenpai[s]:
                deltas[s] += rules.noten_payment // n_tenpai
            else:
                deltas[s] -= rules.noten_payment // (4 - n_tenpai)
    return deltas
