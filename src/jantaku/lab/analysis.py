"""An analysis: rule sets, bots, games, every measure with its interval, and every rule set's paired differences
from the reference with Holm-adjusted p-values (:func:`analyze`).

>>> rep = analyze("mleague", games=2, seed=1, bots=["efficiency"], sweep="kiriage=false,true")
>>> out = rep.to_json()
>>> list(out["rule_sets"]), out["rule_sets"]["kiriage=true"]["games"], out["reference"]
(['kiriage=false', 'kiriage=true'], 2, 'kiriage=false')
>>> out["comparisons"]["kiriage=true"]["flagged"], out["correction"]["method"]
([], 'holm')
>>> sorted(out["metadata"])[:6]
['bots', 'command', 'games', 'jantaku', 'python', 'ray']
"""

from __future__ import annotations

import platform
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from jantaku.bots import make_bot
from jantaku.errors import JantakuError, excerpt
from jantaku.rules import Ruleset

from .compare import CORRECTION, Comparison, compare
from .measures import Estimate, columns, estimate_all, measures_for
from .rulesets import RuleSetCell, grid, parse_sweeps
from .runner import GameRow, Progress, available_cpus, run_local, run_ray
from .stats import ALPHA

__all__ = [
    "DEFAULT_BOTS",
    "MAX_GAMES",
    "MIN_GAMES",
    "Report",
    "RuleSetResult",
    "analyze",
    "check_reference",
    "measure",
    "parse_bots",
]

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
    """One rule set's games and measures (``win_values``, ``finals``, ``points``: the raw values drawn);
    ``base``: the rule set it was made from, ``swept``: the swept parameters' values in it (``(PARAM, text)``)."""

    name: str
    rules: Ruleset
    games: int
    measures: dict[str, Estimate]
    win_values: list[int] = field(default_factory=list)
    finals: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    base: str = ""
    swept: tuple[tuple[str, str], ...] = ()


CORRECTION_TEXT = {
    "method": CORRECTION,
    "alpha": ALPHA,
    "test": "two-sided normal, z = difference / paired jackknife SE over games",
    "family": "per comparison: every measure with a defined difference",
}
"""What ``to_json`` says of the tests (the ``correction`` object)."""


@dataclass
class Report:
    """The result of :func:`analyze`: one :class:`RuleSetResult` per rule set, in the order given; one
    :class:`~jantaku.lab.compare.Comparison` per rule set other than the ``reference`` (the first unless
    named); ``sweeps``: the swept parameters and values; ``metadata``: the run (see :func:`analyze`)."""

    results: list[RuleSetResult]
    seed: int
    bots: list[str]
    sweeps: list[tuple[str, list[str]]] = field(default_factory=list)
    seconds: float = 0.0
    reference: str = ""
    comparisons: list[Comparison] = field(default_factory=list)
    metadata: dict[str, Any] = field(default_factory=dict)

    def result(self, name: str) -> RuleSetResult:
        """The rule set named ``name``."""
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """``{"rule_sets": {NAME: {"games": N, "measures": {MEASURE: {"mean": x, "ci": [low, high]}}}}}`` (a rate
        also has ``observed``, its events, and ``chances``), the seed and the bots; with two or more rule sets the
        ``reference``, the ``correction``, ``comparisons`` (``{NAME: {"reference", "tested", "flagged"}}``) and
        ``differences`` (``{NAME: {MEASURE: {"mean", "ci", "se", "p", "p_holm", "flagged"}}}``: each rule set
        minus the reference, paired by game); ``sweep`` (``[{"parameter", "values"}]``) with ``--sweep``; and
        ``metadata``. The same seed gives the same object, ``metadata`` (times, workers) aside."""
        sets: dict[str, Any] = {}
        for r in self.results:
            sets[r.name] = {"games": r.games, "measures": {k: v.as_json() for k, v in r.measures.items()}}
            if r.swept:
                sets[r.name]["swept"] = dict(r.swept)
        out: dict[str, Any] = {"rule_sets": sets, "seed": self.seed, "bots": list(self.bots)}
        if len(self.results) > 1:
            out["reference"] = self.reference
            out["correction"] = dict(CORRECTION_TEXT)
            out["comparisons"] = {
                c.rule_set: {"reference": c.reference, "tested": c.tested, "flagged": c.flagged}
                for c in self.comparisons
            }
            out["differences"] = {
                c.rule_set: {k: d.as_json() for k, d in c.differences.items()} for c in self.comparisons
            }
        if self.sweeps:
            out["sweep"] = [{"parameter": p, "values": list(v)} for p, v in self.sweeps]
        if self.metadata:
            out["metadata"] = dict(self.metadata)
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


def check_reference(reference: str | None, names: Sequence[str]) -> str:
    """The reference rule set's name: ``reference`` when it is one of ``names``, the first when ``None``.

    >>> check_reference(None, ["mu", "mleague"]), check_reference("mleague", ["mu", "mleague"])
    ('mu', 'mleague')
    >>> check_reference("tenhou", ["mu", "mleague"])
    Traceback (most recent call last):
    ...
    jantaku.errors.JantakuError: --reference 'tenhou': no rule set of that name; the rule sets are: mu, mleague
    """
    if reference is None:
        return names[0]
    if reference not in names:
        raise JantakuError(
            f"--reference {excerpt(reference)}: no rule set of that name; the rule sets are: {', '.join(names)}"
        )
    return reference


def analyze(
    rules: str,
    games: int,
    seed: int = 0,
    bots: str | Sequence[str] = DEFAULT_BOTS,
    sweep: str | Sequence[str] | None = None,
    workers: int | None = None,
    ray: str | None = None,
    progress: Progress | None = None,
    reference: str | None = None,
) -> Report:
    """Play ``games`` games under each rule set of ``rules`` (comma-separated presets or TOML files) or of
    ``sweep`` (``PARAM=V1,V2,...`` over each of them; a list of several: every combination) and measure them,
    each rule set against ``reference`` (a rule set's name; default the first). ``ray``: ``None`` for processes
    (``workers`` of them; by default one per CPU this process may use, or this process alone for fewer than
    :data:`AUTO_WORKERS_FROM` games in all), ``""`` for a local Ray instance (of ``workers`` CPUs, default all), or
    a cluster's address.

    The report's ``metadata``: jantaku's and Python's versions, the seed, games, bots, ``rules``, rule sets,
    reference and sweeps, the workers (or Ray), the start (UTC) and the seconds taken; ``command`` is ``None``
    (the command line sets it)."""
    if isinstance(games, bool) or not isinstance(games, int) or not MIN_GAMES <= games <= MAX_GAMES:
        raise JantakuError(f"--games must be {MIN_GAMES}-{MAX_GAMES}, got {excerpt(games)}")
    cells = grid(rules, sweep)
    ref = check_reference(reference, [c.name for c in cells])
    lineup = parse_bots(bots)
    started = datetime.now(UTC)
    start = time.perf_counter()
    sets = [c.rules for c in cells]
    if ray is not None:
        rows = run_ray(sets, games, seed, lineup, ray or None, workers, progress)
    else:
        if workers is None:
            workers = available_cpus() if games * len(sets) >= AUTO_WORKERS_FROM else 1
        rows = run_local(sets, games, seed, lineup, workers, progress)
    report = measure(cells, rows, seed, lineup, ref)
    report.sweeps = parse_sweeps(sweep)
    report.seconds = time.perf_counter() - start
    report.metadata = {
        "jantaku": _version(),
        "python": platform.python_version(),
        "seed": seed,
        "games": games,
        "bots": list(lineup),
        "rules": rules,
        "rule_sets": [c.name for c in cells],
        "reference": ref,
        "sweep": [sweep] if isinstance(sweep, str) else list(sweep or []),
        "workers": workers,
        "ray": None if ray is None else (ray or "local"),
        "started": started.isoformat(timespec="seconds"),
        "seconds": round(report.seconds, 2),
        "command": None,
    }
    return report


def _version() -> str:
    from jantaku.extras import installed_version

    return installed_version()


def measure(
    named: Sequence[RuleSetCell] | Sequence[tuple[str, Ruleset]],
    rows: Sequence[Sequence[GameRow]],
    seed: int,
    lineup: list[str],
    reference: str | None = None,
) -> Report:
    """The report of games already played (``rows[k]``: the games of rule set ``named[k]``, in game order),
    each rule set compared with ``reference`` (default the first) on the measures both have."""
    cells = [c if isinstance(c, RuleSetCell) else RuleSetCell(c[0], c[1], c[0]) for c in named]
    ref = check_reference(reference, [c.name for c in cells])
    yaku_count: dict[str, float] = {}
    for per_set in rows:
        for r in per_set:
            for k, v in r.sums.items():
                if k.startswith("yaku:"):
                    yaku_count[k[5:]] = yaku_count.get(k[5:], 0.0) + v
    yaku = sorted(yaku_count, key=lambda y: (-yaku_count[y], y))
    results, cols, ms = [], {}, {}
    for cell, per_set in zip(cells, rows, strict=True):
        ms[cell.name] = measures_for(cell.rules.family, lineup, yaku)
        cols[cell.name] = columns(per_set)
        res = RuleSetResult(
            cell.name, cell.rules, len(per_set), estimate_all(ms[cell.name], cols[cell.name]),
            base=cell.base, swept=cell.swept,
        )  # fmt: skip
        for r in per_set:
            res.win_values.extend(r.win_values)
            res.finals.extend(r.finals)
            res.points.extend(r.points)
        results.append(res)
    comparisons = []
    ref_names = {m.name for m in ms[ref]}
    for cell in cells:
        if cell.name != ref:
            both = [m for m in ms[cell.name] if m.name in ref_names]
            comparisons.append(compare(cell.name, cols[cell.name], ref, cols[ref], both))
    return Report(results, seed, list(lineup), reference=ref, comparisons=comparisons)
