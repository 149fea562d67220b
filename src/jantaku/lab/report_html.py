"""The HTML report of an analysis: the run, the rule sets' settings side by side, the paired differences from the
reference (forest plots and a table), then each rule set's estimates (plots and tables), made with matplotlib.

Sections, in order: the run's metadata (:attr:`jantaku.lab.analysis.Report.metadata`); the parameters on which
the rule sets differ (:func:`jantaku.lab.rulesets.differing_settings`); with two or more rule sets, a forest
plot of every measure with a defined difference (:mod:`jantaku.lab.forest`, in groups) and the table of
differences, flagged ones in bold after Holm's correction; then the key measures of each rule set with their
intervals (for a sweep of one parameter over numbers, a curve with its interval band), histograms of win
values and of final scores, the frequency of the most common yaku, and the tables of estimates. By default
the pictures are PNG embedded as base64 and the style sheet is inline, so the file stands alone; the web
table renders the same page with the pictures and style sheet as its own addresses (its pages allow no
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
from .forest import groups, plot_forest
from .report_text import TOP_YAKU, correction_line, format_estimate, format_p
from .rulesets import differing_settings, setting_text, sweep_value

__all__ = [
    "KEY_MEASURES",
    "difference_figures",
    "estimate_figures",
    "figures",
    "html_report",
    "render",
    "require_matplotlib",
]

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
td.sig { font-weight: bold; color: #a00; }
table.meta td { text-align: left; white-space: normal; }
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


def _new_figure(width: float, height: float, layout: str | None = "constrained") -> Any:
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), layout=layout)


def _plain_figure(width: float, height: float) -> Any:
    """A figure without automatic layout (the forest plots place their panels themselves: far faster)."""
    return _new_figure(width, height, None)


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
    one = report.sweeps[0] if len(report.sweeps) == 1 else None
    xs_num = _numeric(one[1]) if one and len(report.results) == len(one[1]) else None
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
            ax.set_xlabel(one[0] if one else "")
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


def _yaku_numbers(report: Report) -> dict[str, str]:
    """``yaku:NAME`` and ``yaku_han:NAME`` -> ``#i NAME``, numbered as the yaku bars and table number them."""
    names: list[str] = []
    for r in report.results:
        names.extend(k for k in r.measures if k.startswith("yaku:") and k not in names)
    out = {}
    for i, k in enumerate(names, start=1):
        out[k] = f"#{i} {k}"
        out[f"yaku_han:{k[5:]}"] = f"#{i} yaku_han:{k[5:]}"
    return out


def _difference_names(report: Report) -> list[str]:
    """Every measure with a difference in some comparison: the measures' order, the yaku's han after them."""
    names: list[str] = []
    for c in report.comparisons:
        names.extend(k for k in c.differences if k not in names)
    return [k for k in names if not k.startswith("yaku_han:")] + [k for k in names if k.startswith("yaku_han:")]


def difference_figures(report: Report) -> list[tuple[str, bytes]]:
    """The forest plots of the paired differences, one per group of measures, as (caption, PNG bytes); none
    with one rule set."""
    if not report.comparisons:
        return []
    # a yaku whose name the fonts may lack (a 洁律 fan) is titled by its number in the yaku table
    labels = {
        k: f"{k.split(':', 1)[0]} {v.split()[0]}"
        for k, v in _yaku_numbers(report).items()
        if not k.split(":", 1)[1].isascii()
    }
    out = []
    for title, names in groups(_difference_names(report)):
        fig = plot_forest(report.comparisons, names, _plain_figure, labels)
        caption = (
            f"Paired differences from {report.reference}: {title} (each rule set minus {report.reference}, "
            "95% intervals; red diamond: flagged after Holm's correction; grey cross: seen under neither). "
            f"Measures: {', '.join(names)}"
        )
        out.append((caption, _png(fig)))
    return out


def figures(report: Report) -> list[tuple[str, bytes]]:
    """The report's pictures as (caption, PNG bytes): the paired differences' forest plots
    (:func:`difference_figures`), then the estimates' (:func:`estimate_figures`)."""
    return difference_figures(report) + estimate_figures(report)


def estimate_figures(report: Report) -> list[tuple[str, bytes]]:
    """The pictures of the rule sets' own estimates: key measures, histograms, yaku."""
    yaku = _top_yaku(report)
    one = report.sweeps[0] if len(report.sweeps) == 1 else None
    sweep = one is not None and _numeric(one[1]) is not None and len(report.results) == len(one[1])
    what = f"over {one[0]} (band: 95% interval)" if sweep and one else "per rule set (bars: 95% interval)"
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


def _diff_table(report: Report, names: list[str], labels: dict[str, str]) -> str:
    ref = html.escape(report.reference)
    head = "".join(f"<th>{html.escape(c.rule_set)} - {ref}</th>" for c in report.comparisons)
    rows = []
    for k in names:
        cells = []
        for c in report.comparisons:
            d = c.differences.get(k)
            if d is None:
                cells.append("<td>-</td>")
                continue
            cls = ' class="sig"' if d.flagged else ""
            tip = html.escape(f"p = {format_p(d.p)}, Holm-adjusted p = {format_p(d.p_holm)}")
            text = format_estimate(k, d, signed=True) + (" *" if d.flagged else "")
            cells.append(f'<td{cls} title="{tip}">{html.escape(text)}</td>')
        rows.append(f"<tr><td>{html.escape(labels.get(k, k))}</td>{''.join(cells)}</tr>")
    return f"<table><thead><tr><th>measure</th>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"


def _settings_table(report: Report) -> str:
    """The parameters on which the rule sets differ, side by side."""
    differ = differing_settings([r.rules for r in report.results])
    if not differ:
        return "<p class='note'>One rule set: nothing to set side by side.</p>"
    head = "".join(f"<th>{html.escape(r.name)}</th>" for r in report.results)
    rows = "".join(
        f"<tr><td>{html.escape(p)}</td>"
        + "".join(f"<td>{html.escape(excerpt_text(setting_text(v)))}</td>" for v in values)
        + "</tr>"
        for p, values in differ
    )
    return (
        "<p class='note'>The parameters on which the rule sets differ (every other one is the same in all).</p>"
        f"<table><thead><tr><th>parameter</th>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


def excerpt_text(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters (a long fan table in a settings cell)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _metadata_table(report: Report) -> str:
    meta = dict(report.metadata)
    if not meta:
        meta = {"seed": report.seed, "games": report.results[0].games, "bots": report.bots}
    rows = []
    for k, v in meta.items():
        if v is None or v == []:
            continue
        text = ", ".join(str(x) for x in v) if isinstance(v, list) else str(v)
        rows.append(f"<tr><th>{html.escape(k)}</th><td>{html.escape(text)}</td></tr>")
    return f"<table class='meta'><tbody>{''.join(rows)}</tbody></table>"


def render(report: Report, image_src: Callable[[int, bytes], str] | None = None, stylesheet: str | None = None) -> str:
    """The report's HTML. ``image_src(i, png)`` gives picture ``i``'s address (default: a base64 ``data:``
    address); ``stylesheet``: the address of a style sheet to link instead of the inline one."""
    src = image_src or (lambda _i, png: "data:image/png;base64," + base64.b64encode(png).decode("ascii"))
    res = report.results
    names: list[str] = []
    for r in res:
        names.extend(k for k in r.measures if k not in names)
    main = [k for k in names if not k.startswith(("yaku:", "yaku_han:"))]
    numbers = _yaku_numbers(report)  # the yaku bars' numbers
    yaku_rows = [x for k in names if k.startswith("yaku:") for x in (k, f"yaku_han:{k[5:]}") if x in names]
    diff_pictures = difference_figures(report)
    pictures = list(enumerate(diff_pictures + estimate_figures(report)))
    n_diff = len(diff_pictures)

    def fig_html(items: list[tuple[int, tuple[str, bytes]]]) -> str:
        return "".join(
            f'<figure><img src="{html.escape(src(i, png))}" alt="{html.escape(cap)}">'
            f"<figcaption>{html.escape(cap)}</figcaption></figure>"
            for i, (cap, png) in items
        )

    style = f'<link rel="stylesheet" href="{html.escape(stylesheet)}">' if stylesheet else f"<style>{STYLE}</style>"
    title = "jantaku analyze: " + ", ".join(r.name for r in res)
    rules_line = html.escape(", ".join(f"{r.name} ({r.rules.title})" for r in res))
    diff = ""
    if report.comparisons:
        ref = html.escape(report.reference)
        flagged = "; ".join(
            f"{html.escape(c.rule_set)}: {html.escape(', '.join(c.flagged)) or 'none'} ({len(c.flagged)} of {c.tested})"
            for c in report.comparisons
        )
        diff = (
            f"<h2>Paired differences from {ref} on the same walls</h2>"
            f"<p class='note'>Each rule set minus {ref}, paired by game (common random numbers), with the 95% "
            f"interval of the paired jackknife; rates in percentage points. {html.escape(correction_line(report))}; "
            "flagged differences are bold and marked * (hover a cell for its p-values).</p>"
            f"<p>Flagged: {flagged}.</p>"
            + fig_html(pictures[:n_diff])
            + _diff_table(report, _difference_names(report), numbers)
        )
    body_figs = fig_html(pictures[n_diff:])
    return (
        "<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title>{style}</head><body class='report'>"
        f"<h1>{html.escape(title)}</h1>"
        f"<p>{res[0].games} games per rule set, seed {report.seed}, bots {html.escape(', '.join(report.bots))} "
        f"(player p sits at seat (p + game) mod 4). Rule sets: {rules_line}.</p>"
        f"<h2>The run</h2>{_metadata_table(report)}"
        f"<h2>Rule sets</h2>{_settings_table(report)}"
        f"{diff}"
        "<h2>Estimates of each rule set</h2>"
        "<p class='note'>Every figure is an estimate with its 95% interval: for a rate of events, the Wilson "
        "interval with the effective number of chances (the jackknife's error over games turned into a sample "
        "size), and where the event never happened the exact one-sided upper bound 1 - 0.05^(1/n) over its n "
        "chances; for other measures the jackknife's over games. Rates per player-hand unless named otherwise; "
        "skill_share is the share of the variance of a player's final score explained by which bot plays (see "
        "the documentation, guide/analyze).</p>"
        f"{body_figs}<h3>Measures</h3>{_table(report, main)}"
        f"<h3>Yaku (share of wins, and mean han when present)</h3>{_table(report, yaku_rows, numbers)}"
        "</body></html>\n"
    )


def html_report(report: Report) -> str:
    """The stand-alone HTML report (pictures and style inside the file)."""
    require_matplotlib()
    return render(report)
