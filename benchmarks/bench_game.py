"""Whole games: jantaku against the PyPI package ``riichienv``, random bots, one process.

One run: whole four-player hanchan (East + South, with the West extension where the rules have one) played
from Python by agents that pick uniformly at random among the legal actions, on jantaku and on riichienv;
games per second, steps (agent decisions) per second and microseconds per step, their ratios, and the
memory a live game holds.

Run it from the repository root, in the benchmark's own environment (the peers are not project dependencies;
see ``benchmarks/README.md``)::

    .venv-bench/bin/python benchmarks/bench_game.py                      # 200 games per row, seed 0
    .venv-bench/bin/python benchmarks/bench_game.py --games 500 --seed 1 --json game.json
    .venv-bench/bin/python benchmarks/bench_game.py --profile 20         # also cProfile 20 jantaku games

If riichienv is not installed its rows are reported as such and the script runs with jantaku alone.

What is measured:

- jantaku: ``Game(load_rules(preset), seed)`` driven by the loop of ``jantaku.sim.runner.play_game``:
  ``seat = game.to_act()[0]; legal = game.legal_actions(seat);
  game.apply(agent.act(game.view(seat), legal))`` until ``game.over``, one ``RandomBot`` per
  seat (``rng.choice(legal)``), seeded ``"{seed}:{seat}"`` as ``play_game`` does. Presets ``tenhou``
  (hanchan, red fives, West extension below 30,000, bust, abortive draws) and ``mleague`` (no abortive
  draws, no bust, no West round). For information (no target), ``tenhou`` with four ``EfficiencyBot``.
- riichienv: ``RiichiEnv(game_mode="4p-red-half", rule=GameRule.default_tenhou(), seed=seed)``, the
  package's own hanchan mode with red fives and Tenhou's game end (bust, West extension below 30,000, dealer
  stop in the last hand), driven as its README shows: ``obs = env.reset()``, then while not ``env.done()``
  ``env.step({pid: agents[pid].act(obs) for pid, obs in obs.items()})`` with one
  ``riichienv.agents.RandomAgent`` per seat (``rng.choice(obs.legal_actions())``), seeded ``seed * 4 + seat``.
  Its MJAI log is kept, as its default is, and as jantaku always keeps its event log; the same loop with
  ``skip_mjai_logging=True`` is timed as an information row.
- A step is one agent decision: one ``apply`` for jantaku; for riichienv one entry of the observation dict
  answered (``env.step`` receives one action per player it asked; when two or more players are asked at once,
  as after a discard several may call, each answer counts as a step, and the number of ``env.step`` calls is
  reported beside it). jantaku also asks each seat that may call or win on a discard and answers them one
  ``apply`` at a time, so a step is the same unit on both sides.
- Each game is timed from building the game object to its end (the agents' choices included); games with
  seeds ``--seed`` .. ``--seed + --games - 1`` are played round-robin across rows (seed by seed), after two
  untimed warm-up games per row (jantaku's shanten tables are built in the first). Hands per game are read
  after the clock stops (jantaku ``len(game.results)``, riichienv the ``start_kyoku`` events of its log).
- A game that raises (a Rust panic included) or runs past ``--timeout`` seconds or 200,000 steps is left out
  of the rates and listed with its seed.
- Memory per live game, in a fresh interpreter per library (``multiprocessing`` spawn). Warm-up: one whole
  game (tables, caches, lazy imports), then a first batch of ``--live`` games, each played ``--live-after``
  steps with random choices and kept alive (it takes up the memory the warm-up game freed). Then two
  measures, each divided by ``--live``: the growth of the resident set size over a second such batch, without
  tracing (``VmRSS`` in ``/proc/self/status``; where that file does not exist, the growth of ``ru_maxrss``
  from ``resource.getrusage``); and, with ``tracemalloc`` running, over a third batch, the bytes traced once
  it is built minus those still traced after it is deleted (the remainder, cache growth rather than game
  state, is printed beside it). tracemalloc sees Python's allocations only, not memory allocated by
  riichienv's Rust code: for riichienv only the RSS figure includes the game state. What is kept per game:
  jantaku the ``Game``; riichienv the ``RiichiEnv`` (MJAI log on) and the pending observation dict (what a
  Python driver must hold to continue the game).

- Each game's CPU time (``time.process_time``) is summed beside its wall time; the ratios are given by both
  clocks. Start-up (``--startup-runs``): see :func:`measure_startup`; the target is jantaku under 0.2 s, and
  ``--games`` hanchan with start-up counted at least riichienv's (no log) speed.

The figures are ratios measured in the same run on the same machine; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import multiprocessing
import os
import platform
import pstats
import random
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import FrameType
from typing import Any

MAX_STEPS = 200_000
"""Steps after which a game counts as hung."""

RIICHIENV_MODE = "4p-red-half"

TARGETS: tuple[tuple[str, str, str, str, float], ...] = (
    # (label, numerator row, denominator row, measure, at least)
    ("jantaku tenhou vs riichienv (no log), games/s", "jantaku-tenhou", "riichienv-nolog", "games_per_s", 1.0),
    ("jantaku tenhou vs riichienv (no log), games/CPU s", "jantaku-tenhou", "riichienv-nolog", "games_per_cpu_s", 1.0),
    ("jantaku tenhou vs riichienv, games/s", "jantaku-tenhou", "riichienv", "games_per_s", 0.0),
    ("jantaku mleague vs riichienv (no log), games/s", "jantaku-mleague", "riichienv-nolog", "games_per_s", 0.0),
    ("jantaku tenhou vs riichienv, steps/s", "jantaku-tenhou", "riichienv", "steps_per_s", 0.0),
)
"""Ratios printed; a floor of 0 means the ratio is reported without a target."""


class GameHang(Exception):
    """A game ran past the time or step limit."""


# ------------------------------------------------------------------------------------------------- rows


@dataclass
class GameOutcome:
    """What one finished game reports."""

    steps: int
    game: Any
    """The finished game object, still alive: its hands are counted by ``hands`` after the clock stopped,
    then it is dropped with the clock running again (its teardown is part of a game's cost)."""
    hands: Callable[[Any], int | None]
    env_steps: int | None = None


@dataclass
class Row:
    """One timed configuration: a library, its rules and its agents."""

    row: str
    """Key used for ratios and JSON: ``jantaku-tenhou``, ``riichienv``, ..."""
    library: str
    config: str
    agent: str
    play: Callable[[int], GameOutcome]
    """Play one whole game with the given seed (the timed thing)."""
    games: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0
    """The same games' CPU time of this process (``time.process_time``): steadier than the wall clock on a
    shared machine."""
    steps: int = 0
    hands: int = 0
    hands_known: bool = True
    env_steps: int = 0
    failures: list[dict[str, Any]] = field(default_factory=list)
    info: bool = False
    """Reported for information only (no target)."""

    @property
    def games_per_s(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def games_per_cpu_s(self) -> float:
        return self.games / self.cpu_seconds if self.cpu_seconds else 0.0

    @property
    def steps_per_s(self) -> float:
        return self.steps / self.seconds if self.seconds else 0.0

    @property
    def us_per_step(self) -> float:
        return 1e6 * self.seconds / self.steps if self.steps else 0.0


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def jantaku_player(preset: str, bot: str) -> Callable[[int], GameOutcome]:
    """A function playing one whole jantaku game under ``preset`` with four ``bot`` agents."""
    from jantaku.bots import EfficiencyBot, RandomBot
    from jantaku.rules import load_rules
    from jantaku.table import Game

    rules = load_rules(preset)
    bot_cls: type[RandomBot] | type[EfficiencyBot] = RandomBot if bot == "random" else EfficiencyBot

    def play(seed: int) -> GameOutcome:
        game = Game(rules, seed)
        agents = [bot_cls(f"{seed}:{seat}") for seat in range(4)]
        steps = 0
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            game.apply(agents[seat].act(game.view(seat), legal))
            steps += 1
            if steps > MAX_STEPS:
                raise GameHang(f"no end after {MAX_STEPS} steps")
        return GameOutcome(steps, game, _jantaku_hands)

    return play


def _jantaku_hands(game: Any) -> int:
    return len(game.results)


def _riichienv_hands(env: Any) -> int:
    return sum(1 for e in env.mjai_log if e.get("type") == "start_kyoku")


def _unknown_hands(env: Any) -> None:
    return None


def riichienv_player(log: bool) -> Callable[[int], GameOutcome]:
    """A function playing one whole riichienv hanchan with four of its ``RandomAgent``."""
    from riichienv import GameRule, RiichiEnv
    from riichienv.agents import RandomAgent

    def play(seed: int) -> GameOutcome:
        env = RiichiEnv(game_mode=RIICHIENV_MODE, rule=GameRule.default_tenhou(), seed=seed, skip_mjai_logging=not log)
        agents = [RandomAgent(seed * 4 + seat) for seat in range(4)]
        obs = env.reset()
        steps = 0
        env_steps = 0
        while not env.done():
            actions = {pid: agents[pid].act(o) for pid, o in obs.items()}
            steps += len(actions)
            obs = env.step(actions)
            env_steps += 1
            if steps > MAX_STEPS:
                raise GameHang(f"no end after {MAX_STEPS} steps")
        return GameOutcome(steps, env, _riichienv_hands if log else _unknown_hands, env_steps)

    return play


def build_rows(efficiency: bool) -> tuple[list[Row], list[str]]:
    """Every row to time, and the peers that are not installed."""
    rows = [
        Row("jantaku-tenhou", "jantaku", "tenhou preset", "RandomBot", jantaku_player("tenhou", "random")),
        Row("jantaku-mleague", "jantaku", "mleague preset", "RandomBot", jantaku_player("mleague", "random")),
    ]
    missing: list[str] = []
    try:
        rows.append(
            Row(
                "riichienv",
                "riichienv",
                f"{RIICHIENV_MODE}, default_tenhou",
                "agents.RandomAgent",
                riichienv_player(log=True),
            )
        )
        rows.append(
            Row(
                "riichienv-nolog",
                "riichienv",
                f"{RIICHIENV_MODE}, default_tenhou, no MJAI log",
                "agents.RandomAgent",
                riichienv_player(log=False),
                info=True,
            )
        )
    except ImportError as exc:
        missing.append("riichienv")
        print(f"riichienv: not installed ({exc})")
    if efficiency:
        rows.append(
            Row(
                "jantaku-tenhou-eff",
                "jantaku",
                "tenhou preset",
                "EfficiencyBot",
                jantaku_player("tenhou", "efficiency"),
                info=True,
            )
        )
    return rows, missing


# ----------------------------------------------------------------------------------------------- timing


def _on_alarm(signum: int, frame: FrameType | None) -> None:
    raise GameHang("time limit")


def play_one(row: Row, seed: int, timeout: float) -> tuple[float, float, tuple[int, int | None, int] | None, str]:
    """Play and time one game: (seconds, CPU seconds, (steps, hands, env.step calls) or None, error text). The
    clock runs from building the game to dropping it, except while its hands are counted."""
    alarm = timeout > 0 and hasattr(signal, "setitimer")
    if alarm:
        signal.setitimer(signal.ITIMER_REAL, timeout)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        outcome = row.play(seed)
    except (KeyboardInterrupt, SystemExit):
        raise
    except BaseException as exc:  # a Rust panic surfaces as a BaseException subclass
        return time.perf_counter() - t0, time.process_time() - c0, None, f"{type(exc).__name__}: {exc}"
    finally:
        if alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
    t1, c1 = time.perf_counter(), time.process_time()
    figures = (outcome.steps, outcome.hands(outcome.game), outcome.env_steps or 0)
    t2, c2 = time.perf_counter(), time.process_time()
    del outcome
    return t1 - t0 + time.perf_counter() - t2, c1 - c0 + time.process_time() - c2, figures, ""


def time_rows(rows: list[Row], seeds: Sequence[int], timeout: float, eff_games: int) -> None:
    """Play every row's games round-robin, seed by seed, and add them up."""
    if hasattr(signal, "SIGALRM"):
        signal.signal(signal.SIGALRM, _on_alarm)
    for i, seed in enumerate(seeds):
        for row in rows:
            if row.row.endswith("-eff") and i >= eff_games:
                continue
            seconds, cpu, figures, error = play_one(row, seed, timeout)
            if figures is None:
                row.failures.append({"seed": seed, "error": error, "seconds": round(seconds, 3)})
                continue
            row.games += 1
            row.seconds += seconds
            row.cpu_seconds += cpu
            steps, hands, env_steps = figures
            row.steps += steps
            if hands is None:
                row.hands_known = False
            else:
                row.hands += hands
            row.env_steps += env_steps


def warm_up(rows: list[Row], seed: int) -> dict[str, float]:
    """Two untimed games per row, seeds ``seed`` and ``seed + 1`` (the first builds jantaku's tables); the
    first game's seconds per row."""
    first: dict[str, float] = {}
    for row in rows:
        for k in range(2):
            t0 = time.perf_counter()
            try:
                row.play(seed + k)
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException as exc:
                row.failures.append({"seed": seed + k, "error": f"warm-up: {type(exc).__name__}: {exc}"})
            if k == 0:
                first[row.row] = time.perf_counter() - t0
    return first


# ----------------------------------------------------------------------------------------------- memory


def rss_bytes() -> tuple[int, str]:
    """The process's resident set size in bytes, and how it was read."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024, "VmRSS (/proc/self/status)"
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return (peak if sys.platform == "darwin" else peak * 1024), "ru_maxrss (resource.getrusage, peak)"


def _live_games(library: str, count: int, after: int, seed: int) -> list[Any]:
    """``count`` games started with seeds ``seed``.., each played ``after`` steps with random choices."""
    rng = random.Random(seed)
    out: list[Any] = []
    if library == "jantaku":
        from jantaku.rules import load_rules
        from jantaku.table import Game

        rules = load_rules("tenhou")
        for i in range(count):
            game = Game(rules, seed + i)
            for _ in range(after):
                if game.over:
                    break
                game.apply(rng.choice(game.legal_actions(game.to_act()[0])))
            out.append(game)
        return out
    from riichienv import GameRule, RiichiEnv

    for i in range(count):
        env = RiichiEnv(game_mode=RIICHIENV_MODE, rule=GameRule.default_tenhou(), seed=seed + i)
        obs = env.reset()
        steps = 0
        while steps < after and not env.done():
            actions = {pid: rng.choice(o.legal_actions()) for pid, o in obs.items()}
            steps += len(actions)
            obs = env.step(actions)
        out.append((env, obs))
    return out


def measure_memory(library: str, count: int, after: int, seed: int) -> dict[str, Any]:
    """Bytes held per live game (run in a fresh interpreter): RSS growth, then tracemalloc's count.

    Warm-up: one whole game (jantaku's tables and caches, lazy imports), then a first batch of ``count`` live
    games, kept, which takes up the memory the warm-up game freed. The RSS growth is measured over a second
    batch, without tracing; tracemalloc over a third: the bytes traced once it is built, minus those still
    traced after it is deleted (what stays is cache growth, not game state, and is reported apart).
    """
    play = jantaku_player("tenhou", "random") if library == "jantaku" else riichienv_player(log=True)
    play(seed + 3 * count)
    first = _live_games(library, count, after, seed)
    gc.collect()
    rss0, method = rss_bytes()
    second = _live_games(library, count, after, seed + count)
    gc.collect()
    rss1, _ = rss_bytes()
    tracemalloc.start()
    third = _live_games(library, count, after, seed + 2 * count)
    gc.collect()
    with_games, _peak = tracemalloc.get_traced_memory()
    del third
    gc.collect()
    without, _peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return {
        "library": library,
        "live_games": count,
        "steps_each": after,
        "kept_alive": len(first) + len(second),
        "rss_bytes_per_game": round((rss1 - rss0) / count),
        "rss_method": method,
        "tracemalloc_bytes_per_game": round((with_games - without) / count),
        "tracemalloc_left_after_delete_per_game": round(without / count),
    }


def memory_in_subprocess(library: str, count: int, after: int, seed: int) -> dict[str, Any]:
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=1, mp_context=ctx) as pool:
        return pool.submit(measure_memory, library, count, after, seed).result()


# ---------------------------------------------------------------------------------------------- profile


def profile_jantaku(games: int, seed: int, warm_seed: int, top: int = 15) -> str:
    """cProfile of ``games`` jantaku tenhou games with random bots (after one warm-up game), by tottime."""
    play = jantaku_player("tenhou", "random")
    play(warm_seed)
    prof = cProfile.Profile()
    prof.enable()
    for s in range(seed, seed + games):
        play(s)
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("tottime").print_stats(top)
    return out.getvalue()


# ------------------------------------------------------------------------------------------------- main


# ---------------------------------------------------------------------------------------------- start-up

RIICHIENV_ONE_GAME = f"""
import sys
from riichienv import GameRule, RiichiEnv
from riichienv.agents import RandomAgent
seed = int(sys.argv[1])
env = RiichiEnv(game_mode={RIICHIENV_MODE!r}, rule=GameRule.default_tenhou(), seed=seed, skip_mjai_logging=True)
agents = [RandomAgent(seed * 4 + seat) for seat in range(4)]
obs = env.reset()
while not env.done():
    obs = env.step({{pid: agents[pid].act(o) for pid, o in obs.items()}})
"""
"""One riichienv hanchan in a fresh interpreter: its fastest setup (RandomAgent, no MJAI log), as timed in-process."""


def startup_commands(seed: int) -> dict[str, list[str]]:
    """Per start-up row, the command that starts a fresh interpreter and plays one hanchan with seed ``seed``."""
    return {
        "jantaku-tenhou": [
            sys.executable,
            "-m",
            "jantaku.cli",
            "simulate",
            "--rules",
            "tenhou",
            "--bots",
            "random",
            "--games",
            "1",
            "--seed",
            str(seed),
            "--quiet",
        ],
        "riichienv-nolog": [sys.executable, "-c", RIICHIENV_ONE_GAME, str(seed)],
        "python": [sys.executable, "-c", "pass"],
    }


def run_process(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds (user + system, from ``getrusage`` of the children) of one command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=300, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode:
        raise RuntimeError(f"{cmd[:4]} failed: {done.stderr[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure_startup(rows: list[Row], runs: int, seed: int) -> dict[str, dict[str, float]]:
    """Start-up per library: the median process time of ``jantaku simulate --games 1`` (or riichienv's one game)
    minus the same game played warm in this process (best of three); wall and CPU seconds."""
    by_row = {r.row: r for r in rows}
    out: dict[str, dict[str, float]] = {}
    # as an installed package runs: from compiled bytecode (pip compiles it at install time). The children write
    # theirs into a folder of their own (PYTHONDONTWRITEBYTECODE, when set here, would make every start compile
    # every module), in one untimed run per command.
    cache = tempfile.mkdtemp(prefix="bench-game-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    for name, cmd in startup_commands(seed).items():
        if name != "python" and name not in by_row:
            continue
        run_process(cmd, env)
        walls, cpus = zip(*(run_process(cmd, env) for _ in range(runs)), strict=True)
        entry = {"process_wall_s": statistics.median(walls), "process_cpu_s": statistics.median(cpus)}
        if name in by_row:
            warm = [play_one(by_row[name], seed, 0)[:2] for _ in range(3)]
            entry["warm_game_wall_s"] = min(w for w, _ in warm)
            entry["warm_game_cpu_s"] = min(c for _, c in warm)
            entry["startup_wall_s"] = entry["process_wall_s"] - entry["warm_game_wall_s"]
            entry["startup_cpu_s"] = entry["process_cpu_s"] - entry["warm_game_cpu_s"]
        out[name] = entry
    shutil.rmtree(cache, ignore_errors=True)
    return out


STARTUP_TARGET_S = 0.2
"""jantaku's start-up (process start to its first game played, less that game) stays under this."""


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--games", type=int, default=200, help="games per row (default 200)")
    p.add_argument("--seed", type=int, default=0, help="first game seed (default 0)")
    p.add_argument(
        "--efficiency-games", type=int, default=None, metavar="N", help="games with EfficiencyBot (default --games)"
    )
    p.add_argument("--live", type=int, default=100, help="live games kept for the memory figure (default 100)")
    p.add_argument("--live-after", type=int, default=50, help="steps played in each live game (default 50)")
    p.add_argument("--timeout", type=float, default=60.0, help="seconds after which a game counts as hung")
    p.add_argument("--startup-runs", type=int, default=5, help="fresh processes per start-up row (default 5; 0: none)")
    p.add_argument("--profile", type=int, default=0, metavar="N", help="also cProfile N jantaku random games")
    p.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = p.parse_args(argv)
    if args.games < 1:
        p.error("--games must be at least 1")
    if args.seed < 0:
        p.error("--seed must be at least 0 (riichienv takes an unsigned seed)")
    if args.efficiency_games is None:
        args.efficiency_games = args.games
    return args


def print_table(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> None:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)).rstrip())
    print("  ".join("-" * w for w in widths))
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        print("  ".join(cells).rstrip())


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    seeds = list(range(args.seed, args.seed + args.games))
    print(
        f"bench_game: {args.games} whole games per row (EfficiencyBot: {args.efficiency_games}), seeds "
        f"{args.seed}..{args.seed + args.games - 1}, one process"
    )
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}")
    rows, missing = build_rows(efficiency=args.efficiency_games > 0)
    print(f"jantaku {version('jantaku')}; riichienv {version('riichienv') if not missing else 'not installed'}")
    print()

    first_game = warm_up(rows, args.seed + args.games)  # seeds just past the timed ones
    time_rows(rows, seeds, args.timeout, args.efficiency_games)

    table: list[list[str]] = []
    for r in rows:
        table.append(
            [
                r.library,
                r.config,
                r.agent,
                str(r.games),
                f"{r.games_per_s:,.1f}",
                f"{r.steps / max(r.games, 1):,.0f}",
                f"{r.hands / max(r.games, 1):.1f}" if r.hands_known else "-",
                f"{r.steps_per_s:,.0f}",
                f"{r.us_per_step:.1f}",
            ]
        )
    for name in missing:
        table.append([name, "not installed", "", "", "-", "", "", "-", "-"])
    header = ("library", "rules", "agents", "games", "games/s", "steps/game", "hands/game", "steps/s", "us/step")
    print_table(header, table, right={3, 4, 5, 6, 7, 8})
    print()

    by_row = {r.row: r for r in rows if r.games}
    ratios: list[dict[str, Any]] = []
    label_w = max(len(t[0]) for t in TARGETS)
    for label, num, den, measure, floor in TARGETS:
        entry: dict[str, Any] = {"ratio": label, "target": floor or None}
        if num not in by_row or den not in by_row:
            entry.update(value=None, verdict="n/a (" + ("not installed" if missing else "no games") + ")")
        else:
            value = getattr(by_row[num], measure) / getattr(by_row[den], measure)
            verdict = "(no target)" if not floor else ("PASS" if value >= floor else "MISS")
            if floor:
                verdict += f" (target >= {floor:g}x)"
            entry.update(value=round(value, 3), verdict=verdict)
        shown = "-" if entry["value"] is None else f"{entry['value']:.2f}x"
        print(f"{label:<{label_w}}  {shown:>7}  {entry['verdict']}")
        ratios.append(entry)
    print()

    startup: dict[str, Any] = {}
    if args.startup_runs > 0:
        startup = measure_startup(rows, args.startup_runs, args.seed)
        print(f"Start-up (median of {args.startup_runs} fresh processes each playing hanchan seed {args.seed}, less "
              "that hanchan played warm in this process):")  # fmt: skip
        srows = []
        for name, e in startup.items():
            srows.append([name, f"{e['process_wall_s']:.3f}", f"{e['process_cpu_s']:.3f}",
                          f"{e['startup_wall_s']:.3f}" if "startup_wall_s" in e else "-",
                          f"{e['startup_cpu_s']:.3f}" if "startup_cpu_s" in e else "-"])  # fmt: skip
        print_table(
            ("row", "process wall s", "process CPU s", "start-up wall s", "start-up CPU s"), srows, {1, 2, 3, 4}
        )
        j = startup.get("jantaku-tenhou")
        if j:
            ok = j["startup_cpu_s"] < STARTUP_TARGET_S
            print(f"jantaku start-up {j['startup_cpu_s']:.3f} s CPU ({j['startup_wall_s']:.3f} s wall): "
                  f"{'PASS' if ok else 'MISS'} (target < {STARTUP_TARGET_S} s)")  # fmt: skip
        r = startup.get("riichienv-nolog")
        jr, rr = by_row.get("jantaku-tenhou"), by_row.get("riichienv-nolog")
        if j and r and jr and rr:
            n = args.games
            per_game = {"wall": (jr.seconds / jr.games, rr.seconds / rr.games)}
            per_game["cpu"] = (jr.cpu_seconds / jr.games, rr.cpu_seconds / rr.games)
            totals = {
                clock: (j[f"startup_{clock}_s"] + n * gj, r[f"startup_{clock}_s"] + n * gr)
                for clock, (gj, gr) in per_game.items()
            }
            for clock, (tj, tr) in totals.items():
                value = tr / tj
                verdict = ("PASS" if value >= 1.0 else "MISS") + " (target >= 1x)"
                print(f"{n} hanchan with start-up, jantaku tenhou vs riichienv (no log), {clock}: {tj:.2f} s vs "
                      f"{tr:.2f} s = {value:.2f}x  {verdict}")  # fmt: skip
                ratios.append({"ratio": f"{n} hanchan with start-up vs riichienv (no log), {clock}", "target": 1.0,
                               "value": round(value, 3), "verdict": verdict})  # fmt: skip
        print()

    memory: list[dict[str, Any]] = []
    if args.live > 0:
        for lib in ["jantaku", *(["riichienv"] if "riichienv" not in missing else [])]:
            try:
                memory.append(memory_in_subprocess(lib, args.live, args.live_after, args.seed))
            except Exception as exc:
                memory.append({"library": lib, "error": f"{type(exc).__name__}: {exc}"})
        mem_rows = []
        for m in memory:
            if "error" in m:
                mem_rows.append([m["library"], "", "", m["error"], "", "-"])
                continue
            mem_rows.append(
                [
                    m["library"],
                    str(m["live_games"]),
                    str(m["steps_each"]),
                    f"{m['tracemalloc_bytes_per_game']:,}",
                    f"{m['tracemalloc_left_after_delete_per_game']:,}",
                    f"{m['rss_bytes_per_game']:,}",
                ]
            )
        method = next((m["rss_method"] for m in memory if "rss_method" in m), "?")
        print(f"Memory per live game (fresh interpreter per library; RSS read from {method}):")
        header = (
            "library",
            "live games",
            "steps each",
            "tracemalloc B/game",
            "(left after delete)",
            "RSS growth B/game",
        )
        print_table(header, mem_rows, right={1, 2, 3, 4, 5})
        print()

    notes: list[str] = []
    for r in rows:
        if r.env_steps:
            notes.append(
                f"{r.row}: {r.steps} decisions in {r.env_steps} env.step calls "
                f"({r.steps - r.env_steps} answers given together with another player's)"
            )
    notes.append("first (untimed) game per row, s: " + ", ".join(f"{k} {v:.3f}" for k, v in first_game.items()))
    if "riichienv" not in missing:
        notes.append("riichienv tracemalloc figure: Python-side objects only (its game state lives in Rust)")
    for line in notes:
        print("note: " + line)

    failures = [{"row": r.row, **f} for r in rows for f in r.failures]
    if failures:
        print()
        print(f"{len(failures)} games failed (left out of the rates):")
        for f in failures:
            print(f"  {f['row']} seed {f['seed']}: {f['error']}")
    else:
        print("no game raised or hung")

    profile = ""
    if args.profile:
        profile = profile_jantaku(args.profile, args.seed, args.seed + args.games)
        print()
        print(f"cProfile of {args.profile} jantaku tenhou games, random bots (top 15 by tottime):")
        print(profile)

    if args.json:
        doc = {
            "games": args.games,
            "efficiency_games": args.efficiency_games,
            "seed": args.seed,
            "python": platform.python_version(),
            "versions": {name: version(name) for name in ("jantaku", "riichienv")},
            "not_installed": missing,
            "results": [
                {
                    "row": r.row,
                    "library": r.library,
                    "rules": r.config,
                    "agents": r.agent,
                    "info_only": r.info,
                    "games": r.games,
                    "seconds": round(r.seconds, 4),
                    "cpu_seconds": round(r.cpu_seconds, 4),
                    "games_per_cpu_s": round(r.games_per_cpu_s, 2),
                    "games_per_s": round(r.games_per_s, 2),
                    "steps": r.steps,
                    "env_step_calls": r.env_steps or None,
                    "steps_per_s": round(r.steps_per_s, 1),
                    "us_per_step": round(r.us_per_step, 2),
                    "hands": r.hands if r.hands_known else None,
                    "first_game_s": round(first_game.get(r.row, 0.0), 4),
                    "failures": r.failures,
                }
                for r in rows
            ],
            "ratios": ratios,
            "startup": startup,
            "memory": memory,
            "notes": notes,
            "profile": profile or None,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
