"""The terminal report of an analysis: first the paired differences from the reference, then each rule set's own
estimates, ``estimate (low to high)``.

Rates are shown in percent (their differences in percentage points). The yaku rows are the most frequent ones
(every measure is in ``--json`` and ``--csv``). With two or more rule sets the report leads with each one's
difference from the reference on the same games, ``*`` marking a difference whose Holm-adjusted p-value is below
0.05 (:mod:`jantaku.lab.compare`), and lists the flagged ones. A rate whose event never happened reads
``not observed (< x%)``, ``x`` the exact one-sided 95% upper bound over its chances.
"""

from __future__ import annotations

import math
import textwrap

from .analysis import Report
from .compare import Comparison
from .measures import Difference, Estimate
from .stats import ALPHA

__all__ = [
    "FEW_GAMES",
    "TOP_YAKU",
    "bound_text",
    "correction_line",
    "few_games_note",
    "format_estimate",
    "format_p",
    "is_rate",
    "shown_measures",
    "text_report",
]

TOP_YAKU = 12
"""Yaku rows shown in the table."""

_RATES_PREFIX = ("value:", "yaku:")
_RATES = {
    "win_rate", "deal_in_rate", "tsumo_rate", "riichi_rate", "call_rate", "draw_rate", "abortive_rate", "bust_rate",
    "east_leader_wins", "skill_share", "skill_share_rank",
}  # fmt: skip


def is_rate(name: str) -> bool:
    """Whether measure ``name`` is a share (shown in percent)."""
    return name in _RATES or name.startswith(_RATES_PREFIX) or name.split(":")[0] in ("win_rate", "deal_in_rate")


def _num(x: float, rate: bool) -> str:
    if rate:
        return f"{100 * x:.1f}%"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def bound_text(upper: float) -> str:
    """An upper bound of a rate, in percent to two significant digits.

    >>> bound_text(1 - 0.05 ** (1 / 1000)), bound_text(1 - 0.05 ** (1 / 8)), bound_text(3e-7)
    ('0.30%', '31%', '0.000030%')
    """
    x = 100 * upper
    if x <= 0 or not math.isfinite(x):
        return f"{x:g}%"
    decimals = max(0, 1 - math.floor(math.log10(x)))
    text = f"{x:.{decimals}f}"
    if float(text) >= 10 ** (2 - decimals) and decimals > 0:  # rounding up to the next power of ten
        text = f"{x:.{decimals - 1}f}"
    return text + "%"


def format_estimate(name: str, est: Estimate | Difference, signed: bool = False) -> str:
    """``23.9% (23.0 to 24.8)``: an estimate and its interval as the table shows them; a rate whose event never
    happened, ``not observed (< 0.30%)``; a difference where neither rule set saw it, ``not observed in either``;
    a difference of zero in every game, ``0 (same in every game)``.

    >>> format_estimate("win_rate", Estimate(0.239, (0.23, 0.248)))
    '23.9% (23.0 to 24.8)'
    >>> format_estimate("value:yakuman", Estimate(0.0, (0.0, 1 - 0.05 ** (1 / 1000)), 0, 1000))
    'not observed (< 0.30%)'
    """
    if isinstance(est, Difference) and not est.observed:
        return "not observed in either"
    if isinstance(est, Difference) and est.unchanged:
        return "0 (same in every game)"
    if isinstance(est, Estimate) and not est.observed:
        return f"not observed (< {bound_text(est.ci[1])})"
    rate = is_rate(name)
    mean = _num(est.mean, rate)
    if signed and not mean.startswith("-"):
        mean = "+" + mean
    low, high = _num(est.ci[0], rate), _num(est.ci[1], rate)
    return f"{mean} ({low.rstrip('%')} to {high.rstrip('%')})"


def format_p(p: float | None) -> str:
    """A p-value as the reports print it.

    >>> format_p(0.0312), format_p(2.5e-12), format_p(0.0), format_p(None), format_p(1.0)
    ('0.031', '2.5e-12', '<1e-300', '-', '1')
    """
    if p is None:
        return "-"
    if p <= 0:
        return "<1e-300"
    return f"{p:.2g}"


def correction_line(report: Report) -> str:
    """The sentence that says how differences are flagged, with the size of each comparison's family."""
    sizes = sorted({c.tested for c in report.comparisons}) or [0]
    size = str(sizes[0]) if len(sizes) == 1 else f"{sizes[0]} to {sizes[-1]}"
    return (
        f"Holm's correction over the {size} measures of each comparison: a difference is flagged when its "
        f"adjusted p-value is below {ALPHA:g} (two-sided normal test of difference / paired jackknife SE, "
        "never below 2^(1 - games), a sign test's)"
    )


FEW_GAMES = 30
"""Below this many games the report warns that its p-values rest on a rough normal approximation."""


def few_games_note(report: Report) -> str | None:
    """A warning when the games are too few for the normal approximation behind the p-values to be trusted."""
    games = report.results[0].games
    if not report.comparisons or games >= FEW_GAMES:
        return None
    return (
        f"Only {games} games per rule set: the p-values rest on a normal approximation that needs more "
        f"(a few hundred games for a rule maker's answer); read the flags as hints."
    )


def shown_measures(report: Report, extra: bool = True) -> list[str]:
    """The measures the tables show: every measure but the yaku, then the :data:`TOP_YAKU` most frequent yaku
    and their mean han; with ``extra``, then any other flagged difference (so nothing flagged is hidden)."""
    names: list[str] = []
    for r in report.results:
        names.extend(k for k in r.measures if k not in names)
    yaku = [k for k in names if k.startswith("yaku:")][:TOP_YAKU]
    main = [k for k in names if not k.startswith(("yaku:", "yaku_han:"))]
    shown = main + yaku + [f"yaku_han:{k[5:]}" for k in yaku if f"yaku_han:{k[5:]}" in names]
    if extra:
        for c in report.comparisons:
            shown.extend(k for k in c.flagged if k not in shown)
    return shown


def _flagged_lines(comparisons: list[Comparison]) -> list[str]:
    lines = []
    for c in comparisons:
        lines.append(f"  {c.rule_set}: {len(c.flagged) or 'none'} of {c.tested} measures")
        diffs = [(k, c.differences[k]) for k in c.flagged]
        rows = [[f"    {k}", format_estimate(k, d, signed=True), f"p_holm {format_p(d.p_holm)}"] for k, d in diffs]
        if rows:
            widths = [max(len(r[i]) for r in rows) for i in range(3)]
            lines += ["  ".join(x.ljust(w) for x, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    return lines


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))

    return [fmt(header), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)]


def text_report(report: Report) -> str:
    """The analysis as the terminal shows it: the paired differences from the reference first (with two or more
    rule sets), then each rule set's estimates."""
    res = report.results
    shown = shown_measures(report, extra=False)
    bots = ",".join(report.bots)
    lines = [f"{res[0].games} games per rule set, seed {report.seed}, bots {bots} (--json, --csv: every measure)"]
    if report.comparisons:
        ref = report.reference
        diff_shown = shown_measures(report)
        diff_rows = []
        for k in diff_shown:
            cells = []
            for c in report.comparisons:
                d = c.differences.get(k)
                cells.append("-" if d is None else format_estimate(k, d, signed=True) + ("*" if d.flagged else " "))
            diff_rows.append([k, *cells])
        note = few_games_note(report)
        lines += [
            "",
            f"Paired differences from {ref} on the same walls: each column is that rule set minus {ref}",
            *textwrap.wrap(
                "(95% intervals; rates in percentage points). " + correction_line(report) + "; * marks them.", 115
            ),
            *(textwrap.wrap(note, 115) if note else []),
            "",
            "Flagged:",
            *_flagged_lines(report.comparisons),
            "",
        ]
        lines += _table(["measure", *(c.rule_set for c in report.comparisons)], diff_rows)
    header = ["measure", *(r.name for r in res)]
    rows = [[k, *(format_estimate(k, r.measures[k]) if k in r.measures else "-" for r in res)] for k in shown]
    lines += [
        "",
        "Estimates (95% intervals: Wilson with the effective number of chances for rates, jackknife otherwise)",
        "",
        *_table(header, rows),
    ]
    return "\n".join(lines)
