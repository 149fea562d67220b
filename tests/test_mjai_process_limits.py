"""Issue 35: an mjai bot process cannot hang, flood or abort the program that seats it - blank lines do not
extend its answer's deadline, a line with no end is cut off before it takes the memory, a program that exits
without closing its bots exits cleanly (no SIGABRT), and an environment's close() stops its mjai opponents."""

from __future__ import annotations

import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from jantaku.bots.mjai_process import MAX_LINE, MjaiBotError, MjaiProcessAgent
from jantaku.bots.simple import RandomBot
from jantaku.rules import load_rules
from jantaku.table.game import Game

PY = shlex.quote(sys.executable)
TSUMOGIRI_BOT = Path(__file__).parent / "data" / "mjai_bots" / "tsumogiri_bot.py"


def _script(tmp_path: Path, name: str, body: str) -> str:
    path = tmp_path / name
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return f"{PY} {shlex.quote(str(path))}"


def _one_decision(agent: MjaiProcessAgent) -> None:
    game = Game(load_rules("tenhou"), 1)
    others = [RandomBot(1), RandomBot(2), RandomBot(3)]
    while True:
        seat = game.to_act()[0]
        bot = agent if seat == 0 else others[seat - 1]
        game.apply(bot.act(game.view(seat), game.legal_actions(seat)))
        if seat == 0:
            return


def test_blank_lines_do_not_keep_a_silent_bot_alive(tmp_path):
    command = _script(
        tmp_path,
        "blank_bot.py",
        """
        import sys, time
        while True:
            print("", flush=True)
            time.sleep(0.2)
        """,
    )
    agent = MjaiProcessAgent(command, seat=0, timeout=1.0, startup_timeout=1.5)
    start = time.monotonic()
    with pytest.raises(MjaiBotError, match=r"did not answer within 1\.5 s"):
        _one_decision(agent)
    assert time.monotonic() - start < 5 and not agent.running


def test_a_line_without_end_is_cut_off(tmp_path):
    command = _script(
        tmp_path,
        "flood_bot.py",
        f"""
        import sys, time
        chunk = "x" * 65536
        for _ in range({(3 * MAX_LINE) // 65536}):
            sys.stdout.write(chunk)
        sys.stdout.flush()
        time.sleep(30)
        """,
    )
    agent = MjaiProcessAgent(command, seat=0, timeout=20)
    with pytest.raises(MjaiBotError, match=f"longer than {MAX_LINE} characters"):
        _one_decision(agent)
    assert not agent.running


def test_a_program_that_leaves_its_bots_open_exits_cleanly(tmp_path):
    """The interpreter used to abort at exit (SIGABRT, status 134): a finaliser closed the bot's pipes while its
    reader threads read them. Now the bots are stopped at exit and nothing is left running."""
    pidfile = tmp_path / "bot.pid"
    bot = _script(
        tmp_path,
        "pid_bot.py",
        f"""
        import json, os, sys
        open({str(pidfile)!r}, "w").write(str(os.getpid()))
        for line in sys.stdin:
            events = json.loads(line)
            last = events[-1]
            seat = next((e["id"] for e in events if e["type"] == "start_game"), 0)
            if last["type"] == "tsumo" and last["actor"] == seat:
                print(json.dumps({{"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}}), flush=True)
            else:
                print(json.dumps({{"type": "none"}}), flush=True)
        """,
    )
    program = tmp_path / "leaves_open.py"
    program.write_text(
        textwrap.dedent(
            f"""
            import sys
            sys.path.insert(0, {str(Path(__file__).parent)!r})
            from jantaku.bots.mjai_process import MjaiProcessAgent
            from test_mjai_process_limits import _one_decision
            agents = [MjaiProcessAgent({bot!r}, seat=0, timeout=20) for _ in range(3)]
            for agent in agents:
                _one_decision(agent)
            print("played", flush=True)
            """
        ),
        encoding="utf-8",
    )
    for _ in range(3):  # the abort came at random: try a few exits
        done = subprocess.run([sys.executable, str(program)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and "played" in done.stdout, (done.returncode, done.stderr[-2000:])
        assert "Fatal Python error" not in done.stderr
        pid = int(pidfile.read_text())
        assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text().lower()


def test_closing_an_environment_stops_its_mjai_opponents():
    from jantaku.env import MahjongEnv, VectorMahjongEnv

    command = f"mjai:{PY} {shlex.quote(str(TSUMOGIRI_BOT))}"
    env = MahjongEnv("tenhou", seat=0, opponents=command, mjai_events=False, illegal_action="fallback")
    env.reset(seed=1)
    for _ in range(30):
        _, _, done, _, _ = env.step(0)
        if done:
            break
    procs = [b.__self__._proc for b in env._bots if b is not None]
    assert procs and all(p is not None and p.poll() is None for p in procs)
    env.reset(seed=2)  # a new game: the last game's bot processes end
    assert all(p.poll() is not None for p in procs)
    env.step(0)
    procs = [b.__self__._proc for b in env._bots if b is not None and b.__self__._proc is not None]
    env.close()
    assert all(p.poll() is not None for p in procs)
    vec = VectorMahjongEnv(2, "tenhou", opponents=command, illegal_action="fallback")
    vec.reset(seed=3)
    vec.step([0, 0])
    procs = [b.__self__._proc for bots in vec._bots for b in bots if b is not None and b.__self__._proc]
    assert procs
    vec.close()
    assert all(p.poll() is not None for p in procs)


START = {"type": "start_game", "id": 0, "names": ["a", "b", "c", "d"]}
KYOKU = {
    "type": "start_kyoku",
    "bakaze": "E",
    "kyoku": 1,
    "honba": 0,
    "kyotaku": 0,
    "oya": 0,
    "dora_marker": "1m",
    "scores": [25000] * 4,
    "tehais": [["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"]] + [["?"] * 13] * 3,
}


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("[" * 100_000 + "]" * 100_000, "unreadable"),  # nested past Python's depth
        ('{"type": "x", "n": ' + "9" * 5000 + "}", "unreadable"),  # an integer past Python's digit limit
        ("not json", "not JSON"),
    ],
    ids=["nested", "long-integer", "not-json"],
)
def test_jantaku_bot_ignores_a_line_it_cannot_read_and_answers_the_next(line, said):
    """Issue 35: `jantaku bot` gave a traceback for deep nesting and a 5000-digit number; it now says what it
    ignored and answers the next line."""
    import json

    feed = "\n".join([line, json.dumps([START, KYOKU, {"type": "tsumo", "actor": 0, "pai": "5p"}])]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "jantaku.cli", "bot", "random", "--rules", "tenhou"],
        input=feed,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-1500:]
    answers = [json.loads(x) for x in done.stdout.splitlines()]
    assert answers[0] == {"type": "none"} and answers[1]["type"] == "dahai"
    assert f"ignoring a line that is {said}" in done.stderr


@pytest.mark.parametrize(("key", "value"), [("oya", "x"), ("oya", None), ("scores", "abcd")])
def test_jantaku_bot_names_a_malformed_start_kyoku(key, value):
    import json

    feed = json.dumps([START, {**KYOKU, key: value}]) + "\n"
    done = subprocess.run(
        [sys.executable, "-m", "jantaku.cli", "bot", "random", "--rules", "tenhou"],
        input=feed,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "Traceback" not in done.stderr and "malformed start_kyoku event" in done.stderr, done.stderr[-1500:]
    assert done.returncode != 0
