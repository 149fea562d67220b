"""``jantaku analyze``: what a rule change does to the game, measured with 95% intervals (:mod:`jantaku.lab`).

``jantaku analyze jielu-fans ...`` hands its arguments to :mod:`jantaku.lab.jielu_fans` (its own options and
help), imported only then.
"""

from __future__ import annotations

import argparse
import importlib
import json
import re
import sys
from pathlib import Path
from types import ModuleType

from jantaku.errors import JantakuError, excerpt

from .simulate_cmd import add_ray_argument

SUBCOMMANDS = {"jielu-fans": "jantaku.lab.jielu_fans"}
"""``jantaku analyze NAME``: the module that does it (``add_arguments(parser)``, ``run(args) -> int``)."""

MAX_WORKERS = 256


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyze",
        help="measure what rule sets do to the game (rates, values, yaku, ranks, skill) with intervals",
        description="Play N games under each rule set with bots, on the same walls for every rule set, and\n"
        "report each rule set's difference from the reference (the first, or --reference) on the same\n"
        "games with its 95% interval, flagged only when its p-value stays below 0.05 after Holm's\n"
        "correction over the measures of the comparison; then each rule set's own estimates: win,\n"
        "deal-in, tsumo, riichi, call and draw rates, hand values, yaku frequencies, game length, final\n"
        "scores, how often the leader after East wins and the skill share (the share of the final\n"
        "scores' variance explained by which bot plays), each with a 95% interval (Wilson for rates;\n"
        "'not observed (< x%)' with the exact upper bound for an event never seen).\n"
        "`jantaku analyze jielu-fans --help`: the 洁律 fan analysis.",
        epilog="examples (small; a real analysis plays hundreds of games):\n"
        "  jantaku analyze --rules mleague,mu --games 2 --seed 1 --bots efficiency\n"
        "  jantaku analyze --rules mleague --sweep kiriage=false,true --games 2 --bots efficiency --json\n"
        "  jantaku analyze --rules mleague --sweep kiriage=false,true --sweep starting_points=25000,30000 --games 2 "
        "--bots efficiency\n"
        "  jantaku analyze --rules mu,meibi --games 2 --bots strong,efficiency,efficiency,efficiency "
        "--html out/report.html\n"
        "  jantaku analyze --rules mleague,mu --reference mu --games 2 --bots efficiency --csv out/lab.csv "
        "--markdown out/lab.md --latex out/lab.tex\n"
        "  jantaku analyze --rules examples/rules/my_league.toml,mleague --games 2 --bots efficiency --workers 2\n"
        "\n"
        "--csv writes one row per number: 'estimate' rows (rule_set, measure, value, low, high, observed) and\n"
        "'difference' rows (rule_set minus reference: value, low, high, observed, p, p_holm, flagged).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "--rules",
        default="mleague",
        help="rule sets to compare, separated by commas: preset names or TOML files (default mleague)",
    )
    p.add_argument("--games", type=int, default=100, help="games per rule set (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the walls, the same for every rule set (default 0)")
    p.add_argument(
        "--bots",
        default="strong,efficiency,efficiency,efficiency",
        help="one bot for all seats, or four separated by commas (default strong,efficiency,efficiency,efficiency: "
        "two levels of play, so the skill share is measured)",
    )
    p.add_argument(
        "--sweep",
        metavar="PARAM=V1,V2,...",
        action="append",
        default=None,
        help="play each rule set with one parameter set to each value (rule sets named PARAM=V); give it again "
        "for another parameter: every combination is played (named P1=V1,P2=V2; with several --rules, "
        "RULES:P1=V1,...), at most 24 rule sets in all",
    )
    p.add_argument(
        "--reference",
        metavar="NAME",
        default=None,
        help="the rule set the others are compared with, by its name in the report (default the first)",
    )
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.add_argument("--html", metavar="FILE", default=None, help="write an HTML report with plots (needs matplotlib)")
    p.add_argument("--csv", metavar="FILE", default=None, help="write every estimate and difference as CSV")
    p.add_argument("--markdown", metavar="FILE", default=None, help="write the tables as Markdown")
    p.add_argument("--latex", metavar="FILE", default=None, help="write the tables as a LaTeX fragment")
    add_ray_argument(p)
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="processes to play in (default: one per CPU, or this process alone for fewer than 40 games in all); "
        "with --ray and no ADDRESS, the local Ray instance's CPUs",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    tools = p.add_subparsers(dest="tool", metavar="{jielu-fans}", required=False)
    for name in SUBCOMMANDS:
        # Its options are the module's own: everything after the name is handed to it (prefix_chars that no
        # argument starts with keep argparse from reading them here).
        t = tools.add_parser(
            name,
            help="the 洁律 fan analysis (its own --help)",
            description="The 洁律 fan analysis: jantaku analyze jielu-fans --help lists its options.",
            add_help=False,
            prefix_chars="\0",
        )
        t.add_argument("tool_args", nargs="*", help="the analysis's own options (see its --help)")
        t.set_defaults(run=run_tool)
    p.set_defaults(run=run)


def _tool_module(name: str) -> ModuleType:
    module = SUBCOMMANDS[name]
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as e:
        if e.name in (module, module.rpartition(".")[0]):
            raise JantakuError(
                f"`jantaku analyze {name}` is not available in this installation (no module {module})"
            ) from None
        raise


def run_tool(args: argparse.Namespace) -> int:
    """``jantaku analyze NAME ARGS...``: parse ARGS with the module's own options and run it."""
    module = _tool_module(args.tool)
    summary = plain((module.__doc__ or "").strip().split("\n\n")[0])  # the module's first paragraph
    parser = argparse.ArgumentParser(prog=f"jantaku analyze {args.tool}", description=summary or None)
    module.add_arguments(parser)
    return int(module.run(parser.parse_args(args.tool_args)))


def _check(args: argparse.Namespace) -> None:
    from jantaku.lab.analysis import MAX_GAMES, MIN_GAMES

    if not MIN_GAMES <= args.games <= MAX_GAMES:
        raise JantakuError(f"--games must be {MIN_GAMES}-{MAX_GAMES}, got {excerpt(args.games)}")
    if args.workers is not None and not 1 <= args.workers <= MAX_WORKERS:
        raise JantakuError(f"--workers must be 1-{MAX_WORKERS}, got {excerpt(args.workers)}")
    if args.ray and args.workers is not None:
        raise JantakuError("--workers sets the CPUs of a local Ray instance; a cluster's size is its own (drop it)")
    outputs = _outputs(args)
    for option, name in outputs:
        target = Path(name)
        if target.is_dir() or not target.parent.is_dir():
            raise JantakuError(f"{option} {excerpt(name, 200)}: not a file in an existing folder")
    if len({str(Path(name).resolve()) for _, name in outputs}) < len(outputs):
        raise JantakuError("--html, --csv, --markdown and --latex must name different files")
    if args.html is not None:
        from jantaku.lab.report_html import require_matplotlib

        require_matplotlib()


_OUTPUTS = (
    ("--html", "html", "HTML report"),
    ("--csv", "csv", "CSV"),
    ("--markdown", "markdown", "Markdown"),
    ("--latex", "latex", "LaTeX"),
)
"""The files ``analyze`` writes: option, attribute, what the terminal calls it."""


def _outputs(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The files asked for, as (option, file name)."""
    return [(option, getattr(args, attr)) for option, attr, _ in _OUTPUTS if getattr(args, attr, None) is not None]


def _write(name: str, text: str) -> None:
    try:
        Path(name).write_text(text, encoding="utf-8")
    except OSError as e:
        raise JantakuError(f"cannot write {excerpt(name, 200)}: {e.strerror or e}") from None


def run(args: argparse.Namespace) -> int:
    from jantaku.lab import exports
    from jantaku.lab.analysis import analyze
    from jantaku.lab.report_text import text_report
    from jantaku.sim.progress import ProgressBar

    _check(args)
    bar = ProgressBar() if not args.quiet and sys.stderr.isatty() else None
    report = analyze(
        args.rules, args.games, args.seed, args.bots, args.sweep, args.workers, args.ray, bar, args.reference
    )
    report.metadata["command"] = getattr(args, "command_line", None)
    writers = {"csv": exports.to_csv, "markdown": exports.to_markdown, "latex": exports.to_latex}
    written = []
    for _, attr, what in _OUTPUTS:
        name = getattr(args, attr, None)
        if name is None:
            continue
        if attr == "html":
            from jantaku.lab.report_html import html_report

            _write(name, html_report(report))
        else:
            _write(name, writers[attr](report))
        written.append(f"{what}: {name}")
    if args.json:
        print(json.dumps(report.to_json(), ensure_ascii=False, indent=1, allow_nan=False))
    else:
        print(text_report(report))
        if written:
            print("\n" + "\n".join(written))
    return 0


def plain(text: str) -> str:
    """A docstring's text as a terminal shows it: no reStructuredText roles or literal quotes.

    >>> plain("``jantaku analyze jielu-fans``: see :func:`~jantaku.lab.analysis.analyze` and :mod:`jantaku.lab`.")
    'jantaku analyze jielu-fans: see analyze and jantaku.lab.'
    """
    text = re.sub(r":[a-z]+:`~[\w.]*?\.?(\w+)`", r"\1", text)
    text = re.sub(r":[a-z]+:`([^`]+)`", r"\1", text)
    return text.replace("``", "")
