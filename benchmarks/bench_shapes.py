"""Shanten throughput: jantaku against the PyPI packages ``mahjong``, ``riichienv`` and ``jansou``.

One run, one set of random hands, every library: first a check that all of them give the same minimum shanten
(regular form, seven pairs, thirteen orphans) on every hand, then the timings and their ratios.

Run it from the repository root, in the benchmark's own environment (the peers are not project dependencies;
see ``benchmarks/README.md``)::

    python -m venv .venv-bench
    .venv-bench/bin/pip install -e . -r benchmarks/requirements-peers.txt
    .venv-bench/bin/python benchmarks/bench_shapes.py                  # 20000 hands of 14 tiles, seed 0
    .venv-bench/bin/python benchmarks/bench_shapes.py --tiles 13 --hands 50000 --repeat 7 --json out.json

A peer that is not installed is reported as such and skipped, so the script also runs with jantaku alone.

What is measured:

- Hands: ``--tiles`` (13 or 14) tiles drawn without replacement from a shuffled 136-tile wall, one wall per
  hand, from ``random.Random(--seed)``. The same hands go to every library.
- Each library gets the input form it is built for, converted before any timing: jantaku, mahjong and jansou
  a list of 34 counts, riichienv a sorted list of the drawn 136-tile ids (kind * 4 + copy); jantaku's batch
  API an ``int8`` numpy array of shape (N, 34).
- One-hand APIs are called once per hand, through ``map`` (the same small loop overhead for every library);
  a batch API is called once per ``--batch-size`` rows (default: the whole set in one call).
- One untimed warm-up pass per library (it is also the agreement check), then ``--repeat`` timed passes,
  taken round-robin across libraries; the best pass counts. jantaku's first call builds its tables; that cost
  is reported on its own, by timing ``jantaku.shapes.tables.TableSet()`` once.
- Per-block caches (jantaku's and jansou's) stay warm, as in any long-running process. jansou also keeps a
  whole-hand memo of its last 50,000 answers; a timed pass over hands it has just seen would only measure
  that memo, so it is cleared (untimed) before every pass. The memo-warm rate is printed as a note and kept
  out of the ratios.

The figures are ratios measured in the same run on the same machine; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys
import time
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from typing import Any

import numpy as np

from _report import judge_ratios, print_table

NUM_KINDS = 34
WALL = 136
YAOCHU = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)

TARGETS: tuple[tuple[str, str, str, float], ...] = (
    # (label, numerator row, denominator row, at least)
    ("jantaku one-hand vs jansou one-hand", "jantaku", "jansou", 2.0),
    ("jantaku one-hand vs mahjong one-hand", "jantaku", "mahjong", 10.0),
    ("jantaku one-hand vs riichienv one-hand", "jantaku", "riichienv", 0.0),
    ("jantaku batch vs riichienv one-hand", "jantaku-batch", "riichienv", 2.0),
)
"""Ratios printed; a floor of 0 means the ratio is reported without a target."""


# --------------------------------------------------------------------------------------------------- hands


@dataclass(frozen=True)
class HandSet:
    """The random hands in every input form, all built before any timing."""

    ids136: list[list[int]]
    """Sorted 136-tile ids (kind * 4 + copy) of each hand."""
    counts: list[list[int]]
    """34 counts of each hand."""
    array: np.ndarray
    """The counts as an ``int8`` array of shape (N, 34)."""


def make_hands(n: int, tiles: int, seed: int) -> HandSet:
    """``n`` hands of ``tiles`` tiles, each drawn without replacement from a full 136-tile wall."""
    rng = random.Random(seed)
    ids: list[list[int]] = []
    counts: list[list[int]] = []
    wall = range(WALL)
    for _ in range(n):
        drawn = sorted(rng.sample(wall, tiles))
        c = [0] * NUM_KINDS
        for t in drawn:
            c[t >> 2] += 1
        ids.append(drawn)
        counts.append(c)
    return HandSet(ids, counts, np.array(counts, dtype=np.int8).reshape(n, NUM_KINDS))


EDGE_HANDS: tuple[str, ...] = (
    "1111m234p567s789s",  # 1m tanki would be a fifth 1m: 1-shanten, not tenpai
    "123456789m1111z",  # the same with honors
    "1111m22p33p44p55p6z",  # four 1m are one pair for seven pairs
    "1111m2222p3333s4z",
    "1111m2345p6789s1z",
    "19m19p19s1111z234z",  # four East: one of the thirteen, plus the pair
    "19m19p19s1234567z",  # thirteen-sided kokushi wait
    "11112222m333344p",
    "1111m22223333p44s",
    "11m1111z2222z3333z",
    "1111m234p567s789s5z",
    "11223344556677z",  # seven pairs, complete
)
"""Hands built around the four-copy limit, checked (untimed) besides the random ones."""


def hands_from_mpsz(texts: Sequence[str]) -> HandSet:
    """A hand set from mpsz strings (digits 1-9 then a suit letter), ids taken as copies 0, 1, ... of a kind."""
    counts: list[list[int]] = []
    for text in texts:
        c = [0] * NUM_KINDS
        digits: list[int] = []
        for ch in text:
            if ch.isdigit():
                digits.append(int(ch))
            else:
                base = "mpsz".index(ch) * 9
                for d in digits:
                    c[base + d - 1] += 1
                digits = []
        counts.append(c)
    ids = [[k * 4 + i for k, v in enumerate(c) for i in range(v)] for c in counts]
    return HandSet(ids, counts, np.array(counts, dtype=np.int8).reshape(len(counts), NUM_KINDS))


def mpsz(counts: Sequence[int]) -> str:
    """The hand as mpsz text, for printing examples."""
    out = []
    for suit, (start, stop) in zip("mpsz", ((0, 9), (9, 18), (18, 27), (27, 34)), strict=True):
        digits = "".join(str(k - start + 1) * counts[k] for k in range(start, stop))
        if digits:
            out.append(digits + suit)
    return "".join(out)


# ------------------------------------------------------------------------------------------ contenders


@dataclass
class Contender:
    """One timed API: how to call it on the whole hand set, and how to read its answers."""

    row: str
    """Key used for ratios and JSON: ``jantaku``, ``jantaku-batch``, ``mahjong``, ..."""
    library: str
    api: str
    input_form: str
    run: Callable[[], Any]
    """One pass over every hand (the timed thing)."""
    answers: Callable[[], list[int]]
    """Every hand's minimum shanten, in order (untimed; also the warm-up pass)."""
    unit: str = "calls/s"
    reset: Callable[[], None] | None = None
    """Called untimed before every timed pass."""
    forms: Callable[[list[int]], tuple[int, ...]] | None = None
    """Per-form shanten (regular, seven pairs, thirteen orphans) of one hand, for disagreement examples."""
    note: str = ""
    times: list[float] = field(default_factory=list)
    skipped: str = ""
    """Why the contender was not timed (it raised on some hands), or empty."""

    @property
    def best(self) -> float:
        return min(self.times)


def _drain(it: Iterable[Any]) -> None:
    deque(it, maxlen=0)


def _one_hand(fn: Callable[..., int], *columns: Sequence[Any]) -> tuple[Callable[[], None], Callable[[], list[int]]]:
    """A timed pass and an answer pass for a one-hand function called as ``fn(*row)`` for each hand."""

    def run() -> None:
        _drain(map(fn, *columns))

    def answers() -> list[int]:
        out: list[int] = []
        for args in zip(*columns, strict=True):
            try:
                out.append(int(fn(*args)))
            except (KeyboardInterrupt, SystemExit):
                raise
            except BaseException:  # a Rust panic surfaces as a BaseException subclass
                out.append(ERROR)
        return out

    return run, answers


ERROR = -99
"""Stands for an answer that raised."""


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def jantaku_contenders(hands: HandSet, batch_size: int) -> list[Contender]:
    import jantaku

    one = jantaku.shanten
    run, answers = _one_hand(one, hands.counts)
    batch = jantaku.shanten_batch
    arr = hands.array
    if batch_size <= 0 or batch_size >= len(arr):
        chunks = [arr]
    else:
        chunks = [np.ascontiguousarray(arr[i : i + batch_size]) for i in range(0, len(arr), batch_size)]

    def run_batch() -> None:
        for chunk in chunks:
            batch(chunk)

    def batch_answers() -> list[int]:
        return [int(v) for chunk in chunks for v in batch(chunk)]

    def forms(counts: list[int]) -> tuple[int, ...]:
        s = jantaku.shanten_forms(counts)
        return (s.regular, s.chiitoitsu if s.chiitoitsu is not None else 99, s.kokushi if s.kokushi is not None else 99)

    chunk_note = "one call for all hands" if len(chunks) == 1 else f"{len(chunks)} calls of {batch_size} hands"
    return [
        Contender("jantaku", "jantaku", "shanten(counts)", "list of 34 counts", run, answers, forms=forms),
        Contender(
            "jantaku-batch",
            "jantaku",
            "shanten_batch(array)",
            "int8 array (N, 34)",
            run_batch,
            batch_answers,
            unit="hands/s",
            note=chunk_note,
        ),
    ]


def mahjong_contender(hands: HandSet) -> Contender:
    from mahjong.shanten import Shanten

    calc = Shanten().calculate_shanten
    run, answers = _one_hand(calc, hands.counts)

    def forms(counts: list[int]) -> tuple[int, ...]:
        return (
            Shanten.calculate_shanten_for_regular_hand(counts),
            Shanten.calculate_shanten_for_chiitoitsu_hand(counts),
            Shanten.calculate_shanten_for_kokushi_hand(counts),
        )

    return Contender(
        "mahjong", "mahjong", "Shanten().calculate_shanten(tiles_34)", "list of 34 counts", run, answers, forms=forms
    )


def riichienv_contender(hands: HandSet) -> Contender:
    import riichienv

    run, answers = _one_hand(riichienv.calculate_shanten, hands.ids136)
    return Contender("riichienv", "riichienv", "calculate_shanten(ids)", "list of 136-tile ids", run, answers)


def jansou_contender(hands: HandSet) -> Contender:
    from jansou.analysis import _native
    from jansou.analysis import shanten as js

    melds = [0] * len(hands.counts)
    run, answers = _one_hand(js.shanten_counts, hands.counts, melds)
    memo = getattr(js, "_COUNT_MEMO", None)
    reset = memo.clear if isinstance(memo, dict) else None
    kernel = "native kernel" if getattr(_native, "KERNEL", None) is not None else "pure Python (no jansou-native)"
    note = kernel + ("; whole-hand memo cleared before each pass" if reset else "")
    return Contender(
        "jansou",
        "jansou",
        "analysis.shanten.shanten_counts(counts, 0)",
        "list of 34 counts",
        run,
        answers,
        reset=reset,
        note=note,
    )


PEERS: tuple[tuple[str, Callable[[HandSet], Contender]], ...] = (
    ("mahjong", mahjong_contender),
    ("riichienv", riichienv_contender),
    ("jansou", jansou_contender),
)


# --------------------------------------------------------------------------------------------- referee


def _regular_complete(c: list[int], melds: int, pair: bool) -> bool:
    """Whether counts ``c`` split exactly into ``melds`` melds plus a pair (if ``pair``)."""
    k = next((i for i, v in enumerate(c) if v), -1)
    if k < 0:
        return melds == 0 and not pair
    if c[k] >= 2 and pair:
        c[k] -= 2
        ok = _regular_complete(c, melds, False)
        c[k] += 2
        if ok:
            return True
    if melds and c[k] >= 3:
        c[k] -= 3
        ok = _regular_complete(c, melds - 1, pair)
        c[k] += 3
        if ok:
            return True
    if melds and k < 27 and k % 9 <= 6 and c[k + 1] and c[k + 2]:
        c[k] -= 1
        c[k + 1] -= 1
        c[k + 2] -= 1
        ok = _regular_complete(c, melds - 1, pair)
        c[k] += 1
        c[k + 1] += 1
        c[k + 2] += 1
        if ok:
            return True
    return False


def _complete(c: list[int]) -> bool:
    n = sum(c)
    if _regular_complete(c, n // 3, True):
        return True
    if n == 14 and sum(1 for v in c if v == 2) == 7:
        return True
    return n == 14 and all(c[k] for k in YAOCHU) and sum(c[k] for k in YAOCHU) == 14


def _tenpai(c: list[int]) -> bool:
    """A 3n+1 hand: some tile that still exists (count < 4) completes it."""
    for k in range(NUM_KINDS):
        if c[k] < 4:
            c[k] += 1
            ok = _complete(c)
            c[k] -= 1
            if ok:
                return True
    return False


def referee(counts: list[int]) -> str:
    """An independent brute-force verdict, exact for -1 and 0 (searches only those): '-1', '0' or '>= 1'."""
    c = list(counts)
    if sum(c) % 3 == 1:
        return "0" if _tenpai(c) else ">= 1"
    if _complete(c):
        return "-1"
    for k in range(NUM_KINDS):
        if c[k]:
            c[k] -= 1
            ok = _tenpai(c)
            c[k] += 1
            if ok:
                return "0"
    return ">= 1"


# ------------------------------------------------------------------------------------------------ main


def build_contenders(hands: HandSet, batch_size: int, announce: bool) -> tuple[list[Contender], list[str]]:
    """jantaku's two APIs and every installed peer on ``hands``; also the names of the peers not installed."""
    contenders = jantaku_contenders(hands, batch_size)
    missing: list[str] = []
    for name, build in PEERS:
        try:
            contenders.append(build(hands))
        except ImportError as exc:
            missing.append(name)
            if announce:
                print(f"{name}: not installed ({exc})")
            continue
        if announce:
            print(f"{name} {version(name)}: {contenders[-1].api}")
    return contenders, missing


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--hands", type=int, default=20000, help="number of random hands (default 20000)")
    p.add_argument("--tiles", type=int, default=14, choices=(13, 14), help="tiles per hand (default 14)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--repeat", type=int, default=5, help="timed passes per library; the best counts (default 5)")
    p.add_argument("--batch-size", type=int, default=0, help="rows per shanten_batch call (default 0: all at once)")
    p.add_argument(
        "--clock",
        choices=("wall", "cpu"),
        default="wall",
        help="wall clock (default) or the process's CPU time (steadier when other work shares the machine)",
    )
    p.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = p.parse_args(argv)
    if args.hands < 1 or args.repeat < 1:
        p.error("--hands and --repeat must be at least 1")
    return args


def check_agreement(contenders: list[Contender], hands: HandSet, title: str) -> dict[str, dict[str, Any]]:
    """Compare every contender's answers with jantaku's one-hand answers; print and return the findings."""
    reference = contenders[0].answers()
    ref_forms = contenders[0].forms
    report: dict[str, dict[str, Any]] = {}
    print(f"Agreement on minimum shanten, {title} (reference: jantaku shanten, {len(reference)} hands):")
    for c in contenders:
        got = reference if c is contenders[0] else c.answers()
        bad = [i for i, (a, b) in enumerate(zip(reference, got, strict=True)) if a != b]
        errors = sum(1 for v in got if v == ERROR)
        entry: dict[str, Any] = {"disagree": len(bad), "errors": errors, "examples": []}
        status = "agrees on every hand" if not bad else f"DISAGREES on {len(bad)} hands ({errors} raised)"
        print(f"  {c.row:<14} {status}")
        for i in bad[:2]:
            counts = hands.counts[i]
            ex: dict[str, Any] = {
                "hand": mpsz(counts),
                "jantaku": reference[i],
                c.row: got[i] if got[i] != ERROR else "error",
                "referee": referee(counts),
            }
            line = f"      {ex['hand']}: jantaku {reference[i]}, {c.row} {ex[c.row]}"
            if ref_forms is not None:
                ex["jantaku_forms"] = list(ref_forms(counts))
                line += f"; jantaku forms {tuple(ex['jantaku_forms'])}"
            if c.forms is not None and c is not contenders[0]:
                ex[f"{c.row}_forms"] = list(c.forms(counts))
                line += f", {c.row} forms {tuple(ex[c.row + '_forms'])}"
            line += f"; brute force: {ex['referee']}"
            print(line)
            entry["examples"].append(ex)
        report[c.row] = entry
        if errors:
            c.skipped = f"not timed: raised on {errors} hands"
    return report


def time_all(contenders: list[Contender], repeat: int, clock: str = "wall") -> None:
    """Time every contender ``repeat`` times, round-robin, by the wall clock or the process's CPU time."""
    now = time.process_time if clock == "cpu" else time.perf_counter
    for _ in range(repeat):
        for c in contenders:
            if c.skipped:
                continue
            if c.reset is not None:
                c.reset()
            t0 = now()
            c.run()
            c.times.append(now() - t0)


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    n = args.hands

    print(
        f"bench_shapes: {n} random {args.tiles}-tile hands, seed {args.seed}, best of {args.repeat} passes, "
        f"{args.clock} clock"
    )
    print(
        f"python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}, "
        f"numpy {np.__version__}"
    )

    from jantaku.shapes.tables import TableSet

    t0 = time.perf_counter()
    TableSet()
    table_build = time.perf_counter() - t0
    print(f"jantaku {version('jantaku')}: table build (TableSet(), once) {table_build:.3f} s")

    edge_contenders, _ = build_contenders(hands_from_mpsz(EDGE_HANDS), 0, announce=False)
    hands = make_hands(n, args.tiles, args.seed)
    contenders, missing = build_contenders(hands, args.batch_size, announce=True)
    print()

    edge_agreement = check_agreement(edge_contenders, hands_from_mpsz(EDGE_HANDS), "four-copy edge hands")
    agreement = check_agreement(contenders, hands, "random hands")  # also the warm-up pass of every contender
    print("  (forms: regular, seven pairs, thirteen orphans; brute force: exact only for -1/0, four copies a kind)")
    print()

    memo_note = ""
    for c in contenders:
        if (
            c.row == "jansou" and c.reset is not None and not c.skipped
        ):  # informational: what a pass over a warm memo measures
            t0 = time.perf_counter()
            c.run()
            rate = fmt_rate(n / (time.perf_counter() - t0))
            memo_note = f"jansou with its whole-hand memo left warm by the previous pass: {rate} calls/s"
    time_all(contenders, args.repeat, args.clock)

    rates = {c.row: n / c.best for c in contenders if not c.skipped}
    rows: list[tuple[str, str, str, str, str]] = []
    for c in contenders:
        bad, bad_edge = agreement[c.row]["disagree"], edge_agreement.get(c.row, {}).get("disagree", 0)
        ok = "yes" if not bad and not bad_edge else f"no ({bad} random, {bad_edge} edge)"
        rate = c.skipped or f"{fmt_rate(rates[c.row])} {c.unit}"
        rows.append((c.library, c.api, c.input_form, rate, ok))
        if c.library != "jantaku":
            rate = c.skipped or f"{fmt_rate(rates[c.row])} hands/s"
            rows.append((c.library, "(no batch API: one-hand rate)", "", rate, ok))
    for name in missing:
        rows.append((name, "not installed", "", "-", "-"))
    header = ("library", "API", "input (converted before timing)", "rate", "agrees")
    print_table(header, rows, right=(3,))
    ratios = judge_ratios(TARGETS, rates, missing, digits=2)

    notes = [f"{c.row}: {c.note}" for c in contenders if c.note]
    if memo_note:
        notes.append(memo_note + " (not used in ratios)")
    for line in notes:
        print("note: " + line)

    if args.json:
        doc = {
            "hands": n,
            "tiles": args.tiles,
            "seed": args.seed,
            "repeat": args.repeat,
            "batch_size": args.batch_size,
            "python": platform.python_version(),
            "numpy": np.__version__,
            "jantaku_table_build_s": round(table_build, 4),
            "versions": {name: version(name) for name in ["jantaku", *(p for p, _ in PEERS)]},
            "not_installed": missing,
            "results": [
                {
                    "row": c.row,
                    "library": c.library,
                    "api": c.api,
                    "input": c.input_form,
                    "unit": c.unit,
                    "rate": round(rates[c.row], 1) if c.row in rates else None,
                    "best_s": round(c.best, 6) if c.times else None,
                    "skipped": c.skipped or None,
                    "times_s": [round(t, 6) for t in c.times],
                    "note": c.note,
                }
                for c in contenders
            ],
            "ratios": ratios,
            "agreement": agreement,
            "edge_hands": list(EDGE_HANDS),
            "edge_agreement": edge_agreement,
            "notes": notes,
        }
        with open(args.json, "w", encoding="utf-8") as fh:
            json.dump(doc, fh, indent=2)
            fh.write("\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
