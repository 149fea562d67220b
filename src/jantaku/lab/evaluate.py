"""Evaluating a policy against fixed opponents: duplicate deals with the seats rotated (``jantaku evaluate``).

Each deal ``d`` (the walls of game seed ``"S/d"``, every hand) is played four times: the policy at seat 0, 1, 2
and 3 in turn, the opponents in the other seats in the same order, the first dealer at seat 0. A lucky deal
then helps every seat once, which takes most of the deals' luck out of the comparison. The four games of a deal
are one sample: the 95% intervals (jackknife over deals) count deals, not games.

The policy is any bot name :func:`jantaku.bots.make_bot` takes: ``random``, ``efficiency``, ``strong``,
``mjai:COMMAND`` (a program speaking mjai), or a Python policy ``py:MODULE:NAME`` / ``py:PATH.py:NAME``.

>>> ev = evaluate("efficiency", "random", rules="tenhou", deals=2, seed=1)
>>> ev.games, sorted(ev.measures["policy"])
(8, ['deal_in_rate', 'final', 'rank', 'win_rate'])
>>> ev.measures["policy"]["rank"].mean < 2.5
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from jantaku.bots import make_bot
from jantaku.errors import JantakuError, excerpt
from jantaku.rules import Ruleset, load_rules

from .measures import Estimate, columns, estimate_all, measures_for
from .runner import GameRow, _row, game_seed, lineup_at, play_seated, process_pool

__all__ = ["MAX_DEALS", "POLICY", "Evaluation", "evaluate"]

POLICY = "policy"
"""The policy's label in the measures (the opponents are labelled by their names)."""

MAX_DEALS = 100_000
"""The most deals one evaluation plays (each is four games)."""

_SHOWN = ("rank", "final", "win_rate", "deal_in_rate")
_LABELS = {
    "rank": "mean rank (1-4)",
    "final": "mean final score (rank points)",
    "win_rate": "wins per hand played",
    "deal_in_rate": "deal-ins per hand played",
}


@dataclass
class Evaluation:
    """What :func:`evaluate` measured: per player label (``policy``, then each opponent's name) the mean rank,
    final score, win and deal-in rates with their 95% intervals."""

    policy: str
    opponents: list[str]
    rules: str
    deals: int
    seed: int
    games: int = 0
    seconds: float = 0.0
    measures: dict[str, dict[str, Estimate]] = field(default_factory=dict)

    def as_json(self) -> dict[str, Any]:
        """The evaluation as JSON-ready data."""
        return {
            "policy": self.policy,
            "opponents": self.opponents,
            "rules": self.rules,
            "deals": self.deals,
            "games": self.games,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
            "measures": {who: {k: e.as_json() for k, e in ms.items()} for who, ms in self.measures.items()},
        }

    def report(self) -> str:
        """A text table: each measure of each player with its 95% interval."""
        lines = [
            f"{self.policy} against {', '.join(self.opponents)} under {self.rules}: {self.deals} deals x 4 seats = "
            f"{self.games} games (seed {self.seed}, {self.seconds:.1f} s); 95% intervals over deals",
        ]
        width = max(len(w) for w in self.measures)
        for key in _SHOWN:
            lines.append(f"  {_LABELS[key]}")
            for who, ms in self.measures.items():
                e = ms.get(key)
                if e is not None:
                    shown = self.policy if who == POLICY else who
                    lines.append(
                        f"    {shown:<{max(width, len(self.policy))}} {e.mean:8.3f}  [{e.ci[0]:.3f}, {e.ci[1]:.3f}]"
                    )
        return "\n".join(lines)


def _deal_row(rules: Ruleset, seed: int, deal: int, lineup: Sequence[str], labels: Sequence[str]) -> GameRow:
    """The four games of deal ``deal`` (the policy at each seat in turn) summed into one row."""
    total: dict[str, float] = {}
    gs = game_seed(seed, deal)
    for rotation in range(4):
        named = lineup_at(labels, rotation)
        game = play_seated(rules, gs, lineup_at(lineup, rotation), named, f"{gs}/{rotation}")
        for k, v in _row(game, named).sums.items():
            total[k] = total.get(k, 0.0) + v
    return GameRow(total)


def _job(args: tuple[Ruleset, int, list[int], tuple[str, ...], tuple[str, ...]]) -> list[GameRow]:
    rules, seed, deals, lineup, labels = args
    return [_deal_row(rules, seed, d, lineup, labels) for d in deals]


def evaluate(
    policy: str,
    opponents: str | Sequence[str] = "random",
    *,
    rules: str | Ruleset = "tenhou",
    deals: int = 25,
    seed: int = 0,
    workers: int = 1,
    progress: Callable[[int, int, float], None] | None = None,
) -> Evaluation:
    """Play ``deals`` duplicate deals of ``policy`` against ``opponents`` (one name for all three seats, or three
    comma-separated or listed) under ``rules``, in ``workers`` processes; see the module."""
    if isinstance(deals, bool) or not isinstance(deals, int) or not 2 <= deals <= MAX_DEALS:
        raise JantakuError(f"deals must be 2-{MAX_DEALS} (an interval needs two), got {excerpt(deals)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise JantakuError(f"workers must be a whole number 1 or more, got {excerpt(workers)}")
    opps = [o.strip() for o in opponents.split(",")] if isinstance(opponents, str) else [o.strip() for o in opponents]
    if len(opps) == 1:
        opps *= 3
    if len(opps) != 3 or not all(opps):
        raise JantakuError(f"opponents: one bot for all three seats or three, got {excerpt(','.join(opps))}")
    for name in {policy, *opps}:
        agent = make_bot(name, "0:0")  # an unknown name or a policy that does not load fails here, named
        close = getattr(agent, "close", None)
        if callable(close):
            close()
    rs = load_rules(rules)
    lineup = (policy, *opps)
    labels = (POLICY, *opps)
    start = time.perf_counter()
    size = max(1, min(10, deals // max(1, workers * 4)))
    chunks = [list(range(i, min(deals, i + size))) for i in range(0, deals, size)]
    jobs = [(rs, seed, c, lineup, labels) for c in chunks]
    rows: list[GameRow] = []
    if workers > 1:
        with process_pool(workers) as pool:
            for part in pool.map(_job, jobs):
                rows.extend(part)
                if progress:
                    progress(len(rows), deals, time.perf_counter() - start)
    else:
        for job in jobs:
            rows.extend(_job(job))
            if progress:
                progress(len(rows), deals, time.perf_counter() - start)
    ms = measures_for(rs.family, list(dict.fromkeys(labels)), [])
    est = estimate_all(ms, columns(rows))
    out: dict[str, dict[str, Estimate]] = {}
    for who in dict.fromkeys(labels):
        out[who] = {k: est[f"{k}:{who}"] for k in _SHOWN if f"{k}:{who}" in est}
    return Evaluation(
        policy=policy,
        opponents=opps,
        rules=rs.name,
        deals=deals,
        seed=seed,
        games=4 * deals,
        seconds=time.perf_counter() - start,
        measures=out,
    )
