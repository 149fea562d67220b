"""The strong bot as a real ``jantaku bot strong`` process against the same bot in-process, over many seeded games.

    python tools/mjai_identity.py                 # 50 East-only games of every preset, 2 presets at a time
    python tools/mjai_identity.py --games 5 --presets tenhou,jielu

Each game is played twice from one seed: once with every bot in-process, once with the strong bot's seat played
by a ``jantaku bot strong`` process over mjai (a new process each game; the other seats in-process). The two logs
must be the same event for event. It prints, per preset, the games, how many were identical, the mjai exchanges
and the decisions the strong seat made, and the first difference found. tests/test_mjai_identity.py plays fewer
games the same way in CI (the process's pipe replaced by a direct call) and this one game with processes.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from jantaku.bots.mjai_process import MjaiProcessAgent  # noqa: E402
from test_mjai_identity import PRESETS, first_difference, play_pair  # noqa: E402


def run_preset(preset: str, games: int) -> dict[str, Any]:
    start = time.monotonic()
    identical, exchanges, decisions, first = 0, 0, Counter(), None
    made: list[MjaiProcessAgent] = []

    def process(seed: str, seat: int) -> MjaiProcessAgent:  # a new `jantaku bot strong` process a game
        command = [sys.executable, "-m", "jantaku.cli", "bot", "strong", "--seed", f"{seed}:{seat}"]
        made.append(MjaiProcessAgent(command, seat=seat, timeout=60))
        return made[-1]

    for n in range(games):
        direct, over_mjai, seat = play_pair(preset, n, process)
        exchanges += made[-1].exchanges
        difference = first_difference(direct, over_mjai)
        if difference is None:
            identical += 1
        elif first is None:
            first = f"game {n} (seat {seat}): {difference}"
        decisions.update(e["type"] for e in direct.events if e.get("actor") == seat)
    return {
        "preset": preset,
        "games": games,
        "identical": identical,
        "exchanges": exchanges,
        "decisions": dict(decisions),
        "seconds": time.monotonic() - start,
        "first_difference": first,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50, help="games per preset (default 50)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="comma-separated presets (default: all)")
    parser.add_argument("--workers", type=int, default=2, help="presets played at once (default 2)")
    args = parser.parse_args(argv)
    presets = [p for p in args.presets.split(",") if p]
    failed = False
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        for r in pool.map(run_preset, presets, [args.games] * len(presets)):
            d = r["decisions"]
            print(
                f"{r['preset']:<15} {r['identical']}/{r['games']} identical, {r['exchanges']} exchanges, "
                f"{d.get('dahai', 0)} discards, {d.get('reach', 0)} riichi, {d.get('pon', 0) + d.get('chi', 0)} calls, "
                f"{d.get('hora', 0)} wins, {r['seconds']:.0f} s",
                flush=True,
            )
            if r["first_difference"]:
                failed = True
                print(f"  first difference: {r['first_difference']}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
