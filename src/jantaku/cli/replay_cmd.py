"""``jantaku replay FILE... --check``: replay game records through the engine and report every difference."""

from __future__ import annotations

import argparse

from jantaku.errors import JantakuError
from jantaku.records.load import iter_record_files, read_records
from jantaku.records.replay import replay_record


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records through the engine",
        description="Replay Tenhou mjlog (plain or gzipped), tenhou.net/6 JSON, mjx or mjai records through the "
        "table engine. With --check, print one line per difference (file, hand, what, expected vs got) and a "
        "summary, and exit 1 if anything differs.",
        epilog="examples (from a clone of the repository):\n  jantaku replay examples/records --check\n"
        "  jantaku replay tests/data/records --check      (every real game of the test corpus)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", help="record files or folders (searched recursively)")
    p.add_argument("--rules", default=None, help="rule set (default: the record's own, tenhou for Tenhou logs)")
    p.add_argument("--check", action="store_true", help="report differences and exit 1 if any")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    hands = matched = problems = unverifiable = 0
    files = 0
    for path in iter_record_files(args.paths):
        files += 1
        try:
            records = read_records(path)
        except JantakuError as e:
            problems += 1
            print(f"{path}: cannot read: {e}")
            continue
        for rec in records:
            try:
                report = replay_record(rec, args.rules)
            except JantakuError as e:
                problems += 1
                print(f"{rec.source}: cannot replay: {e}")
                continue
            hands += report.hands
            matched += report.matched
            unverifiable += report.unverifiable
            for note in report.notes:
                print(f"note: {note}")
            for m in report.mismatches:
                problems += 1
                if args.check:
                    print(m)
    summary = f"{files} files, {hands} hands, {matched} matched"
    if unverifiable:
        summary += f", {unverifiable} unverifiable (the record contradicts itself)"
    if problems:
        summary += f", {problems} differences"
    print(summary)
    return 1 if (args.check and problems) else 0
