"""``jantaku replay FILE... --check``: replay game records through the engine and report every difference."""

from __future__ import annotations

import argparse
from collections import Counter

from jantaku.errors import JantakuError
from jantaku.records.load import iter_record_files, read_records
from jantaku.records.replay import replay_record

EXIT_MATCHED = 0
"""Every hand of every file was replayed and matched, and every final settlement the records state."""
EXIT_DIFFERENCES = 1
"""With --check: the engine differs from a record somewhere (a hand, the game's end, the final points)."""
EXIT_INCOMPLETE = 2
"""Something could not be checked: a file that cannot be read or replayed, a file with no complete hand, hands
cut off or skipped, hands the record contradicts itself in. Takes precedence over 1: the check is not whole."""

_EPILOG = """\
exit status:
  0  every hand of every file replayed and matched, and every final settlement a record states
  1  (with --check) a difference: a hand, the game's end or the final points differ from the record
  2  the check is not whole: a file could not be read or replayed, held no complete hand, had hands cut off
     or skipped (a truncated file), or hands that contradict themselves ('unverifiable'); the notes say which.
     2 wins over 1. (Command-line errors, such as a path that does not exist, also exit 2.)

The final points a record states (Tenhou's owari, a tenhou.net/6 sc) are read back into a settlement - zero
line, rank points and rounding (Tenhou's five-down/six-up to thousands, half up, or none to 0.1) - which the
summary names; a record that no settlement fits is a difference.

examples (from a clone of the repository):
  jantaku replay examples/records --check
  jantaku replay tests/data/records/tenhou6-json/mahjongsoul --check   (5 Mahjong Soul games)"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay",
        help="replay game records through the engine",
        description="Replay Tenhou mjlog (plain or gzipped), tenhou.net/6 JSON (Tenhou's or Mahjong Soul's, "
        "which is replayed under the mahjongsoul rule set), mjx or mjai records through the table engine. With "
        "--check, print one line per difference (file, hand, what, expected vs got) and a summary.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("paths", nargs="+", help="record files or folders (searched recursively)")
    p.add_argument("--rules", default=None, help="rule set (default: the record's own, tenhou for Tenhou logs)")
    p.add_argument("--check", action="store_true", help="report differences and exit 1 if any (see exit status)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    hands = matched = differences = unverifiable = 0
    files = unreadable = 0
    skipped: list[str] = []
    settlements: Counter[str] = Counter()
    finals_matched = finals_differ = 0
    for path in iter_record_files(args.paths):
        files += 1
        try:
            records = read_records(path)
        except JantakuError as e:
            unreadable += 1
            print(f"{path}: cannot read: {e}")
            continue
        if not records:
            skipped.append(f"{path}: no game record in the file")
        for rec in records:
            try:
                report = replay_record(rec, args.rules)
            except JantakuError as e:
                unreadable += 1
                print(f"{rec.source}: cannot replay: {e}")
                continue
            hands += report.hands
            matched += report.matched
            unverifiable += report.unverifiable
            skipped.extend(report.skipped)
            for note in report.notes:
                print(f"note: {note}")
            for m in report.mismatches:
                differences += 1
                if args.check:
                    print(m)
            if report.settlement is not None:
                settlements[report.settlement] += 1
            if report.final_checked:
                if any(m.hand == "end" and m.what == "final points" for m in report.mismatches):
                    finals_differ += 1
                else:
                    finals_matched += 1
    for what in skipped:
        print(f"not checked: {what}")
    summary = f"{files} files, {hands} hands, {matched} matched"
    if unverifiable:
        summary += f", {unverifiable} unverifiable (the record contradicts itself)"
    if skipped:
        summary += f", {len(skipped)} not checked (cut off, skipped or empty)"
    if unreadable:
        summary += f", {unreadable} unreadable"
    if differences:
        summary += f", {differences} differences"
    summary += f"; final points: {finals_matched} matched"
    if finals_differ:
        summary += f", {finals_differ} differ"
    print(summary)
    for settlement, n in sorted(settlements.items(), key=lambda kv: -kv[1]):
        print(f"settlement read from the records' final points: {settlement}: {n} record(s)")
    if unreadable or skipped or unverifiable or (files and hands == 0) or files == 0:
        if files == 0 or hands == 0:
            print("nothing was checked")
        return EXIT_INCOMPLETE
    return EXIT_DIFFERENCES if (args.check and differences) else EXIT_MATCHED
