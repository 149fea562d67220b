"""``jantaku analyze`` compares rule sets honestly: a known effect is flagged after Holm's correction, the reference
can be any rule set, and the CSV, Markdown and LaTeX exports carry the report's own numbers.

East-only M-League games with the efficiency bot keep it fast.
"""

from __future__ import annotations

import csv
import io
import json
import re

import pytest

from jantaku.cli import main
from jantaku.lab import exports
from jantaku.lab.analysis import analyze
from jantaku.lab.report_text import is_rate, shown_measures, text_report


@pytest.fixture(scope="module")
def east_only(tmp_path_factory):
    path = tmp_path_factory.mktemp("lab_compare") / "east_only.toml"
    path.write_text('base = "mleague"\nname = "east_only"\nrounds = 1\n', encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module")
def busts(east_only):
    """25,000 against 3,000 starting points (M-League 6章1条1: 25,000), 20 games on the same walls."""
    return analyze(east_only, games=20, seed=3, bots="efficiency", sweep="starting_points=25000,3000", workers=1)


@pytest.fixture(scope="module")
def grid(east_only):
    """Two parameters swept: four rule sets, three comparisons with the first."""
    sweep = ["starting_points=25000,3000", "kiriage=false,true"]
    return analyze(east_only, games=14, seed=2, bots="efficiency", sweep=sweep, workers=1)


def test_a_known_effect_is_flagged_after_holm(busts):
    [c] = busts.comparisons
    assert (c.rule_set, c.reference) == ("starting_points=3000", "starting_points=25000")
    d = c.differences["bust_rate"]
    # with 3,000 points almost every game has a player below zero; with 25,000 few do
    low, high = busts.result("starting_points=3000").measures["bust_rate"], busts.result("starting_points=25000")
    assert low.mean > 0.9 > 0.5 > high.measures["bust_rate"].mean
    assert d.mean > 0.5 and d.ci[0] > 0
    assert d.flagged and d.p_holm < 0.05 and d.p_holm >= d.p
    # Holm: the adjusted p-value is at most the family's size times the raw one, and the family is every
    # measure with a p-value
    assert c.tested == sum(1 for x in c.differences.values() if x.p is not None) > 40
    assert d.p_holm <= c.tested * d.p + 1e-15
    assert "bust_rate" in c.flagged
    # the text leads with it, and says which correction over how many measures
    text = text_report(busts)
    assert f"Holm's correction over the {c.tested} measures of each comparison" in text
    flagged_part = text[text.index("Flagged:") : text.index("Estimates (")]
    assert re.search(r"^    bust_rate +\+[0-9.]+% .* p_holm ", flagged_part, re.M)
    assert re.search(r"^bust_rate +\+[0-9.]+% \([0-9.]+ to [0-9.]+\)\*$", flagged_part, re.M)
    # JSON says the same
    out = busts.to_json()
    assert out["correction"]["method"] == "holm" and out["reference"] == "starting_points=25000"
    assert "bust_rate" in out["comparisons"]["starting_points=3000"]["flagged"]
    assert out["differences"]["starting_points=3000"]["bust_rate"]["flagged"] is True


def test_any_rule_set_can_be_the_reference(east_only):
    sweep = "starting_points=25000,3000"
    first = analyze(east_only, games=4, seed=5, bots="efficiency", sweep=sweep)
    second = analyze(east_only, games=4, seed=5, bots="efficiency", sweep=sweep, reference="starting_points=3000")
    assert second.reference == "starting_points=3000" and [c.rule_set for c in second.comparisons] == [
        "starting_points=25000"
    ]
    there, back = first.comparisons[0].differences, second.comparisons[0].differences
    assert set(there) == set(back)
    for k, d in there.items():  # the same games: the difference changes sign, its error and p-value stay
        assert back[k].mean == pytest.approx(-d.mean, abs=1e-9)
        assert back[k].se == pytest.approx(d.se, abs=1e-9) and back[k].flagged == d.flagged


def test_the_grid_compares_every_cell_with_the_reference(grid):
    assert grid.reference == "starting_points=25000,kiriage=false"
    assert [c.rule_set for c in grid.comparisons] == [
        "starting_points=25000,kiriage=true",
        "starting_points=3000,kiriage=false",
        "starting_points=3000,kiriage=true",
    ]
    kiriage, low, both = grid.comparisons
    # kiriage alone changes how some wins are paid, never whether a game busts or how long it lasts
    assert kiriage.differences["bust_rate"].unchanged and kiriage.differences["hands_per_game"].unchanged
    assert kiriage.differences["value:mangan"].mean > 0 and "bust_rate" not in kiriage.flagged
    # 3,000 starting points: busts and lower points, with or without kiriage
    for c in (low, both):
        assert {"bust_rate", "points:1st", "points:4th"} <= set(c.flagged)
        assert c.differences["points:4th"].mean < 0


# -- exports parse back to the report's numbers --------------------------------------------------------------------


def test_csv_rows_are_the_reports_numbers(grid):
    rows = list(csv.DictReader(io.StringIO(exports.to_csv(grid))))
    assert list(rows[0]) == list(exports.CSV_COLUMNS)
    estimates = [r for r in rows if r["kind"] == "estimate"]
    differences = [r for r in rows if r["kind"] == "difference"]
    assert len(estimates) == sum(len(r.measures) for r in grid.results)
    assert len(differences) == sum(len(c.differences) for c in grid.comparisons)
    assert len(rows) == len(estimates) + len(differences)
    for row in estimates:
        est = grid.result(row["rule_set"]).measures[row["measure"]]
        assert (float(row["value"]), float(row["low"]), float(row["high"])) == (est.mean, *est.ci)
        assert row["observed"] == ("true" if est.observed else "false") and row["reference"] == row["p"] == ""
    comparisons = {c.rule_set: c for c in grid.comparisons}
    for row in differences:
        c = comparisons[row["rule_set"]]
        d = c.differences[row["measure"]]
        assert row["reference"] == c.reference == grid.reference
        assert (float(row["value"]), float(row["low"]), float(row["high"])) == (d.mean, *d.ci)
        assert float(row["p"]) == d.p and float(row["p_holm"]) == d.p_holm
        assert row["flagged"] == ("true" if d.flagged else "false")
    assert any(r["flagged"] == "true" for r in differences)  # 3,000 points: the final points fall


_CELL = re.compile(r"^([+-]?[0-9.]+)(%?) \(([-0-9.]+) to ([-0-9.]+)\)$")


def _check_cell(name: str, text: str, mean: float, ci: tuple[float, float]) -> None:
    """A table's ``mean (low to high)`` agrees with the report's numbers to the digits printed."""
    m = _CELL.match(text)
    if m is None:
        assert text.startswith(("not observed", "0 (same in every game)")), text
        return
    scale = 100.0 if is_rate(name) else 1.0
    for shown, value in zip((m.group(1), m.group(3), m.group(4)), (mean, *ci), strict=True):
        decimals = len(shown.split(".")[1]) if "." in shown else 0
        assert abs(float(shown) - scale * value) <= 0.5 * 10**-decimals + 1e-9, (name, text, value)


def test_markdown_tables_match_the_report(grid):
    text = exports.to_markdown(grid)
    names = shown_measures(grid)
    diff_part, est_part = text.split("## Estimates")
    row = re.compile(r"^\| `([^`]+)` \| (.*) \|$", re.M)
    diff_rows, est_rows = row.findall(diff_part), row.findall(est_part)
    assert [k for k, _ in diff_rows] == [k for k in names if any(k in c.differences for c in grid.comparisons)]
    assert [k for k, _ in est_rows] == shown_measures(grid, extra=False)
    bold = 0
    for k, cells in diff_rows:
        for c, cell in zip(grid.comparisons, cells.split(" | "), strict=True):
            d = c.differences[k]
            assert cell.startswith("**") == d.flagged
            bold += d.flagged
            _check_cell(k, cell.strip("*").replace("\\*", "*"), d.mean, d.ci)
    assert bold == sum(1 for c in grid.comparisons for k in c.flagged if k in dict(diff_rows)) > 0
    for k, cells in est_rows:
        for r, cell in zip(grid.results, cells.split(" | "), strict=True):
            _check_cell(k, cell, r.measures[k].mean, r.measures[k].ci)
    header = re.search(r"^\| measure \| (.*) \|$", diff_part, re.M)
    assert header and header.group(1).split(" | ") == [f"{c.rule_set} - {grid.reference}" for c in grid.comparisons]


def _unlatex(text: str) -> str:
    return re.sub(r"\\textless\{\}", "<", text).replace("\\%", "%").replace("\\_", "_").replace("\\&", "&")


def test_latex_tabular_rows_match_the_report(grid):
    text = exports.to_latex(grid)
    assert text.count(r"\begin{tabular}") == text.count(r"\end{tabular}") == 2
    assert text.count("{") == text.count("}") + text.count("\\}") - text.count("\\{")  # braces balance
    for line in text.splitlines():
        if not line.startswith("%"):  # a bare %, _, & or # would break the document (comments aside)
            assert not re.search(r"(?<!\\)[%_#]", line), line
    diff_part, est_part = text.split(r"\end{table}")[:2]
    row = re.compile(r"^([a-z_:\\A-Z0-9\-]+) & (.*) \\\\$", re.M)
    diff_rows = [(_unlatex(k), cells) for k, cells in row.findall(diff_part) if k != "measure"]
    est_rows = [(_unlatex(k), cells) for k, cells in row.findall(est_part) if k != "measure"]
    assert len(est_rows) == len(shown_measures(grid, extra=False))
    assert len(diff_rows) == len([k for k in shown_measures(grid) if any(k in c.differences for c in grid.comparisons)])
    for k, cells in diff_rows:
        for c, cell in zip(grid.comparisons, cells.split(" & "), strict=True):
            d = c.differences[k]
            assert cell.startswith(r"\textbf{") == d.flagged
            plain = _unlatex(cell.removeprefix(r"\textbf{").removesuffix("}"))
            _check_cell(k, plain, d.mean, d.ci)
    for k, cells in est_rows:
        for r, cell in zip(grid.results, cells.split(" & "), strict=True):
            _check_cell(k, _unlatex(cell), r.measures[k].mean, r.measures[k].ci)


def test_the_command_line_writes_the_exports(east_only, tmp_path, capsys):
    files = {ext: tmp_path / f"lab.{ext}" for ext in ("csv", "md", "tex")}
    args = ["analyze", "--rules", f"{east_only},mu", "--games", "2", "--seed", "4", "--bots", "efficiency"]
    assert main([*args, "--csv", str(files["csv"]), "--markdown", str(files["md"]), "--latex", str(files["tex"])]) == 0
    out = capsys.readouterr().out
    assert f"CSV: {files['csv']}" in out and f"LaTeX: {files['tex']}" in out
    rows = list(csv.DictReader(io.StringIO(files["csv"].read_text(encoding="utf-8"))))
    assert {r["rule_set"] for r in rows} == {east_only, "mu"}
    assert files["md"].read_text(encoding="utf-8").startswith(f"## Paired differences from {east_only}")
    assert r"\begin{tabular}" in files["tex"].read_text(encoding="utf-8")
    # --json carries the comparisons and the run's metadata, with the command line
    assert main([*args, "--reference", "mu", "--json", "--quiet"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["reference"] == "mu" and list(out["comparisons"]) == [east_only]
    meta = out["metadata"]
    assert meta["reference"] == "mu" and meta["games"] == 2 and meta["seed"] == 4 and meta["jantaku"]
    assert meta["command"].startswith("jantaku analyze --rules") and meta["command"].endswith("--json --quiet")
    assert meta["rule_sets"] == [east_only, "mu"] and meta["python"].count(".") == 2 and meta["started"]


def test_a_rare_measure_moved_alike_is_judged_by_its_own_games():
    # a yaku's han (a ratio) carried by 5 of 400 games, one han higher in each of them under the second rule set:
    # the error is zero, and the sign test that bounds the p-value counts those 5 games, not the 400
    import numpy as np

    from jantaku.lab.compare import p_value
    from jantaku.lab.measures import Measure, difference

    n = 400
    wins = np.zeros(n)
    wins[[3, 50, 120, 260, 399]] = 1.0
    han = lambda s: s["han"] / s["wins"]  # noqa: E731
    base = {"wins": wins, "han": 6.0 * wins, "games": np.ones(n)}
    more = {"wins": wins, "han": 7.0 * wins, "games": np.ones(n)}
    d = difference(Measure("yaku_han:x", han), more, base)
    assert d is not None and d.mean == pytest.approx(1.0) and d.se == 0.0
    assert d.games == 5
    assert p_value(d) == pytest.approx(2.0**-4)  # not 2^-399: five games cannot make it certain
    every = {"wins": np.ones(n), "games": np.ones(n)}
    d_all = difference(Measure("win_rate", lambda s: s["wins"] / s["games"]), every, {**every, "wins": wins})
    assert d_all is not None and d_all.games == n  # every game bears on a win rate
