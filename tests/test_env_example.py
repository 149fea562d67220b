"""examples/pg_numpy.py, run briefly: the numpy policy-gradient agent learns to beat jantaku's random bots."""

import json
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).parents[1] / "examples" / "pg_numpy.py"


def test_policy_gradient_example_learns_to_beat_random_bots(tmp_path):
    out = tmp_path / "pg.json"
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), "--games", "100", "--block", "50", "--seed", "0", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    first, last = json.loads(out.read_text())["blocks"]
    assert "win rate" in proc.stdout and first["games"] == 50 and last["games"] == 100
    # the untrained policy is uniform over the legal actions, as the random bots are, and wins almost never
    assert first["win_rate"] < 0.02
    # after 50 games it wins hands, more often than each random bot, and its final result rises
    assert last["win_rate"] >= first["win_rate"] + 0.02
    assert last["win_rate"] > last["opponent_win_rate"]
    assert last["mean_final"] > first["mean_final"] + 20 and last["mean_final"] > 0
