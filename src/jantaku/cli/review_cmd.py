"""``jantaku review FILE...``: replay recorded games and ask a bot at each decision of the chosen players."""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

from jantaku.bots.review import ReviewItem, ReviewReport, gap, review_record
from jantaku.errors import JantakuError
from jantaku.records.load import iter_record_files, read_records

_BOTS = ("strong", "efficiency", "random")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "review",
        help="compare the players' decisions in recorded games with a bot's",
        description="Replay game records (Tenhou mjlog, tenhou.net/6 JSON, mjx, mjai, jantaku's own stored games) "
        "through the engine and, at each decision of the chosen players (a discard, riichi, call, kan, win or nine "
        "terminals with more than one legal choice), ask the bot what it would do. Without --json: agreement per "
        "player and kind of decision, and the costliest differences. With --json: one JSON object per decision "
        '{"source","kyoku","honba","actor","decision","actual","bot","agree","ranking"}, actions in mjai form, '
        "the ranking listing every legal action with the bot's estimate (points; higher is better); a costly "
        'difference also has "note" ("deal-in": the player dealt in and the bot chose a tile no winner waited '
        'on; "missed win") and "cost" (points). Hands the engine cannot follow are named on stderr.',
        epilog="examples (from a clone of the repository):\n"
        "  jantaku review examples/records/2010102910gm-00a9-0000-cdb9804c.mjlog\n"
        "  jantaku review examples/records --player 2 --json > out/decisions.jsonl\n"
        "  jantaku review examples/records/tenhou6-triple-ron.json --bot efficiency --rules tenhou",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", help="record files or folders (searched recursively)")
    p.add_argument("--player", default="all", help="seat 0-3 in the record (0: the first dealer), or all (default all)")
    p.add_argument("--bot", default="strong", choices=_BOTS, help="the bot asked (default strong)")
    p.add_argument("--rules", default=None, help="rule set (default: the record's own, tenhou for Tenhou logs)")
    p.add_argument("--json", action="store_true", help="one JSON object per decision")
    p.add_argument("--top", type=int, default=10, help="costliest differences shown in the summary (default 10)")
    p.set_defaults(run=run)


def _players(text: str) -> set[int]:
    if text.strip().lower() == "all":
        return {0, 1, 2, 3}
    if text.strip() in ("0", "1", "2", "3"):
        return {int(text)}
    raise JantakuError(f"--player is a seat 0-3 or 'all', not {text!r}")


def run(args: argparse.Namespace) -> int:
    players = _players(args.player)
    reports: list[ReviewReport] = []
    for path in iter_record_files(args.paths):
        for rec in read_records(path):
            rep = review_record(rec, players=players, bot=args.bot, rules=args.rules)
            reports.append(rep)
            if args.json:
                for it in rep.items:
                    print(json.dumps(it.to_json(), ensure_ascii=False))
                for skipped in rep.skipped:
                    print(f"{rep.source}: hand {skipped} could not be followed and was skipped", file=sys.stderr)
    if not reports:
        raise JantakuError("no game records found in the paths given")
    if not args.json:
        _summary(reports, args.bot, args.top)
    return 0


def _summary(reports: list[ReviewReport], bot: str, top: int) -> None:
    items = [it for r in reports for it in r.items]
    skipped = [s for r in reports for s in r.skipped]
    games = len(reports)
    print(f"{games} game{'s' if games != 1 else ''}, {len(items)} decisions reviewed with the {bot} bot")
    if not items:
        print("no decisions with a choice for the players asked")
    tally: dict[tuple[int, str], list[int]] = defaultdict(lambda: [0, 0])
    for it in items:
        for key in ((it.actor, it.decision), (it.actor, "all")):
            tally[key][0] += it.agree
            tally[key][1] += 1
    kinds = sorted({k for _, k in tally if k != "all"})
    header = ["seat", *kinds, "all"]
    print("\nagreement (share of decisions where the bot chose what the player chose)")
    print("  ".join(f"{h:>14}" for h in header))
    for seat in sorted({s for s, _ in tally}):
        cells = [f"{seat:>14}"]
        for k in [*kinds, "all"]:
            hit, n = tally.get((seat, k), (0, 0))
            cells.append(f"{f'{hit / n:.0%} of {n}' if n else '-':>14}")
        print("  ".join(cells))
    noted = sorted((it for it in items if it.note), key=lambda it: it.cost, reverse=True)
    costly = sorted((it for it in items if not it.agree and not it.note), key=gap, reverse=True)
    shown = (noted + costly)[:top]
    if shown:
        print("\ncostliest differences (deal-ins the bot would have avoided and wins it would have taken first)")
        for it in shown:
            what = _what(it)
            print(
                f"  {it.source} {it.kyoku}-{it.honba} seat {it.actor} {it.decision}: played {_show(it.actual)}, "
                f"bot {_show(it.bot)} ({what})"
            )
    if skipped:
        print(f"\n{len(skipped)} hands could not be followed and were skipped:")
        for s in skipped[:10]:
            print(f"  {s}")


def _what(it: ReviewItem) -> str:
    if it.note == "deal-in":
        return f"dealt in for {it.cost:.0f} points; no winner waited on the bot's tile"
    if it.note == "missed win":
        return "a win the bot would have taken"
    return f"the bot's estimate: {gap(it):+.0f} points"


_NAMES = {"dahai": "discard", "reach": "riichi", "ryukyoku": "nine terminals draw"}


def _show(a: dict[str, Any]) -> str:
    t = a.get("type", "?")
    if t == "none":
        return "pass"
    if t == "hora":
        return "win"
    parts = [_NAMES.get(t, t)]
    if "pai" in a:
        parts.append(str(a["pai"]))
    if a.get("consumed"):
        parts.append("with " + "".join(str(x) for x in a["consumed"]))
    return " ".join(parts)
