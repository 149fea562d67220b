"""An analysis as files for other tools: CSV (every number), Markdown and LaTeX tables (``--csv``, ``--markdown``,
``--latex``).

**CSV** (:func:`to_csv`): one table, one row per number, in two kinds of rows told apart by the first column:

- ``estimate``: one per rule set and measure - ``rule_set``, ``measure``, ``value`` (the estimate), ``low`` and
  ``high`` (its 95% interval) and ``observed`` (``false`` for a rate whose event never happened: its interval
  is then 0 to the exact one-sided upper bound);
- ``difference``: one per comparison and measure - ``rule_set`` minus ``reference`` on ``measure``: ``value``
  (the paired difference), ``low``, ``high``, ``observed`` (``false`` when neither saw the event), ``p``,
  ``p_holm`` (Holm-adjusted over the comparison's measures) and ``flagged`` (``p_holm`` below 0.05).

Columns a row has no value for are empty. Rates are fractions (0.239, not 23.9%), numbers are written in full
(Python's shortest exact form), so they read back as the report's own.

**Markdown** (:func:`to_markdown`) and **LaTeX** (:func:`to_latex`): the table of paired differences from the
reference (flagged ones in bold) and the table of estimates, with the measures the terminal shows (every
measure but the yaku, the most frequent yaku, and any flagged difference), each cell as the terminal writes
it. The LaTeX is a fragment of two ``table`` floats with ``tabular`` inside and no package needed; ``%``,
``_``, ``&``, ``#`` and the other special characters are escaped (a 洁律 fan's Chinese name needs a
CJK-capable engine, such as XeLaTeX with xeCJK).

>>> from jantaku.lab.analysis import analyze
>>> rep = analyze("mleague", games=2, seed=1, bots="efficiency", sweep="kiriage=false,true")
>>> to_csv(rep).splitlines()[0]
'kind,rule_set,reference,measure,value,low,high,observed,p,p_holm,flagged'
>>> to_markdown(rep).splitlines()[0]
'## Paired differences from kiriage=false'
>>> to_latex(rep).count(r"\\begin{tabular}")
2
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from .analysis import Report
from .report_text import correction_line, format_estimate, shown_measures

__all__ = ["CSV_COLUMNS", "latex_escape", "to_csv", "to_latex", "to_markdown"]

CSV_COLUMNS = ("kind", "rule_set", "reference", "measure", "value", "low", "high", "observed", "p", "p_holm", "flagged")
"""The CSV's header."""


def _num(x: float | None) -> str:
    return "" if x is None else repr(float(x))


def _flag(x: bool) -> str:
    return "true" if x else "false"


def to_csv(report: Report) -> str:
    """Every estimate and every paired difference of ``report``, one row each (see the module's text).

    >>> from jantaku.lab.analysis import analyze
    >>> rows = to_csv(analyze("mleague,mu", games=2, seed=1, bots="efficiency")).splitlines()
    >>> rows[1].split(",")[:4], sum(r.startswith("difference,mu,mleague,") for r in rows) > 40
    (['estimate', 'mleague', '', 'win_rate'], True)
    """
    buf = io.StringIO()
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(CSV_COLUMNS)
    for r in report.results:
        for k, e in r.measures.items():
            row = ["estimate", r.name, "", k, _num(e.mean), _num(e.ci[0]), _num(e.ci[1]), _flag(e.observed)]
            out.writerow(row + [""] * (len(CSV_COLUMNS) - len(row)))
    for c in report.comparisons:
        for k, d in c.differences.items():
            out.writerow(
                [
                    "difference",
                    c.rule_set,
                    c.reference,
                    k,
                    _num(d.mean),
                    _num(d.ci[0]),
                    _num(d.ci[1]),
                    _flag(d.observed),
                    _num(d.p),
                    _num(d.p_holm),
                    _flag(d.flagged),
                ]
            )
    return buf.getvalue()


def _difference_rows(report: Report) -> tuple[list[str], list[list[tuple[str, bool]]]]:
    """The measures of the differences' table and each one's cells (text, flagged) per comparison."""
    names = [k for k in shown_measures(report) if any(k in c.differences for c in report.comparisons)]
    rows = []
    for k in names:
        cells = []
        for c in report.comparisons:
            d = c.differences.get(k)
            cells.append(("-", False) if d is None else (format_estimate(k, d, signed=True), d.flagged))
        rows.append(cells)
    return names, rows


def _estimate_rows(report: Report) -> tuple[list[str], list[list[str]]]:
    names = shown_measures(report, extra=False)
    rows = [[format_estimate(k, r.measures[k]) if k in r.measures else "-" for r in report.results] for k in names]
    return names, rows


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("*", "\\*").replace("`", "'")


def _md_table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join([":---"] + ["---:"] * (len(header) - 1)) + "|"]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def to_markdown(report: Report) -> str:
    """The headline tables as Markdown: paired differences from the reference (flagged: bold), then estimates.

    >>> from jantaku.lab.analysis import analyze
    >>> text = to_markdown(analyze("mleague", games=2, seed=1, bots="efficiency", sweep="kiriage=false,true"))
    >>> print("\\n".join(line for line in text.splitlines() if line.startswith("| `abortive_rate`")))
    | `abortive_rate` | not observed in either |
    | `abortive_rate` | not observed (< 13%) | not observed (< 13%) |
    """
    lines: list[str] = []
    games = report.results[0].games
    if report.comparisons:
        ref = report.reference
        names, rows = _difference_rows(report)
        lines += [
            f"## Paired differences from {_md(ref)}",
            "",
            f"{games} games per rule set on the same walls (seed {report.seed}); each rule set minus {_md(ref)}, "
            "95% intervals (paired jackknife), rates in percentage points. "
            f"{_md(correction_line(report))}; flagged differences are **bold**.",
            "",
        ]
        body = [
            [f"`{_md(k)}`", *(f"**{_md(t)}**" if flag else _md(t) for t, flag in cells)]
            for k, cells in zip(names, rows, strict=True)
        ]
        lines += _md_table(["measure", *(f"{_md(c.rule_set)} - {_md(ref)}" for c in report.comparisons)], body)
        lines.append("")
    names, est = _estimate_rows(report)
    lines += [
        "## Estimates",
        "",
        f"{games} games per rule set (seed {report.seed}, bots {_md(', '.join(report.bots))}); 95% intervals: "
        "Wilson with the effective number of chances for rates, jackknife over games otherwise.",
        "",
    ]
    body = [[f"`{_md(k)}`", *(_md(t) for t in cells)] for k, cells in zip(names, est, strict=True)]
    lines += _md_table(["measure", *(_md(r.name) for r in report.results)], body)
    return "\n".join(lines) + "\n"


_LATEX = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "<": r"\textless{}",
    ">": r"\textgreater{}",
}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped.

    >>> print(latex_escape("yaku:aka_dora 50% & #1 <3"))
    yaku:aka\\_dora 50\\% \\& \\#1 \\textless{}3
    """
    return "".join(_LATEX.get(ch, ch) for ch in text)


def _latex_table(caption: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + caption + "}",
        r"\begin{tabular}{l" + "r" * (len(header) - 1) + "}",
        r"\hline",
        " & ".join(header) + r" \\",
        r"\hline",
        *(" & ".join(r) + r" \\" for r in rows),
        r"\hline",
        r"\end{tabular}",
        r"\end{table}",
    ]


def to_latex(report: Report) -> str:
    """The headline tables as a LaTeX fragment (two ``table`` floats; flagged differences in bold).

    >>> from jantaku.lab.analysis import analyze
    >>> text = to_latex(analyze("mleague", games=2, seed=1, bots="efficiency", sweep="kiriage=false,true"))
    >>> print("\\n".join(line for line in text.splitlines() if line.startswith("value:yakuman")))
    value:yakuman & not observed in either \\\\
    value:yakuman & not observed (\\textless{} 15\\%) & not observed (\\textless{} 15\\%) \\\\
    """
    e = latex_escape
    games = report.results[0].games
    lines = [f"% jantaku analyze: {e(', '.join(r.name for r in report.results))} - generated, edit as you like"]
    if report.comparisons:
        ref = e(report.reference)
        names, rows = _difference_rows(report)
        caption = (
            f"Paired differences from {ref} ({games} games per rule set on the same walls, seed {report.seed}): "
            f"each rule set minus {ref} with its 95\\% interval, rates in percentage points. "
            f"{e(correction_line(report))}; flagged differences in bold."
        )
        body = [
            [e(k), *(r"\textbf{" + e(t) + "}" if flag else e(t) for t, flag in cells)]
            for k, cells in zip(names, rows, strict=True)
        ]
        lines += _latex_table(caption, ["measure", *(f"{e(c.rule_set)} $-$ {ref}" for c in report.comparisons)], body)
        lines.append("")
    names, est = _estimate_rows(report)
    caption = (
        f"Estimates ({games} games per rule set, seed {report.seed}, bots {e(', '.join(report.bots))}): 95\\% "
        "intervals, Wilson with the effective number of chances for rates, jackknife over games otherwise."
    )
    body = [[e(k), *(e(t) for t in cells)] for k, cells in zip(names, est, strict=True)]
    lines += _latex_table(caption, ["measure", *(e(r.name) for r in report.results)], body)
    return "\n".join(lines) + "\n"
