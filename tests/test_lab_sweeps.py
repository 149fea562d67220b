"""``jantaku analyze`` sweeps and null comparisons: several ``--sweep`` make a grid of every combination, bad grids
and references are one-line errors, and a rule set compared with itself under another name flags nothing."""

from __future__ import annotations

import json

import pytest

from jantaku.cli import main
from jantaku.lab.analysis import analyze
from jantaku.lab.rulesets import MAX_RULE_SETS, grid
from jantaku.lab.stats import ALPHA


@pytest.fixture(scope="module")
def rule_files(tmp_path_factory):
    """M-League over the East round, twice: the same rules under two names (rule files, as --rules takes them)."""
    folder = tmp_path_factory.mktemp("lab_sweeps")
    files = {}
    for name in ("east_only", "east_twin"):
        files[name] = folder / f"{name}.toml"
        files[name].write_text(f'base = "mleague"\nname = "{name}"\nrounds = 1\n', encoding="utf-8")
    return {k: str(v) for k, v in files.items()}


def test_two_sweeps_make_the_grid(rule_files):
    rep = analyze(
        rule_files["east_only"], games=2, seed=1, bots="efficiency",
        sweep=["kiriage=false,true", "starting_points=25000,30000,35000"],
    )  # fmt: skip
    cells = [(k, p) for k in ("false", "true") for p in ("25000", "30000", "35000")]
    assert [r.name for r in rep.results] == [f"kiriage={k},starting_points={p}" for k, p in cells]
    for r, (k, p) in zip(rep.results, cells, strict=True):
        assert r.rules.kiriage is (k == "true") and r.rules.starting_points == int(p)
        assert r.rules.rounds == 1 and r.rules.name == "east_only"  # the base's other settings are kept
        assert dict(r.swept) == {"kiriage": k, "starting_points": p}
    assert rep.sweeps == [("kiriage", ["false", "true"]), ("starting_points", ["25000", "30000", "35000"])]
    assert len(rep.comparisons) == 5 and rep.reference == "kiriage=false,starting_points=25000"
    out = rep.to_json()
    assert out["sweep"][1] == {"parameter": "starting_points", "values": ["25000", "30000", "35000"]}
    assert out["rule_sets"]["kiriage=true,starting_points=30000"]["swept"] == {
        "kiriage": "true",
        "starting_points": "30000",
    }


def test_a_grid_over_several_rule_sets_names_the_base():
    cells = grid("mleague,mu", ["kiriage=false,true", "red_fives=[0,0,0],[1,1,1]"])
    assert [c.name for c in cells][:2] == [
        "mleague:kiriage=false,red_fives=[0,0,0]",
        "mleague:kiriage=false,red_fives=[1,1,1]",
    ]
    assert len(cells) == 8 and cells[4].name == "mu:kiriage=false,red_fives=[0,0,0]"
    for c in cells:
        assert c.rules.kiriage is (dict(c.swept)["kiriage"] == "true")
        assert list(c.rules.red_fives) == json.loads(dict(c.swept)["red_fives"])
        assert c.rules.family == "riichi" and c.base in ("mleague", "mu")
    assert cells[4].rules.starting_points != cells[0].rules.starting_points  # mu's own 30,000 is kept


def test_a_second_sweep_on_the_command_line_is_not_ignored(rule_files, capsys):
    args = ["analyze", "--rules", rule_files["east_only"], "--games", "2", "--bots", "efficiency", "--json", "--quiet"]
    assert main([*args, "--sweep", "kiriage=false,true", "--sweep", "starting_points=25000,30000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["rule_sets"]) == 4 and [s["parameter"] for s in out["sweep"]] == ["kiriage", "starting_points"]
    assert out["metadata"]["sweep"] == ["kiriage=false,true", "starting_points=25000,30000"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--sweep", "kiriage=false,true", "--sweep", "kiriage=true,false"], "--sweep kiriage is given twice"),
        (
            ["--rules", "mleague,mu", "--sweep", "kiriage=false,true", "--sweep", "starting_points=1,2,3,4,5,6,7"],
            f"at most {MAX_RULE_SETS} rule sets in one analysis, got 28 (2 rule sets x 2 kiriage x 7 starting_points)",
        ),
        (["--sweep", "kiriage=false,true", "--sweep", "starting_points"], "give it as PARAM=V1,V2,..."),
        (["--sweep", "kiriage=false,true", "--sweep", "family=riichi,jielu"], "cannot be swept"),
        (
            ["--rules", "mleague,mu", "--reference", "tenhou"],
            "--reference 'tenhou': no rule set of that name; the rule sets are: mleague, mu",
        ),
        (["--sweep", "kiriage=false,true", "--reference", "mleague"], "the rule sets are: kiriage=false, kiriage=true"),
        (["--csv", "/nowhere/at/all.csv"], "--csv '/nowhere/at/all.csv': not a file in an existing folder"),
        (["--markdown", "/nowhere/x.md"], "--markdown '/nowhere/x.md': not a file in an existing folder"),
        (["--csv", "same.out", "--latex", "same.out"], "must name different files"),
    ],
)
def test_bad_grids_and_references_are_one_line_errors(args, message, capsys):
    assert main(["analyze", "--games", "2", "--bots", "efficiency", "--quiet", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("jantaku analyze: error: ") and message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_a_rule_set_against_itself_flags_nothing(rule_files):
    # the same rules under another name play the same games: every difference is zero in every game, p = 1
    rules = f"{rule_files['east_only']},{rule_files['east_twin']}"
    for seed in range(20):
        rep = analyze(rules, games=2, seed=seed, bots="efficiency", workers=1)
        [c] = rep.comparisons
        assert c.flagged == [] and c.tested > 30, seed
        assert all(d.p == 1.0 and d.p_holm == 1.0 and d.mean == 0 for d in c.differences.values()), seed
        assert all(not d.flagged and (d.p_holm or 1) >= ALPHA for d in c.differences.values())
    assert [r.rules.name for r in rep.results] == ["east_only", "east_twin"]
