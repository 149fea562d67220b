"""examples/rllib_ppo.py, run for one PPO iteration on ``jantaku/Mahjong-v0`` (needs the rllib extra, which
the README's test command installs; the example runs in its own process, so this module imports neither torch
nor Ray: every pytest-xdist worker collects it, and importing ``ray.rllib`` costs about 7 s)."""

import json
import math
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "examples" / "rllib_ppo.py"
ONE_CORE = {**os.environ, "OMP_NUM_THREADS": "1"}
"""The examples' environment: torch's threads on one core, so that they do not take the other test workers'."""


def test_rllib_ppo_example_trains_one_iteration_with_legal_actions_only(tmp_path):
    out = tmp_path / "ppo.json"
    args = ["--batch", "128", "--minibatch", "64", "--check-steps", "150", "--seed", "3", "--json", str(out)]
    args += ["--episode", "hand", "--window", "50"]  # hands end within the batch: a mean return is reported
    proc = subprocess.run(
        [sys.executable, str(EXAMPLE), *args],
        capture_output=True,
        text=True,
        timeout=300,
        env=ONE_CORE,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads(out.read_text())
    (row,) = figures["iterations"]
    assert "iteration 1:" in proc.stdout
    # the iteration sampled its batch from the environment and PPO reported finite losses
    assert row["env_steps_sampled"] >= 128
    assert all(isinstance(row[k], float) and math.isfinite(row[k]) for k in ("policy_loss", "vf_loss", "entropy"))
    assert row["entropy"] > 0
    assert isinstance(row["episode_return_mean"], float) and math.isfinite(row["episode_return_mean"])
    check = figures["check"]
    # every action sampled from the trained module is legal: the mask reaches the distribution ...
    assert check["steps"] == 150 and check["legal"] == 150
    # ... and it matters: the unmasked logits' best action is illegal on many of those steps
    assert check["unmasked_illegal"] > 10


def test_rllib_extra_matches_the_other_pins_and_ci_installs_it():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert extras["rllib"] == ["ray[rllib]==2.52.0", "torch==2.13.0"]
    pins = [r for name in ("test", "ray", "rllib") for r in extras[name]]
    ray_pins = {re.sub(r"\[.*\]", "", r) for r in pins if r.startswith("ray")}
    assert ray_pins == {"ray==2.52.0"}
    # RLlib 2.52.0 requires gymnasium==1.1.1 exactly: the env extra must agree or the two cannot be installed together
    assert "gymnasium==1.1.1" in extras["env"] and "gymnasium==1.1.1" in extras["test"]
    assert re.search(r"pip install .*\.\[test,rllib\]", (ROOT / ".ci" / "run").read_text(encoding="utf-8"))


def test_ppo_starts_from_a_behaviour_cloned_network(tmp_path):
    """``--init-from``: PPO's module is the cloned network (examples/bc_torch.py's checkpoint) with a value network
    added; before training its logits on a first observation are the network's own."""
    checkpoint = tmp_path / "bc.pt"
    make = (
        "import sys; sys.path.insert(0, sys.argv[1]); import torch, bc_torch; torch.manual_seed(1); "
        "bc_torch.save(bc_torch.PolicyNet(8, 16), bc_torch.Path(sys.argv[2]))"
    )
    argv = [sys.executable, "-c", make, str(ROOT / "examples"), str(checkpoint)]
    made = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    assert made.returncode == 0, made.stderr[-2000:]
    out = tmp_path / "ppo.json"
    args = ["--init-from", str(checkpoint), "--opponents", "efficiency", "--reward", "rank"]
    args += ["--batch", "96", "--minibatch", "48", "--check-steps", "30", "--seed", "2", "--json", str(out)]
    args += ["--save", str(tmp_path / "tuned.pt")]
    cmd = [sys.executable, str(EXAMPLE), *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=300, env=ONE_CORE)
    assert proc.returncode == 0, proc.stderr[-3000:]
    figures = json.loads(out.read_text())
    assert figures["init"]["max_logit_difference"] < 1e-5 and figures["init"]["same_greedy_action"]
    # the value network has a body of its own: its loss moves none of the policy's parameters (a shared body let the
    # untrained value's large, noisy loss unlearn the clone, and PPO never gained), and does move its own
    assert figures["init"]["policy_parameters_the_value_moves"] == 0
    assert figures["init"]["value_parameters_the_value_moves"] >= 4
    (row,) = figures["iterations"]
    assert row["env_steps_sampled"] >= 96 and math.isfinite(row["policy_loss"])
    assert figures["check"]["legal"] == figures["check"]["steps"] == 30
    # --save writes the tuned network in the cloned format: the same layers, trained weights
    compare = (
        "import sys, torch; a, b = (torch.load(p, weights_only=True) for p in sys.argv[1:]); "
        "assert a['weights'].keys() == b['weights'].keys() and (a['width'], a['hidden']) == (b['width'], b['hidden']); "
        "print(sum(int(not torch.equal(a['weights'][k], b['weights'][k])) for k in a['weights']))"
    )
    changed = subprocess.run(
        [sys.executable, "-c", compare, str(checkpoint), str(tmp_path / "tuned.pt")], capture_output=True, text=True
    )
    assert changed.returncode == 0, changed.stderr[-2000:]
    assert int(changed.stdout) > 0
