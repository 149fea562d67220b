"""洁律 scoring throughput: hands scored per second, with and without wildcards, and the worst case seen.

Run it from the repository root (jantaku alone; no peer library scores 洁律)::

    python benchmarks/bench_jielu.py                          # 2000 hands per set, seed 0
    python benchmarks/bench_jielu.py --hands 5000 --repeat 5 --seed 1 --json jielu.json
    python benchmarks/bench_jielu.py --profile 500            # also cProfile the wildcard search on 500 hands

The hand sets (built before any timing, as ``Hand`` objects):

- ``win``: random complete hands - four melds (chows, pungs, now and then a called kong; a third of the hands with
  one or two called melds) and a pair, with random circumstances (tsumo, haitei, rinshan) - the declared wins;
- ``win-1`` / ``win-2``: the same with one / two closed tiles replaced at random: wins that need wildcards;
- ``end``: a non-winner at the end of a hand: 13 tiles (one removed from a complete hand, another replaced) and
  one extra wildcard (``extra_wildcards=1``);
- ``draw``: 14 tiles from a shuffled wall - the legal-win check a table runs after every draw
  (:func:`jantaku.jielu.can_win`: the compiled check of :mod:`jantaku.jielu.wincheck`), and the same question put
  to the optimiser (``best_completion`` with ``stop_at=1``, the check before the compiled one), in the same run:
  both rows count the same hands worth 1 point.

Each set is scored by ``jantaku.jielu.score_hand`` twice: "without wildcards" (``max_wildcards=0``: only the
plain decompositions; a hand that is not complete scores 0) and "with wildcards" (the full optimiser: every choice
of wildcards); ``end`` only with (its extra wildcard is always one). "best score only" is the compiled search's
``WinCheck.best_score`` (the score S, no explanation). ``draw`` runs ``can_win``.

Timing: one untimed warm-up pass (it builds the tables: the shanten tables, the fan instances, the bound tables),
then ``--repeat`` timed passes; the best pass gives the rate (by the wall clock, and by CPU time in the ``CPU h/s``
column, which another program on a shared machine slows less). Before every pass the optimiser's whole-hand result
cache is cleared, so a pass never replays cached answers; the per-reading caches (a reading's fans, the bounds)
stay warm, as in a long-running process; and the garbage collector runs once, so that no pass starts with the
previous one's garbage (collections during a pass are left alone: a worst case of a few tens of milliseconds on an
easy hand is such a collection, not the search). The worst case is the slowest single hand over all timed passes,
printed with its hand; the search's nodes per hand are printed beside the rate.

The figures depend on the machine and the run; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import io
import json
import platform
import pstats
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from jantaku import Hand
from jantaku.jielu import can_win, score_hand
from jantaku.jielu.fantable import default_fan_table
from jantaku.jielu.melds import code_of_meld
from jantaku.jielu.scoring import _incidental
from jantaku.jielu.search import SearchStats, _best_completion
from jantaku.jielu.wincheck import win_check
from jantaku.tiles import KIND_NAMES, counts34

SUITED_CHOWS = [9 * s + n for s in range(3) for n in range(7)]


def _name(kind: int) -> str:
    return KIND_NAMES[kind]


def _meld_text(shape: str, kind: int) -> str:
    n, suit = KIND_NAMES[kind][0], KIND_NAMES[kind][1]
    if shape == "c":
        return f"{n}{int(n) + 1}{int(n) + 2}{suit}"
    return n * (4 if shape == "k" else 3) + suit


def random_complete(rng: random.Random) -> tuple[list[int], list[str], list[int]] | None:
    """A random complete hand: closed counts, called melds (text), and the counts of every tile (calls included)."""
    melds: list[tuple[str, int]] = []
    for _ in range(4):
        r = rng.random()
        if r < 0.5:
            melds.append(("c", rng.choice(SUITED_CHOWS)))
        else:
            melds.append(("p", rng.randrange(34)))
    n_called = rng.choice((0, 0, 0, 1, 2))
    called = []
    for i in range(n_called):
        shape, kind = melds[i]
        if shape == "p" and rng.random() < 0.25:
            shape = "k"
        called.append((shape, kind))
    closed = [0] * 34
    total = [0] * 34
    pair = rng.randrange(34)
    closed[pair] += 2
    for i, (shape, kind) in enumerate(melds):
        tiles = [kind, kind + 1, kind + 2] if shape == "c" else [kind] * 3
        if i < n_called:
            if called[i][0] == "k":
                tiles = [kind] * 4
            for k in tiles:
                total[k] += 1
        else:
            for k in tiles:
                closed[k] += 1
    for k in range(34):
        total[k] += closed[k]
    if max(total) > 4:
        return None
    texts = []
    for shape, kind in called:
        body = _meld_text(shape, kind)
        texts.append(body + ("*" if shape == "k" and rng.random() < 0.5 else "+"))
    return closed, texts, total


def _swap(rng: random.Random, closed: list[int], total: list[int], n: int) -> None:
    for _ in range(n):
        k = rng.choice([k for k in range(34) if closed[k]])
        closed[k] -= 1
        total[k] -= 1
        j = rng.choice([x for x in range(34) if total[x] < 4 and x != k])
        closed[j] += 1
        total[j] += 1


def _hand(closed: list[int], melds: list[str]) -> Hand:
    text = "".join(_name(k) * c for k, c in enumerate(closed))
    return Hand.parse(" ".join([text, *melds]) if melds else text)


@dataclass
class Case:
    hand: Hand
    kwargs: dict[str, object] = field(default_factory=dict)


def build_sets(n: int, seed: int) -> dict[str, list[Case]]:
    rng = random.Random(seed)
    sets: dict[str, list[Case]] = {"win": [], "win-1": [], "win-2": [], "end": [], "draw": []}
    while min(len(v) for k, v in sets.items() if k != "draw") < n:
        got = random_complete(rng)
        if got is None:
            continue
        closed, melds, total = got
        has_kong = any(m[:4] == m[0] * 4 for m in melds)
        r = rng.random()
        flags = {"tsumo": r < 0.5, "last_tile": r < 0.05, "kong": has_kong and 0.1 < r < 0.5}
        for name, swaps in (("win", 0), ("win-1", 1), ("win-2", 2)):
            if len(sets[name]) < n:
                c, t = closed[:], total[:]
                _swap(rng, c, t, swaps)
                sets[name].append(Case(_hand(c, melds), dict(flags)))
        if len(sets["end"]) < n:
            c, t = closed[:], total[:]
            k = rng.choice([x for x in range(34) if c[x]])
            c[k] -= 1
            t[k] -= 1
            _swap(rng, c, t, 1)
            sets["end"].append(Case(_hand(c, melds), {"extra_wildcards": 1}))
    for _ in range(n):
        wall = [k for k in range(34) for _ in range(4)]
        rng.shuffle(wall)
        c = [0] * 34
        for k in wall[:14]:
            c[k] += 1
        sets["draw"].append(Case(_hand(c, [])))
    return sets


@dataclass
class Row:
    name: str
    mode: str
    hands: int
    best_pass: float = float("inf")
    best_cpu: float = float("inf")
    worst: float = 0.0
    worst_hand: str = ""
    nodes: float = 0.0
    winners: int = 0

    @property
    def rate(self) -> float:
        return self.hands / self.best_pass if self.best_pass else 0.0

    @property
    def cpu_rate(self) -> float:
        return self.hands / self.best_cpu if self.best_cpu else 0.0


def run_pass(cases: list[Case], fn: Callable[[Case], object], row: Row | None) -> None:
    _best_completion.cache_clear()
    gc.collect()  # start each pass with no garbage pending, so that one hand does not pay for the last pass
    SearchStats.reset()
    start = time.perf_counter()
    cpu_start = time.process_time()
    winners = 0
    for case in cases:
        t0 = time.perf_counter()
        out = fn(case)
        dt = time.perf_counter() - t0
        winners += bool(out if out is None or isinstance(out, bool) else out.score)  # type: ignore[attr-defined]
        if row is not None and dt > row.worst:
            row.worst, row.worst_hand = dt, f"{case.hand} {case.kwargs or ''}".strip()
    elapsed = time.perf_counter() - start
    cpu = time.process_time() - cpu_start
    if row is not None:
        row.best_pass = min(row.best_pass, elapsed)
        row.best_cpu = min(row.best_cpu, cpu)
        row.nodes = SearchStats.nodes / len(cases)
        row.winners = winners


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--hands", type=int, default=2000, help="hands per set (default 2000)")
    p.add_argument("--repeat", type=int, default=3, help="timed passes; the best counts (default 3)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    p.add_argument("--profile", type=int, default=0, metavar="N", help="cProfile the wildcard search on N hands")
    args = p.parse_args(argv)

    t0 = time.perf_counter()
    sets = build_sets(args.hands, args.seed)
    print(f"jantaku 洁律 scoring benchmark - python {platform.python_version()}, {platform.machine()}")
    print(f"{args.hands} hands per set, seed {args.seed}, best of {args.repeat} passes (sets built in "
          f"{time.perf_counter() - t0:.1f} s)")  # fmt: skip

    def plain(case: Case) -> object:
        return score_hand(case.hand, max_wildcards=0, **case.kwargs)  # type: ignore[arg-type]

    def full(case: Case) -> object:
        return score_hand(case.hand, **case.kwargs)  # type: ignore[arg-type]

    def legal(case: Case) -> object:
        return can_win(case.hand)

    def legal_optimiser(case: Case) -> object:
        fixed = tuple(code_of_meld(m) for m in case.hand.melds)
        return _best_completion(
            tuple(counts34(case.hand.closed)), fixed, 0, (), default_fan_table(), None, None, 1, True
        )

    def best(case: Case) -> object:
        kw = case.kwargs
        extra = int(kw.get("extra_wildcards", 0))  # type: ignore[call-overload]
        flags = [bool(kw.get(f, False)) for f in ("tsumo", "last_tile", "kong")]
        incidental = () if extra else _incidental(*flags, False, default_fan_table())
        fixed = tuple(code_of_meld(m) for m in case.hand.melds)
        return win_check(default_fan_table()).best_score(counts34(case.hand.closed), fixed, incidental, extra) > 0

    plan: list[tuple[str, str, Callable[[Case], object]]] = []
    for name in ("win", "win-1", "win-2", "end"):
        if name != "end":  # a non-winner's hand always holds its extra wildcard
            plan.append((name, "without wildcards", plain))
        plan.append((name, "with wildcards", full))
        plan.append((name, "best score only", best))
    plan.append(("draw", "can_win", legal))
    plan.append(("draw", "optimiser, stop at 1", legal_optimiser))

    warm = time.perf_counter()
    for name, _, fn in plan:  # warm-up: tables and per-reading caches
        run_pass(sets[name], fn, None)
    print(f"warm-up pass: {time.perf_counter() - warm:.1f} s (includes building the shanten and fan tables)\n")
    rows = [Row(name, mode, len(sets[name])) for name, mode, _ in plan]
    for _ in range(args.repeat):
        for row, (name, _, fn) in zip(rows, plan, strict=True):
            run_pass(sets[name], fn, row)

    print(
        f"{'set':7s} {'mode':18s} {'hands/s':>9s} {'ms/hand':>8s} {'CPU h/s':>9s} {'worst ms':>9s} {'nodes/hand':>11s}"
        f" {'score>=1':>9s}"
    )
    for r in rows:
        print(
            f"{r.name:7s} {r.mode:18s} {r.rate:9.0f} {1000 / r.rate if r.rate else 0:8.3f} {r.cpu_rate:9.0f}"
            f" {1000 * r.worst:9.2f} {r.nodes:11.1f} {r.winners:9d}"
        )
    worst = max(rows, key=lambda r: r.worst)
    print(f"\nworst case seen: {1000 * worst.worst:.1f} ms ({worst.name}, {worst.mode}): {worst.worst_hand}")
    total_full = sum(r.hands for r in rows if r.mode == "with wildcards")
    time_full = sum(r.best_pass for r in rows if r.mode == "with wildcards")
    total_plain = sum(r.hands for r in rows if r.mode == "without wildcards")
    time_plain = sum(r.best_pass for r in rows if r.mode == "without wildcards")
    cpu_full = sum(r.best_cpu for r in rows if r.mode == "with wildcards")
    cpu_plain = sum(r.best_cpu for r in rows if r.mode == "without wildcards")
    print(f"all sets: {total_plain / time_plain:.0f} hands/s without wildcards, "
          f"{total_full / time_full:.0f} hands/s with wildcards "
          f"(CPU time: {total_plain / cpu_plain:.0f} and {total_full / cpu_full:.0f})")  # fmt: skip

    if args.json:
        data = {
            "hands": args.hands,
            "seed": args.seed,
            "repeat": args.repeat,
            "python": platform.python_version(),
            "rows": [
                {
                    "set": r.name,
                    "mode": r.mode,
                    "hands_per_s": r.rate,
                    "cpu_hands_per_s": r.cpu_rate,
                    "worst_ms": 1000 * r.worst,
                    "worst_hand": r.worst_hand,
                    "nodes_per_hand": r.nodes,
                    "scoring": r.winners,
                }
                for r in rows
            ],
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, ensure_ascii=False, indent=1)
    if args.profile:
        cases = [c for name in ("win-1", "win-2", "end") for c in sets[name][: args.profile // 3]]
        _best_completion.cache_clear()
        prof = cProfile.Profile()
        prof.enable()
        for c in cases:
            full(c)
        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("tottime").print_stats(15)
        print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
