"""Scoring cases from the rule documents, per preset, each quoting the article it checks.

tests/data/rule_docs/cases.jsonl: at least 15 hands per riichi preset covering every place the rule documents page
(docs/rules/sources.md) says the presets' scoring differs, the yaku each seed lists, and the documents' own worked
examples (M-League's "1300·2600的1400·2700", the pao example 16000 / 32300+8000 / 8000). meibi_score_table.json is
every cell of 眉笔's printed score table (003 6章4条), with the kiriage cells corrected by 6章6条.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from jantaku.riichi import WinConditions, score_hand
from jantaku.riichi.points import basic_points, payments
from jantaku.rules import load_rules
from jantaku.scoring_requests import score_json
from jantaku.tiles import Tile

DATA = Path(__file__).parent / "data" / "rule_docs"
CASES = [json.loads(line) for line in (DATA / "cases.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]


def test_at_least_15_cases_per_preset_each_quoting_an_article():
    per = Counter(c["rules"] for c in CASES)
    assert all(per[p] >= 15 for p in ("mu", "mleague", "standard", "meibi")), per
    assert all(c["article"] and c["quote"] for c in CASES)
    assert len({c["id"] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_rule_document_case(case):
    out = score_json(case)
    exp = case["expected"]
    if "error" in exp:
        assert "error" in out, f"expected an error ({exp['error']}), got {out}"
        return
    assert "error" not in out, out["error"]
    assert out["points"] == exp["points"]
    assert out["payments"] == exp["payments"]
    assert out["yakuman"] == exp.get("yakuman", 0)
    if not out["yakuman"]:
        assert out["han"] == exp["han"]
        if exp.get("fu") is not None:
            assert out["fu"] == exp["fu"]
        if "yaku" in exp:
            assert sorted(map(tuple, out["yaku"])) == sorted(map(tuple, exp["yaku"]))


def _cells():
    return json.loads((DATA / "meibi_score_table.json").read_text(encoding="utf-8"))


def test_meibi_score_table_every_cell():
    """003 6章4条: every printed cell, except the two kiriage cells that 6章6条 overrides."""
    rules = load_rules("meibi")
    cells = _cells()
    cells = cells["cells"] if isinstance(cells, dict) else cells
    assert len(cells) >= 40
    checked = 0
    for cell in cells:
        fu, han = cell["fu"], cell["han"]
        want = cell.get("kiriage_correction") or cell
        basic, _ = basic_points(han, fu, 0, rules)
        for key, dealer, tsumo in (
            ("nondealer_ron", False, False),
            ("dealer_ron", True, False),
            ("nondealer_tsumo", False, True),
            ("dealer_tsumo_each", True, True),
        ):
            value = want.get(key)
            if value in (None, "-", ""):
                continue
            c = WinConditions(win=Tile("1m"), tsumo=tsumo, seat_wind="E" if dealer else "S", winner=0 if dealer else 1)
            deltas, points = payments(basic, c, rules)
            if not tsumo:
                assert points == value, (fu, han, key)
            elif dealer:
                assert -deltas[1] == value, (fu, han, key)
            else:
                assert [-deltas[2], -deltas[0]] == list(value), (fu, han, key)
            checked += 1
    assert checked >= 120


def test_mleague_pao_example():
    """001 8章1条3: 一本场，西家被南家鸣牌形成大三元确定，南家自摸大三元·字一色：东家16000、西家32300+8000、北家8000."""
    c = WinConditions(win=Tile("1z"), tsumo=True, seat_wind="S", winner=1, honba=1, pao=2)
    r = score_hand("111z44z 555z+ 666z+ 777z+2", c, "mleague")
    assert r.yakuman == 2
    assert r.payments == [-16000, 64300, -32300 - 8000, -8000]
