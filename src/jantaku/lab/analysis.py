"""An analysis: rule sets, bots, games, and every measure with its interval (:func:`analyze`).

>>> rep = analyze("mleague", games=2, seed=1, bots=["efficiency"], sweep="kiriage=false,true")
>>> list(rep.to_json()["rule_sets"]), rep.to_json()["rule_sets"]["kiriage=true"]["games"]
(['kiriage=false', 'kiriage=true'], 2)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jantaku.bots import make_bot
from jantaku.errors import JantakuError, excerpt
from jantaku.rules import Ruleset

from .measures import Estimate, columns, difference, estimate_all, measures_for
from .rulesets import parse_sweep, rule_sets
from .runner import GameRow, Progress, available_cpus, run_local, run_ray

__all__ = ["DEFAULT_BOTS", "MAX_GAMES", "MIN_GAMES", "Report", "RuleSetResult", "analyze", "parse_bots"]

DEFAULT_BOTS = ("strong", "efficiency", "efficiency", "efficiency")
"""The lineup when none is named: jantaku's strongest bot (:mod:`jantaku.bots.strong`) against three efficiency
bots - two levels of play, so the skill share is measured, at about a tenth of the CPU of four strong bots."""
AUTO_WORKERS_FROM = 40
"""Games in all (rule sets times games) from which an analysis without ``workers`` plays in one process per CPU
(fewer are played in this process: starting the workers would cost more than it saves)."""
MIN_GAMES = 2
"""Fewest games per rule set: an interval needs two."""
MAX_GAMES = 100_000
"""Most games per rule set one analysis plays (its rows stay in memory: a few kilobytes per game)."""


@dataclass
class RuleSetResult:
    """One rule set's games and measures (``win_values``, ``finals``, ``points``: the raw values drawn)."""

    name: str
    rules: Ruleset
    games: int
    measures: dict[str, Estimate]
    differences: dict[str, Estimate] = field(default_factory=dict)
    win_values: list[int] = field(default_factory=list)
    finals: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)


@dataclass
class Report:
    """The result of :func:`analyze`: one :class:`RuleSetResult` per rule set, in the order given."""

    results: list[RuleSetResult]
    seed: int
    bots: list[str]
    sweep: tuple[str, list[str]] | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        """``{"rule_sets": {NAME: {"games": N, "measures": {MEASURE: {"mean": x, "ci": [low, high]}}}}}``, plus
        the seed, the bots and ``differences`` (each rule set's measures minus the first's, paired by game).
        The same seed gives the same object."""
        out: dict[str, Any] = {
            "rule_sets": {
                r.name: {"games": r.games, "measures": {k: v.as_json() for k, v in r.measures.items()}}
                for r in self.results
            },
            "seed": self.seed,
            "bots": list(self.bots),
        }
        if len(self.results) > 1:
            out["baseline"] = self.results[0].name
            out["differences"] = {r.name: {k: v.as_json() for k, v in r.differences.items()} for r in self.results[1:]}
        if self.sweep:
            out["sweep"] = {"parameter": self.sweep[0], "values": list(self.sweep[1])}
        return out


def parse_bots(text: str | Sequence[str]) -> list[str]:
    """``--bots``: one bot for every seat or four separated by commas, as a lineup of four.

    >>> parse_bots("strong,efficiency,efficiency,efficiency")[0], parse_bots("random")
    ('strong', ['random', 'random', 'random', 'random'])
    """
    names = [b.strip() for b in text.split(",")] if isinstance(text, str) else [b.strip() for b in text]
    if len(names) not in (1, 4) or any(not b for b in names):
        raise JantakuError(
            f"--bots {excerpt(','.join(names))}: give one bot for every seat or four separated by commas"
        )
    for name in set(names):
        make_bot(name)
    return names * 4 if len(names) == 1 else names


def analyze(
    rules: str,
    games: int,
    seed: int = 0,
    bots: str | Sequence[str] = DEFAULT_BOTS,
    sweep: str | None = None,
    workers: int | None = None,
    ray: str | None = None,
    progress: Progress | None = None,
) -> Report:
    """Play ``games`` games under each rule set of ``rules`` (comma-separated presets or TOML files) or of
    ``sweep`` (``PARAM=V1,V2,...`` over each of them) and measure them. ``ray``: ``None`` for processes
    (``workers`` of them; by default one per CPU this process may use, or this process alone for fewer than
    :data:`AUTO_WORKERS_FROM` games in all), ``""`` for a local Ray instance (of ``workers`` CPUs, default all), or
    a cluster's address."""
    if isinstance(games, bool) or not isinstance(games, int) or not MIN_GAMES <= games <= MAX_GAMES:
        raise JantakuError(f"--games must be {MIN_GAMES}-{MAX_GAMES}, got {excerpt(games)}")
    named = rule_sets(rules, sweep)
    lineup = parse_bots(bots)
    start = time.perf_counter()
    sets = [rs for _, rs in named]
    if ray is not None:
        rows = run_ray(sets, games, seed, lineup, ray or None, workers, progress)
    else:
        if workers is None:
            workers = available_cpus() if games * len(sets) >= AUTO_WORKERS_FROM else 1
        rows = run_local(sets, games, seed, lineup, workers, progress)
    report = measure(named, rows, seed, lineup)
    report.sweep = parse_sweep(sweep) if sweep else None
    report.seconds = time.perf_counter() - start
    return report


def measure(
    named: Sequence[tuple[str, Ruleset]], rows: Sequence[Sequence[GameRow]], seed: int, lineup: list[str]
) -> Report:
    """The report of games already played (``rows[k]``: the games of rule set ``named[k]``, in game order)."""
    yaku_count: dict[str, float] = {}
    for per_set in rows:
        for r in per_set:
            for k, v in r.sums.items():
                if k.startswith("yaku:"):
                    yaku_count[k[5:]] = yaku_count.get(k[5:], 0.0) + v
    yaku = sorted(yaku_count, key=lambda y: (-yaku_count[y], y))
    results, base_cols = [], None
    for (name, rs), per_set in zip(named, rows, strict=True):
        ms = measures_for(rs.family, lineup, yaku)
        cols = columns(per_set)
        res = RuleSetResult(name, rs, len(per_set), estimate_all(ms, cols))
        if base_cols is None:
            base_cols = cols
        else:
            for m in ms:
                d = difference(m, cols, base_cols)
                if d is not None and m.name in res.measures:
                    res.differences[m.name] = d
        for r in per_set:
            res.win_values.extend(r.win_values)
            res.finals.extend(r.finals)
            res.points.extend(r.points)
        results.append(res)
    return Report(results, seed, list(lineup))
