"""The `jantaku` command: output, exit codes, and one-line errors for bad input."""

import re
import subprocess
import sys

import pytest

from jantaku.cli import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_shanten_tenpai_lists_waits_with_copies_left(capsys):
    code, out, err = run(capsys, "shanten", "1112345678999m")
    assert code == 0 and not err
    assert "shanten: 0 (tenpai)" in out
    assert "waits: 1m(1) 2m(3) 3m(3) 4m(3) 5m(3) 6m(3) 7m(3) 8m(3) 9m(1)  total 23" in out


def test_shanten_one_shanten_lists_ukeire_and_visible_reduces_copies(capsys):
    code, out, _ = run(capsys, "shanten", "123m456p789s12z55z", "--visible", "1z1z")
    assert code == 0
    assert "shanten: 1 (1-shanten)" in out
    assert "ukeire: 1z(1) 2z(3) 5z(2)  total 6" in out


def test_shanten_fourteen_tiles_lists_best_discards(capsys):
    code, out, _ = run(capsys, "shanten", "123m456p789s1122z5z")
    assert code == 0
    assert "discard 5z: tenpai, accepts 1z(2) 2z(2)  total 4" in out


def test_shanten_complete_hand_shows_decompositions(capsys):
    code, out, _ = run(capsys, "shanten", "111222333m456p77z")
    assert code == 0
    assert "shanten: -1 (complete)" in out
    assert "pair 7z, pungs 1m 2m 3m, runs 456p" in out
    assert "pair 7z, runs 123m 123m 123m 456p" in out


def test_shanten_with_melds_as_separate_words(capsys):
    code, out, _ = run(capsys, "shanten", "23m456p11z", "555z+", "789s+")
    assert code == 0
    assert "regular 0" in out and "seven pairs" not in out
    assert "waits: 1m(4) 4m(4)" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["shanten", "8z"], "'8z' is not a tile"),
        (["shanten", "123"], "has no suit letter"),
        (["shanten", "11111m2345p"], "five copies of 1m"),
        (["shanten", "123m"], r"3n\+1 or 3n\+2"),
        (["shanten", "00m1234p"], "two red 5m"),
        (["shanten", "123m", "45z+"], "not a meld|three"),
    ],
)
def test_bad_input_prints_one_line_and_exits_2(capsys, argv, message):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("jantaku shanten: error: ")
    assert re.search(message, lines[0])


def test_help_everywhere():
    for argv in (["--help"], ["shanten", "--help"]):
        proc = subprocess.run([sys.executable, "-m", "jantaku.cli", *argv], capture_output=True, text=True)
        assert proc.returncode == 0
        assert "usage: jantaku" in proc.stdout


def test_no_command_prints_help_and_exits_2(capsys):
    code, out, _ = run(capsys)
    assert code == 2 and "usage: jantaku" in out


def test_version_is_printed_on_standard_output():
    proc = subprocess.run([sys.executable, "-m", "jantaku.cli", "--version"], capture_output=True, text=True)
    assert proc.returncode == 0 and proc.stderr == ""
    assert re.fullmatch(r"jantaku \d+\.\d+\.\d+\n", proc.stdout), proc.stdout
