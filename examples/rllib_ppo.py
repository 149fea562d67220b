"""PPO from Ray RLlib on ``jantaku/Mahjong-v0``, with a policy that only ever picks legal actions.

RLlib (new API stack) trains one seat of a whole game against jantaku's ``random`` bots. The observation is
the environment's dict: ``observation`` (the feature planes over the 34 kinds) and ``action_mask`` (the
legal actions of :mod:`jantaku.env.encoding`). :class:`MaskedPPOModule` is a small torch RLModule: an MLP
over the flattened planes gives one logit per action and a value; the logits of illegal actions are set to
the most negative float before RLlib builds its categorical distribution, so sampling, the greedy action
and PPO's log-probabilities all see the legal actions only.

With ``--init-from CHECKPOINT`` PPO starts from a behaviour-cloned network (``examples/bc_torch.py --checkpoint``):
:class:`ClonedPPOModule` takes its body and policy head, and a value network of its own (a second copy of the body
with a new head); ``--opponents`` names the fixed opponents (default ``random``), ``--reward`` the env's reward
(``score`` or ``rank``). The run that learns (see docs/guide/research.md) is each hand an episode, its points as
the reward, no discount::

    python examples/rllib_ppo.py --init-from bc.pt --opponents random --reward score --episode hand --window 200 \
        --iterations 40 --batch 2000 --minibatch 250 --epochs 4 --lr 2e-4 --gamma 1 --gae-lambda 0.95 --clip 0.2 \
        --save tuned.pt --json ppo.json

Needs the optional extra ``rllib`` (``pip install 'jantaku[rllib]'``: Ray RLlib and the CPU build of torch).
Run it from the repository root::

    python examples/rllib_ppo.py                          # one training iteration, small batches
    python examples/rllib_ppo.py --iterations 20 --batch 4000 --minibatch 500 --json ppo.json
    python examples/rllib_ppo.py --init-from bc.pt --opponents efficiency --reward rank --iterations 12 --batch 1000

It prints, per iteration, the environment steps sampled, the mean return of the last ``--window`` episodes (an
episode is a whole game, or one hand with ``--episode hand``) and PPO's losses; then it plays ``--check-steps``
steps sampled from the trained module and counts how many of its actions were legal (all of them, by the mask).
``--json FILE`` writes the figures.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.core.rl_module.torch import TorchRLModule
from ray.tune.registry import register_env

from jantaku.env import MahjongEnv

ENV_NAME = "jantaku-mahjong"
"""The name the example registers with Ray Tune's registry, so that remote env runners can build the env too."""

_MASKED = torch.finfo(torch.float32).min
"""The logit of an illegal action: its probability is 0 after the softmax."""


def make_env(config: dict[str, Any]) -> gym.Env:
    """The Gymnasium environment for RLlib: :class:`jantaku.env.MahjongEnv` with the env config's options."""
    return MahjongEnv(**config)


class MaskedPPOModule(TorchRLModule, ValueFunctionAPI):
    """An MLP policy and value network over the flattened observation planes; illegal actions are masked.

    ``model_config``: ``hidden`` (width of the two hidden layers, default 64).
    """

    def setup(self) -> None:
        """Build the shared torso, the policy head (one logit per action) and the value head."""
        planes = self.observation_space["observation"]  # type: ignore[index]
        hidden = int(self.model_config.get("hidden", 64))
        self._torso = torch.nn.Sequential(
            torch.nn.Flatten(),
            torch.nn.Linear(int(np.prod(planes.shape)), hidden),
            torch.nn.ReLU(),
            torch.nn.Linear(hidden, hidden),
            torch.nn.ReLU(),
        )
        self._pi = torch.nn.Linear(hidden, int(self.action_space.n))  # type: ignore[attr-defined]
        self._vf = torch.nn.Linear(hidden, 1)

    def _forward(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        obs = batch[Columns.OBS]
        embeddings = self._torso(obs["observation"].float())
        logits = self._pi(embeddings)
        legal = obs["action_mask"] > 0
        return {
            Columns.ACTION_DIST_INPUTS: torch.where(legal, logits, torch.full_like(logits, _MASKED)),
            Columns.EMBEDDINGS: embeddings,
        }

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return self._forward(batch, **kwargs)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """The value of each observation in ``batch`` (reusing the torso's output when given)."""
        if embeddings is None:
            embeddings = self._torso(batch[Columns.OBS]["observation"].float())
        return self._vf(embeddings).squeeze(-1)


class ClonedPPOModule(MaskedPPOModule):
    """PPO starting from a behaviour-cloned network (``examples/bc_torch.py``'s ``PolicyNet``, its checkpoint in
    ``model_config["checkpoint"]``): the cloned body as the torso and its policy head; the value is a network of its
    own, a second copy of the cloned body with a new head, so that the value loss (large and noisy while the value
    is learnt) never moves the policy's features. The forward passes (illegal actions masked) are
    :class:`MaskedPPOModule`'s."""

    def setup(self) -> None:
        """Build the cloned network, load its weights, and the value network."""
        from bc_torch import PolicyNet  # examples/bc_torch.py, beside this file

        state = torch.load(self.model_config["checkpoint"], map_location="cpu", weights_only=True)
        net = PolicyNet(int(state["width"]), int(state["hidden"]))
        net.load_state_dict(state["weights"])
        self._torso = net.body
        self._pi = net.head
        value = PolicyNet(int(state["width"]), int(state["hidden"]))
        value.load_state_dict(state["weights"])
        self._value_body = value.body
        self._vf = torch.nn.Linear(net.hidden, 1)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        """The value of each observation in ``batch``, from the value network (the policy's features unused)."""
        return self._vf(self._value_body(batch[Columns.OBS]["observation"].float())).squeeze(-1)


def build_config(args: argparse.Namespace) -> PPOConfig:
    """PPO on one local env runner (no Ray worker processes), with the masked module (or the cloned one)."""
    env_config = {
        "rules": args.rules,
        "opponents": args.opponents,
        "mjai_events": False,
        "reward": args.reward,
        "episode": args.episode,
    }
    if args.init_from:
        spec = RLModuleSpec(module_class=ClonedPPOModule, model_config={"checkpoint": args.init_from})
    else:
        spec = RLModuleSpec(module_class=MaskedPPOModule, model_config={"hidden": args.hidden})
    return (
        PPOConfig()
        .environment(ENV_NAME, env_config=env_config)
        .framework("torch")
        .env_runners(num_env_runners=0, num_envs_per_env_runner=1, rollout_fragment_length=args.batch)
        .learners(num_learners=0)
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=args.gamma,
            lambda_=args.gae_lambda,
            clip_param=args.clip,
            entropy_coeff=args.entropy,
        )
        .rl_module(rl_module_spec=spec)
        .debugging(seed=args.seed)
        .reporting(metrics_num_episodes_for_smoothing=args.window)
    )


def _get(result: dict[str, Any], *path: str) -> Any:
    for key in path:
        if not isinstance(result, dict) or key not in result:
            return None
        result = result[key]
    return result


def _number(x: Any) -> float | None:
    try:
        value = float(x)
    except (TypeError, ValueError):
        return None
    return value if math.isfinite(value) else None


def save_cloned(module: Any, init_from: str, path: str) -> None:
    """The trained module's body and policy head as a checkpoint of examples/bc_torch.py (the value head left
    out), so that ``ClonedPolicy`` and ``jantaku evaluate`` seat it."""
    from bc_torch import PolicyNet, save

    state = torch.load(init_from, map_location="cpu", weights_only=True)
    net = PolicyNet(int(state["width"]), int(state["hidden"]))
    net.body.load_state_dict(module._torso.state_dict())
    net.head.load_state_dict(module._pi.state_dict())
    save(net, Path(path))


def init_check(module: Any, args: argparse.Namespace) -> dict[str, Any]:
    """Before training: the module's masked logits on a first observation against the cloned network's own (the
    same when the checkpoint was loaded), the greedy action of each, and how many of the policy's and of the value
    network's parameter tensors the value's gradient reaches (none of the policy's: the value has its own body)."""
    from bc_torch import PolicyNet

    state = torch.load(args.init_from, map_location="cpu", weights_only=True)
    net = PolicyNet(int(state["width"]), int(state["hidden"]))
    net.load_state_dict(state["weights"])
    net.eval()
    env = make_env({"rules": args.rules, "opponents": args.opponents, "mjai_events": False})
    obs, _ = env.reset(seed=args.seed)
    batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in obs.items()}}
    with torch.no_grad():
        mine = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0]
        theirs = net(batch[Columns.OBS]["observation"].float(), batch[Columns.OBS]["action_mask"] > 0)[0]
    legal = obs["action_mask"] > 0
    diff = float((mine[legal] - theirs[legal]).abs().max())
    # the value's gradient on that observation: which of the policy's and the value's parameters it reaches
    module.zero_grad(set_to_none=True)
    module.compute_values(batch).sum().backward()
    policy = [*module._torso.parameters(), *module._pi.parameters()]
    value = [p for p in module.parameters() if all(p is not q for q in policy)]
    moved = [sum(p.grad is not None and bool(p.grad.abs().sum() > 0) for p in part) for part in (policy, value)]
    module.zero_grad(set_to_none=True)
    return {
        "max_logit_difference": diff,
        "same_greedy_action": int(mine.argmax()) == int(theirs.argmax()),
        "policy_parameters_the_value_moves": moved[0],
        "value_parameters_the_value_moves": moved[1],
    }


def check_legal(module: Any, rules: str, seed: int, steps: int) -> dict[str, int]:
    """Play ``steps`` decisions, each sampled from the module's action distribution (as during training),
    starting new games as needed: how many were legal, and how many legal actions the raw (unmasked) logits'
    best action would have missed."""
    env = make_env({"rules": rules, "opponents": "random", "mjai_events": False})
    obs, _ = env.reset(seed=seed)
    generator = torch.Generator().manual_seed(seed)
    legal = games = unmasked_illegal = 0
    for i in range(steps):
        batch = {Columns.OBS: {k: torch.as_tensor(v)[None] for k, v in obs.items()}}
        with torch.no_grad():
            out = module.forward_exploration(batch)
            logits = out[Columns.ACTION_DIST_INPUTS][0]
            raw = module._pi(out[Columns.EMBEDDINGS])[0]
        action = int(torch.multinomial(torch.softmax(logits, -1), 1, generator=generator))
        legal += int(obs["action_mask"][action] == 1)
        unmasked_illegal += int(obs["action_mask"][int(torch.argmax(raw))] == 0)
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated:
            games += 1
            obs, _ = env.reset(seed=seed + 1 + i)
    return {"steps": steps, "legal": legal, "games_finished": games, "unmasked_illegal": unmasked_illegal}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rules", default="standard", help="preset name or rule file (default standard)")
    parser.add_argument("--iterations", type=int, default=1, help="PPO training iterations (default 1)")
    parser.add_argument("--batch", type=int, default=256, help="environment steps per iteration (default 256)")
    parser.add_argument("--minibatch", type=int, default=64, help="SGD minibatch size (default 64)")
    parser.add_argument("--epochs", type=int, default=1, help="SGD passes over each batch (default 1)")
    parser.add_argument("--hidden", type=int, default=64, help="width of the hidden layers (default 64)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--opponents", default="random", help="the fixed opponents' bot name (default random)")
    parser.add_argument("--reward", default="score", choices=("score", "rank"), help="the env's reward (default score)")
    parser.add_argument("--lr", type=float, default=3e-4, help="learning rate (default 3e-4)")
    parser.add_argument("--gamma", type=float, default=0.99, help="discount (default 0.99)")
    parser.add_argument("--gae-lambda", type=float, default=1.0, help="GAE's lambda (default 1.0)")
    parser.add_argument("--clip", type=float, default=0.3, help="PPO's clip of the policy ratio (default 0.3)")
    parser.add_argument("--entropy", type=float, default=0.0, help="entropy bonus coefficient (default 0)")
    parser.add_argument(
        "--episode", default="game", choices=("game", "hand"), help="an episode is a whole game or one hand (game)"
    )
    parser.add_argument(
        "--window",
        type=int,
        default=1,
        help="the episode return reported is the mean of the last WINDOW episodes (default 1: the last one)",
    )
    parser.add_argument(
        "--save",
        default=None,
        help="with --init-from: write the trained network as a checkpoint of examples/bc_torch.py's format (for "
        "ClonedPolicy and jantaku evaluate)",
    )
    parser.add_argument(
        "--init-from",
        default=None,
        help="start from a behaviour-cloned network: a checkpoint written by examples/bc_torch.py --checkpoint",
    )
    parser.add_argument("--check-steps", type=int, default=200, help="greedy steps checked for legality")
    parser.add_argument("--json", default=None, help="write the figures to this file")
    args = parser.parse_args(argv)
    if args.iterations < 1 or args.batch < 1 or not 1 <= args.minibatch <= args.batch or args.window < 1:
        parser.error("--iterations, --batch and --window must be at least 1, --minibatch between 1 and --batch")

    import ray

    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False, configure_logging=False)
    register_env(ENV_NAME, make_env)
    try:
        algo = build_config(args).build_algo()
        start = init_check(algo.get_module(), args) if args.init_from else None
        rows = []
        for it in range(1, args.iterations + 1):
            t0 = time.perf_counter()
            result = algo.train()
            learner = _get(result, "learners", "default_policy") or {}
            row = {
                "iteration": it,
                "seconds": round(time.perf_counter() - t0, 2),
                "env_steps_sampled": _get(result, "env_runners", "num_env_steps_sampled_lifetime"),
                "episode_return_mean": _number(_get(result, "env_runners", "episode_return_mean")),
                "policy_loss": _number(learner.get("policy_loss")),
                "vf_loss": _number(learner.get("vf_loss")),
                "entropy": _number(learner.get("entropy")),
            }
            rows.append(row)
            print(
                f"iteration {it}: {row['env_steps_sampled']} env steps sampled, "
                f"episode return mean {row['episode_return_mean']}, policy loss {row['policy_loss']}, "
                f"value loss {row['vf_loss']}, entropy {row['entropy']} ({row['seconds']} s)"
            )
        module = algo.get_module()
        if args.save and args.init_from:
            save_cloned(module, args.init_from, args.save)
        check = check_legal(module, args.rules, args.seed + 10_000, args.check_steps)
        print(
            f"check: {check['legal']} of {check['steps']} sampled actions legal (without the mask the best logit "
            f"would have been illegal {check['unmasked_illegal']} times)"
        )
        algo.stop()
    finally:
        ray.shutdown()
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"iterations": rows, "check": check, "init": start}, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
