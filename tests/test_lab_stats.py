"""The rule lab's statistics (jantaku.lab.stats, measures, compare) against hand-computed cases, and the way every
output says that an event was never observed.

The hand computations here are written out with the textbook formulas, not with the lab's functions: the Wilson
score interval, the jackknife standard error of a ratio over games, the effective number of chances, the exact
one-sided bound of a zero count, and Holm's step-down adjustment.
"""

from __future__ import annotations

import csv
import io
import json
import math
import re

import numpy as np
import pytest

from jantaku.cli import main
from jantaku.lab import exports
from jantaku.lab.analysis import analyze
from jantaku.lab.compare import Comparison, adjust
from jantaku.lab.measures import Difference, estimate_measure, rate_measure
from jantaku.lab.report_html import render
from jantaku.lab.report_text import text_report
from jantaku.lab.stats import holm, wilson, zero_upper

Z = 1.959963984540054


def hand_wilson(p: float, n: float) -> tuple[float, float]:
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z / (1 + Z * Z / n) * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n))
    return centre - half, centre + half


def test_wilson_matches_the_published_interval():
    # 20 successes in 100 trials: Wilson's interval is 0.1334 to 0.2888 (Newcombe 1998, table I's method 3 form)
    low, high = wilson(0.2, 100)
    assert round(low, 4) == 0.1334 and round(high, 4) == 0.2888
    # 0 of 10: the lower end is 0 and the upper 0.2775 (z² / (n + z²))
    low, high = wilson(0.0, 10)
    assert low == 0.0 and high == pytest.approx(Z * Z / (10 + Z * Z))


def test_a_rate_uses_wilson_with_the_jackknife_effective_chances():
    # 4 games of 10 player-hands each, with 3, 1, 2 and 2 wins: 8 in 40
    events, chances = np.array([3.0, 1, 2, 2]), np.array([10.0, 10, 10, 10])
    est = estimate_measure(rate_measure("win_rate", "wins", "hands"), {"wins": events, "hands": chances})
    p = 8 / 40
    loo = [(8 - e) / 30 for e in events]  # each game left out in turn
    mean_loo = sum(loo) / 4
    se = math.sqrt(3 / 4 * sum((x - mean_loo) ** 2 for x in loo))  # (n - 1) / n times the sum of squares
    n_eff = p * (1 - p) / se**2
    # the leave-one-out values 5/30, 7/30, 6/30, 6/30: squares (1/30)² twice, times 3/4
    assert se == pytest.approx(math.sqrt(1.5) / 30)
    assert n_eff == pytest.approx(96.0)  # more than the 40 chances (wins are spread evenly): capped at 40
    assert est.mean == p and est.ci == pytest.approx(hand_wilson(p, 40))
    # clustered: all 8 wins in two games - the effective chances fall and the interval widens
    lumpy = estimate_measure(
        rate_measure("win_rate", "wins", "hands"), {"wins": np.array([4.0, 0, 4, 0]), "hands": chances}
    )
    loo = [(8 - e) / 30 for e in (4, 0, 4, 0)]
    se = math.sqrt(3 / 4 * sum((x - sum(loo) / 4) ** 2 for x in loo))
    assert lumpy.ci == pytest.approx(hand_wilson(p, p * (1 - p) / se**2))
    assert lumpy.ci[1] - lumpy.ci[0] > est.ci[1] - est.ci[0]
    # the same rate in every game: the jackknife's error is 0 and the plain Wilson over the 40 chances applies
    even = estimate_measure(
        rate_measure("win_rate", "wins", "hands"), {"wins": np.array([2.0, 2, 2, 2]), "hands": chances}
    )
    assert even.ci == pytest.approx(hand_wilson(0.2, 40))


def test_a_rate_never_observed_has_the_exact_upper_bound():
    est = estimate_measure(
        rate_measure("value:yakuman", "yakuman", "wins"), {"yakuman": np.zeros(3), "wins": np.array([10.0, 7, 13])}
    )
    # (1 - x)^30 = 0.05
    assert not est.observed and est.mean == 0 and est.ci[0] == 0
    assert (1 - est.ci[1]) ** 30 == pytest.approx(0.05)
    assert est.as_json() == {"mean": 0.0, "ci": [0.0, float(f"{est.ci[1]:.6g}")], "observed": 0, "chances": 30}
    assert zero_upper(30) == est.ci[1]


def test_holm_by_hand():
    # p-values 0.01, 0.04, 0.03, 0.005 (m = 4): sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1
    # = 0.02, 0.03, 0.06, 0.04 -> running maximum 0.02, 0.03, 0.06, 0.06
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_identical_games_are_p_1_and_never_flagged():
    d = {
        "same": Difference(0.0, (0.0, 0.0), 0.0, 50),
        "clear": Difference(0.1, (0.08, 0.12), 0.01, 50),  # z = 10
        "noise": Difference(0.01, (-0.01, 0.03), 0.01, 50),  # z = 1: p = 0.3173
    }
    c = adjust(Comparison("b", "a", d))
    assert c.differences["same"].p == 1.0 and not c.differences["same"].flagged
    assert c.differences["noise"].p == pytest.approx(math.erfc(1 / math.sqrt(2)))
    assert c.differences["noise"].p_holm == pytest.approx(2 * c.differences["noise"].p)  # second smallest of 3
    assert c.flagged == ["clear"] and c.tested == 3


# -- a rate never observed reads "not observed (< x%)" everywhere ------------------------------------------------


@pytest.fixture(scope="module")
def east_only(tmp_path_factory):
    path = tmp_path_factory.mktemp("lab_stats") / "east_only.toml"
    path.write_text('base = "mleague"\nname = "east_only"\nrounds = 1\n', encoding="utf-8")
    return str(path)


def _bound_in(text: str, bound: float) -> None:
    """``text`` says ``not observed (< x%)`` with ``x`` the bound to two significant digits."""
    found = re.findall(r"not observed \((?:<|&lt;|\\textless\{\}) ([0-9.]+)(?:%|\\%)\)", text)
    assert found, text[:500]
    x = float(found[0])
    assert abs(x - 100 * bound) <= 0.5 * 10 ** (math.floor(math.log10(100 * bound)) - 1) + 1e-12, (x, bound)


def test_zero_counts_say_not_observed_in_every_output(east_only, tmp_path, capsys):
    rep = analyze(east_only, games=2, seed=1, bots="efficiency", sweep="kiriage=false,true")
    est = rep.results[0].measures["value:yakuman"]
    wins = rep.results[0].measures["value:mangan"].chances  # every value class counts in the wins
    bound = 1 - 0.05 ** (1 / wins)
    assert est.events == 0 and est.ci == (0.0, pytest.approx(bound))
    text = text_report(rep)
    _bound_in(text, bound)
    assert "0 (0 to 0)" not in text and "0.0% (0.0 to 0.0)" not in text
    assert "not observed in either" in text  # the difference of two rates that neither set saw
    # JSON
    j = rep.to_json()["rule_sets"][rep.results[0].name]["measures"]["value:yakuman"]
    assert j["mean"] == 0 and j["observed"] == 0 and j["ci"][0] == 0 and j["ci"][1] == pytest.approx(bound, rel=1e-5)
    assert rep.to_json()["differences"]["kiriage=true"]["value:yakuman"]["observed"] is False
    # CSV: 0, 0 and the exact bound, observed false
    rows = [r for r in csv.DictReader(io.StringIO(exports.to_csv(rep))) if r["measure"] == "value:yakuman"]
    est_row = next(r for r in rows if r["kind"] == "estimate")
    assert float(est_row["value"]) == 0 and float(est_row["low"]) == 0 and float(est_row["high"]) == bound
    assert est_row["observed"] == "false"
    assert next(r for r in rows if r["kind"] == "difference")["observed"] == "false"
    # Markdown, LaTeX, HTML
    for out in (exports.to_markdown(rep), exports.to_latex(rep), render(rep, lambda i, png: f"{i}.png")):
        _bound_in(out, bound)
    # the command line prints the same
    assert (
        main(["analyze", "--rules", east_only, "--games", "2", "--seed", "1", "--bots", "efficiency", "--quiet"]) == 0
    )
    _bound_in(capsys.readouterr().out, bound)
    assert json.dumps(rep.to_json(), allow_nan=False)
