"""What a newcomer meets in the first hour: every help text says what an option does and its default, a command
that waits says so, `jantaku serve` names a busy port and a missing folder, the 洁律 compiler's pause is
announced, read-only commands create nothing."""

from __future__ import annotations

import argparse
import os
import pty
import re
import select
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jantaku.cli import build_parser, main
from jantaku.tiles import parse_tiles


def _parsers(parser: argparse.ArgumentParser, path: tuple[str, ...] = ("jantaku",)):
    yield path, parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _parsers(sub, (*path, name))


COMMANDS = list(_parsers(build_parser(None)))


@pytest.mark.parametrize(("path", "parser"), COMMANDS[1:], ids=[" ".join(p) for p, _ in COMMANDS[1:]])
def test_every_command_says_what_it_does_and_each_argument_its_default(path, parser):
    assert parser.description, f"{' '.join(path)} has no description"
    # argparse fills in %-placeholders in argument help but not in a description or epilog: a doubled %% there
    # is shown as it stands
    assert "%%" not in parser.format_help(), f"{' '.join(path)}: its help shows '%%'"
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction | argparse._SubParsersAction | argparse._VersionAction):
            continue
        name = "/".join(action.option_strings) or action.dest
        assert action.help, f"{' '.join(path)} {name}: no help text"
        shown = action.default not in (None, False, "", [], argparse.SUPPRESS)
        if action.option_strings and shown and not isinstance(action, argparse._StoreTrueAction):
            assert "default" in action.help, f"{' '.join(path)} {name}: the default {action.default!r} is not said"


def test_help_texts_show_no_markup(capsys):
    with pytest.raises(SystemExit):
        main(["analyze", "jielu-fans", "--help"])
    out = capsys.readouterr().out
    assert "jielu-fans" in out and "``" not in out and ":func:" not in out


def test_the_shanten_examples_have_the_tiles_they_say(capsys):
    with pytest.raises(SystemExit):
        main(["shanten", "--help"])
    lines = [ln for ln in capsys.readouterr().out.splitlines() if re.search(r"\b1[34] tiles", ln)]
    assert lines
    for line in lines:
        hand, said = line.split()[2], int(re.search(r"\b(1[34]) tiles", line).group(1))
        assert len(parse_tiles(hand)) == said, line


def test_jantaku_bot_on_a_terminal_says_it_waits_for_mjai_events():
    main_fd, child_fd = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jantaku.cli", "bot", "efficiency"],
        stdin=child_fd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    os.close(child_fd)
    try:
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "jantaku bot said nothing on a terminal"
        said = proc.stderr.readline().decode()
        assert "waiting for mjai events on standard input" in said
    finally:
        os.close(main_fd)
        proc.kill()
        proc.wait()


def test_jantaku_bot_on_a_pipe_says_nothing_but_its_answers():
    done = subprocess.run(
        [sys.executable, "-m", "jantaku.cli", "bot", "efficiency"],
        input='{"type":"start_game","id":0}\n',
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == "" and done.stdout.strip() == '{"type":"none"}'


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_serve_on_a_busy_port_names_it_and_suggests_another(capsys, tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code = main(["serve", "--port", str(port), "--db", str(tmp_path / "g.sqlite3")])
    err = capsys.readouterr().err
    assert code == 2 and f"port {port} on 127.0.0.1 is in use" in err and "--port" in err
    assert "Errno" not in err and len(err.splitlines()) == 1


def test_serve_creates_no_folder(capsys, tmp_path):
    code = main(["serve", "--port", str(_free_port()), "--db", str(tmp_path / "nope" / "g.sqlite3")])
    assert code == 2 and "--db: no folder" in capsys.readouterr().err
    code = main(["serve", "--port", str(_free_port()), "--league-db", str(tmp_path / "nope" / "l.sqlite3")])
    assert code == 2 and "--league-db: no folder" in capsys.readouterr().err
    assert not (tmp_path / "nope").exists()


def test_serve_on_a_place_it_cannot_write_says_so_at_start(capsys):
    """A games database that cannot be written (here /proc, which not even root writes) stops the start with one
    line and exit 2, not a traceback, and not later at the first move (issue 32)."""
    code = main(["serve", "--port", str(_free_port()), "--db", "/proc/self/jantaku.sqlite3"])
    err = capsys.readouterr().err
    assert code == 2 and "the games database cannot be written there" in err and "--db" in err
    assert "Traceback" not in err and len(err.splitlines()) == 1


def test_serve_prints_its_address_once_it_listens(tmp_path):
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "jantaku.cli", "serve", "--port", str(port)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert line.startswith(f"jantaku web table: open http://127.0.0.1:{port}/"), line
        with socket.create_connection(("127.0.0.1", port), timeout=5):  # bound before it said so
            pass
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert (tmp_path / "jantaku.sqlite3").exists()


def test_the_league_cli_and_the_web_share_one_default_database(tmp_path):
    from jantaku.cli.league_cmd import DEFAULT_DB

    serve = build_parser("serve").parse_args(["serve"])
    assert Path(serve.db).with_suffix(".league.sqlite3") == Path(DEFAULT_DB)
    league = build_parser("league").parse_args(["league", "events"])
    assert league.db == DEFAULT_DB


def test_the_first_jielu_use_of_a_process_is_announced_when_it_takes_a_while():
    # NOTICE_AFTER 0: even loading the compiled check from numba's cache counts as "a while" here; a cold cache
    # (a new install) takes 15 s or more, and the message is then what the person sees during the pause
    code = (
        "import jantaku.jielu.wincheck as w\n"
        "w.NOTICE_AFTER = 0.0\n"
        "from jantaku.cli import main\n"
        "raise SystemExit(main(['score', '123m456m789m123p11z', '--win', '1z', '--tsumo', '--rules', 'jielu']))\n"
    )
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "compiling the 洁律 legal-win check, once" in done.stderr, (done.stderr, time.monotonic() - start)
    assert done.stdout.strip(), "the score was printed"


def test_a_library_user_gets_no_notice():
    code = (
        "import jantaku.jielu.wincheck as w\n"
        "w.NOTICE_AFTER = 0.0\n"
        "from jantaku.jielu.scoring import can_win\n"
        "from jantaku.hand import Hand\n"
        "print(can_win(Hand.parse('123m456p789s11z344z')))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.strip() == "True" and done.stderr == "", done.stderr
