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
import importlib
import shlex
import sys
from collections.abc import Sequence
from types import ModuleType

from jantaku import extras
from jantaku.errors import JantakuError

__all__ = ["MAX_MESSAGE", "build_parser", "main"]

MAX_MESSAGE = 500
"""Longest error message printed (messages quote only parts of the input; this is the last guard)."""

_COMMAND_NAMES = (
    "shanten",
    "score",
    "rules",
    "simulate",
    "analyze",
    "evaluate",
    "dataset",
    "replay",
    "review",
    "bot",
    "serve",
    "league",
)
"""The subcommands in ``--help``'s order; subcommand ``x`` lives in module ``jantaku.cli.x_cmd``."""


def _command_module(name: str) -> ModuleType:
    return importlib.import_module(f"{__name__}.{name}_cmd")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser of the ``jantaku`` command, with every subcommand (or only the one named
    ``only``: :func:`main` then imports that command's module alone, so a command starts without loading
    the others' dependencies)."""
    parser = argparse.ArgumentParser(
        prog="jantaku",
        description="jantaku (雀卓): mahjong rule sets as data - shapes, scoring, games, records.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in _COMMAND_NAMES if only is None else (only,):
        _command_module(name).add_parser(sub)
    return parser


class _VersionAction(argparse.Action):
    """``--version``: prints ``jantaku VERSION`` and exits, reading the package metadata only then."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        print(f"jantaku {extras.installed_version()}")  # on standard output, as argparse's own version action
        parser.exit()


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (0 ok, 1 a check failed, 2 bad input)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # `jantaku COMMAND ...`: build that command's parser alone (the same parse: options before COMMAND are
    # only the top-level -h and --version, which end the run before any subcommand is parsed)
    parser = build_parser(argv[0] if argv and argv[0] in _COMMAND_NAMES else None)
    args = parser.parse_args(argv)
    args.command_line = shlex.join(["jantaku", *argv])  # what a report records of the run (jantaku analyze)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    _tolerant_output()
    extras.notice = _say
    try:
        return int(args.run(args))
    except JantakuError as e:
        print(f"jantaku {args.command}: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. piped into `head`
        return 0


def _say(message: str) -> None:
    """A notice on standard error (a slow first use: see :data:`jantaku.extras.notice`)."""
    print(message, file=sys.stderr, flush=True)


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
