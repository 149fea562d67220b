"""examples/bc_torch.py at its test size: behaviour cloning from the repository's real games, then the clone at a
table (issue 35: a policy that learns from people's games, measured). Run in its own process (torch)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "examples" / "bc_torch.py"


def test_the_cloned_policy_agrees_with_held_out_players_and_beats_random_bots(tmp_path):
    out = tmp_path / "bc.json"
    args = ["--files", "40", "--epochs", "5", "--batch", "128", "--deals", "4", "--opponents", "random"]
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), *args, "--checkpoint", str(tmp_path / "bc.pt"), "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        cwd=ROOT,
        env={**os.environ, "OMP_NUM_THREADS": "1"},  # one core: the suite's other workers keep theirs
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    report = json.loads(out.read_text())
    assert report["record_files"] == 40 and report["dataset"]["samples"] > 10_000
    assert report["dataset"]["hands_skipped"] == 0
    losses = report["training"]["loss_per_epoch"]
    assert len(losses) == 5 and losses[-1] < losses[0] - 0.2, losses  # it learns
    held = report["held_out"]
    assert held["games"] >= 20 and held["all"]["decisions"] > 2000
    for part in ("all", "discards"):
        # agreement with the held-out players' own choices, well above a uniform pick among the legal actions:
        # the whole interval of the difference lies above 0.25
        assert held[part]["above_chance"]["ci"][0] > 0.25, held[part]
        assert held[part]["agreement"]["mean"] > held[part]["chance"]["ci"][1] + 0.25
    (table,) = report["table"]
    assert table["opponents"] == "random" and table["games"] == 16
    policy = table["policy"]
    # seated as a bot by jantaku evaluate: it wins hands, which random bots almost never do, and its mean rank's
    # interval lies below 2.5 (the mean of four equal players)
    assert policy["rank"]["ci"][1] < 2.5, policy
    assert policy["win_rate"]["mean"] > table["opponent"]["win_rate"]["mean"] + 0.05
    assert "vs 3 random: mean rank" in proc.stdout
