"""``jantaku simulate``: play many games with bots and print a summary."""

from __future__ import annotations

import argparse
import sys

from jantaku.sim.runner import progress_bar, simulate


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many games with bots and summarise them",
        description="Play whole games with bots under a rule set and print average rank points per seat, "
        "win / deal-in / draw rates, the average win and yaku frequencies.",
        epilog="examples:\n  jantaku simulate --rules mleague --games 100 --seed 1\n"
        "  jantaku simulate --rules tenhou --games 1000 --bots efficiency,random,efficiency,random --workers 2\n"
        "  jantaku simulate --rules mu --games 10 --out logs/     (one mjai event log per game)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", default="standard", help="preset name or TOML file (default standard)")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--bots",
        default="efficiency",
        help="one bot for all seats, or four separated by commas: random, efficiency, strong, mjai:COMMAND",
    )
    p.add_argument("--workers", type=int, default=1, help="processes to play in (default 1)")
    p.add_argument("--out", default=None, help="folder for the games' records")
    p.add_argument("--format", default="mjai", choices=("mjai", "tenhou6"), help="record format for --out")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if args.games < 1:
        from jantaku.errors import JantakuError

        raise JantakuError("--games must be at least 1")
    show = not args.quiet and (sys.stderr.isatty() or args.games >= 20)
    summary = simulate(
        args.rules, args.games, args.seed, bots, args.workers, args.out, progress_bar if show else None, args.format
    )
    print(summary.report(bots * 4 if len(bots) == 1 else bots))
    return 0
