"""Rule sets: presets load, user files start from a preset, bad keys and values are named; the CLI shows them."""

import dataclasses
import json

import pytest

from jantaku.cli import main
from jantaku.rules import RulesError, Ruleset, diff_rules, load_rules, preset_names


def test_presets():
    assert preset_names() == ["jielu", "jielu_original", "mahjongsoul", "meibi", "mleague", "mu", "standard", "tenhou"]
    for name in preset_names():
        r = load_rules(name)
        assert r.name == name and r.title


@pytest.mark.parametrize(
    ("name", "values"),
    [
        # RULES.md section 1, column by column (a sample of the rows that differ)
        (
            "mu",
            {
                "ippatsu": False,
                "ura_dora": False,
                "kan_dora": False,
                "red_fives": (0, 0, 0),
                "kiriage": False,
                "kazoe_yakuman": False,
                "yakuman_stacking": False,
                "double_wind_pair_fu": 2,
                "honba_points": 0,
                "multiple_ron": "head_bump",
                "bust": False,
                "abortive_draws": frozenset(),
                "kuikae": "allowed",
                "leftover_deposits": "nobody",
                "starting_points": 30000,
                "return_points": 30000,
            },
        ),
        (
            "mleague",
            {
                "kiriage": True,
                "kazoe_yakuman": False,
                "yakuman_stacking": True,
                "double_wind_pair_fu": 2,
                "pao": frozenset({"daisangen", "daisuushii", "suukantsu"}),
                "pao_honba": "liable",
                "rank_points": (50000, 10000, -10000, -30000),
                "kan_dora_timing": "immediate",
                "multiple_ron": "head_bump",
                "abortive_draws": frozenset(),
                "nagashi_mangan": False,
            },
        ),
        (
            "standard",
            {
                "kiriage": False,
                "kazoe_yakuman": True,
                "double_wind_pair_fu": 4,
                "multiple_ron": "double",
                "riichi_min_wall": 4,
                "riichi_min_points": 1000,
                "agari_yame": True,
                "west_round_target": 30000,
            },
        ),
        (
            "meibi",
            {
                "kiriage": True,
                "kazoe_yakuman": True,
                "double_wind_pair_fu": 4,
                "multiple_ron": "all",
                "red_fives": (0, 0, 0),
                "west_round_target": 35000,
                "karaten_is_noten": True,
                "leftover_deposits": "first_if_decided",
                "rank_points": (35000, 5000, -5000, -15000),
                "abortive_draws": frozenset({"nine_terminals", "four_winds", "four_riichi", "four_kans"}),
            },
        ),
        ("tenhou", {"chankan_closed_kan": "never", "red_fives": (1, 1, 1)}),
    ],
)
def test_preset_values_follow_rules_md(name, values):
    r = load_rules(name)
    for key, value in values.items():
        assert getattr(r, key) == value, key


def test_every_parameter_is_documented_with_a_source():
    for f in dataclasses.fields(Ruleset):
        assert f.metadata.get("doc"), f.name
        assert f.metadata.get("source"), f.name


def test_user_file_starts_from_a_preset(tmp_path):
    path = tmp_path / "league.toml"
    path.write_text('base = "mleague"\nname = "league"\nkiriage = false\npao = ["daisangen"]\n', encoding="utf-8")
    r = load_rules(path)
    assert r.name == "league" and r.kiriage is False and r.pao == frozenset({"daisangen"})
    assert r.rank_points == load_rules("mleague").rank_points
    assert {k for k, _, _ in diff_rules(load_rules("mleague"), r)} == {"name", "kiriage", "pao"}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('base = "mleague"\nkiriagee = true\n', "unknown rule parameter 'kiriagee'"),
        ("kiriage = 1\n", "kiriage must be true or false"),
        ('multiple_ron = "triple"\n', "multiple_ron must be one of head_bump, double, all"),
        ("rank_points = [1, 2, 3]\n", "rank_points must be a list of 4 integers"),
        ('pao = ["daisangen", "kokushi"]\n', "pao: unknown value 'kokushi'"),
        ("red_fives = [2, 1, 1]\n", "red_fives must be 0 or 1 per suit"),
        ('base = "nope"\n', "unknown rule set 'nope'"),
        ("starting_points = -5\n", "starting_points must not be negative"),
        ("[section]\nx = 1\n", "unknown rule parameter 'section'"),
        ("kiriage = \n", "not valid TOML"),
    ],
)
def test_bad_user_files_name_the_key(tmp_path, text, message):
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(RulesError, match=message):
        load_rules(path)


def test_replace_validates():
    r = load_rules("standard")
    assert r.replace(double_wind_pair_fu=2).double_wind_pair_fu == 2
    with pytest.raises(RulesError, match="unknown rule parameter"):
        r.replace(nonsense=1)
    with pytest.raises(RulesError, match="kuikae must be one of"):
        r.replace(kuikae="sometimes")
    with pytest.raises(RulesError, match="rule file not found"):
        load_rules("missing/file.toml")


def test_cli_rules(capsys):
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert all(name in out for name in preset_names())
    assert main(["rules", "mleague"]) == 0
    out = capsys.readouterr().out
    for f in dataclasses.fields(Ruleset):
        if f.name not in ("name", "title"):
            assert f"\n{f.name} = " in out
    assert "kiriage = true" in out and "[M-League 2023 6章4条2; 眉笔 6章6条]" in out
    assert main(["rules", "--diff", "mu", "mleague"]) == 0
    out = capsys.readouterr().out
    assert "kiriage" in out and "rounds" not in out
    assert main(["rules", "--diff", "standard", "standard"]) == 0
    assert "the same" in capsys.readouterr().out
    assert main(["rules", "bogus"]) == 2
    assert "unknown rule set 'bogus'" in capsys.readouterr().err


def test_cli_score_flags(capsys):
    code = main(
        [
            "score",
            "234m567p456s78999s",
            "--win",
            "9s",
            "--tsumo",
            "--riichi",
            "--dora",
            "3m",
            "--rules",
            "mleague",
            "--seat",
            "S",
            "--winner",
            "1",
            "--honba",
            "1",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "4 han 20 fu: 5200 points (1300/2600)" in out
    assert "seat 0 -2700, seat 1 +5500, seat 2 -1400, seat 3 -1400" in out
    assert main(["score", "123m456p11z", "777z+", "1111s*", "--win", "1z", "--json"]) == 0
    res = json.loads(capsys.readouterr().out)
    assert (res["han"], res["fu"], res["points"]) == (1, 70, 3400)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", "123m456p789s1122z", "--win", "2z"], "14 tiles"),
        (["score", "123m456p789s11222z", "--riichi", "--ippatsu", "--rules", "mu"], "has no ippatsu"),
        (["score", "123m456p789s11222z", "--ippatsu"], "ippatsu needs riichi"),
        (["score", "123m456p789s11222z", "--rinshan", "--tsumo"], "needs a kan"),
        (["score", "123m456p789s11z", "777z+", "--riichi"], "riichi needs a closed hand"),
        (["score", "123m456p789s11222z", "--tenhou", "--tsumo", "--seat", "S"], "tenhou is the dealer"),
        (["score", "123m456p789s11222z", "--win", "5m"], "not among the closed tiles"),
        (["score", "123m456p789s11233z"], "not a complete hand"),
        (["score", "234m456p789s11m", "567s+"], "no yaku"),
        (["score", "123m456p789s11222z", "--rules", "nope"], "unknown rule set"),
        (["score", "123m456p789s11222z", "--seat", "X"], "seat_wind must be E, S, W or N"),
    ],
)
def test_cli_score_errors(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_cli_score_jsonl(capsys, monkeypatch):
    import io

    lines = [
        {"hand": "234m567p456s78999s", "win": "9s", "tsumo": True},
        {"hand": "123m456p11z", "melds": ["p474747", "313131a31"], "win": "1z"},
        {"hand": "234m567p456s78999s", "win": "1s"},
        {"hand": "234m567p456s78999s", "win": "9s", "colour": "red"},
    ]
    text = "\n".join(json.dumps(x) for x in lines) + "\nnot json\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    assert main(["score", "--jsonl"]) == 0
    outs = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(outs) == 5
    assert (outs[0]["han"], outs[0]["fu"], outs[0]["points"]) == (2, 20, 2100)
    assert outs[1]["points"] == 3400 and outs[1]["fu"] == 70
    assert "not among the closed tiles" in outs[2]["error"]
    assert "unknown field 'colour'" in outs[3]["error"]
    assert "not JSON" in outs[4]["error"]
