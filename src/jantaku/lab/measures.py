"""The measures of an analysis and their 95% confidence intervals.

Every measure is a smooth function of sums over games of the games' rows (:class:`~jantaku.lab.runner.GameRow`):
a rate is a sum of events over a sum of chances (wins over player-hands), a mean a sum over a count. Its
standard error is the jackknife's over games (leave one game out, recompute; for a ratio this is the usual
cluster-robust delta-method error, so the dependence of hands within a game is accounted for).

- A rate of events in chances (``Measure.events`` and ``Measure.chances`` name its columns) gets the Wilson
  score interval with the effective number of chances ``p(1 - p) / SE²`` (at most the chances;
  :func:`~jantaku.lab.stats.effective_n`), so it stays in [0, 1] and is not degenerate near 0 or 1. A rate
  whose event was never observed is 0 with the exact one-sided 95% upper bound ``1 - 0.05^(1/n)`` over its
  ``n`` chances (:func:`~jantaku.lab.stats.zero_upper`), and says so (:attr:`Estimate.observed`).
- Any other measure: ``estimate ± 1.96 × SE`` (a share such as ``skill_share`` clipped to [0, 1]).

Two rule sets played on the same walls (common random numbers, :mod:`jantaku.lab.runner`) also get the
interval of their difference (:func:`difference`), ``± 1.96 × SE`` with the paired jackknife of the games
with the same index (:mod:`jantaku.lab.compare` turns it into a p-value).

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
>>> cols = {"a": np.array([4.0, 0, 4, 4]), "b": np.array([8.0, 8, 8, 8]), "none": np.zeros(4)}
>>> est = estimate(lambda s: s["a"] / s["b"], cols)   # 12 events in 32 chances, in 4 games: SE 0.125
>>> round(est.mean, 3), [round(x, 3) for x in est.ci]
(0.375, [0.13, 0.62])
>>> est = estimate_measure(rate_measure("a_rate", "a", "b"), cols)   # Wilson with n_eff = 0.234 / 0.125² = 15
>>> round(est.mean, 3), [round(x, 3) for x in est.ci], est.observed
(0.375, [0.18, 0.621], True)
>>> est = estimate_measure(rate_measure("never", "none", "b"), cols)   # 0 in 32 chances: below 1 - 0.05^(1/32)
>>> est.mean, round(est.ci[1], 4), est.observed, est.as_json()
(0.0, 0.0894, False, {'mean': 0.0, 'ci': [0.0, 0.0893682], 'observed': 0, 'chances': 32})
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .runner import JIELU_BINS, RIICHI_BINS, GameRow
from .stats import Z95, effective_n, wilson, zero_upper

__all__ = [
    "ZERO",
    "Difference",
    "Estimate",
    "Measure",
    "columns",
    "difference",
    "estimate",
    "estimate_all",
    "estimate_measure",
    "measures_for",
    "rate_measure",
]

Sums = Mapping[str, Any]
"""Column name -> a total (float) or the leave-one-out totals (an array)."""

ZERO = 1e-12
"""A difference or standard error below this share of the measure's size is zero (floating-point noise)."""


@dataclass(frozen=True)
class Estimate:
    """A measure's estimate and its 95% interval; for a rate of events in chances, ``events`` and ``chances``
    (their totals over the games), else ``None``."""

    mean: float
    ci: tuple[float, float]
    events: float | None = None
    chances: float | None = None

    @property
    def observed(self) -> bool:
        """False for a rate whose event never happened (its interval is then ``0`` to the exact upper bound)."""
        return self.events is None or self.events > 0

    def as_json(self) -> dict[str, Any]:
        """``{"mean": x, "ci": [low, high]}``, with ``observed`` (events seen) and ``chances`` for a rate."""
        out: dict[str, Any] = {"mean": _r(self.mean), "ci": [_r(self.ci[0]), _r(self.ci[1])]}
        if self.events is not None and self.chances is not None:
            out["observed"] = _count(self.events)
            out["chances"] = _count(self.chances)
        return out


@dataclass(frozen=True)
class Difference:
    """A measure's difference between two rule sets on the same games (``mean``: this one minus the reference)
    with its paired jackknife standard error ``se`` and 95% interval; ``observed``: False when the event of a
    rate was seen under neither rule set; ``games``: the pairs that bear on it (with something in a column the
    measure reads, under either rule set: the sign test's count); ``scale``: the larger of the two values' sizes
    (at least 1), against which a difference or an error is judged to be zero. ``p``, ``p_holm`` and ``flagged``
    are set by :func:`jantaku.lab.compare.compare` (``p`` is ``None`` where the error is undefined)."""

    mean: float
    ci: tuple[float, float]
    se: float
    games: int
    observed: bool = True
    scale: float = 1.0
    p: float | None = None
    p_holm: float | None = None
    flagged: bool = False

    @property
    def unchanged(self) -> bool:
        """Whether the measure is the same under both rule sets in every game (difference and error zero)."""
        tol = ZERO * self.scale
        return abs(self.mean) <= tol and math.isfinite(self.se) and self.se <= tol

    def as_json(self) -> dict[str, Any]:
        """``{"mean", "ci", "se", "p", "p_holm", "flagged"}`` (``null`` where undefined), plus
        ``"observed": false`` when neither rule set saw the event."""
        out: dict[str, Any] = {
            "mean": _r(self.mean),
            "ci": [_r(self.ci[0]), _r(self.ci[1])],
            "se": _r(self.se) if math.isfinite(self.se) else None,
            "p": _p(self.p),
            "p_holm": _p(self.p_holm),
            "flagged": self.flagged,
        }
        if not self.observed:
            out["observed"] = False
        return out


@dataclass(frozen=True)
class Measure:
    """A named function of the column sums; ``rate``: a proportion (its interval stays in [0, 1]);
    ``events`` and ``chances``: for a rate of events in chances, the columns it divides (Wilson interval)."""

    name: str
    fn: Callable[[Sums], Any]
    rate: bool = False
    label: str = ""
    events: str | None = None
    chances: str | None = None


def rate_measure(name: str, events: str, chances: str, label: str = "") -> Measure:
    """The rate of column ``events`` in column ``chances`` (wins in player-hands)."""
    return Measure(name, lambda s: _div(s[events], s[chances]), True, label, events, chances)


def _r(x: float) -> float:
    return float(f"{x:.6g}") if math.isfinite(x) else x


def _p(p: float | None) -> float | None:
    return None if p is None else float(f"{p:.4g}")


def _count(x: float) -> int | float:
    return int(x) if float(x).is_integer() else _r(x)


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


def _games(cols: Mapping[str, np.ndarray]) -> int:
    return len(next(iter(cols.values()))) if cols else 0


def _total(cols: Mapping[str, np.ndarray], name: str | None) -> float:
    return float(cols[name].sum()) if name is not None and name in cols else 0.0


def estimate(fn: Callable[[Sums], Any], cols: Mapping[str, np.ndarray], rate: bool = False) -> Estimate:
    """The estimate of ``fn`` on the column totals and its jackknife 95% interval (clipped to [0, 1] for a
    ``rate``)."""
    full, theta = _loo(fn, cols, _games(cols))
    return _interval(full, _se(theta), rate)


def estimate_measure(measure: Measure, cols: Mapping[str, np.ndarray]) -> Estimate:
    """The estimate of ``measure`` and its 95% interval: Wilson with the effective chances for a rate of
    events in chances (the exact upper bound where the event never happened), else the jackknife's."""
    if measure.events is None or measure.chances is None:
        return estimate(measure.fn, cols, measure.rate)
    events, chances = _total(cols, measure.events), _total(cols, measure.chances)
    if chances <= 0:
        return Estimate(math.nan, (math.nan, math.nan), events, chances)
    if events <= 0:
        return Estimate(0.0, (0.0, zero_upper(chances)), events, chances)
    full, theta = _loo(measure.fn, cols, _games(cols))
    n_eff = effective_n(full, _se(theta), chances)
    low, high = wilson(full, n_eff)
    return Estimate(full, (min(low, full), max(high, full)), events, chances)


def _interval(full: float, se: float, rate: bool) -> Estimate:
    if not math.isfinite(se):
        return Estimate(full, (full, full))
    low, high = full - Z95 * se, full + Z95 * se
    if rate:
        low, high = max(0.0, low), min(1.0, high)
    return Estimate(full, (low, high))


def difference(measure: Measure, cols: Mapping[str, np.ndarray], base: Mapping[str, np.ndarray]) -> Difference | None:
    """The difference of ``measure`` between two rule sets played on the same games (``cols`` minus
    ``base``), with the paired jackknife standard error and its normal 95% interval (for a share, within
    [-1, 1]); ``None`` where either
    side is undefined or the games are not paired (not as many)."""
    n = _games(cols)
    if _games(base) != n:
        return None
    a, ta = _loo(measure.fn, cols, n)
    b, tb = _loo(measure.fn, base, n)
    if not (math.isfinite(a) and math.isfinite(b)):
        return None
    observed = measure.events is None or _total(cols, measure.events) > 0 or _total(base, measure.events) > 0
    # the same totals and leave-one-out values under both (the games did not differ for this measure): no error
    se = 0.0 if a == b and np.array_equal(ta, tb, equal_nan=True) else _se(ta - tb)
    d = a - b
    low, high = (d - Z95 * se, d + Z95 * se) if math.isfinite(se) else (d, d)
    if measure.rate:  # a difference of two shares lies in [-1, 1]
        low, high = max(-1.0, low), min(1.0, high)
    return Difference(d, (low, high), se, _bearing(measure.fn, cols, base), observed, max(1.0, abs(a), abs(b)))


def _bearing(fn: Callable[[Sums], Any], cols: Mapping[str, np.ndarray], base: Mapping[str, np.ndarray]) -> int:
    """The games that bear on a difference: those with something in a column the measure reads, under either
    rule set (a yaku's han is carried by the games in which it was won, a win rate by every game)."""
    read = _Reading({k: 1.0 for k in cols})
    with np.errstate(divide="ignore", invalid="ignore"), contextlib.suppress(ArithmeticError):
        fn(read)  # (the values do not matter, only which columns are read)
    n = _games(cols)
    bears = np.zeros(n, bool)
    for k in read.read:
        for side in (cols, base):
            if k in side:
                bears |= side[k] != 0
    return int(np.count_nonzero(bears))


class _Reading(_Cols):
    """Column sums that remember which columns a measure read."""

    def __init__(self, data: dict[str, float]) -> None:
        super().__init__(data)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)


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
        rate_measure("win_rate", "wins", "player_hands", "wins per player-hand"),
        rate_measure("deal_in_rate", "deal_ins", "player_hands", "deal-ins per player-hand"),
        rate_measure("tsumo_rate", "tsumo", "wins", "share of wins by tsumo"),
        rate_measure("riichi_rate", "riichi", "player_hands", "riichi per player-hand"),
        rate_measure("call_rate", "calls", "player_hands", "player-hands with a call"),
        rate_measure("draw_rate", "draws", "hands", "hands without a win"),
        rate_measure("abortive_rate", "abortive", "hands", "hands ended by an abortive draw"),
        Measure("mean_win", lambda s: _div(s["win_value"], s["wins"]), False, "mean value of a win"),
    ]
    for b in JIELU_BINS if family == "jielu" else RIICHI_BINS:
        ms.append(rate_measure(f"value:{b}", "value:" + b, "wins", "share of wins"))
    ms += [
        Measure("hands_per_game", lambda s: _div(s["hands"], s["games"]), False, "game length in hands"),
        rate_measure("bust_rate", "bust", "games", "games with a player below zero"),
        rate_measure("east_leader_wins", "east_leader_won", "south", "leader after East wins"),
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
                rate_measure(f"win_rate:{b}", "wins:" + b, "player_hands:" + b),
                rate_measure(f"deal_in_rate:{b}", "deal_ins:" + b, "player_hands:" + b),
            ]
        ms.append(Measure("skill_share", _skill_share(distinct), True, "final-score variance explained by the bot"))
        ms.append(Measure("skill_share_rank", _skill_share(distinct, "rank"), True, "rank variance explained"))
    for y in yaku:
        ms.append(rate_measure(f"yaku:{y}", "yaku:" + y, "wins", "share of wins"))
    for y in yaku:
        ms.append(Measure(f"yaku_han:{y}", lambda s, y=y: _div(s["yaku_value:" + y], s["yaku:" + y]), False))
    return ms


def estimate_all(measures: Sequence[Measure], cols: Mapping[str, np.ndarray]) -> dict[str, Estimate]:
    """Every measure that is defined on these games (a rate of nothing, e.g. East's leader when no game
    reached South, is left out)."""
    out = {}
    for m in measures:
        est = estimate_measure(m, cols)
        if math.isfinite(est.mean):
            out[m.name] = est
    return out
