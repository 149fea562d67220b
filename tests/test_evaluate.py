"""Issue 35: `jantaku evaluate` - a policy (a bot, an mjai program or a Python policy named py:...) against fixed
opponents on duplicate deals with the seats rotated, with 95% intervals over deals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from jantaku.bots.registry import make_bot
from jantaku.errors import JantakuError
from jantaku.lab.evaluate import POLICY, _deal_row, evaluate
from jantaku.rules import load_rules

ROOT = Path(__file__).parents[1]
FIRST_LEGAL = f"py:{ROOT / 'examples' / 'first_legal.py'}:act"


def test_a_deal_is_played_once_from_each_seat():
    row = _deal_row(load_rules("tenhou"), 3, 0, ("efficiency", "random", "random", "random"), (POLICY, "a", "b", "c"))
    assert row.sums["games"] == 4
    assert row.sums[f"n:{POLICY}"] == 4 and row.sums["n:a"] == row.sums["n:b"] == row.sums["n:c"] == 4


def test_a_strong_policy_shows_in_the_intervals():
    ev = evaluate("efficiency", "random", rules="tenhou", deals=6, seed=2)
    rank = ev.measures[POLICY]["rank"]
    assert ev.games == 24 and rank.ci[0] <= rank.mean <= rank.ci[1]
    assert rank.ci[1] < 2.5  # better than the average seat, beyond the interval
    opp = ev.measures["random"]["rank"]
    assert opp.mean > 2.5
    assert abs(rank.mean + 3 * opp.mean - 10) < 1e-6  # the four seats' places sum to 10
    assert "95% intervals over deals" in ev.report() and json.loads(json.dumps(ev.as_json()))["games"] == 24


def test_a_python_policy_from_a_file_plays_in_worker_processes():
    ev = evaluate(FIRST_LEGAL, "random", rules="mleague", deals=2, seed=1, workers=2)
    assert ev.games == 8 and set(ev.measures) == {POLICY, "random"}


def test_python_policies_are_named_when_they_fail_to_load(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("raise RuntimeError('no checkpoint here')\n", encoding="utf-8")
    with pytest.raises(JantakuError, match=r"cannot import .*RuntimeError: no checkpoint here"):
        make_bot(f"py:{broken}:Policy")
    needs = tmp_path / "needs.py"
    code = "class Policy:\n    def __init__(self, seed):\n        raise RuntimeError('set MY_CHECKPOINT')\n"
    needs.write_text(code, encoding="utf-8")
    with pytest.raises(JantakuError, match=r"making the policy failed \(RuntimeError: set MY_CHECKPOINT\)"):
        make_bot(f"py:{needs}:Policy")
    with pytest.raises(JantakuError, match="has no 'nothing'"):
        make_bot("py:jantaku.bots.simple:nothing")
    with pytest.raises(JantakuError, match="no file"):
        make_bot("py:missing_file.py:act")
    with pytest.raises(JantakuError, match="py:MODULE:NAME"):
        make_bot("py:nocolon")
    with pytest.raises(JantakuError, match="deals must be 2-"):
        evaluate("random", deals=1)
    with pytest.raises(JantakuError, match="opponents: one bot for all three seats or three"):
        evaluate("random", "random,random", deals=2)


def test_the_command_line():
    command = ["evaluate", FIRST_LEGAL, "--opponents", "random", "--deals", "2", "--json"]
    done = subprocess.run(
        [sys.executable, "-m", "jantaku.cli", *command],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr[-1500:]
    out = json.loads(done.stdout)
    assert out["games"] == 8 and set(out["measures"][POLICY]) == {"rank", "final", "win_rate", "deal_in_rate"}
