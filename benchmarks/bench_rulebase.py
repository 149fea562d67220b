"""The ``strong`` bot against a third-party bot: two of mjai.app's ``RulebaseBot`` beside two ``strong``.

``RulebaseBot`` is the reference rule-based bot of the PyPI package ``mjai`` (mjai.app's simulator, AGPL-3.0,
``mjai.bot.rulebase``). That package pins its own ``mahjong`` (``~=1.2.0``, jantaku's benchmarks use 2.x), so
it is never a jantaku dependency: it lives in the benchmark's own virtual environment, set up once from the
repository root::

    python -m venv .venv-rulebase && .venv-rulebase/bin/pip install -r benchmarks/requirements-rulebase.txt

and this script (run with jantaku's own Python) starts each ``RulebaseBot`` as an external mjai process with
that environment's interpreter, exactly as ``jantaku simulate --bots mjai:COMMAND`` seats an external bot
(:class:`jantaku.bots.mjai_process.MjaiProcessAgent`: one line of JSON events in, one JSON action out, the
mjai.app protocol that ``mjai.Bot.start`` speaks)::

    python benchmarks/bench_rulebase.py                                    # 10 seeds x 4 seatings, tenhou
    python benchmarks/bench_rulebase.py --seeds 500 --minutes 60 --json rulebase.json
    python benchmarks/bench_rulebase.py --python /path/to/venv/bin/python --rules mleague

**Seating.** For each seed the same walls (``Game(rules, seed)`` draws every hand's wall from the seed) are
played four times, the line-up ``R R S S`` (R: RulebaseBot, S: strong) rotated one seat each time, so each bot
sits in every seat once per seed and the luck of the walls is shared. The mean rank of each side is given with
a 95% confidence interval over seeds (each seed's eight ranks of a side averaged, so the correlation of the
replayed walls is respected). In every game the two sides' ranks add up to 10, so the two means add up to 5;
both are printed all the same. Also: rank shares, mean final points (after uma), each side's win and deal-in
rates per hand, and the strong bot's decision times.

**Illegal answers.** RulebaseBot sometimes answers a discard the rules forbid: when none of its candidate tiles
is allowed it falls back to its last drawn tile, which after a call may be a swap-call (kuikae) tile and after
declaring riichi a tile that does not keep tenpai. mjai.app charges such an answer as a chombo; here it is
replaced by a legal action (the legal riichi discard after a riichi declaration, else a legal discard, the
drawn tile first) and counted (``corrected``, with the first few messages). A game in which a RulebaseBot
process fails (does not start, exits, times out) is counted and named, and its seed is left out of the
figures. ``--minutes`` stops starting new seeds after that long; the JSON file (``--json``) is rewritten after
every seed, so a long run in the background leaves its figures so far. Nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from jantaku.bots import PlayerView, make_bot
from jantaku.bots.mjai_process import MjaiProcessAgent
from jantaku.errors import JantakuError
from jantaku.rules import load_rules
from jantaku.table import Game
from jantaku.table.actions import DISCARD, PASS, RIICHI, Action
from jantaku.table.kyoku import IllegalActionError

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_PYTHON = ROOT / ".venv-rulebase" / "bin" / "python"
# the bot's entry point, as mjai.app's README runs a bot: ``RulebaseBot(player_id=int(sys.argv[1])).start()``
LAUNCH = "import sys; from mjai.bot.rulebase import RulebaseBot; RulebaseBot(player_id=int(sys.argv[1])).start()"
# RulebaseBot logs every discard at INFO through loguru (to stderr); only warnings are kept
QUIET = {"LOGURU_LEVEL": "WARNING"}
LINEUP = ("R", "R", "S", "S")


def check_python(python: str) -> None:
    """Fail with a clear message when ``python`` cannot import ``mjai.bot.rulebase``."""
    import subprocess

    if not Path(python).exists():
        raise SystemExit(
            f"{python} does not exist: set up the benchmark's environment first (from the repository root)\n"
            "  python -m venv .venv-rulebase && .venv-rulebase/bin/pip install -r benchmarks/requirements-rulebase.txt"
        )
    done = subprocess.run(
        [python, "-c", "import mjai, mahjong; from mjai.bot.rulebase import RulebaseBot; print(mahjong.__file__)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if done.returncode:
        tail = done.stderr.strip().splitlines()[-1:] or ["(no message)"]
        raise SystemExit(f"{python} cannot import mjai's RulebaseBot: {tail[0]}")


def _side(seating: int, seat: int) -> str:
    """``R`` or ``S`` at ``seat`` in rotation ``seating`` of the line-up."""
    return LINEUP[(seat - seating) % 4]


def _ask(agent: Any, view: PlayerView, legal: list[Action], corrected: list[str]) -> Action:
    """The agent's action; an illegal answer of an external bot is replaced by a legal one and noted."""
    try:
        return agent.act(view, legal)
    except IllegalActionError as e:
        if not isinstance(agent, MjaiProcessAgent):
            raise
        corrected.append(str(e)[:400])
        riichi = [a for a in legal if a.kind == RIICHI]
        # the bot declared riichi and then named a discard riichi does not allow: the riichi stands
        declared = bool(getattr(agent, "_drop_reach", False))
        pool = (riichi if declared and riichi else []) or [a for a in legal if a.kind == DISCARD]
        pool = pool or [a for a in legal if a.kind == PASS] or legal
        return next((a for a in pool if a.tsumogiri), pool[0])


def play(rules_name: str, seed: int, seating: int, python: str, timeout: float) -> dict[str, Any]:
    """One hanchan; its ranks, final points, wins and deal-ins per seat, and the strong decisions' times."""
    rules = load_rules(rules_name)
    sides = [_side(seating, s) for s in range(4)]
    game = Game(rules, seed, names=["rulebase" if x == "R" else "strong" for x in sides])
    agents: list[Any] = []
    for seat, side in enumerate(sides):
        if side == "R":
            agents.append(MjaiProcessAgent([python, "-c", LAUNCH, str(seat)], seat=seat, timeout=timeout, env=QUIET))
        else:
            agents.append(make_bot("strong", f"{seed}:{seat}"))
    times: list[float] = []
    corrected: list[str] = []
    try:
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            t0 = time.perf_counter()
            action = _ask(agents[seat], view, legal, corrected)
            if sides[seat] == "S":
                times.append(time.perf_counter() - t0)
            game.apply(action)
    finally:
        for a in agents:
            if isinstance(a, MjaiProcessAgent):
                a.close()
    assert game.result is not None
    wins = [0] * 4
    deal_ins = [0] * 4
    for r in game.results:
        for w in r.wins:
            wins[w.seat] += 1
            if w.from_seat is not None:
                deal_ins[w.from_seat] += 1
    return {
        "sides": sides,
        "ranks": list(game.result.ranks),
        "final": list(game.result.final),
        "hands": len(game.results),
        "wins": wins,
        "deal_ins": deal_ins,
        "times": times,
        "corrected": corrected,
    }


def _ci(values: list[float]) -> tuple[float, float | None]:
    """Mean and the half-width of its 95% interval (normal approximation; ``None`` for one value)."""
    m = statistics.fmean(values)
    if len(values) < 2:
        return m, None
    return m, round(1.96 * statistics.stdev(values) / math.sqrt(len(values)), 4)


def summarise(games: list[dict[str, Any]], failures: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """The figures over the seeds played so far (every game of a seed is in ``games``)."""
    by_seed: dict[int, list[dict[str, Any]]] = {}
    for g in games:
        by_seed.setdefault(g["seed"], []).append(g)
    out: dict[str, Any] = {
        "rules": args.rules,
        "lineup": "two mjai RulebaseBot (PyPI mjai==0.2.1) and two strong, R R S S rotated over the 4 seatings",
        "seeds": len(by_seed),
        "hanchan": len(games),
        "failed_games": failures,
        "corrected": sum(len(g["corrected"]) for g in games),
        "corrected_games": sum(1 for g in games if g["corrected"]),
        "corrected_examples": [c for g in games for c in g["corrected"]][:3],
    }
    if not games:
        return out
    for side, label in (("R", "rulebase"), ("S", "strong")):
        per_seed = [
            statistics.fmean(r for g in gs for r, s in zip(g["ranks"], g["sides"], strict=True) if s == side)
            for gs in by_seed.values()
        ]
        ranks = [r for g in games for r, s in zip(g["ranks"], g["sides"], strict=True) if s == side]
        finals = [
            statistics.fmean(f for g in gs for f, s in zip(g["final"], g["sides"], strict=True) if s == side)
            for gs in by_seed.values()
        ]
        hands = sum(2 * g["hands"] for g in games)  # two seats of the side in every hand
        wins = sum(w for g in games for w, s in zip(g["wins"], g["sides"], strict=True) if s == side)
        deal = sum(d for g in games for d, s in zip(g["deal_ins"], g["sides"], strict=True) if s == side)
        mean, half = _ci(per_seed)
        fmean, fhalf = _ci(finals)
        out[label] = {
            "mean_rank": round(mean, 4),
            "ci95": half,
            "rank_shares": [round(ranks.count(k) / len(ranks), 4) for k in (1, 2, 3, 4)],
            "mean_final": round(fmean, 2),
            "final_ci95": fhalf,
            "win_rate": round(wins / hands, 4),
            "deal_in_rate": round(deal / hands, 4),
        }
    times = sorted(t for g in games for t in g["times"])
    out["strong_ms"] = {
        "decisions": len(times),
        "median": round(times[len(times) // 2] * 1e3, 3),
        "p99": round(times[min(len(times) - 1, int(len(times) * 0.99))] * 1e3, 3),
    }
    return out


def report(s: dict[str, Any]) -> None:
    print(f"{s['rules']}: {s['seeds']} seeds x 4 seatings = {s['hanchan']} hanchan; {s['lineup']}")
    for label in ("rulebase", "strong"):
        if label not in s:
            continue
        x = s[label]
        shares = "  ".join(f"{k + 1}: {v:.1%}" for k, v in enumerate(x["rank_shares"]))
        ci = "n/a" if x["ci95"] is None else f"{x['ci95']:.3f}"
        fci = "n/a" if x["final_ci95"] is None else f"{x['final_ci95']:.1f}"
        print(
            f"  {label:<9} mean rank {x['mean_rank']:.3f} ± {ci} (95%)   {shares}   "
            f"final {x['mean_final']:+.1f} ± {fci}   win {x['win_rate']:.1%}  "
            f"deal-in {x['deal_in_rate']:.1%}"
        )
    if "strong_ms" in s:
        t = s["strong_ms"]
        print(f"  strong decisions: {t['decisions']}, median {t['median']:.2f} ms, p99 {t['p99']:.2f} ms")
    if s["corrected"]:
        print(
            f"  {s['corrected']} illegal RulebaseBot answers replaced by legal ones, in {s['corrected_games']} games "
            "(mjai.app would charge a chombo)"
        )
    if s["failed_games"]:
        print(f"  {len(s['failed_games'])} games failed (their seeds left out): {s['failed_games'][:5]}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rules", default="tenhou", help="rule set (default tenhou: RulebaseBot plays Tenhou's rules)")
    p.add_argument("--seeds", type=int, default=10, help="seeds, each played in 4 seatings (default 10)")
    p.add_argument("--first-seed", type=int, default=0)
    p.add_argument("--python", default=str(DEFAULT_PYTHON), help="the interpreter of the venv that has mjai")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds a RulebaseBot may take per answer")
    p.add_argument("--minutes", type=float, default=0.0, help="start no new seed after this long (0: no limit)")
    p.add_argument("--json", default=None, help="write the figures here (rewritten after every seed)")
    a = p.parse_args(argv)
    load_rules(a.rules)  # an unknown name fails here, before any process starts
    check_python(a.python)
    start = time.monotonic()
    games: list[dict[str, Any]] = []
    failures: list[str] = []
    for seed in range(a.first_seed, a.first_seed + a.seeds):
        if a.minutes and time.monotonic() - start > 60 * a.minutes:
            print(f"stopped after {a.minutes:g} minutes")
            break
        played: list[dict[str, Any]] = []
        try:
            for seating in range(4):
                g = play(a.rules, seed, seating, a.python, a.timeout)
                g["seed"] = seed
                played.append(g)
        except JantakuError as e:
            failures.append(f"seed {seed} seating {len(played)}: {e}")
            continue
        games.extend(played)
        if a.json:
            summary = summarise(games, failures, a)
            summary["seconds"] = round(time.monotonic() - start, 1)
            Path(a.json).write_text(json.dumps(summary, indent=2), encoding="utf-8")
    summary = summarise(games, failures, a)
    summary["seconds"] = round(time.monotonic() - start, 1)
    report(summary)
    if a.json:
        Path(a.json).write_text(json.dumps(summary, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
