"""Environment steps per second: jantaku's environments against riichienv's, random legal play, one process.

Run it from the repository root, in the benchmark's own environment (see ``benchmarks/README.md``; the
environments need the ``env`` extra)::

    .venv-bench/bin/python benchmarks/bench_env.py                   # 20 games per row, seed 0
    .venv-bench/bin/python benchmarks/bench_env.py --games 50 --num-envs 32 --json env.json
    .venv-bench/bin/python benchmarks/bench_env.py --clock cpu --games 64 --rows jantaku-selfplay-16,riichienv

If riichienv is not installed its row is reported as such and the script runs with jantaku alone.

What is measured (every step produces the observation and the legal action mask of the seat that acts):

- ``jantaku-aec``: ``jantaku.env.raw_env("tenhou", mjai_events=False)``; each step is ``env.last()`` (the
  acting seat's encoded observation and mask) and ``env.step(i)`` with ``i`` drawn uniformly from the mask's
  legal indices with ``random.Random.choice``, as riichienv's row draws from its legal actions (before 0.15.1
  numpy's ``Generator.choice``, about 10 us more a decision: the script's own cost, not the environment's).
  ``jantaku-aec-mjai``: the same with the seat's mjai events in ``info`` (the default), for information.
- ``jantaku-gym``: ``MahjongEnv("tenhou", seat=0, opponents="random", mjai_events=False)``: one step is one
  decision of the learning seat (drawn as for ``jantaku-aec``); the three ``RandomBot`` opponents play in
  between without any encoding. Steps/s counts the learner's steps; decisions/s all four seats' decisions.
- ``jantaku-vector``: ``VectorMahjongEnv(--num-envs, "tenhou", opponents="random")``, one batch of random
  legal indices per step (a uniform draw per row among the mask's ones, as for the self-play rows; before 0.15.1
  a ``Generator.choice`` per game), observations built by the batch encoder; counted as for ``jantaku-gym``.
- ``jantaku-selfplay-N``: ``SelfPlayVectorEnv(N, "tenhou")`` for N in ``--selfplay`` (default 1, 16, 64): every
  decision of every seat has its observation (the compiled batch encoder) and mask, as in riichienv's loop; one
  batch of random legal indices per step (a uniform draw per row among the mask's ones). One environment plays on
  through the whole row (its games start again as they end, seeded from ``--seed``); each turn of the round-robin
  plays about one game's decisions (``DECISIONS_PER_TURN``, so ``1024 / N`` steps), and every step counts. A row
  timed in a few long runs (as it was before 0.15.1: until every slot had finished a game) swung by 15% between
  runs on a busy machine, with riichienv's games timed in between; turns of a game's size follow the machine's
  pace as riichienv's games do.
- ``riichienv``: ``RiichiEnv(game_mode="4p-red-half", rule=GameRule.default_tenhou(), seed=seed)``, each
  asked player's observation encoded with its default encoder (``Observation.encode()``, a (74, 34) float32
  tensor, read with ``numpy.frombuffer``) and its mask (``Observation.mask()``), the action drawn uniformly
  from ``legal_actions()`` as its ``RandomAgent`` does. A step is one asked player's decision (as in
  ``bench_game.py``).
- Games use seeds ``--seed`` .. ``--seed + --games - 1``, played round-robin across rows after one untimed
  warm-up game per row; the clock runs over whole games, building each environment and resetting it
  included. ``jantaku-vector`` plays ``--games / --num-envs`` runs (at least one), each until every one of
  its games has ended once. The clock is the wall clock, or with ``--clock cpu`` the process's CPU time
  (steadier when other work shares the machine; riichienv runs in the calling thread, so it counts fully).

The ratios compare decisions per second with the observation and mask built for every decision made by an
encoder (all four seats for ``jantaku-aec`` and riichienv, the learning seat only for the single-agent rows,
whose opponents are bots). They vary between machines and runs and are never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from _report import judge_ratios, print_table

TARGETS = [
    ("jantaku self-play vector env x16 vs riichienv, decisions with obs/s", "jantaku-selfplay-16", "riichienv", 1.0),
    ("jantaku self-play vector env x1 vs riichienv, decisions with obs/s", "jantaku-selfplay-1", "riichienv", 0.0),
    ("jantaku self-play vector env x64 vs riichienv, decisions with obs/s", "jantaku-selfplay-64", "riichienv", 0.0),
    ("jantaku AEC env vs riichienv env, decisions/s", "jantaku-aec", "riichienv", 0.0),
    ("jantaku gym env (learner steps) vs riichienv, steps/s", "jantaku-gym", "riichienv", 0.0),
    ("jantaku vector env (learner steps) vs riichienv, steps/s", "jantaku-vector", "riichienv", 0.0),
]


@dataclass
class Row:
    name: str
    config: str
    play: Callable[[int], tuple[int, int]]
    """Plays one game; returns (steps counted, all decisions)."""
    games: int = 0
    seconds: float = 0.0
    steps: int = 0
    decisions: int = 0


def aec_row(mjai: bool) -> Callable[[int], tuple[int, int]]:
    from jantaku.env import raw_env

    def play(seed: int) -> tuple[int, int]:
        env = raw_env("tenhou", mjai_events=mjai)
        env.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        return steps, steps

    return play


def gym_row() -> Callable[[int], tuple[int, int]]:
    from jantaku.env import MahjongEnv

    def play(seed: int) -> tuple[int, int]:
        env = MahjongEnv("tenhou", seat=0, opponents="random", mjai_events=False)
        obs, _ = env.reset(seed=seed)
        rng = random.Random(seed)
        steps = 0
        done = False
        while not done:
            obs, _, done, _, _ = env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            steps += 1
        assert env.table is not None
        return steps, env.table.moves

    return play


def vector_row(num_envs: int) -> Callable[[int], tuple[int, int]]:
    from jantaku.env import VectorMahjongEnv

    def play(seed: int) -> tuple[int, int]:
        """``num_envs`` games from ``seed``; stops once every slot has finished one game (the steps of
        the slots' second games until then are counted too: they are real steps)."""
        env = VectorMahjongEnv(num_envs, "tenhou", opponents="random")
        obs, _ = env.reset(seed=seed * 1000)
        rng = np.random.default_rng(seed)
        finished = np.zeros(num_envs, bool)
        steps = 0
        decisions = 0
        while not finished.all():
            masks = obs["action_mask"]
            acts = (rng.random(masks.shape) * masks).argmax(axis=1)
            old = list(env.tables)
            before = sum(t.moves for t in old)
            obs, _, term, _, _ = env.step(acts)
            # a finished game is replaced in the same step: count its moves and the new game's
            after = sum(t.moves for t in old) + sum(env.tables[i].moves for i in np.flatnonzero(term))
            decisions += after - before
            steps += num_envs
            finished |= term
        return steps, decisions

    return play


DECISIONS_PER_TURN = 1024
"""What a self-play row plays in each turn of the round-robin: about one game's decisions (tenhou, random play)."""


def selfplay_row(num_envs: int) -> Callable[[int], tuple[int, int]]:
    from jantaku.env import SelfPlayVectorEnv

    state: dict[str, Any] = {}

    def play(seed: int) -> tuple[int, int]:
        """About ``DECISIONS_PER_TURN`` decisions of ``num_envs`` self-play games, going on from the last turn (the
        first call, the warm-up, builds the environment and seeds it from ``seed``)."""
        if not state:
            env = SelfPlayVectorEnv(num_envs, "tenhou")
            state["obs"], _ = env.reset(seed=seed * 1000)
            state["env"], state["rng"] = env, np.random.default_rng(seed)
        env, rng, obs = state["env"], state["rng"], state["obs"]
        steps = max(1, round(DECISIONS_PER_TURN / num_envs))
        for _ in range(steps):
            masks = obs["action_mask"]
            obs, *_ = env.step((rng.random(masks.shape) * masks).argmax(axis=1))
        state["obs"] = obs
        return steps * num_envs, steps * num_envs

    return play


def riichienv_row() -> Callable[[int], tuple[int, int]]:
    from riichienv import GameRule, RiichiEnv

    def play(seed: int) -> tuple[int, int]:
        env = RiichiEnv(game_mode="4p-red-half", rule=GameRule.default_tenhou(), seed=seed)
        rngs = [random.Random(seed * 4 + s) for s in range(4)]
        obs = env.reset()
        steps = 0
        while not env.done():
            actions = {}
            for pid, o in obs.items():
                np.frombuffer(o.encode(), dtype=np.float32).reshape(74, 34)
                np.frombuffer(o.mask(), dtype=np.uint8)
                actions[pid] = rngs[pid].choice(o.legal_actions())
            steps += len(actions)
            obs = env.step(actions)
        return steps, steps

    return play


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description="jantaku's environments against riichienv's: steps per second")
    p.add_argument("--games", type=int, default=20, help="games per row (default 20)")
    p.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    p.add_argument("--num-envs", type=int, default=16, help="games in the vector env (default 16)")
    p.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall: time.perf_counter (default); cpu: time.process_time, steadier on a shared machine",
    )
    p.add_argument(
        "--selfplay",
        default="1,16,64",
        help="games in each self-play vector row, comma-separated (default 1,16,64)",
    )
    p.add_argument(
        "--rows",
        help="time only these rows, comma-separated names (say jantaku-selfplay-16,riichienv: the two then alternate "
        "turn by turn, the steadiest ratio on a busy machine); default every row",
    )
    p.add_argument("--json", help="write the figures to this file")
    return p.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    print(
        f"bench_env: {args.games} games per row, seeds {args.seed}..{args.seed + args.games - 1}, one process, "
        f"{args.clock} clock"
    )
    print(f"python {platform.python_version()}, {platform.machine()}; jantaku {version('jantaku')}")
    rows = [
        Row("jantaku-aec", "raw_env tenhou, obs + mask per decision", aec_row(False)),
        Row("jantaku-aec-mjai", "the same with mjai events in info", aec_row(True)),
        Row("jantaku-gym", "MahjongEnv tenhou, 3 RandomBot opponents", gym_row()),
        Row("jantaku-vector", f"VectorMahjongEnv x{args.num_envs}, 3 RandomBot each", vector_row(args.num_envs)),
    ]
    selfplay = [int(x) for x in args.selfplay.split(",") if x.strip()]
    for n in selfplay:
        rows.append(Row(f"jantaku-selfplay-{n}", f"SelfPlayVectorEnv x{n}, every seat encoded", selfplay_row(n)))
    missing: list[str] = []
    try:
        rows.append(Row("riichienv", "RiichiEnv 4p-red-half, encode() + mask()", riichienv_row()))
        print(f"riichienv {version('riichienv')}")
    except ImportError as exc:
        missing.append("riichienv")
        print(f"riichienv: not installed ({exc})")
    if args.rows:
        wanted = [name.strip() for name in args.rows.split(",") if name.strip()]
        unknown = sorted(set(wanted) - {row.name for row in rows} - set(missing))
        if unknown:
            known = ", ".join(row.name for row in rows)
            print(f"bench_env: no row named {', '.join(unknown)} (rows: {known})", file=sys.stderr)
            return 2
        rows = [row for row in rows if row.name in wanted]
    print()
    for row in rows:  # warm-up: tables, caches, lazy imports
        row.play(args.seed + args.games)
    clock = time.perf_counter if args.clock == "wall" else time.process_time
    vector_games = max(1, args.games // args.num_envs)
    for i in range(args.games):
        seed = args.seed + i
        for row in rows:
            if row.name == "jantaku-vector" and i >= vector_games:
                continue
            t0 = clock()
            steps, decisions = row.play(seed)
            row.seconds += clock() - t0
            row.games += 1
            row.steps += steps
            row.decisions += decisions
    table = []
    rates: dict[str, float] = {}
    for r in rows:
        rates[r.name] = r.steps / r.seconds
        table.append(
            [
                r.name,
                r.config,
                str(r.games),
                f"{r.steps:,}",
                f"{r.steps / r.seconds:,.0f}",
                f"{r.decisions / r.seconds:,.0f}",
                f"{1e6 * r.seconds / max(1, r.steps):.1f}",
            ]
        )
    print_table(("row", "setup", "runs", "steps", "steps/s", "decisions/s", "us/step"), table, right={2, 3, 4, 5, 6})
    ratios = judge_ratios(TARGETS, rates, missing)
    if args.json:
        out: dict[str, Any] = {
            "rows": [
                {
                    "row": r.name,
                    "setup": r.config,
                    "runs": r.games,
                    "steps": r.steps,
                    "decisions": r.decisions,
                    "seconds": round(r.seconds, 3),
                }
                for r in rows
            ],
            "ratios": ratios,
        }
        Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
