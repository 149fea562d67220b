"""Hand by hand, is one setting of the ``strong`` bot's constants worth more points than another?

Run it from the repository root (jantaku alone)::

    python benchmarks/bench_bot_hands.py --a '{"TENPAI_SHARE": 0.85}' --b '{"TENPAI_SHARE": 0}'
    python benchmarks/bench_bot_hands.py --a '{"DEFENCE": 1.0}' --seeds 100 --workers 2

Whole games answer "which is stronger" slowly: after the first hand that two settings play differently, the games
go apart, and 1,600 hanchan of duplicate play still leave about ±0.05 on the average rank. This script pairs
single hands instead. For each seed and seat it plays the game once (one ``strong`` bot in that seat, three
``efficiency`` bots) and notes the state at the start of every hand: round, dealer, honba, deposits, scores and the
hand's index, which with the seed fixes its wall. Each hand is then dealt again from that state twice, with the
constants of ``--a`` and of ``--b`` set in :mod:`jantaku.bots.strong` (by name, as JSON; a constant of
:mod:`jantaku.bots.danger` is written ``danger.NAME``), and the seat's points after the hand are compared (riichi
sticks included). The bots are new for each hand, seeded as in the game, so the game's first hand is dealt and
played again exactly; later hands can differ from the game where a bot's memory of earlier hands (its random
tie-breaks, how much the others fold) decided. Most hands are played the same way by both settings and differ by
exactly 0, so the difference per hand has a far narrower interval than whole games give: about ±40 points per hand
over 100 seeds (4,000 hands).

What it measures is points per hand, not rank: a setting that matters only for placement (all-last) needs
``bench_bot.py``. Nothing here is asserted in tests beyond the pairing being exact.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from jantaku.bots import danger as danger_module
from jantaku.bots import make_bot
from jantaku.bots import strong as strong_module
from jantaku.rules import load_rules
from jantaku.table import Game

HandStart = dict[str, Any]


def _set_constants(over: dict[str, Any]) -> dict[tuple[Any, str], Any]:
    """Set the bot's constants named in ``over``; returns what they were."""
    saved: dict[tuple[Any, str], Any] = {}
    for key, value in over.items():
        module, name = (danger_module, key[len("danger.") :]) if key.startswith("danger.") else (strong_module, key)
        if not hasattr(module, name):
            raise SystemExit(f"{key!r}: no such constant in {module.__name__}")
        saved[(module, name)] = getattr(module, name)
        setattr(module, name, tuple(value) if isinstance(value, list) else value)
    return saved


def _restore(saved: dict[tuple[Any, str], Any]) -> None:
    for (module, name), value in saved.items():
        setattr(module, name, value)


def _agents(seed: int, seat: int) -> list[Any]:
    """A ``strong`` bot in ``seat`` and ``efficiency`` bots in the others, seeded as ``bench_bot.py`` seeds them."""
    return [make_bot("strong" if s == seat else "efficiency", f"{seed}:{s}") for s in range(4)]


def _step(game: Game, agents: list[Any]) -> None:
    """The seat to act chooses, and its action is applied."""
    s = game.to_act()[0]
    game.apply(agents[s].act(game.view(s), game.legal_actions(s)))


def play_hand(rules_name: str, seed: int, start: HandStart, seat: int, over: dict[str, Any]) -> int:
    """Deal the hand of ``start`` again (the same wall) and play it to its end with the constants ``over``; the
    seat's points after it minus before."""
    saved = _set_constants(over)
    try:
        game = Game(load_rules(rules_name), seed)
        game.resync(**start)
        agents = _agents(seed, seat)  # fresh: no memory of earlier hands
        played = len(game.results)
        while not game.over and len(game.results) == played:
            _step(game, agents)
        return game.results[-1].scores[seat] - start["scores"][seat]
    finally:
        _restore(saved)


def hand_starts(rules_name: str, seed: int, seat: int) -> tuple[list[HandStart], list[int]]:
    """Play the game of ``seed`` with the strong bot in ``seat``: the state at the start of each hand, and the
    seat's points after each hand minus before."""
    game = Game(load_rules(rules_name), seed)
    agents = _agents(seed, seat)
    starts: list[HandStart] = []
    while not game.over:
        new_hand = not starts or starts[-1]["hand_index"] != game.hand_index
        if new_hand and game.yame_choice is None:  # (not the all-last dealer's choice to stop after the last hand)
            starts.append(
                {
                    "round_wind": game.round_wind,
                    "dealer": game.dealer,
                    "honba": game.honba,
                    "deposits": game.deposits,
                    "scores": list(game.scores),
                    "hand_index": game.hand_index,
                }
            )
        _step(game, agents)
    gained = [r.scores[seat] - st["scores"][seat] for r, st in zip(game.results, starts, strict=True)]
    return starts, gained


def _seed_pairs(job: tuple[str, int, dict[str, Any], dict[str, Any]]) -> list[tuple[int, int]]:
    rules_name, seed, a, b = job
    out = []
    for seat in range(4):
        starts, _ = hand_starts(rules_name, seed, seat)
        for start in starts:
            out.append((play_hand(rules_name, seed, start, seat, a), play_hand(rules_name, seed, start, seat, b)))
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--a", default="{}", help="constants of setting A, as JSON (default: the bot as shipped)")
    p.add_argument("--b", default="{}", help="constants of setting B, as JSON (default: the bot as shipped)")
    p.add_argument("--rules", default="tenhou")
    p.add_argument("--seeds", type=int, default=25, help="seeds (four seatings each)")
    p.add_argument("--first-seed", type=int, default=20000)
    p.add_argument("--workers", type=int, default=1)
    args = p.parse_args(argv)
    try:
        a, b = json.loads(args.a), json.loads(args.b)
    except json.JSONDecodeError as e:
        raise SystemExit(f"--a/--b must be JSON objects: {e}") from None
    if not isinstance(a, dict) or not isinstance(b, dict):
        raise SystemExit("--a/--b must be JSON objects, such as '{\"DEFENCE\": 1.0}'")
    _restore(_set_constants({**a, **b}))  # every name is checked before the games start
    load_rules(args.rules)
    start = time.perf_counter()
    jobs = [(args.rules, args.first_seed + i, a, b) for i in range(args.seeds)]
    if args.workers > 1:
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(_seed_pairs, jobs))
    else:
        results = [_seed_pairs(j) for j in jobs]
    pairs = [x for r in results for x in r]
    diffs = [x - y for x, y in pairs]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else float("nan")
    same = sum(1 for d in diffs if d == 0)
    print(f"{len(pairs)} hands under {args.rules} ({args.seeds} seeds x 4 seatings), strong vs 3 efficiency")
    print(f"  A {json.dumps(a)}: {statistics.fmean(x for x, _ in pairs):+.0f} points per hand")
    print(f"  B {json.dumps(b)}: {statistics.fmean(y for _, y in pairs):+.0f} points per hand")
    print(f"  A - B: {mean:+.1f} ± {half:.1f} points per hand (95%); played alike: {same / len(pairs):.0%} of hands")
    print(f"  ({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
