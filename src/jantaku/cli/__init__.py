"""The ``jantaku`` command.

Each subcommand lives in its own module with two functions: ``add_parser(subparsers)`` declaring its
arguments and ``run(args) -> int`` doing the work. Errors caused by the user's input are
:class:`~jantaku.errors.JantakuError`; :func:`main` prints them as one line on stderr and exits 2.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from jantaku import __version__
from jantaku.errors import JantakuError

from . import bot_cmd, replay_cmd, review_cmd, rules_cmd, score_cmd, serve_cmd, shanten_cmd, simulate_cmd

__all__ = ["build_parser", "main"]

_COMMANDS = (shanten_cmd, score_cmd, rules_cmd, simulate_cmd, replay_cmd, review_cmd, bot_cmd, serve_cmd)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``jantaku`` command, with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="jantaku",
        description="jantaku (雀卓): mahjong rule sets as data - shapes, scoring, games, records.",
    )
    parser.add_argument("--version", action="version", version=f"jantaku {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module in _COMMANDS:
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 a check failed, 2 bad input)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except JantakuError as e:
        print(f"jantaku {args.command}: error: {e}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
