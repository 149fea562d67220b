"""The ``jantaku`` command.

Each subcommand lives in its own module with two functions: ``add_parser(subparsers)`` declaring its
arguments and ``run(args) -> int`` doing the work. Errors caused by the user's input are
:class:`~jantaku.errors.JantakuError`; :func:`main` prints them as one line on stderr and exits 2.

Exit status: 0 done, 1 a check found differences (``replay --check``), 2 bad input (a message on stderr,
never a traceback: a file that cannot be read, a malformed rule file, an impossible hand). A message is one
line of at most :data:`MAX_MESSAGE` characters. Output the terminal's encoding cannot show (a strict locale)
is written with escapes instead of failing.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Sequence

from jantaku import __version__
from jantaku.errors import JantakuError

from . import analyze_cmd, bot_cmd, replay_cmd, review_cmd, rules_cmd, score_cmd, serve_cmd, shanten_cmd, simulate_cmd

__all__ = ["MAX_MESSAGE", "build_parser", "main"]

MAX_MESSAGE = 500
"""Longest error message printed (messages quote only parts of the input; this is the last guard)."""

_COMMANDS = (
    shanten_cmd,
    score_cmd,
    rules_cmd,
    simulate_cmd,
    analyze_cmd,
    replay_cmd,
    review_cmd,
    bot_cmd,
    serve_cmd,
)


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
    _tolerant_output()
    try:
        return int(args.run(args))
    except JantakuError as e:
        print(f"jantaku {args.command}: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        return 0


def _one_line(message: str) -> str:
    text = " ".join(message.split("\n"))
    return text if len(text) <= MAX_MESSAGE else f"{text[: MAX_MESSAGE - 20]}... ({len(text)} chars)"


def _tolerant_output() -> None:
    """Let stdout and stderr write what their encoding cannot (CJK under LC_ALL=C on an old system) as escapes."""
    for stream in (sys.stdout, sys.stderr):
        encoding = (getattr(stream, "encoding", None) or "").lower().replace("-", "")
        reconfigure = getattr(stream, "reconfigure", None)
        if encoding and encoding != "utf8" and reconfigure is not None:
            with contextlib.suppress(ValueError, OSError):  # a stream that cannot change stays as it is
                reconfigure(errors="backslashreplace")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
