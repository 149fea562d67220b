"""The measures of an analysis and their 95% confidence intervals.

Every measure is a smooth function of sums over games of the games' rows (:class:`~jantaku.lab.runner.GameRow`):
a rate is a sum of events over a sum of chances (wins over player-hands), a mean a sum over a count. Its
interval is ``estimate ± 1.96 × SE`` with the jackknife standard error over games (leave one game out,
recompute; for a ratio this is the usual cluster-robust delta-method error, so the dependence of hands within
a game is accounted for). Rates are clipped to [0, 1]. Two rule sets played on the same walls (common random
numbers, :mod:`jantaku.lab.runner`) also get the interval of their difference, from the paired jackknife of
the games with the same index: a difference whose interval excludes 0 is not noise.

The measures (per player-hand means: per hand per player, so four players' win rates add up to wins per hand):

- ``win_rate``, ``deal_in_rate``, ``riichi_rate``, ``call_rate`` (player-hands with a chi, pon or open kan):
  per player-hand; ``draw_rate``: hands without a win per hand (``abortive_rate``: of them, those ended by an
  abortive draw); ``tsumo_rate``: share of wins by tsumo.
- ``mean_win``: the mean value of a win (points before honba and deposits; 洁律: S); ``value:CLASS``: the
  share of wins in each value class (riichi: below_mangan ... yakuman by limit; 洁律: S1, S2, S3-4, ...).
- ``yaku:NAME``: the share of wins with that yaku (dora, red fives and ura dora count as yaku here; 洁律: its
  fans); ``yaku_han:NAME``: its mean contribution when present (han; a yakuman 13 per multiple; 洁律: points).
- ``hands_per_game`` (game length); ``bust_rate``: games in which a player's points went below zero after a
  hand, whether or not the rule set ends the game there.
- ``final:1st`` ... ``final:4th``: mean final score (rank points, pt) by place; ``final_sd``: the standard
  deviation of a player's final score; ``points:1st`` ... and ``points_sd``: the same for points at the end.
- ``east_leader_wins``: of the games that reach South, the share won by the leader after East (ties: the seat
  nearest the first dealer).
- Per bot, when the lineup has more than one: ``final:BOT``, ``rank:BOT``, ``win_rate:BOT``,
  ``deal_in_rate:BOT``.
- ``skill_share`` (when the lineup has more than one bot): the share of the variance of a player's final score
  that the bot playing explains, ``Σ_b w_b (m_b - m)² / Var(final)``, with ``w_b`` the share of seats bot ``b``
  holds, ``m_b`` its mean final score and ``m`` the mean over all players: the between-bot variance over the
  total variance (η², the R² of final score on bot). The rest is luck (and seat). With one strong and three
  equal weak bots it is ``3/16 (m_strong - m_weak)² / Var(final)``. It does not depend on the size of the rank
  points, so it compares rule sets: a rule set where it is higher rewards skill more. The plug-in estimate is
  biased up by about ``1/(4N)`` for N games (0.001 at 250 games). ``skill_share_rank`` is the same share of
  the variance of a player's rank (1-4), which weighs every place step alike whatever the rank points.

>>> import numpy as np
>>> est = estimate(lambda s: s["a"] / s["b"], {"a": np.array([1.0, 0, 1, 1]), "b": np.array([2.0, 2, 2, 2])})
>>> round(est.mean, 3), [round(x, 3) for x in est.ci]
(0.375, [0.13, 0.62])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .runner import JIELU_BINS, RIICHI_BINS, GameRow

__all__ = ["Estimate", "Measure", "columns", "estimate", "estimate_all", "measures_for"]

Z95 = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

Sums = Mapping[str, Any]
"""Column name -> a total (float) or the leave-one-out totals (an array)."""


@dataclass(frozen=True)
class Estimate:
    """A measure's estimate and its 95% interval."""

    mean: float
    ci: tuple[float, float]

    def as_json(self) -> dict[str, Any]:
        return {"mean": _r(self.mean), "ci": [_r(self.ci[0]), _r(self.ci[1])]}


@dataclass(frozen=True)
class Measure:
    """A named function of the column sums; ``rate``: a proportion (its interval is clipped to [0, 1])."""

    name: str
    fn: Callable[[Sums], Any]
    rate: bool = False
    label: str = ""


def _r(x: float) -> float:
    return float(f"{x:.6g}") if math.isfinite(x) else x


def _div(a: Any, b: Any) -> Any:
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.divide(a, b, out=np.full(np.shape(a * b), np.nan), where=np.asarray(b) != 0)


def columns(rows: Sequence[GameRow]) -> dict[str, np.ndarray]:
    """The rows as columns: name -> the value of each game (0 where a game lacks it)."""
    names = sorted({k for r in rows for k in r.sums})
    return {k: np.array([r.sums.get(k, 0.0) for r in rows], dtype=float) for k in names}


class _Cols(dict):  # type: ignore[type-arg]
    """Column sums where a column nobody has is 0."""

    def __missing__(self, key: str) -> float:
        return 0.0


def _loo(fn: Callable[[Sums], Any], cols: Mapping[str, np.ndarray], n: int) -> tuple[float, np.ndarray]:
    totals = _Cols({k: v.sum() for k, v in cols.items()})
    full = float(fn(totals))
    left = _Cols({k: totals[k] - v for k, v in cols.items()})
    theta = np.broadcast_to(np.asarray(fn(left), dtype=float), (n,))
    return full, theta


def _se(theta: np.ndarray) -> float:
    ok = theta[np.isfinite(theta)]
    n = len(ok)
    if n < 2:
        return math.nan
    return math.sqrt((n - 1) / n * float(((ok - ok.mean()) ** 2).sum()))


def estimate(fn: Callable[[Sums], Any], cols: Mapping[str, np.ndarray], rate: bool = False) -> Estimate:
    """The estimate of ``fn`` on the column totals and its jackknife 95% interval."""
    n = len(next(iter(cols.values()))) if cols else 0
    full, theta = _loo(fn, cols, n)
    return _interval(full, _se(theta), rate)


def _interval(full: float, se: float, rate: bool) -> Estimate:
    if not math.isfinite(se):
        return Estimate(full, (full, full))
    low, high = full - Z95 * se, full + Z95 * se
    if rate:
        low, high = max(0.0, low), min(1.0, high)
    return Estimate(full, (low, high))


def difference(measure: Measure, cols: Mapping[str, np.ndarray], base: Mapping[str, np.ndarray]) -> Estimate | None:
    """The difference of ``measure`` between two rule sets played on the same games (``cols`` minus
    ``base``), with the paired jackknife interval; ``None`` where either side is undefined."""
    n = len(next(iter(cols.values())))
    if len(next(iter(base.values()))) != n:
        return None
    a, ta = _loo(measure.fn, cols, n)
    b, tb = _loo(measure.fn, base, n)
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    return _interval(a - b, _se(ta - tb), False)


def _player_sd(name: str) -> Callable[[Sums], Any]:
    """The standard deviation of one player's ``name`` (``final`` or ``points``) over the four seats of every
    game, from the sums ``{name}_sum`` and ``{name}_sq``."""

    def sd(s: Sums) -> Any:
        n = 4 * s["games"]
        return np.sqrt(np.maximum(0, _div(s[f"{name}_sq"], n) - _div(s[f"{name}_sum"], n) ** 2))

    return sd


def _place(k: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd", 4: "4th"}[k]


def _skill_share(bots: list[str], of: str = "final") -> Callable[[Sums], Any]:
    """The between-bot share of the variance of ``final`` (score, pt) or ``rank`` (1-4, variance 1.25)."""

    def fn(s: Sums) -> Any:
        n = sum(s["n:" + b] for b in bots)
        m = _div(sum(s[f"{of}:" + b] for b in bots), n)
        total = _div(s["final_sq"], n) - m * m if of == "final" else RANK_VARIANCE
        between = sum(_div(s["n:" + b], n) * (_div(s[f"{of}:" + b], s["n:" + b]) - m) ** 2 for b in bots)
        return _div(between, total)

    return fn


RANK_VARIANCE = 1.25
"""The variance of a player's rank: ranks 1-4 are each held by one player of every game."""


def measures_for(family: str, bots: Sequence[str], yaku: Sequence[str]) -> list[Measure]:
    """The measures of an analysis with these bots (their distinct names) and yaku seen."""
    ms = [
        Measure("win_rate", lambda s: _div(s["wins"], s["player_hands"]), True, "wins per player-hand"),
        Measure("deal_in_rate", lambda s: _div(s["deal_ins"], s["player_hands"]), True, "deal-ins per player-hand"),
        Measure("tsumo_rate", lambda s: _div(s["tsumo"], s["wins"]), True, "share of wins by tsumo"),
        Measure("riichi_rate", lambda s: _div(s["riichi"], s["player_hands"]), True, "riichi per player-hand"),
        Measure("call_rate", lambda s: _div(s["calls"], s["player_hands"]), True, "player-hands with a call"),
        Measure("draw_rate", lambda s: _div(s["draws"], s["hands"]), True, "hands without a win"),
        Measure("abortive_rate", lambda s: _div(s["abortive"], s["hands"]), True, "hands ended by an abortive draw"),
        Measure("mean_win", lambda s: _div(s["win_value"], s["wins"]), False, "mean value of a win"),
    ]
    for b in JIELU_BINS if family == "jielu" else RIICHI_BINS:
        ms.append(Measure(f"value:{b}", lambda s, b=b: _div(s["value:" + b], s["wins"]), True, "share of wins"))
    ms += [
        Measure("hands_per_game", lambda s: _div(s["hands"], s["games"]), False, "game length in hands"),
        Measure("bust_rate", lambda s: _div(s["bust"], s["games"]), True, "games with a player below zero"),
        Measure("east_leader_wins", lambda s: _div(s["east_leader_won"], s["south"]), True, "leader after East wins"),
    ]
    for k in range(1, 5):
        ms.append(Measure(f"final:{_place(k)}", lambda s, k=k: _div(s[f"final_place:{k}"], s["games"])))
    ms.append(Measure("final_sd", _player_sd("final"), False, "sd of a player's final score"))
    for k in range(1, 5):
        ms.append(Measure(f"points:{_place(k)}", lambda s, k=k: _div(s[f"points_place:{k}"], s["games"])))
    ms.append(Measure("points_sd", _player_sd("points"), False, "sd of a player's points at the end"))
    distinct = list(dict.fromkeys(bots))
    if len(distinct) > 1:
        for b in distinct:
            ms += [
                Measure(f"final:{b}", lambda s, b=b: _div(s["final:" + b], s["n:" + b]), False, f"{b}'s mean final"),
                Measure(f"rank:{b}", lambda s, b=b: _div(s["rank:" + b], s["n:" + b]), False, f"{b}'s mean rank"),
                Measure(f"win_rate:{b}", lambda s, b=b: _div(s["wins:" + b], s["player_hands:" + b]), True),
                Measure(f"deal_in_rate:{b}", lambda s, b=b: _div(s["deal_ins:" + b], s["player_hands:" + b]), True),
            ]
        ms.append(Measure("skill_share", _skill_share(distinct), True, "final-score variance explained by the bot"))
        ms.append(Measure("skill_share_rank", _skill_share(distinct, "rank"), True, "rank variance explained"))
    for y in yaku:
        ms.append(Measure(f"yaku:{y}", lambda s, y=y: _div(s["yaku:" + y], s["wins"]), True, "share of wins"))
    for y in yaku:
        ms.append(Measure(f"yaku_han:{y}", lambda s, y=y: _div(s["yaku_value:" + y], s["yaku:" + y]), False))
    return ms


def estimate_all(measures: Sequence[Measure], cols: Mapping[str, np.ndarray]) -> dict[str, Estimate]:
    """Every measure that is defined on these games (a rate of nothing, e.g. East's leader when no game
    reached South, is left out)."""
    out = {}
    for m in measures:
        est = estimate(m.fn, cols, m.rate)
        if math.isfinite(est.mean):
            out[m.name] = est
    return out
