"""The HTML report of an analysis: tables of every measure with its interval, and plots made by matplotlib.

The plots: the key measures of each rule set with their intervals (for a sweep over numbers, a curve with its
interval band), histograms of win values and of final scores, and the frequency of the most common yaku. By
default the pictures are PNG embedded as base64 and the style sheet is inline, so the file stands alone; the
web table renders the same page with the pictures and style sheet as its own addresses (its pages allow no
inline content).

matplotlib comes with the ``lab`` extra (``pip install 'jantaku[lab]'``); without it :func:`require_matplotlib`
says so.
"""

from __future__ import annotations

import base64
import html
import io
import math
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from jantaku.errors import JantakuError

from .analysis import Report
from .report_text import TOP_YAKU, format_estimate
from .rulesets import sweep_value

__all__ = ["KEY_MEASURES", "figures", "html_report", "render", "require_matplotlib"]

KEY_MEASURES = (
    "win_rate",
    "deal_in_rate",
    "draw_rate",
    "riichi_rate",
    "call_rate",
    "mean_win",
    "hands_per_game",
    "bust_rate",
    "east_leader_wins",
    "final_sd",
    "skill_share",
)
"""The measures drawn in the comparison (or sweep) plot, where defined."""

STYLE = """
body { font-family: sans-serif; margin: 1.5em auto; max-width: 72em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 1.6em; }
table { border-collapse: collapse; font-size: 0.85em; }
th, td { padding: 0.15em 0.6em; border-bottom: 1px solid #ddd; text-align: right; white-space: nowrap; }
th:first-child, td:first-child { text-align: left; }
td.sig { font-weight: bold; }
figure { margin: 1em 0; } figcaption { font-size: 0.85em; color: #555; }
img { max-width: 100%; height: auto; }
p.note { font-size: 0.85em; color: #555; max-width: 60em; }
"""


def require_matplotlib() -> Any:
    """The ``matplotlib`` module, or a :class:`JantakuError` naming the extra that installs it."""
    try:
        import matplotlib
    except ImportError:
        raise JantakuError("--html needs matplotlib: install the lab extra (pip install 'jantaku[lab]')") from None
    return matplotlib


def _png(fig: Any) -> bytes:
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a glyph the fonts lack (a 洁律 fan's name) is drawn as a box
        fig.savefig(buf, format="png", dpi=100, metadata={"Software": None})
    return buf.getvalue()


def _new_figure(width: float, height: float) -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout="constrained")


def _numeric(values: Sequence[str]) -> list[float] | None:
    nums = []
    for v in values:
        x = sweep_value(v)
        if isinstance(x, bool) or not isinstance(x, (int, float)):
            return None
        nums.append(float(x))
    return nums


def _plot_measures(report: Report) -> bytes:
    """Key measures per rule set with their intervals: a curve and band over a numeric sweep, else points and
    error bars."""
    names = [m for m in KEY_MEASURES if all(m in r.measures for r in report.results)]
    cols = 3
    rows = max(1, math.ceil(len(names) / cols))
    fig = _new_figure(4.0 * cols, 2.6 * rows)
    axes = fig.subplots(rows, cols, squeeze=False)
    xs_num = _numeric(report.sweep[1]) if report.sweep and len(report.results) == len(report.sweep[1]) else None
    labels = [r.name for r in report.results]
    xs = xs_num if xs_num is not None else list(range(len(labels)))
    for k, ax in enumerate(axes.flat):
        if k >= len(names):
            ax.set_visible(False)
            continue
        m = names[k]
        mean = [r.measures[m].mean for r in report.results]
        low = [r.measures[m].ci[0] for r in report.results]
        high = [r.measures[m].ci[1] for r in report.results]
        if xs_num is not None:
            ax.fill_between(xs, low, high, alpha=0.25, color="tab:blue", label="95% interval")
            ax.plot(xs, mean, marker="o", color="tab:blue")
            ax.set_xlabel(report.sweep[0] if report.sweep else "")
        else:
            err = [
                [mu - lo for mu, lo in zip(mean, low, strict=True)],
                [hi - mu for mu, hi in zip(mean, high, strict=True)],
            ]
            ax.errorbar(xs, mean, yerr=err, fmt="o", capsize=4, color="tab:blue")
            ax.set_xticks(xs)
            ax.set_xticklabels([_ascii(lb) for lb in labels], rotation=20 if len(labels) > 3 else 0, fontsize=8)
            ax.set_xlim(-0.5, len(xs) - 0.5)
        ax.set_title(m, fontsize=10)
        ax.grid(alpha=0.3)
    return _png(fig)


def _ascii(text: str, limit: int = 24) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _plot_hist(report: Report, attr: str, xlabel: str) -> bytes:
    """Step histograms (densities) of a raw value per rule set; values past the 99.5th percentile of all of
    them (a yakuman among hundreds of small wins) are drawn in the last bin."""
    import numpy as np

    fig = _new_figure(8, 3.2)
    ax = fig.subplots()
    data = [np.asarray(getattr(r, attr), dtype=float) for r in report.results]
    flat = np.concatenate(data) if data else np.zeros(0)
    lo, hi = (float(flat.min()), float(np.quantile(flat, 0.995))) if len(flat) else (0.0, 1.0)
    if hi <= lo:
        hi = lo + 1
    for r, d in zip(report.results, data, strict=True):
        if len(d):
            ax.hist(
                np.clip(d, lo, hi),
                bins=40,
                range=(lo, hi),
                histtype="step",
                linewidth=1.6,
                density=True,
                label=_ascii(r.name),
            )
    ax.set_xlabel(xlabel)
    ax.set_ylabel("density")
    ax.grid(alpha=0.3)
    if len(report.results) > 1:
        ax.legend(fontsize=8)
    return _png(fig)


def _top_yaku(report: Report) -> list[str]:
    names: list[str] = []
    for r in report.results:
        names.extend(k[5:] for k in r.measures if k.startswith("yaku:") and k[5:] not in names)
    return names[:TOP_YAKU]


def _plot_yaku(report: Report, yaku: list[str]) -> bytes:
    fig = _new_figure(10, 3.6)
    ax = fig.subplots()
    n = len(report.results)
    width = 0.8 / max(1, n)
    ascii_names = all(y.isascii() for y in yaku)
    for j, r in enumerate(report.results):
        xs = [i + (j - (n - 1) / 2) * width for i in range(len(yaku))]
        est = [r.measures.get(f"yaku:{y}") for y in yaku]
        mean = [e.mean if e else 0.0 for e in est]
        err = [
            [e.mean - e.ci[0] if e else 0.0 for e in est],
            [e.ci[1] - e.mean if e else 0.0 for e in est],
        ]
        ax.bar(xs, mean, width=width, yerr=err, capsize=2, label=_ascii(r.name))
    ax.set_xticks(range(len(yaku)))
    ax.set_xticklabels(
        yaku if ascii_names else [f"#{i + 1}" for i in range(len(yaku))], rotation=35, fontsize=8, ha="right"
    )
    ax.set_ylabel("share of wins")
    ax.grid(alpha=0.3, axis="y")
    if n > 1:
        ax.legend(fontsize=8)
    return _png(fig)


def figures(report: Report) -> list[tuple[str, bytes]]:
    """The report's pictures as (caption, PNG bytes)."""
    yaku = _top_yaku(report)
    sweep = report.sweep is not None and _numeric(report.sweep[1]) is not None
    what = (
        f"over {report.sweep[0]} (band: 95% interval)"
        if sweep and report.sweep
        else "per rule set (bars: 95% interval)"
    )
    out = [(f"Key measures {what}", _plot_measures(report))]
    tail = " (values past the 99.5th percentile in the last bin)"
    out.append((f"Value of a win (points; 洁律: S){tail}", _plot_hist(report, "win_values", "value of a win")))
    out.append((f"Final score of a player (rank points){tail}", _plot_hist(report, "finals", "final score (pt)")))
    if yaku:
        numbered = "" if all(y.isascii() for y in yaku) else " (numbered as in the yaku table)"
        out.append((f"The {len(yaku)} most frequent yaku: share of wins{numbered}", _plot_yaku(report, yaku)))
    return out


def _table(report: Report, names: list[str], labels: dict[str, str] | None = None) -> str:
    head = "".join(f"<th>{html.escape(r.name)}</th>" for r in report.results)
    rows = []
    for k in names:
        cells = "".join(
            f"<td>{html.escape(format_estimate(k, r.measures[k]))}</td>" if k in r.measures else "<td>-</td>"
            for r in report.results
        )
        rows.append(f"<tr><td>{html.escape((labels or {}).get(k, k))}</td>{cells}</tr>")
    return f"<table><thead><tr><th>measure</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _diff_table(report: Report, names: list[str]) -> str:
    base = report.results[0].name
    head = "".join(f"<th>{html.escape(r.name)} - {html.escape(base)}</th>" for r in report.results[1:])
    rows = []
    for k in names:
        cells = []
        for r in report.results[1:]:
            d = r.differences.get(k)
            if d is None:
                cells.append("<td>-</td>")
            else:
                sig = d.ci[0] > 0 or d.ci[1] < 0
                cls = ' class="sig"' if sig else ""
                cells.append(f"<td{cls}>{html.escape(format_estimate(k, d, signed=True))}</td>")
        rows.append(f"<tr><td>{html.escape(k)}</td>{''.join(cells)}</tr>")
    return f"<table><thead><tr><th>measure</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def render(report: Report, image_src: Callable[[int, bytes], str] | None = None, stylesheet: str | None = None) -> str:
    """The report's HTML. ``image_src(i, png)`` gives picture ``i``'s address (default: a base64 ``data:``
    address); ``stylesheet``: the address of a style sheet to link instead of the inline one."""
    src = image_src or (lambda _i, png: "data:image/png;base64," + base64.b64encode(png).decode("ascii"))
    res = report.results
    names: list[str] = []
    for r in res:
        names.extend(k for k in r.measures if k not in names)
    main = [k for k in names if not k.startswith(("yaku:", "yaku_han:"))]
    yaku_rows = [k for k in names if k.startswith("yaku:")]
    numbers = {k: f"#{i} {k}" for i, k in enumerate(yaku_rows, start=1)}  # the yaku bars' numbers
    yaku_rows = [x for k in yaku_rows for x in (k, f"yaku_han:{k[5:]}") if x in names]
    figs = "".join(
        f'<figure><img src="{html.escape(src(i, png))}" alt="{html.escape(cap)}"><figcaption>{html.escape(cap)}'
        "</figcaption></figure>"
        for i, (cap, png) in enumerate(figures(report))
    )
    style = f'<link rel="stylesheet" href="{html.escape(stylesheet)}">' if stylesheet else f"<style>{STYLE}</style>"
    title = "jantaku analyze: " + ", ".join(r.name for r in res)
    rules_line = html.escape(", ".join(f"{r.name} ({r.rules.title})" for r in res))
    diff = ""
    if len(res) > 1:
        diff = (
            f"<h2>Differences from {html.escape(res[0].name)} on the same walls</h2>"
            "<p class='note'>Paired by game (common random numbers); bold: the 95% interval excludes 0.</p>"
            + _diff_table(report, main)
        )
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>{style}</head><body class='report'>"
        f"<h1>{html.escape(title)}</h1>"
        f"<p>{res[0].games} games per rule set, seed {report.seed}, bots {html.escape(', '.join(report.bots))} "
        f"(player p sits at seat (p + game) mod 4). Rule sets: {rules_line}.</p>"
        "<p class='note'>Every figure is an estimate with its 95% interval (jackknife over games). Rates per "
        "player-hand unless named otherwise; skill_share is the share of the variance of a player's final score "
        "explained by which bot plays (see the documentation, guide/analyze).</p>"
        f"{figs}<h2>Measures</h2>{_table(report, main)}{diff}"
        f"<h2>Yaku (share of wins, and mean han when present)</h2>{_table(report, yaku_rows, numbers)}"
        "</body></html>\n"
    )


def html_report(report: Report) -> str:
    """The stand-alone HTML report (pictures and style inside the file)."""
    require_matplotlib()
    return render(report)
