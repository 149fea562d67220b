"""How well the ``strong`` bot's chance of winning matches what happens: its calibration, by shanten and threat.

At every discard the ``strong`` bot chooses on its own turn (not in riichi), the script keeps the bot's estimated
chance of winning the hand after that discard (``Decision.win_chance``), the shanten the discard leaves, and
whether an opponent threatens (the bot's own estimate: the opponents' chances of being tenpai add up to at least
0.6, as a riichi does). When the hand ends it marks each kept decision won or not. It prints, per threat and
shanten, the decisions, the mean predicted chance, the share actually won and their ratio (predicted / actual).

The games are duplicate play as in ``bench_bot.py``: for each seed one ``strong`` bot in each seat in turn beside
three ``efficiency`` bots (or ``--opponents``). The outcome includes the bot's own later choices (it may fold a
hand it pushed before), so a ratio above 1 facing a threat is partly the bot folding; the estimate is of pushing.

```sh
python benchmarks/bench_bot_calibration.py                      # 40 seeds (160 hanchan), tenhou
python benchmarks/bench_bot_calibration.py --seeds 160 --workers 2 --json calibration.json
```

Nothing here is asserted in tests; ``strong.HAZARD`` was set from this script's figures (its docstring has them).
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

THREAT = 0.6
"""A decision counts as facing a threat when the opponents' chances of being tenpai add up to at least this."""


def _seed_rows(job: tuple[str, int, str]) -> list[tuple[bool, int, float, bool]]:
    """(threat, shanten after the discard, predicted chance, won) for every own-turn discard of the strong seat
    in the four seatings of one seed."""
    from jantaku.bots import make_bot
    from jantaku.bots.base import unseen_counts
    from jantaku.bots.danger import threats
    from jantaku.rules import load_rules
    from jantaku.shapes.shanten import shanten
    from jantaku.table import Game
    from jantaku.table.actions import DISCARD, RIICHI

    rules_name, seed, opponent = job
    rules = load_rules(rules_name)
    rows: list[tuple[bool, int, float, bool]] = []
    for strong_seat in range(4):
        names = [opponent] * 4
        names[strong_seat] = "strong"
        game = Game(rules, seed, names=names)
        agents = [make_bot(name, f"{seed}:{s}") for s, name in enumerate(names)]
        pending: list[tuple[bool, int, float]] = []
        hands_done = 0
        while not game.over:
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            view = game.view(seat)
            if seat != strong_seat:
                game.apply(agents[seat].act(view, legal))
            else:
                best = agents[seat].rank(view, legal)[0]
                a = best.action
                if a.kind in (DISCARD, RIICHI) and best.win_chance is not None and not view.riichi(seat):
                    threat = sum(t.tenpai for t in threats(view, unseen_counts(view))) >= THREAT
                    counts = view.counts
                    counts[a.tile.kind] -= 1  # type: ignore[union-attr]
                    pending.append((threat, shanten(counts), best.win_chance))
                game.apply(a)
            if len(game.results) > hands_done:
                result = game.results[-1]
                hands_done = len(game.results)
                won = any(w.seat == strong_seat for w in result.wins)
                rows.extend((threat, s, p, won) for threat, s, p in pending)
                pending = []
    return rows


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="tenhou")
    p.add_argument("--seeds", type=int, default=40, help="duplicate-play seeds (4 hanchan each)")
    p.add_argument("--first-seed", type=int, default=20000)
    p.add_argument("--opponents", default="efficiency")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--json", default=None, help="write the table to this file")
    a = p.parse_args()
    start = time.time()
    jobs = [(a.rules, a.first_seed + i, a.opponents) for i in range(a.seeds)]
    if a.workers > 1:
        with ProcessPoolExecutor(a.workers) as ex:
            per_seed = list(ex.map(_seed_rows, jobs))
    else:
        per_seed = [_seed_rows(j) for j in jobs]
    cells: dict[tuple[bool, int], list[tuple[float, bool]]] = defaultdict(list)
    for rows in per_seed:
        for threat, s, chance, won in rows:
            cells[(threat, min(s, 5))].append((chance, won))
    print(f"calibration of strong under {a.rules}: {a.seeds} seeds x 4 seatings vs 3 {a.opponents}")
    print(f"{'facing':<10}{'shanten':>8}{'decisions':>11}{'predicted':>11}{'won':>8}{'pred/won':>10}")
    table = []
    for threat in (False, True):
        for s in range(6):
            got = cells.get((threat, s), [])
            if not got:
                continue
            pred = statistics.fmean(c for c, _ in got)
            won = sum(w for _, w in got) / len(got)
            ratio = pred / won if won else float("inf")
            label = "a threat" if threat else "nobody"
            shown = "5+" if s == 5 else str(s)
            print(f"{label:<10}{shown:>8}{len(got):>11}{pred:>11.3f}{won:>8.3f}{ratio:>10.2f}")
            table.append({"threat": threat, "shanten": s, "decisions": len(got), "predicted": pred, "won": won})
    print(f"({time.time() - start:.0f} s)")
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"rules": a.rules, "seeds": a.seeds, "first_seed": a.first_seed, "cells": table}, f, indent=1)


if __name__ == "__main__":
    main()
