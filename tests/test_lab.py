"""``jantaku analyze`` (jantaku.lab): measures move the way the rules say, the same seed gives the same report,
processes and Ray give the games of one process, and bad input is refused with a clear error (exit 2).

Small numbers of games with the ``efficiency`` bot on an East-only M-League variant keep this module fast; the
effects tested are large enough to clear their 95% intervals there.
"""

from __future__ import annotations

import json
import sys
import types

import pytest

from jantaku.cli import analyze_cmd, main
from jantaku.lab.analysis import analyze
from jantaku.lab.report_html import html_report
from jantaku.lab.runner import lineup_at, play_row
from jantaku.rules import load_rules


@pytest.fixture(scope="module")
def east_only(tmp_path_factory):
    """M-League rules played over the East round only (a user rule file, as `--rules` takes them)."""
    path = tmp_path_factory.mktemp("lab") / "east_only.toml"
    path.write_text('base = "mleague"\nname = "east_only"\nrounds = 1\n', encoding="utf-8")
    return str(path)


def run_json(capsys, *args: str) -> dict:
    assert main(["analyze", *args, "--json", "--quiet"]) == 0
    return json.loads(capsys.readouterr().out)


# -- measures move the right way -------------------------------------------------------------------------------


def test_lower_starting_points_raise_the_bust_rate_beyond_the_intervals(east_only, capsys):
    # M-League 6章1条1: 25,000 points each; with 3,000 a player goes below zero after almost any payment
    out = run_json(
        capsys, "--rules", east_only, "--sweep", "starting_points=25000,3000", "--games", "12", "--seed", "3",
        "--bots", "efficiency",
    )  # fmt: skip
    sets = out["rule_sets"]
    assert list(sets) == ["starting_points=25000", "starting_points=3000"]
    high, low = sets["starting_points=25000"]["measures"], sets["starting_points=3000"]["measures"]
    assert low["bust_rate"]["ci"][0] > high["bust_rate"]["ci"][1]
    assert low["bust_rate"]["mean"] > 0.9
    # the paired difference says the same, and the players' points at the end fall with the start
    diff = out["differences"]["starting_points=3000"]
    assert diff["bust_rate"]["ci"][0] > 0
    assert low["points:1st"]["ci"][1] < high["points:1st"]["ci"][0]


def test_kiriage_raises_hand_values_on_the_same_walls(east_only, capsys):
    # kiriage (M-League 6章4条2): 4 han 30 fu and 3 han 60 fu are paid as mangan, so wins are worth more and more
    # of them are mangan; on the same walls the paired difference clears zero though each set's interval overlaps
    out = run_json(
        capsys, "--rules", east_only, "--sweep", "kiriage=false,true", "--games", "16", "--seed", "1",
        "--bots", "efficiency",
    )  # fmt: skip
    off = out["rule_sets"]["kiriage=false"]["measures"]
    on = out["rule_sets"]["kiriage=true"]["measures"]
    diff = out["differences"]["kiriage=true"]
    assert on["mean_win"]["mean"] > off["mean_win"]["mean"]
    assert diff["mean_win"]["ci"][0] > 0, diff["mean_win"]
    assert diff["value:mangan"]["ci"][0] > 0, diff["value:mangan"]


def test_mu_has_no_red_fives_ippatsu_or_ura(capsys):
    # μ 2021, Art 1 (no red tiles), Art 51 (no ippatsu), Art 16 (one indicator): those yaku never appear
    out = run_json(capsys, "--rules", "mu,mleague", "--games", "3", "--seed", "2", "--bots", "efficiency")
    mu, ml = out["rule_sets"]["mu"]["measures"], out["rule_sets"]["mleague"]["measures"]
    for yaku in ("aka_dora", "ippatsu", "ura_dora"):
        assert mu.get(f"yaku:{yaku}", {"mean": 0})["mean"] == 0
    assert ml["yaku:aka_dora"]["mean"] > 0


def test_skill_share_and_per_bot_measures(capsys):
    out = run_json(capsys, "--rules", "mleague", "--games", "4", "--seed", "5", "--bots", "strong,random,random,random")
    m = out["rule_sets"]["mleague"]["measures"]
    # random bots never win a hand worth having; the strong bot's mean final score is far above theirs
    assert m["final:strong"]["mean"] > m["final:random"]["mean"]
    assert 0 < m["skill_share"]["mean"] <= 1
    low, high = m["skill_share"]["ci"]
    assert 0 <= low <= m["skill_share"]["mean"] <= high <= 1
    # one bot at every seat: no per-bot measures and no skill share
    out = run_json(capsys, "--rules", "mleague", "--games", "2", "--seed", "5", "--bots", "efficiency")
    assert "skill_share" not in out["rule_sets"]["mleague"]["measures"]


def test_rates_are_consistent_with_each_other(east_only):
    rep = analyze(east_only, games=6, seed=7, bots="efficiency")
    m = rep.results[0].measures
    # four players' win rates plus the draws make at least every hand (several winners are possible)
    assert 4 * m["win_rate"].mean + m["draw_rate"].mean >= 0.999
    assert m["final:1st"].mean > m["final:2nd"].mean > m["final:3rd"].mean > m["final:4th"].mean
    assert abs(sum(v.mean for k, v in m.items() if k.startswith("value:")) - 1) < 1e-9
    # M-League 3章11条1: no abortive draws at all
    assert m["abortive_rate"].mean == 0 and m["draw_rate"].mean > 0
    for est in m.values():
        assert est.ci[0] <= est.mean <= est.ci[1]


# -- reproducible: same seed, same report; processes and Ray play the same games ---------------------------------


def test_same_seed_same_json_and_workers_do_not_change_it(east_only, capsys):
    args = ["--rules", f"{east_only},mu", "--games", "4", "--seed", "11", "--bots", "efficiency"]
    first = run_json(capsys, *args)
    again = run_json(capsys, *args)
    two_processes = run_json(capsys, *args, "--workers", "2")
    # the run's metadata (start, seconds, workers, command line) aside, the reports are the same object
    meta = [out.pop("metadata") for out in (first, again, two_processes)]
    assert first == again == two_processes
    assert meta[2]["workers"] == 2 and meta[0]["seed"] == 11 and meta[0]["command"].endswith("--json --quiet")
    other = run_json(capsys, *args[:-4], "--seed", "12", "--bots", "efficiency")
    assert other["rule_sets"] != first["rule_sets"]


def test_common_random_numbers_same_walls_and_seats():
    # game i deals the same walls to the same bots under every rule set: the first hand's tiles are equal
    lineup = ("strong", "efficiency", "efficiency", "efficiency")
    assert lineup_at(lineup, 0)[0] == "strong" and lineup_at(lineup, 1)[1] == "strong"
    from jantaku.lab.runner import _play

    a = _play(load_rules("mu"), 4, 2, lineup)
    b = _play(load_rules("meibi"), 4, 2, lineup)
    start = next(e for e in a.events if e["type"] == "start_kyoku")
    start_b = next(e for e in b.events if e["type"] == "start_kyoku")
    assert start["tehais"] == start_b["tehais"] and start["oya"] == start_b["oya"] == 0
    assert play_row(load_rules("mu"), 4, 2, lineup).sums == play_row(load_rules("mu"), 4, 2, lineup).sums


# -- output ----------------------------------------------------------------------------------------------------


def test_table_and_html_report(tmp_path, capsys):
    target = tmp_path / "report.html"
    args = ["analyze", "--rules", "mleague,mu", "--games", "2", "--seed", "1", "--bots", "efficiency"]
    assert main([*args, "--html", str(target), "--quiet"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith("2 games per rule set, seed 1")
    assert "win_rate" in out and "Paired differences from mleague on the same walls" in out
    # the differences lead, the estimates follow
    assert out.index("Paired differences") < out.index("Flagged:") < out.index("Estimates (95% intervals")
    text = target.read_text(encoding="utf-8")
    # forest plots of the differences (one per group of measures), then key measures, two histograms, yaku
    forests = text.count("<figcaption>Paired differences from mleague")
    assert forests >= 5 and text.count('<img src="data:image/png;base64,') == forests + 4
    assert "<script" not in text and "mean_win" in text


def test_sweep_report_draws_a_curve_with_its_band(east_only):
    rep = analyze(east_only, games=2, seed=1, bots="efficiency", sweep="starting_points=25000,20000,15000")
    text = html_report(rep)
    assert "over starting_points (band: 95% interval)" in text
    assert [r.name for r in rep.results] == [f"starting_points={v}" for v in (25000, 20000, 15000)]


def test_jielu_rule_set(capsys):
    out = run_json(capsys, "--rules", "jielu", "--games", "2", "--seed", "1", "--bots", "efficiency")
    m = out["rule_sets"]["jielu"]["measures"]
    assert "value:S1" in m and "value:below_mangan" not in m and m["win_rate"]["mean"] > 0


# -- bad input -------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "nosuch"], "unknown rule set 'nosuch'"),
        (["--rules", "mleague,,mu"], "give preset names or rule files separated by commas"),
        (["--rules", "mu,mu"], "a rule set is named twice"),
        (["--rules", "/nowhere/x.toml"], "rule file not found"),
        (["--sweep", "kiriage"], "give it as PARAM=V1,V2"),
        (["--sweep", "kiriage=true"], "at least two values"),
        (["--sweep", "kiriage=true,,false"], "an empty value"),
        (["--sweep", "nosuch_param=1,2"], "unknown rule parameter 'nosuch_param'"),
        (["--sweep", "starting_points=25000,lots"], "starting_points must be an integer"),
        (["--sweep", "family=riichi,jielu"], "cannot be swept"),
        (["--games", "0"], "--games must be 2-100000, got 0"),
        (["--games", "1"], "--games must be 2-100000"),
        (["--games", "10000000"], "--games must be 2-100000"),
        (["--workers", "0"], "--workers must be 1-256"),
        (["--bots", "strong,random"], "give one bot for every seat or four"),
        (["--bots", "nosuchbot"], "unknown bot 'nosuchbot'"),
        (["--ray", "127.0.0.1:1", "--workers", "2"], "--workers sets the CPUs of a local Ray instance"),
        (["--html", "/nowhere/at/all.html"], "not a file in an existing folder"),
    ],
)
def test_bad_input_is_a_clear_error(args, message, capsys):
    assert main(["analyze", "--games", "2", *args] if "--games" not in args else ["analyze", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("jantaku analyze: error: ") and message in err, err
    assert "Traceback" not in err


def test_unknown_tool_is_an_argparse_error(capsys):
    with pytest.raises(SystemExit) as e:
        main(["analyze", "nosuch-tool"])
    assert e.value.code == 2 and "invalid choice: 'nosuch-tool'" in capsys.readouterr().err


# -- `jantaku analyze NAME ...` hands over to a module -------------------------------------------------------------


def test_a_tool_gets_its_own_arguments(monkeypatch, capsys):
    seen = {}
    fake = types.ModuleType("jantaku_test_tool")

    def add_arguments(parser):
        parser.add_argument("--games", type=int, default=1)
        parser.add_argument("--flag", action="store_true")

    def run(args):
        seen.update(vars(args))
        return 0

    fake.add_arguments, fake.run = add_arguments, run
    monkeypatch.setitem(sys.modules, "jantaku_test_tool", fake)
    monkeypatch.setattr(analyze_cmd, "SUBCOMMANDS", {"test-tool": "jantaku_test_tool"})
    assert main(["analyze", "test-tool", "--games", "7", "--flag"]) == 0
    assert seen == {"games": 7, "flag": True}
    with pytest.raises(SystemExit) as e:
        main(["analyze", "test-tool", "--bogus"])
    assert e.value.code == 2 and "jantaku analyze test-tool: error: unrecognized arguments: --bogus" in (
        capsys.readouterr().err
    )


def test_a_missing_tool_module_is_a_clear_error(monkeypatch, capsys):
    monkeypatch.setattr(analyze_cmd, "SUBCOMMANDS", {"gone": "jantaku.lab.no_such_tool_module"})
    assert main(["analyze", "gone", "--games", "3"]) == 2
    err = capsys.readouterr().err
    assert "`jantaku analyze gone` is not available in this installation" in err and "Traceback" not in err
