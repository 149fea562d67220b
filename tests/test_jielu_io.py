"""洁律 through the machine interface: ``score_json`` dispatch, ``jantaku score --rules jielu`` and ``--jsonl``.

RULES.md section 2, machine interface: the same input fields as for riichi, plus ``extra_wildcards``; output
``score``, ``fans`` as [name, points, melds used], ``wildcards`` (how many, and what each stood for); score 0 with
an ``error`` when the hand cannot reach 1 point.
"""

from __future__ import annotations

import io
import json

import pytest

from jantaku.cli import main
from jantaku.jielu.jsonio import request_from_json, score_request
from jantaku.riichi.jsonio import request_from_json as riichi_request
from jantaku.scoring_requests import score_json

RIICHI = {"hand": "234m567p456s78999s", "win": "9s", "tsumo": True, "riichi": True, "dora": ["3m"],
          "seat_wind": "S", "winner": 1, "honba": 1, "rules": "mleague"}  # fmt: skip


def test_score_json_dispatches_on_the_rule_set_family():
    out = score_json({"hand": "123m456p789s11z344z", "win": "4z", "tsumo": True, "rules": "jielu"})
    assert out["score"] == 5
    assert out["fans"] == [["三步顺", 3, ["123m", "456p", "789s"]], ["九数齐", 6, []], ["双风", 2, []]]
    assert out["wildcards"] == {"count": 1, "each": [["3z", "1z"]]}
    assert out["melds"] == ["123m", "456p", "789s", "111z"] and out["pair"] == "44z"
    assert out["mode"] == "points" and out["rules"] == "jielu"


def test_riichi_requests_are_unchanged():
    out = score_json(RIICHI)
    assert (out["han"], out["fu"], out["points"], out["payments"]) == (4, 20, 5200, [-2700, 5500, -1400, -1400])
    assert score_json({"hand": "123m", "win": "1m"})["error"].startswith("a hand has 13 or 14 tiles")
    assert "unknown rule set" in score_json({"hand": "123m456p789s11z344z", "rules": "nope"})["error"]


def test_riichi_request_reader_refuses_a_jielu_rule_set():
    with pytest.raises(Exception, match="jielu family"):
        riichi_request({"hand": "123m456p789s11z344z", "win": "4z", "rules": "jielu"})


def test_extra_wildcards():
    out = score_json({"hand": "123m123m456m789m1z", "extra_wildcards": 1, "rules": "jielu"})
    assert out["score"] == 9 and out["wildcards"] == {"count": 1, "each": [["extra", "1z"]]}
    bad = score_json({"hand": "123m123m456m789m1z", "extra_wildcards": 1, "tsumo": True, "rules": "jielu"})
    assert "no winning tile or circumstances" in bad["error"]
    assert (
        "extra_wildcards must be"
        in score_json({"hand": "123m123m456m789m1z", "extra_wildcards": "1", "rules": "jielu"})["error"]
    )


def test_a_hand_that_cannot_win_scores_0_with_an_error():
    out = score_json({"hand": "19m19p19s11234567z", "rules": "jielu"})
    assert out["score"] == 0 and out["fans"] == [] and "cannot win" in out["error"]


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"riichi": True}, "no riichi"),
        ({"dora": "1m"}, "no dora"),
        ({"honba": 2}, "no honba"),
        ({"pao": 1}, "pao is per fan"),
        ({"red_fives": True}, "riichi rule override"),
        ({"colour": "red"}, "unknown field 'colour'"),
        ({"win": "9m"}, "not among the closed tiles"),
        ({"hand": "11111m456p789s11z5z"}, "five copies of 1m"),
        ({"hand": "123m456p789s1134z"}, "13 tiles"),
        ({"melds": ["555z+"], "hand": "123m456p789s11z"}, None),
    ],
)
def test_bad_requests(extra, message):
    req = {"hand": "123m456p789s11z344z", "rules": "jielu", **extra}
    out = score_json(req)
    if message is None:
        assert out["score"] >= 1
    else:
        assert message in out["error"]


def test_original_mode_gives_payments(tmp_path):
    rules = tmp_path / "jielu_original.toml"
    rules.write_text('base = "jielu"\nname = "jielu_original"\njielu_mode = "original"\n', encoding="utf-8")
    out = score_json({"hand": "123m456p789s11z344z", "winner": 2, "rules": str(rules)})
    assert out["mode"] == "original" and out["payments"] == [-1, -1, 3, -1]  # S = 5: 3 x (5 - 4)
    req = request_from_json({"hand": "123m456p789s11z344z", "winner": 2, "rules": str(rules)})
    assert req.rules.jielu_mode == "original" and req.conditions.winner == 2


def test_score_request_directly():
    assert score_request({"hand": "123m456p789s11z555z", "win": "5z"})["score"] >= 1  # rules default to jielu
    assert "not a 洁律 rule set" in score_request({"hand": "123m456p789s11z555z", "rules": "mleague"})["error"]


# -- the command line ---------------------------------------------------------------------------------------------


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_the_explanation(capsys):
    code, out, err = run(capsys, "score", "123m456p789s11z344z", "--tsumo", "--rules", "jielu")
    assert code == 0 and not err
    assert out.splitlines() == [
        "123m456p789s11344z  win 4z  (tsumo)  (rules jielu, points mode)",
        "score 5: value 11, halved once (1 wildcard)",
        "  melds 123m 456p 789s 111z, pair 44z",
        "  三步顺   3  123m 456p 789s",
        "  九数齐   6",
        "  双风     2",
        "  wildcard 3z -> 1z",
        "  (incidental fans do not count with wildcards)",
    ]


def test_cli_non_winner_and_json(capsys):
    code, out, _ = run(capsys, "score", "123m123m456m789m1z", "--extra-wildcards", "1", "--rules", "jielu")
    assert code == 0 and "+ 1 extra wildcard, no win" in out and "wildcard extra -> 1z" in out
    code, out, _ = run(capsys, "score", "123m456p789s11z", "555z+", "--rules", "jielu", "--json")
    data = json.loads(out)
    assert code == 0 and data["melds"] == ["123m", "456p", "789s", "555z+"] and data["wildcards"]["count"] == 0


def test_cli_errors(capsys):
    code, out, err = run(capsys, "score", "123m456p789s11z344z", "--riichi", "--rules", "jielu")
    assert code == 2 and out == "" and "洁律 has no riichi" in err
    code, _, err = run(capsys, "score", "123m456p789s11z344z", "--extra-wildcards", "1")
    assert code == 2 and "a 洁律 option" in err


def test_cli_jsonl_mixes_rule_sets(capsys, monkeypatch):
    lines = [
        json.dumps({"hand": "123m456p789s11z344z", "rules": "jielu", "tsumo": True}),
        json.dumps(RIICHI),
        json.dumps({"hand": "123m123m456m789m1z", "extra_wildcards": 1, "rules": "jielu"}),
        "not json",
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    code, out, _ = run(capsys, "score", "--jsonl")
    results = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(results) == 4
    assert results[0]["score"] == 5 and results[1]["points"] == 5200 and results[2]["score"] == 9
    assert "not JSON" in results[3]["error"]
