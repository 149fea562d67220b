"""``jantaku simulate``: play many games with bots and print a summary."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from jantaku.errors import JantakuError, excerpt
from jantaku.sim.progress import ProgressBar
from jantaku.sim.runner import simulate


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "simulate",
        help="play many games with bots and summarise them",
        description="Play whole games with bots under a rule set and print average rank points per seat, "
        "win / deal-in / draw rates, the average win and yaku frequencies.",
        epilog="examples:\n  jantaku simulate --rules mleague --games 100 --seed 1\n"
        "  jantaku simulate --rules tenhou --games 1000 --bots efficiency,random,efficiency,random --workers 2\n"
        "  jantaku simulate --rules mu --games 10 --out out/logs     (one mjai event log per game)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--rules", default="standard", help="preset name or TOML file (default standard)")
    p.add_argument("--games", type=int, default=10, help="games to play (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i plays seed+i (default 0)")
    p.add_argument(
        "--bots",
        default="efficiency",
        help="one bot for all seats, or four separated by commas: random, efficiency, strong, mjai:COMMAND "
        "(default efficiency: fast; `jantaku analyze` defaults to strong, for rule comparisons)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes to play in (default 1); with --ray and no ADDRESS, the local Ray instance's CPUs (default all)",
    )
    p.add_argument("--out", default=None, help="folder for the games' records")
    p.add_argument("--format", default="mjai", choices=("mjai", "tenhou6"), help="format of --out (default mjai)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    add_ray_argument(p)
    p.set_defaults(run=run)


MAX_GAMES = 10_000_000
"""Most games one run plays (about a day on one core)."""
MAX_WORKERS = 256


def _check(args: argparse.Namespace) -> None:
    """Refuse out-of-range numbers and an --out that cannot be a folder before any game is played."""
    if not 1 <= args.games <= MAX_GAMES:
        raise JantakuError(f"--games must be 1-{MAX_GAMES}, got {excerpt(args.games)}")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise JantakuError(f"--workers must be 1-{MAX_WORKERS}, got {excerpt(args.workers)}")
    if args.out is not None:
        out = Path(args.out)
        try:
            out.mkdir(parents=True, exist_ok=True)
        except (OSError, ValueError) as e:
            why = getattr(e, "strerror", None) or e
            raise JantakuError(f"--out {excerpt(args.out, 200)}: cannot make the folder ({why})") from None


def add_ray_argument(p: argparse.ArgumentParser) -> None:
    """``--ray [ADDRESS]``, as ``simulate`` and ``analyze`` take it (``""`` for a local Ray instance)."""
    p.add_argument(
        "--ray",
        nargs="?",
        const="",
        default=None,
        metavar="ADDRESS",
        help="play the games as Ray tasks on the cluster at ADDRESS (HOST:PORT of its head node, or "
        "auto), or on a local Ray instance when no ADDRESS is given; needs the ray extra",
    )


def run(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    _check(args)
    show = not args.quiet and (sys.stderr.isatty() or args.games >= 20)
    bar = ProgressBar() if show else None
    if args.ray is not None:
        from jantaku.sim.ray_runner import simulate_ray

        summary = simulate_ray(
            args.rules, args.games, args.seed, bots, args.ray or None, args.workers, args.out, bar, args.format
        )
    else:
        from jantaku.sim.runner import SimulationIncomplete

        try:
            summary = simulate(args.rules, args.games, args.seed, bots, args.workers or 1, args.out, bar, args.format)
        except SimulationIncomplete as e:  # the games that were played are summarised, then the error
            print(e.summary.report(bots * 4 if len(bots) == 1 else bots))
            raise
    print(summary.report(bots * 4 if len(bots) == 1 else bots))
    return 0
