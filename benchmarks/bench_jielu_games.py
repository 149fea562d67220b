"""洁律 table play: whole games per second in each payment mode, and what the games look like.

Run it from the repository root (jantaku alone; no peer library plays 洁律)::

    python benchmarks/bench_jielu_games.py                    # 40 games per mode and bot line-up, seed 0
    python benchmarks/bench_jielu_games.py --games 200 --json jielu_games.json

For each mode (``points``, ``original``) and line-up (four efficiency bots, four random bots) it plays ``--games``
games of the ``jielu`` preset in one process (``jantaku.sim.runner.play_game``) and prints games per second and
microseconds per action (a discard, call, kan or win, as ``jantaku simulate`` counts them; passes are not), with
the same figures for the riichi ``tenhou`` preset measured in the same run as the references: with random bots (the
engine's own cost, as a random bot costs next to nothing) and with the same bots as the row (the efficiency bot's
own decisions cost about 15x a random action, under either rule set). The ratios say how much the wildcard legal-win
checks cost. The ratios are of CPU time per action (``time.process_time``), which another program on a shared
machine slows less than the wall clock. Each preset plays one untimed game first (tables built once per process are
not charged to a row).
Then the statistics a rule designer asks for: wins per hand,
how early the first win comes (in the first go-around or not), the mean score S of a win, the share of wins that
use wildcards and how many, the hands that end with an empty wall, and the most frequent fans.

The figures depend on the machine and the run; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import Counter
from typing import Any

from jantaku.rules import Ruleset, load_rules
from jantaku.sim.runner import play_game
from jantaku.table import Game

ACTION_TYPES = ("dahai", "chi", "pon", "daiminkan", "ankan", "kakan", "hora")
"""The decisions counted as actions (as ``jantaku simulate`` counts them): passes are not counted."""


def measure(rules: Ruleset, games: int, seed: int, bot: str) -> dict[str, Any]:
    start = time.perf_counter()
    cpu_start = time.process_time()
    played = []
    steps = 0
    for g in range(games):
        game = play_game(rules, seed + g, [bot] * 4)
        played.append(game)
        steps += sum(1 for e in game.events if e["type"] in ACTION_TYPES)
    cpu = time.process_time() - cpu_start
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
        "games_per_s": games / seconds,
        "us_per_action": 1e6 * seconds / max(1, steps),
        "cpu_us_per_action": 1e6 * cpu / max(1, steps),
        "seconds": seconds,
    }
    if rules.family == "jielu":
        out.update(statistics(played))
    return out


def statistics(games: list[Game]) -> dict[str, Any]:
    hands = wins = first_round = wall_empty = with_wild = wild_total = score_total = 0
    fans: Counter[str] = Counter()
    for game in games:
        hand_events: list[dict[str, Any]] = []
        for e in game.events:
            if e["type"] == "start_kyoku":
                hand_events = []
            hand_events.append(e)
            if e["type"] != "end_kyoku":
                continue
            hands += 1
            discards = 0
            first_seen = False
            for h in hand_events:
                if h["type"] == "dahai":
                    discards += 1
                if h["type"] == "hora":
                    wins += 1
                    score_total += h["score"]
                    n_wild = len(h["wildcards"])
                    with_wild += n_wild > 0
                    wild_total += n_wild
                    fans.update(f[0] for f in h["fans"])
                    if not first_seen:
                        first_seen = True
                        first_round += discards < 4
                if h["type"] == "ryukyoku" and h.get("reason") == "wall_empty":
                    wall_empty += 1
    return {
        "hands": hands,
        "wins_per_hand": wins / max(1, hands),
        "first_win_in_first_go_around": first_round / max(1, hands),
        "mean_score": score_total / max(1, wins),
        "wins_with_wildcards": with_wild / max(1, wins),
        "mean_wildcards_per_win": wild_total / max(1, wins),
        "hands_to_empty_wall": wall_empty / max(1, hands),
        "top_fans": fans.most_common(8),
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--games", type=int, default=40, help="games per mode and line-up (default 40)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = p.parse_args(argv)
    print(f"python {platform.python_version()} on {platform.machine()}; {args.games} games per row")
    tenhou = load_rules("tenhou")
    references: dict[str, dict[str, Any]] = {}
    for bot in ("random", "efficiency"):
        play_game(tenhou, args.seed - 1, [bot] * 4)  # untimed warm-up
        ref = references[bot] = measure(tenhou, args.games, args.seed, bot)
        name = f"tenhou, {bot} (reference)"
        print(
            f"{name:34} {ref['games_per_s']:7.1f} games/s {ref['us_per_action']:8.1f} us/action"
            f" ({ref['cpu_us_per_action']:.1f} CPU)"
        )
    rows: dict[str, Any] = {f"tenhou-{bot}": ref for bot, ref in references.items()}
    for mode in ("points", "original"):
        rules = load_rules("jielu").replace(jielu_mode=mode)
        play_game(rules, args.seed - 1, ["random"] * 4)  # untimed warm-up
        for bot in ("efficiency", "random"):
            r = measure(rules, args.games, args.seed, bot)
            r["ratio_tenhou_random"] = r["cpu_us_per_action"] / references["random"]["cpu_us_per_action"]
            r["ratio_tenhou_same_bots"] = r["cpu_us_per_action"] / references[bot]["cpu_us_per_action"]
            rows[f"jielu-{mode}-{bot}"] = r
            print(
                f"{'jielu ' + mode + ', ' + bot:34} {r['games_per_s']:7.1f} games/s {r['us_per_action']:8.1f} us/action"
                f" ({r['cpu_us_per_action']:.1f} CPU; {r['ratio_tenhou_random']:.1f}x tenhou random,"
                f" {r['ratio_tenhou_same_bots']:.1f}x tenhou with {bot} bots)"
            )
            print(
                f"    wins/hand {r['wins_per_hand']:.2f},"
                f" first win in the first go-around {r['first_win_in_first_go_around']:.0%},"
                f" mean S {r['mean_score']:.2f}, wins with wildcards {r['wins_with_wildcards']:.0%}"
                f" ({r['mean_wildcards_per_win']:.1f} per win), hands to an empty wall {r['hands_to_empty_wall']:.0%}"
            )
            print("    fans: " + ", ".join(f"{name} {n}" for name, n in r["top_fans"]))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, ensure_ascii=False, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
