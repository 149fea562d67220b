"""jantaku's own 洁律 game records replay through the engine: no dead wall (a kong's replacement from the
wall's tail), several winners per hand in the points mode (the hand goes on after a win), raw final points.

Before, a 洁律 record made ``jantaku replay`` fail with a KeyError on the missing dora indicator."""

import re

import pytest

from jantaku.cli import main


@pytest.mark.parametrize("preset", ["jielu", "jielu_original"])
def test_simulated_jielu_games_replay_point_for_point(tmp_path, capsys, preset):
    out = tmp_path / preset
    assert (
        main(
            [
                "simulate",
                "--rules",
                preset,
                "--games",
                "3",
                "--seed",
                "4",
                "--out",
                str(out),
                "--bots",
                "efficiency,efficiency,random,efficiency",
            ]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["replay", str(out), "--check"]) == 0
    summary = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(r"3 files, (\d+) hands, (\d+) matched; final points: 3 matched", summary)
    assert m and m.group(1) == m.group(2) and int(m.group(1)) >= 12, summary


def test_a_changed_jielu_win_is_a_difference(tmp_path, capsys):
    out = tmp_path / "g"
    assert (
        main(
            [
                "simulate",
                "--rules",
                "jielu",
                "--games",
                "1",
                "--seed",
                "4",
                "--out",
                str(out),
                "--bots",
                "efficiency,efficiency,efficiency,efficiency",
            ]
        )
        == 0
    )
    capsys.readouterr()
    path = next(out.iterdir())
    lines = path.read_text(encoding="utf-8").splitlines()
    i = next(i for i, line in enumerate(lines) if '"type": "hora"' in line)
    lines[i] = re.sub(r'"score": (\d+)', lambda m: f'"score": {int(m.group(1)) + 1}', lines[i], count=1)
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["replay", str(out), "--check"]) == 1
    assert "score: expected" in capsys.readouterr().out
