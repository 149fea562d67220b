"""The paired-difference (forest) plots of the HTML report: for every measure with a defined difference, one small
panel with each rule set's difference from the reference and its 95% interval.

The measures are drawn in groups (:func:`groups`), one figure each: rates of play, the value of a win, the game
and its scores, skill and the bots, the yaku's shares and their mean han. Each panel has its own axis, in the
measure's unit (rates and shares in percentage points). A flagged difference (Holm-adjusted p below 0.05,
:mod:`jantaku.lab.compare`) is a red diamond, any other a blue circle, and a rate seen under neither rule set a
grey cross at 0 without an interval; a panel whose measure no game changed says so.

>>> for title, names in groups(["win_rate", "mean_win", "value:mangan", "yaku:riichi", "final:1st", "rank:strong"]):
...     print(title, names)
rates of play ['win_rate']
the value of a win ['mean_win', 'value:mangan']
the game and its scores ['final:1st']
skill and the bots ['rank:strong']
yaku: share of wins ['yaku:riichi']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .compare import Comparison
from .report_text import is_rate

__all__ = ["COLUMNS", "GROUPS", "group_of", "groups", "plot_forest"]

COLUMNS = 4
"""Panels per row of a forest figure."""

_PLAY = ("win_rate", "deal_in_rate", "tsumo_rate", "riichi_rate", "call_rate", "draw_rate", "abortive_rate")
_GAME = ("hands_per_game", "bust_rate", "east_leader_wins", "final_sd", "points_sd")
_SKILL = ("skill_share", "skill_share_rank")
_PLACES = ("1st", "2nd", "3rd", "4th")
_BOT_PREFIXES = ("final", "rank", "win_rate", "deal_in_rate")
GROUPS = (
    "rates of play",
    "the value of a win",
    "the game and its scores",
    "skill and the bots",
    "yaku: share of wins",
    "yaku: mean han when present (洁律: points)",
    "other",
)
"""The groups of the forest plots, in the report's order."""


def group_of(name: str) -> str:
    """The group (:data:`GROUPS`) of measure ``name``.

    >>> group_of("final:1st"), group_of("final:strong"), group_of("value:mangan")
    ('the game and its scores', 'skill and the bots', 'the value of a win')
    """
    prefix, _, rest = name.partition(":")
    if name in _PLAY:
        return GROUPS[0]
    if name == "mean_win" or prefix == "value":
        return GROUPS[1]
    if name in _GAME or (prefix in ("final", "points") and rest in _PLACES):
        return GROUPS[2]
    if name in _SKILL or (rest and prefix in _BOT_PREFIXES):
        return GROUPS[3]
    if prefix == "yaku":
        return GROUPS[4]
    if prefix == "yaku_han":
        return GROUPS[5]
    return GROUPS[6]


def groups(names: Sequence[str]) -> list[tuple[str, list[str]]]:
    """``names`` (measures) sorted into the report's groups, in the measures' order; empty groups left out and
    any measure of no group in a last group, ``other``."""
    out: dict[str, list[str]] = {}
    for k in names:
        out.setdefault(group_of(k), []).append(k)
    return [(t, out[t]) for t in GROUPS if t in out]


def _short(text: str, limit: int = 48) -> str:
    """``text`` cut in the middle to ``limit`` characters (the end of a grid's name tells its cells apart)."""
    if len(text) <= limit:
        return text
    head = (limit - 1) // 2
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def plot_forest(
    comparisons: Sequence[Comparison],
    names: Sequence[str],
    new_figure: Callable[[float, float], Any],
    labels: Mapping[str, str] | None = None,
) -> Any:
    """A figure of one panel per measure of ``names``: each comparison's difference with its interval.
    ``new_figure(width, height)`` makes the figure (inches); ``labels``: a panel's title where not the measure's
    name (the numbered yaku whose names the fonts lack)."""
    k = len(comparisons)
    cols = min(COLUMNS, max(1, len(names)))
    rows = max(1, math.ceil(len(names) / cols))
    row_labels = [_short(c.rule_set) for c in comparisons]
    left = 0.25 + (0.058 * max(len(s) for s in row_labels) if k > 1 else 0.0)
    ax_w, gap_w, ax_h, gap_h, top, bottom = 2.3, 0.35, 0.18 * k + 0.3, 0.7, 0.3, 0.4
    width = left + 0.2 + cols * ax_w + (cols - 1) * gap_w
    height = top + bottom + rows * ax_h + (rows - 1) * gap_h
    fig = new_figure(width, height)
    from matplotlib.ticker import MaxNLocator

    axes = fig.subplots(rows, cols, squeeze=False)
    fig.subplots_adjust(
        left=left / width,
        right=1 - 0.2 / width,
        top=1 - top / height,
        bottom=bottom / height,
        wspace=gap_w / ax_w,
        hspace=gap_h / ax_h,
    )
    ys = list(range(k - 1, -1, -1))
    for n, ax in enumerate(axes.flat):
        if n >= len(names):
            ax.set_visible(False)
            continue
        m = names[n]
        scale = 100.0 if is_rate(m) else 1.0
        ax.axvline(0, color="0.45", linewidth=0.8, linestyle="--")
        diffs = [c.differences.get(m) for c in comparisons]
        neither = all(d is None or not d.observed for d in diffs)
        same = not neither and all(d is None or not d.observed or d.unchanged for d in diffs)
        for y, d in zip(ys, diffs, strict=True):
            if d is None or (same and d.unchanged):
                continue
            if not d.observed:
                if not neither:
                    ax.plot([0], [y], marker="x", color="0.5", markersize=5)
                continue
            mean, low, high = d.mean * scale, d.ci[0] * scale, d.ci[1] * scale
            ax.errorbar(
                [mean],
                [y],
                xerr=[[mean - low], [high - mean]],
                fmt="D" if d.flagged else "o",
                color="tab:red" if d.flagged else "tab:blue",
                mfc="tab:red" if d.flagged else "white",
                markersize=5,
                capsize=2,
                linewidth=1.2,
            )
        if neither or same:
            ax.set_xlim(-1, 1)
            ax.set_xticks([])
            text = "seen under neither" if neither else "same in every game"
            ax.text(0.5, 0.5, text, transform=ax.transAxes, fontsize=8, color="0.4", ha="center", va="center")
        if k > 1 and n % cols == 0:  # the rule sets' names at the left of each row of panels only
            ax.set_yticks(ys)
            ax.set_yticklabels(row_labels, fontsize=7)
        else:  # (every tick is an object to draw: the forest plots are most of the report's time)
            ax.set_yticks([])
        ax.set_ylim(-0.6, k - 0.4)
        if not (neither or same):
            ax.xaxis.set_major_locator(MaxNLocator(nbins=4))
        ax.tick_params(axis="x", labelsize=7)
        ax.grid(alpha=0.3, axis="x")
        title = (labels or {}).get(m, m)
        ax.set_title(_short(title, 34) + (" (pp)" if scale == 100.0 else ""), fontsize=8)
    if k > 1:
        fig.text(0.005, 1 - 0.05 / height, "minus the reference:", fontsize=7, va="top", color="0.3")
    return fig
