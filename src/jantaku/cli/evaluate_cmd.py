"""``jantaku evaluate``: a policy against fixed opponents on duplicate deals, with 95% intervals."""

from __future__ import annotations

import argparse
import json
import sys

from jantaku.sim.progress import ProgressBar


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "evaluate",
        help="a policy against fixed opponents: duplicate deals, seats rotated, 95%% intervals",
        description="Play each deal four times, the policy at each seat in turn against the same opponents, and "
        "print its mean rank, final score, win and deal-in rates (and the opponents') with 95% intervals over "
        "the deals. The policy is a bot name, mjai:COMMAND (a program speaking mjai) or a Python policy "
        "py:MODULE:NAME or py:FILE.py:NAME (a class or factory called with a seed, giving an object with "
        "act(view, legal); or a function act(view, legal)).",
        epilog="examples (small; a real comparison takes hundreds of deals):\n"
        "  jantaku evaluate efficiency --opponents random --deals 2 --seed 1\n"
        "  jantaku evaluate py:examples/first_legal.py:act --opponents random --deals 2\n"
        "  jantaku evaluate random --opponents random,efficiency,random --rules mleague --deals 2 --json",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("policy", help="the policy evaluated (a bot name, mjai:COMMAND or py:MODULE:NAME)")
    p.add_argument(
        "--opponents",
        default="random",
        help="one bot for the three other seats, or three, comma-separated (default random)",
    )
    p.add_argument("--rules", default="tenhou", help="preset name or TOML file (default tenhou)")
    p.add_argument("--deals", type=int, default=25, help="deals, each played four times (default 25: 100 games)")
    p.add_argument("--seed", type=int, default=0, help="seed of the deals: deal d plays game seed SEED/d (default 0)")
    p.add_argument("--workers", type=int, default=1, help="processes to play in (default 1)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jantaku.lab.evaluate import evaluate

    show = not args.quiet and not args.json and sys.stderr.isatty()
    ev = evaluate(
        args.policy,
        args.opponents,
        rules=args.rules,
        deals=args.deals,
        seed=args.seed,
        workers=args.workers,
        progress=ProgressBar() if show else None,
    )
    print(json.dumps(ev.as_json(), indent=2) if args.json else ev.report())
    return 0
