"""Every win recorded in the real Tenhou games scores exactly as Tenhou recorded it, under the `tenhou` preset.

The corpus (tests/data/wins/tenhou_wins.jsonl, built by tools/extract_wins.py from the real records) holds each
win's hand, melds, conditions and Tenhou's own han, fu, points, yaku ids and per-seat deltas.
"""

import json
from pathlib import Path

import pytest

from jantaku.riichi.yaku import YAKU_BY_NAME
from jantaku.scoring_requests import score_json

CORPUS = Path(__file__).parent / "data" / "wins" / "tenhou_wins.jsonl"
CASES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines() if line.strip()]
WINDS = "ESWN"
# Tenhou's ids for what is not a yaku table entry: dora 52, ura 53, aka 54; winds by seat/round
EXTRA_IDS = {"dora": 52, "ura_dora": 53, "aka_dora": 54}


def tenhou_ids(case, out):
    ids = []
    for name, han in out["yaku"]:
        if name == "yakuhai_seat_wind":
            tid = 10 + WINDS.index(case["seat_wind"])
        elif name == "yakuhai_round_wind":
            tid = 14 + WINDS.index(case["round_wind"])
        else:
            tid = EXTRA_IDS.get(name, YAKU_BY_NAME[name].tenhou_id if name in YAKU_BY_NAME else -1)
        ids.append((tid, 13 if out["yakuman"] else han))
    return sorted(ids)


def test_corpus_is_complete():
    assert len(CASES) > 830
    kinds = {"tsumo": 0, "pao": 0, "yakuman": 0, "kan": 0, "double ron": 0}
    for c in CASES:
        kinds["tsumo"] += c["tsumo"]
        kinds["pao"] += c["pao"] is not None
        kinds["yakuman"] += c["expected"]["yakuman"] > 0
        kinds["kan"] += any(m.endswith(("*", "^")) or m.count(m[0]) == 4 for m in c["melds"])
    assert kinds["pao"] >= 2 and kinds["yakuman"] >= 10 and kinds["tsumo"] > 300


def _mismatches(case):
    out = score_json(case)
    exp = case["expected"]
    if "error" in out:
        return [f"error: {out['error']}"]
    diffs = []
    if out["points"] != exp["points"]:
        diffs.append(f"points {exp['points']} != {out['points']}")
    if out["payments"] != exp["deltas"]:
        diffs.append(f"deltas {exp['deltas']} != {out['payments']}")
    if not out["yakuman"] and exp["han"] is not None and out["han"] != exp["han"]:
        diffs.append(f"han {exp['han']} != {out['han']}")
    if not out["yakuman"] and exp["fu"] is not None and out["fu"] != exp["fu"]:
        diffs.append(f"fu {exp['fu']} != {out['fu']}")
    if out["yakuman"] != exp["yakuman"]:
        diffs.append(f"yakuman {exp['yakuman']} != {out['yakuman']}")
    expected_yaku = sorted(tuple(y) for y in exp["yaku"])
    if tenhou_ids(case, out) != expected_yaku:
        diffs.append(f"yaku {expected_yaku} != {tenhou_ids(case, out)}")
    return diffs


@pytest.mark.parametrize("chunk", range(8))
def test_every_recorded_win_scores_as_tenhou_recorded(chunk):
    failures = []
    for case in CASES[chunk::8]:
        diffs = _mismatches(case)
        if diffs:
            failures.append(f"{case['source']}: {'; '.join(diffs)}")
    assert not failures, "\n".join(failures[:10])
