"""A policy-gradient agent in plain numpy that learns to beat jantaku's ``random`` bots.

One seat of ``jantaku/Mahjong-v0`` learns; the three others are random bots. The policy scores each legal
action with a linear function of a few features computed from the observation planes (what the action
does, and for a discard how the tile sits in the hand: pairs, neighbours, honours, dora) and samples from the
softmax over the legal actions (the action mask). It learns with REINFORCE on the change of its points
(``reward="score"``), each decision credited with the discounted points that follow it within the hand,
minus a running baseline.

Run it (a few minutes on one core)::

    python examples/pg_numpy.py --games 300

It prints, for every block of games, the learner's share of hands won, its deal-in rate and its mean final
result in rank points; ``--json FILE`` writes the same figures. The win rate starts near the random bots'
and rises as the agent learns to take its wins, keep pairs and runs, and throw isolated honours first.
"""

from __future__ import annotations

import argparse
import json
import time

import gymnasium as gym
import numpy as np

import jantaku.env  # noqa: F401 - registers jantaku/Mahjong-v0
from jantaku.env.encoding import (
    A_CHI,
    A_DAIMINKAN,
    A_KAKAN,
    A_KYUUSHU,
    A_PASS,
    A_PON,
    A_RIICHI,
    A_RIICHI_TSUMOGIRI,
    A_RON,
    A_TSUMO,
    A_TSUMOGIRI,
    NUM_ACTIONS,
    P_DORA,
    P_DRAWN,
)

FEATURES = (
    "bias discard",
    "tile count 1",
    "tile count 2",
    "tile count 3+",
    "isolated",
    "neighbours +-1",
    "neighbours +-2",
    "honour",
    "terminal",
    "dora",
    "tsumogiri",
    "riichi",
    "chi",
    "pon",
    "kan",
    "tsumo",
    "ron",
    "pass",
    "nine terminals",
)
RED = (4, 13, 22)


def action_features(obs: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The legal action indices and one feature row per legal action."""
    legal = np.flatnonzero(mask)
    hand = obs[0:4].sum(axis=0)
    drawn = obs[P_DRAWN]
    dora = obs[P_DORA]
    feats = np.zeros((len(legal), len(FEATURES)), np.float64)
    for row, a in enumerate(legal):
        f = feats[row]
        if a <= A_RIICHI_TSUMOGIRI:
            code = a - A_RIICHI if a >= A_RIICHI else a
            if a in (A_TSUMOGIRI, A_RIICHI_TSUMOGIRI):
                k = int(drawn.argmax())
                f[10] = 1.0
            else:
                k = code if code < 34 else RED[code - 34]
            f[0] = 1.0
            c = hand[k]
            f[1 + min(2, max(0, int(c) - 1))] = 1.0
            if k >= 27:
                f[7] = 1.0
                f[4] = 1.0 if c == 1 else 0.0
            else:
                n = k % 9
                near1 = (hand[k - 1] if n >= 1 else 0) + (hand[k + 1] if n <= 7 else 0)
                near2 = (hand[k - 2] if n >= 2 else 0) + (hand[k + 2] if n <= 6 else 0)
                f[5] = min(near1, 2) / 2
                f[6] = min(near2, 2) / 2
                f[4] = 1.0 if (c == 1 and near1 == 0 and near2 == 0) else 0.0
                f[8] = 1.0 if n in (0, 8) else 0.0
            f[9] = dora[k]
            if a >= A_RIICHI:
                f[11] = 1.0
        elif A_CHI <= a < A_PON:
            f[12] = 1.0
        elif A_PON <= a < A_DAIMINKAN:
            f[13] = 1.0
        elif A_DAIMINKAN <= a < A_KAKAN + 34:
            f[14] = 1.0
        elif a == A_TSUMO:
            f[15] = 1.0
        elif a == A_RON:
            f[16] = 1.0
        elif a == A_PASS:
            f[17] = 1.0
        elif a == A_KYUUSHU:
            f[18] = 1.0
    return legal, feats


class Policy:
    """A softmax over the legal actions of a linear score of their features."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.w = np.zeros(len(FEATURES))
        self.rng = rng

    def act(self, obs: dict[str, np.ndarray]) -> tuple[int, np.ndarray]:
        legal, feats = action_features(obs["observation"], obs["action_mask"])
        logits = feats @ self.w
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = int(self.rng.choice(len(legal), p=p))
        grad = feats[i] - p @ feats  # d log p(a) / d w
        return int(legal[i]), grad


def hand_figures(env: gym.Env, seat: int) -> tuple[int, int, int, int]:
    """Hands played, hands the seat won, hands it dealt in, and the other seats' wins, in the game just over."""
    results = env.unwrapped.table.game.results
    won = sum(1 for r in results if any(w.seat == seat for w in r.wins))
    dealt_in = sum(1 for r in results if any(w.from_seat == seat for w in r.wins))
    others = sum(1 for r in results for w in r.wins if w.seat != seat)
    return len(results), won, dealt_in, others


def train(games: int, rules: str, seed: int, block: int, lr: float, gamma: float) -> dict[str, object]:
    env = gym.make("jantaku/Mahjong-v0", rules=rules, seat=0, opponents="random", reward="score", mjai_events=False)
    rng = np.random.default_rng(seed)
    policy = Policy(rng)
    baseline = 0.0
    blocks: list[dict[str, float]] = []
    totals = [0, 0, 0, 0.0, 0, 0]
    start = time.perf_counter()
    steps = 0
    for g in range(games):
        obs, info = env.reset(seed=seed * 100_000 + g)
        grads: list[np.ndarray] = []
        rewards: list[float] = []
        done = False
        final = 0.0
        while not done:
            action, grad = policy.act(obs)
            hand_before = len(env.unwrapped.table.game.results)
            obs, reward, done, _, info = env.step(action)
            grads.append(grad)
            rewards.append(reward * 10.0)  # points / 10,000
            steps += 1
            if len(env.unwrapped.table.game.results) != hand_before or done:
                rewards.append(float("nan"))  # a hand boundary: no credit flows back across it
                grads.append(None)  # type: ignore[arg-type]
            final = info.get("final", final)
        # discounted return within each hand
        ret = 0.0
        update = np.zeros_like(policy.w)
        for r, grad in zip(reversed(rewards), reversed(grads), strict=True):
            if grad is None:
                ret = 0.0
                continue
            ret = r + gamma * ret
            update += (ret - baseline) * grad
            baseline += 0.001 * (ret - baseline)
        policy.w += lr * update
        hands, won, dealt, others = hand_figures(env, 0)
        totals[0] += hands
        totals[1] += won
        totals[2] += dealt
        totals[3] += final
        totals[4] += 1
        totals[5] += others
        if (g + 1) % block == 0 or g + 1 == games:
            figures = {
                "games": g + 1,
                "win_rate": totals[1] / max(1, totals[0]),
                "opponent_win_rate": totals[5] / 3 / max(1, totals[0]),
                "deal_in_rate": totals[2] / max(1, totals[0]),
                "mean_final": totals[3] / max(1, totals[4]),
                "seconds": time.perf_counter() - start,
            }
            blocks.append(figures)
            print(
                f"games {g + 1:5d}  win rate {figures['win_rate']:6.1%} (each random bot "
                f"{figures['opponent_win_rate']:.1%})  deal-in {figures['deal_in_rate']:6.1%}  "
                f"mean final {figures['mean_final']:+7.1f}  ({figures['seconds']:.0f} s, {steps} steps)",
                flush=True,
            )
            totals = [0, 0, 0, 0.0, 0, 0]
    weights = {name: round(float(x), 3) for name, x in zip(FEATURES, policy.w, strict=True)}
    return {"rules": rules, "blocks": blocks, "weights": weights, "steps": steps, "num_actions": NUM_ACTIONS}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games to train on (default 300)")
    parser.add_argument("--rules", default="standard", help="rule set (default standard)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--block", type=int, default=25, help="games per reported block (default 25)")
    parser.add_argument("--lr", type=float, default=0.05, help="learning rate (default 0.05)")
    parser.add_argument("--gamma", type=float, default=0.97, help="discount per decision (default 0.97)")
    parser.add_argument("--json", help="write the figures to this file")
    args = parser.parse_args()
    out = train(args.games, args.rules, args.seed, args.block, args.lr, args.gamma)
    print("weights:", out["weights"])
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
