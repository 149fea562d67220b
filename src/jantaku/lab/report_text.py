"""The terminal table of an analysis: one row per measure, one column per rule set, ``estimate (low to high)``.

Rates are shown in percent. The yaku rows are the most frequent ones (all of them are in ``--json``). With two
or more rule sets, a second table gives each one's difference from the first on the same games, ``*`` marking a
difference whose interval excludes zero.
"""

from __future__ import annotations

from .analysis import Report
from .measures import Estimate

__all__ = ["TOP_YAKU", "format_estimate", "text_report"]

TOP_YAKU = 12
"""Yaku rows shown in the table."""

_RATES_PREFIX = ("value:", "yaku:")
_RATES = {
    "win_rate", "deal_in_rate", "tsumo_rate", "riichi_rate", "call_rate", "draw_rate", "abortive_rate", "bust_rate",
    "east_leader_wins", "skill_share", "skill_share_rank",
}  # fmt: skip


def _is_rate(name: str) -> bool:
    return name in _RATES or name.startswith(_RATES_PREFIX) or name.split(":")[0] in ("win_rate", "deal_in_rate")


def _num(x: float, rate: bool) -> str:
    if rate:
        return f"{100 * x:.1f}%"
    if abs(x) >= 1000:
        return f"{x:.0f}"
    if abs(x) >= 10:
        return f"{x:.1f}"
    return f"{x:.2f}"


def format_estimate(name: str, est: Estimate, signed: bool = False) -> str:
    """``23.9% (23.0 to 24.8)``: an estimate and its interval as the table shows them.

    >>> format_estimate("win_rate", Estimate(0.239, (0.23, 0.248)))
    '23.9% (23.0 to 24.8)'
    """
    rate = _is_rate(name)
    mean = _num(est.mean, rate)
    if signed and not mean.startswith("-"):
        mean = "+" + mean
    low, high = _num(est.ci[0], rate), _num(est.ci[1], rate)
    return f"{mean} ({low.rstrip('%')} to {high.rstrip('%')})"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def fmt(r: list[str]) -> str:
        return "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True)))

    return [fmt(header), "  ".join("-" * w for w in widths), *(fmt(r) for r in rows)]


def text_report(report: Report) -> str:
    """The analysis as the terminal shows it."""
    res = report.results
    names: list[str] = []
    for r in res:
        names.extend(k for k in r.measures if k not in names)
    yaku = [k for k in names if k.startswith("yaku:")][:TOP_YAKU]
    main = [k for k in names if not k.startswith(("yaku:", "yaku_han:"))]
    shown = main + yaku + [f"yaku_han:{k[5:]}" for k in yaku if f"yaku_han:{k[5:]}" in names]
    header = ["measure", *(r.name for r in res)]
    rows = [[k, *(format_estimate(k, r.measures[k]) if k in r.measures else "-" for r in res)] for k in shown]
    bots = ",".join(report.bots)
    lines = [
        f"{res[0].games} games per rule set, seed {report.seed}, bots {bots} (95% intervals; --json has every yaku)",
        "",
        *_table(header, rows),
    ]
    if len(res) > 1:
        base = res[0].name
        diff_rows = []
        for k in main + yaku:
            cells = []
            for r in res[1:]:
                d = r.differences.get(k)
                if d is None:
                    cells.append("-")
                else:
                    mark = "*" if d.ci[0] > 0 or d.ci[1] < 0 else " "
                    cells.append(format_estimate(k, d, signed=True) + mark)
            diff_rows.append([k, *cells])
        lines += ["", f"difference from {base} on the same walls (* : the interval excludes 0)", ""]
        lines += _table(["measure", *(f"{r.name} - {base}" for r in res[1:])], diff_rows)
    return "\n".join(lines)
