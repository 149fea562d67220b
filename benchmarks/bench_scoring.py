"""Scoring throughput: jantaku against the PyPI packages ``mahjong`` and ``riichienv``.

One run, one set of random winning hands, every library: first a check that they pay the same on every hand,
then the timings (hands scored per second) and their ratios.

Run it from the repository root, in the benchmark's own environment (the peers are not project dependencies;
see ``benchmarks/README.md``)::

    .venv-bench/bin/python benchmarks/bench_scoring.py                   # 10000 hands, seed 0
    .venv-bench/bin/python benchmarks/bench_scoring.py --hands 50000 --repeat 7 --seed 1 --json out.json
    .venv-bench/bin/python benchmarks/bench_scoring.py --profile 5000    # also cProfile jantaku on 5000 hands

A peer that is not installed is reported as such and skipped, so the script also runs with jantaku alone.

What is measured:

- Hands: the random winning hands of ``tools/diff_mahjong.py`` (loaded from that file with importlib, so the
  differential check and this benchmark use the same generator): about a third fully random complete hands,
  the rest aimed at a yaku family (pinfu, tanyao, ..., the yakuman), closed and open, with kans of every
  kind, red fives, riichi/ippatsu/tsumo/ron/haitei/houtei/rinshan/chankan where legal, random winds, dora and
  ura indicators, honba. About one hand in ten has no yaku; every library is asked about it all the same
  (jantaku raises ``NoYakuError``, mahjong returns an error, riichienv ``is_win`` False).
- Each library gets the input form it is built for, converted before any timing: jantaku a ``Hand`` and a
  ``WinConditions`` and the ``tenhou`` ``Ruleset`` object for ``score_hand``; jantaku's JSON path the request
  dict of ``score_json`` (for information: it parses text on every call); mahjong the 136-id tiles of the
  whole hand, the win tile, its ``Meld`` objects, indicators and a ``HandConfig`` with Tenhou's optional
  rules for ``HandCalculator.estimate_hand_value``; riichienv its native (Rust) ``HandEvaluator`` built per
  hand from the closed 136-ids and its ``Meld`` objects, then ``calc(win, dora, ura, Conditions)`` with a
  prebuilt ``Conditions`` (the package's Python wrapper class of the same name adds a conversion layer per
  call, so the Rust class is called directly). Building the evaluator is part of each riichienv call, as
  decomposing the hand is part of each jantaku and mahjong call.
- One untimed warm-up pass per library (it is also the agreement check), then ``--repeat`` timed passes,
  taken round-robin across libraries; the best pass counts. Per-block tables stay warm, as in any
  long-running process: jantaku's ``score_hand`` looks each suit's nine counts (and the honors' seven) up in
  tables of that block's splits, filled on first use (``jantaku.riichi.kernel``), and keeps no result or
  decomposition per hand. A ``Hand`` keeps its own tile counts once computed (``Hand.packed``: 3-bit counts
  per kind, also split by suit, its red fives and a code of its melds); they are cleared before every pass,
  so every timed call counts its hand's tiles, as riichienv's builds its evaluator from 136-ids (a note gives
  the rate with the counts kept, not used in ratios). The whole-hand decomposition caches (jantaku's
  ``decompositions_of_bytes``, 4096 entries, which the reference scorer and the explanation of a result use;
  mahjong's ``HandDivider``, 128) are cleared, untimed, before every pass, so that a pass over hands seen in
  the previous one does not turn into a cache-lookup rate (a closed part repeated within one pass still hits,
  as it would in play).
- Agreement: what every payer pays (honba included) on every hand, or that the hand does not win, compared
  with jantaku's ``score_hand``. riichienv's ``HandEvaluator`` takes no rule object and scores 13-sided
  kokushi, suuankou tanki, junsei chuuren and daisuushii (and a tenhou kokushi) as double yakuman, which
  Tenhou does not: those hands are counted apart as a known rule difference.

The figures are ratios measured in the same run on the same machine; nothing here is asserted in tests.
"""

from __future__ import annotations

import argparse
import cProfile
import importlib.util
import io
import json
import platform
import pstats
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from types import ModuleType
from typing import Any

from _report import judge_ratios, print_table

TARGETS: tuple[tuple[str, str, str, float], ...] = (
    # (label, numerator row, denominator row, at least)
    ("jantaku score_hand vs mahjong", "jantaku", "mahjong", 5.0),
    ("jantaku score_hand vs riichienv", "jantaku", "riichienv", 1 / 3),
    ("jantaku score_json vs mahjong", "jantaku-json", "mahjong", 0.0),
    ("jantaku score_json vs jantaku score_hand", "jantaku-json", "jantaku", 0.0),
)
"""Ratios printed; a floor of 0 means the ratio is reported without a target."""

NO_WIN: tuple[int, ...] = ()
"""The answer of a hand that does not win (no yaku)."""

Answer = tuple[int, ...]
"""What each payer pays, honba included, in seat order without the winner; ``NO_WIN`` if the hand does not win."""


def load_generator() -> ModuleType:
    """``tools/diff_mahjong.py`` as a module (the hand generator shared with the differential check)."""
    path = Path(__file__).resolve().parents[1] / "tools" / "diff_mahjong.py"
    spec = importlib.util.spec_from_file_location("diff_mahjong", path)
    if spec is None or spec.loader is None:  # pragma: no cover
        raise ImportError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules["diff_mahjong"] = module  # dataclasses look the module up by name
    spec.loader.exec_module(module)
    return module


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def _payers(deltas: Sequence[int], winner: int) -> Answer:
    return tuple(-deltas[s] for s in range(4) if s != winner)


# ------------------------------------------------------------------------------------------ contenders


@dataclass
class Contender:
    """One timed API: how to call it on the whole hand set, and how to read its answers."""

    row: str
    library: str
    api: str
    input_form: str
    run: Callable[[], Any]
    """One pass over every hand (the timed thing)."""
    answers: Callable[[], list[Answer]]
    """Every hand's answer, in order (untimed; also the warm-up pass)."""
    reset: Callable[[], None] | None = None
    """Called untimed before every timed pass (clears a whole-hand cache)."""
    note: str = ""
    times: list[float] = field(default_factory=list)

    @property
    def best(self) -> float:
        return min(self.times)


def jantaku_contenders(gen: ModuleType, deals: Sequence[Any]) -> list[Contender]:
    from jantaku.riichi import ScoringError, score_hand
    from jantaku.rules import load_rules
    from jantaku.scoring_requests import score_json

    rules = load_rules("tenhou")
    pairs = [gen.to_jantaku(d) for d in deals]
    requests = [gen.to_json_request(d) for d in deals]
    reset = _jantaku_reset()

    def reset_pass() -> None:
        """Before every pass (untimed): the whole-hand decomposition cache, and each ``Hand``'s packed tile counts
        (``Hand.packed``), so every call counts its hand's tiles, as riichienv's builds its evaluator."""
        if reset is not None:
            reset()
        for hand, _ in pairs:
            object.__setattr__(hand, "_packed", None)

    def run() -> None:
        for hand, cond in pairs:
            try:  # noqa: SIM105 - a bare try is cheaper than contextlib.suppress in the timed loop
                score_hand(hand, cond, rules)
            except ScoringError:
                pass

    def answers() -> list[Answer]:
        out: list[Answer] = []
        for hand, cond in pairs:
            try:
                out.append(_payers(score_hand(hand, cond, rules).payments, cond.winner))
            except ScoringError:
                out.append(NO_WIN)
        return out

    def run_json() -> None:
        for req in requests:
            score_json(req)

    def json_answers() -> list[Answer]:
        out: list[Answer] = []
        for req in requests:
            res = score_json(req)
            out.append(NO_WIN if "error" in res else _payers(res["payments"], req["winner"]))
        return out

    return [
        Contender(
            "jantaku",
            "jantaku",
            "riichi.score_hand(hand, conditions, rules)",
            "Hand, WinConditions, Ruleset",
            run,
            answers,
            reset=reset_pass,
            note="whole-hand decomposition cache and each Hand's packed counts cleared before each pass",
        ),
        Contender(
            "jantaku-json",
            "jantaku",
            "scoring_requests.score_json(request)",
            "dict (JSON request)",
            run_json,
            json_answers,
            reset=reset,
            note="parses the hand, melds and tiles from text on every call",
        ),
    ]


def jantaku_kept_counts_rate(gen: ModuleType, deals: Sequence[Any], repeat: int) -> float:
    """Hands per second of ``score_hand`` when each ``Hand`` keeps the packed counts a previous pass computed (for
    information only: the ratios clear them); the best of ``repeat`` passes."""
    from jantaku.riichi import ScoringError, score_hand
    from jantaku.rules import load_rules

    rules = load_rules("tenhou")
    pairs = [gen.to_jantaku(d) for d in deals]
    reset = _jantaku_reset()
    for hand, _ in pairs:
        _ = hand.packed
    best = float("inf")
    for _ in range(repeat):
        if reset is not None:
            reset()
        t0 = time.perf_counter()
        for hand, cond in pairs:
            try:  # noqa: SIM105 - the same loop as the timed one
                score_hand(hand, cond, rules)
            except ScoringError:
                pass
        best = min(best, time.perf_counter() - t0)
    return len(pairs) / best


def _jantaku_reset() -> Callable[[], None] | None:
    """The ``cache_clear`` of jantaku's whole-hand decomposition cache, if it has one."""
    try:
        from jantaku.shapes import decompose
    except ImportError:  # pragma: no cover
        return None
    clear = getattr(getattr(decompose, "decompositions_of_bytes", None), "cache_clear", None)
    return clear if callable(clear) else None


def mahjong_contender(gen: ModuleType, deals: Sequence[Any]) -> Contender:
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.hand import HandCalculator

    options = gen.mahjong_options()
    args = [gen.to_mahjong(d, options) for d in deals]
    estimate = HandCalculator.estimate_hand_value

    def run() -> None:
        for tiles, win, melds, dora, config, ura in args:
            estimate(tiles, win, melds, dora, config, ura_dora_indicators=ura)

    def answers() -> list[Answer]:
        out: list[Answer] = []
        for d, a in zip(deals, args, strict=True):
            o = gen.score_mahjong(d, a)
            out.append(NO_WIN if o.error else _payers(o.payments, d.winner))
        return out

    clear = getattr(HandDivider._divide_hand_impl, "cache_clear", None)
    return Contender(
        "mahjong",
        "mahjong",
        "HandCalculator.estimate_hand_value(...)",
        "136-ids, Meld list, HandConfig",
        run,
        answers,
        reset=clear if callable(clear) else None,
        note="decomposition cache (HandDivider) cleared before each pass" if callable(clear) else "",
    )


def riichienv_contender(gen: ModuleType, deals: Sequence[Any]) -> Contender:
    from riichienv import _riichienv as rc

    winds = [rc.Wind.East, rc.Wind.South, rc.Wind.West, rc.Wind.North]
    kinds = {
        "chi": rc.MeldType.Chi,
        "pon": rc.MeldType.Pon,
        "minkan": rc.MeldType.Daiminkan,
        "kakan": rc.MeldType.Kakan,
        "ankan": rc.MeldType.Ankan,
    }
    rows = []
    for d in deals:
        melds = [rc.Meld(kinds[m.kind], list(m.ids), m.kind != "ankan") for m in d.melds]
        cond = rc.Conditions(
            tsumo=d.tsumo,
            riichi=d.riichi and not d.double_riichi,
            double_riichi=d.double_riichi,
            ippatsu=d.ippatsu,
            haitei=d.haitei,
            houtei=d.houtei,
            rinshan=d.rinshan,
            chankan=d.chankan,
            tsumo_first_turn=d.tenhou or d.chiihou,
            player_wind=winds[d.seat_wind],
            round_wind=winds[d.round_wind],
            riichi_sticks=d.deposits,
            honba=d.honba,
        )
        rows.append((sorted(d.closed), melds, d.win, list(d.dora), list(d.ura), cond))
    evaluator = rc.HandEvaluator

    def run() -> None:
        for tiles, melds, win, dora, ura, cond in rows:
            evaluator(tiles, melds).calc(win, dora, ura, cond)

    def answers() -> list[Answer]:
        out: list[Answer] = []
        for d, (tiles, melds, win, dora, ura, cond) in zip(deals, rows, strict=True):
            r = evaluator(tiles, melds).calc(win, dora, ura, cond)
            if not r.is_win:
                out.append(NO_WIN)
                continue
            pays = [0, 0, 0, 0]
            dealer = (d.winner - d.seat_wind) % 4
            for s in range(4):
                if s == d.winner:
                    continue
                if not d.tsumo:
                    pays[s] = r.ron_agari if s == d.discarder else 0
                elif d.seat_wind != 0 and s == dealer:
                    pays[s] = r.tsumo_agari_oya
                else:
                    pays[s] = r.tsumo_agari_ko
            out.append(tuple(pays[s] for s in range(4) if s != d.winner))
        return out

    return Contender(
        "riichienv",
        "riichienv",
        "HandEvaluator(tiles, melds).calc(win, dora, ura, cond)",
        "136-ids, Meld list, Conditions",
        run,
        answers,
        note="the native (Rust) HandEvaluator; it takes no GameRule (double yakuman patterns are double)",
    )


PEERS: tuple[tuple[str, Callable[[ModuleType, Sequence[Any]], Contender]], ...] = (
    ("mahjong", mahjong_contender),
    ("riichienv", riichienv_contender),
)


# ------------------------------------------------------------------------------------------------ main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    p.add_argument("--hands", type=int, default=10000, help="number of random winning hands (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--repeat", type=int, default=5, help="timed passes per library; the best counts (default 5)")
    p.add_argument("--profile", type=int, default=0, metavar="N", help="also cProfile jantaku on N hands")
    p.add_argument("--json", metavar="PATH", help="also write the figures as JSON to PATH")
    args = p.parse_args(argv)
    if args.hands < 1 or args.repeat < 1:
        p.error("--hands and --repeat must be at least 1")
    return args


def check_agreement(contenders: list[Contender], deals: Sequence[Any], gen: ModuleType) -> dict[str, dict[str, Any]]:
    """Compare every contender's answers with jantaku's ``score_hand``; print and return the findings."""
    reference = contenders[0].answers()
    report: dict[str, dict[str, Any]] = {}
    n_win = sum(1 for a in reference if a != NO_WIN)
    print(
        f"Agreement on every payment (reference: jantaku score_hand; {len(reference)} hands, "
        f"{n_win} win, {len(reference) - n_win} have no yaku):"
    )
    for c in contenders:
        got = reference if c is contenders[0] else c.answers()
        bad = [i for i, (a, b) in enumerate(zip(reference, got, strict=True)) if a != b]
        explained = []
        if c.row == "riichienv":
            explained = [i for i in bad if _double_yakuman_rule(gen, deals[i], reference[i], got[i])]
        other = [i for i in bad if i not in set(explained)]
        entry: dict[str, Any] = {"disagree": len(other), "double_yakuman_rule": len(explained), "examples": []}
        if not bad:
            status = "agrees on every hand"
        elif not other:
            status = f"agrees except {len(explained)} hands scored as double yakuman (a rule difference)"
        else:
            status = f"DISAGREES on {len(other)} hands" + (f" (+{len(explained)} double yakuman)" if explained else "")
        print(f"  {c.row:<13} {status}")
        for i in (other or explained)[:2]:
            d = deals[i]
            ex = {"hand": gen.hand_text(d), "win": gen._tile_text(d.win), "flags": d.flags()}
            ex.update({"jantaku": list(reference[i]), c.row: list(got[i])})
            flags = ",".join(ex["flags"])
            print(f"      {ex['hand']} win {ex['win']} {flags}: jantaku {ex['jantaku']}, {c.row} {ex[c.row]}")
            entry["examples"].append(ex)
        report[c.row] = entry
    return report


DOUBLE_PATTERNS = frozenset(("kokushi_musou_13", "suuankou_tanki", "junsei_chuuren_poutou", "daisuushii"))
"""Yakuman that some rule sets (not Tenhou's) score double."""


def _double_yakuman_rule(gen: ModuleType, deal: Any, ours: Answer, theirs: Answer) -> bool:
    """A hand riichienv pays more for because it scores a double-yakuman pattern (or a first-draw nine gates or
    thirteen orphans, read as the pure wait) as double."""
    from jantaku.riichi import score_hand

    if not ours or not theirs or sum(theirs) <= sum(ours):
        return False
    hand, cond = gen.to_jantaku(deal)
    r = score_hand(hand, cond, "tenhou")
    names = {name for name, _ in r.yaku}
    first_draw = (deal.tenhou or deal.chiihou) and bool(names & {"kokushi_musou", "chuuren_poutou"})
    return r.yakuman > 0 and (bool(names & DOUBLE_PATTERNS) or first_draw)


def time_all(contenders: list[Contender], repeat: int) -> None:
    for _ in range(repeat):
        for c in contenders:
            if c.reset is not None:
                c.reset()
            t0 = time.perf_counter()
            c.run()
            c.times.append(time.perf_counter() - t0)


def profile_jantaku(gen: ModuleType, deals: Sequence[Any], top: int = 15) -> str:
    """cProfile of jantaku's ``score_hand`` over ``deals`` (inputs prebuilt), top functions by cumulative time."""
    from jantaku.riichi import ScoringError, score_hand
    from jantaku.rules import load_rules

    rules = load_rules("tenhou")
    pairs = [gen.to_jantaku(d) for d in deals]

    def work() -> None:
        for hand, cond in pairs:
            try:  # noqa: SIM105 - the same loop as the timed one
                score_hand(hand, cond, rules)
            except ScoringError:
                pass

    work()  # warm the per-block caches, as in the timed passes
    reset = _jantaku_reset()
    if reset is not None:
        reset()
    prof = cProfile.Profile()
    prof.enable()
    work()
    prof.disable()
    out = io.StringIO()
    pstats.Stats(prof, stream=out).strip_dirs().sort_stats("cumulative").print_stats(top)
    return out.getvalue()


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}"


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    n = args.hands
    gen = load_generator()

    print(f"bench_scoring: {n} random winning hands, seed {args.seed}, best of {args.repeat} passes")
    print(f"python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}")
    t0 = time.perf_counter()
    deals = gen.make_deals(n, args.seed)
    print(f"hands generated in {time.perf_counter() - t0:.2f} s (tools/diff_mahjong.py make_deals)")

    contenders = jantaku_contenders(gen, deals)
    print(f"jantaku {version('jantaku')}: {contenders[0].api}, rules 'tenhou'")
    missing: list[str] = []
    for name, build in PEERS:
        try:
            contenders.append(build(gen, deals))
        except ImportError as exc:
            missing.append(name)
            print(f"{name}: not installed ({exc})")
            continue
        print(f"{name} {version(name)}: {contenders[-1].api}")
    print()

    agreement = check_agreement(contenders, deals, gen)  # also the warm-up pass of every contender
    print()
    warm_note = ""
    if contenders[0].reset is not None:  # informational: a pass over hands the whole-hand cache has just seen
        contenders[0].run()
        t0 = time.perf_counter()
        contenders[0].run()
        warm = fmt_rate(n / (time.perf_counter() - t0))
        warm_note = f"jantaku with its whole-hand cache left warm by the previous pass: {warm} hands/s"
    time_all(contenders, args.repeat)
    kept = fmt_rate(jantaku_kept_counts_rate(gen, deals, min(args.repeat, 3)))
    kept_note = f"jantaku with each Hand's packed counts kept from a previous pass: {kept} hands/s"

    rates = {c.row: n / c.best for c in contenders}
    rows: list[tuple[str, str, str, str, str]] = []
    for c in contenders:
        a = agreement[c.row]
        ok = "yes" if not a["disagree"] else f"no ({a['disagree']})"
        if a["double_yakuman_rule"]:
            ok += f" (+{a['double_yakuman_rule']} double yakuman)"
        rows.append((c.library, c.api, c.input_form, f"{fmt_rate(rates[c.row])} hands/s", ok))
    for name in missing:
        rows.append((name, "not installed", "", "-", "-"))
    header = ("library", "API", "input (converted before timing)", "rate", "agrees")
    print_table(header, rows, right=(3,))
    ratios = judge_ratios(TARGETS, rates, missing, digits=3)
    notes = [f"{c.row}: {c.note}" for c in contenders if c.note]
    if warm_note:
        notes.append(warm_note + " (not used in ratios; the cache holds 4096 hands)")
    notes.append(kept_note + " (not used in ratios)")
    for line in notes:
        print("note: " + line)

    profile = ""
    if args.profile:
        k = min(args.profile, n)
        profile = profile_jantaku(gen, deals[:k])
        print()
        print(f"cProfile of jantaku score_hand on {k} hands (second pass), by cumulative time:")
        print(profile)

    if args.json:
        doc = {
            "hands": n,
            "seed": args.seed,
            "repeat": args.repeat,
            "python": platform.python_version(),
            "versions": {name: version(name) for name in ["jantaku", *(p for p, _ in PEERS)]},
            "not_installed": missing,
            "results": [
                {
                    "row": c.row,
                    "library": c.library,
                    "api": c.api,
                    "input": c.input_form,
                    "rate": round(rates[c.row], 1),
                    "best_s": round(c.best, 6),
                    "times_s": [round(t, 6) for t in c.times],
                    "note": c.note,
                }
                for c in contenders
            ],
            "ratios": ratios,
            "agreement": agreement,
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
