"""mjai: per-seat views, JSON-lines records, external bot processes, and `jantaku bot` speaking mjai.

The game tests start real processes: the self-contained tsumogiri bot in tests/data/mjai_bots, small bots
written to a temporary folder, and `python -m jantaku.cli bot` (jantaku's own bots over mjai), which checks
that the legal actions `jantaku bot` computes from the events alone are ones the engine accepts.
"""

import json
import shlex
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jantaku.bots import make_bot
from jantaku.bots.mjai_process import MjaiBotError, MjaiProcessAgent
from jantaku.bots.simple import EfficiencyBot, RandomBot
from jantaku.cli import main
from jantaku.cli.bot_cmd import MjaiBotSession
from jantaku.errors import JantakuError
from jantaku.records.errors import RecordError
from jantaku.records.mjai import player_view_events, read_mjai, write_mjai
from jantaku.rules import load_rules
from jantaku.sim.runner import play_game
from jantaku.table import Game, IllegalActionError
from jantaku.table.actions import CHI, DISCARD, PASS, PON, RON, Action

ROOT = Path(__file__).parents[1]
TSUMOGIRI_BOT = ROOT / "tests" / "data" / "mjai_bots" / "tsumogiri_bot.py"
PY = shlex.quote(sys.executable)
JANTAKU_BOT = f"{PY} -m jantaku.cli bot"


def _game(rules="tenhou", seed=1, bots=("efficiency", "random", "efficiency", "random")):
    return play_game(load_rules(rules), seed, list(bots))


def _play(rules, seed, agents):
    """The simulation runner's loop, with the agents given (so that the test can close them)."""
    game = Game(load_rules(rules), seed)
    steps = 0
    while not game.over:
        seat = game.to_act()[0]
        game.apply(agents[seat].act(game.view(seat), game.legal_actions(seat)))
        steps += 1
        assert steps < 50_000
    return game


def _script(tmp_path, name, body):
    path = tmp_path / name
    path.write_text(body, encoding="utf-8")
    return f"{PY} {shlex.quote(str(path))}"


# -- views ----------------------------------------------------------------------------------------------------


def test_player_view_hides_other_hands_and_draws_and_keeps_the_rest():
    events = _game().events
    original = json.dumps(events)
    view = player_view_events(events, 2)
    assert json.dumps(events) == original  # the input is not changed
    assert len(view) == len(events)
    assert view[0]["id"] == 2 and "seed" not in view[0] and view[0]["rules"] == "tenhou"
    hidden_draws = 0
    for e, v in zip(events, view, strict=True):
        if e["type"] == "start_kyoku":
            for s in range(4):
                assert v["tehais"][s] == (e["tehais"][s] if s == 2 else ["?"] * 13)
            assert {k: x for k, x in v.items() if k != "tehais"} == {k: x for k, x in e.items() if k != "tehais"}
        elif e["type"] == "tsumo":
            assert v["pai"] == (e["pai"] if e["actor"] == 2 else "?")
            hidden_draws += e["actor"] != 2
        elif e["type"] != "start_game":
            assert v == e
    assert hidden_draws > 50
    with pytest.raises(RecordError, match="seat must be 0-3"):
        player_view_events(events, 4)


# -- records --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rules", ["tenhou", "mu"])
def test_written_game_reads_back_to_the_same_events_and_replays(tmp_path, rules):
    from jantaku.records.replay import replay_record

    game = _game(rules, seed=3)
    path = tmp_path / "game.mjson"
    assert write_mjai(game.events, path) == len(game.events)
    rec = read_mjai(path)
    assert rec.events == game.events
    assert rec.rule_name == rules and rec.red_fives == (rules == "tenhou") and rec.hanchan
    assert rec.final == game.result.final
    # every form of input gives the same events; a record writes back byte for byte
    text = path.read_text(encoding="utf-8")
    assert read_mjai(text).events == game.events
    assert read_mjai(text.splitlines()).events == game.events
    assert read_mjai(game.events).events == game.events
    with path.open(encoding="utf-8") as f:
        assert read_mjai(f).events == game.events
    write_mjai(rec, tmp_path / "again.mjson")
    assert (tmp_path / "again.mjson").read_text(encoding="utf-8") == text
    report = replay_record(rec)
    assert not report.mismatches and report.matched == report.hands == len(game.results)


def test_read_tolerates_logs_without_jantaku_extensions():
    lines = [
        '{"type":"start_game"}',
        "",
        '[{"type":"start_kyoku","bakaze":"E","kyoku":1,"honba":0,"kyotaku":0,"oya":0,"dora_marker":"5sr",'
        '"tehais":[["?"],["?"],["?"],["?"]]},{"type":"tsumo","actor":0,"pai":"?"}]',
        '{"type":"end_kyoku"}',
    ]
    rec = read_mjai(lines)
    assert [e["type"] for e in rec.events] == ["start_game", "start_kyoku", "tsumo", "end_kyoku"]
    assert rec.rule_name == "tenhou" and rec.red_fives and not rec.hanchan and rec.final is None
    assert not read_mjai(['{"type":"start_game","names":["a","b","c","d"]}']).red_fives


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        (['{"type":"start_game"}', "{oops"], "line 2 is not valid JSON"),
        (['{"actor":0}'], "line 1: an mjai event is a JSON object with a 'type'"),
        ([3], "item 1 is a int"),
    ],
)
def test_read_reports_the_bad_line(lines, message):
    with pytest.raises(RecordError, match=message):
        read_mjai(lines)


def test_read_missing_file_is_a_record_error(tmp_path):
    with pytest.raises(RecordError, match="cannot read"):
        read_mjai(tmp_path / "nope.mjson")


def test_records_load_recognises_mjai(tmp_path):
    from jantaku.records.load import read_records

    game = _game(seed=2)
    write_mjai(game.events, tmp_path / "g.mjson")
    (rec,) = read_records(tmp_path / "g.mjson")
    assert rec.events == game.events


# -- external bot processes --------------------------------------------------------------------------------


@pytest.mark.parametrize(("rules", "seat"), [("mleague", 0), ("tenhou", 2)])
def test_external_tsumogiri_bot_plays_whole_games(rules, seat):
    names = ["efficiency", "random", "efficiency", "random"]
    names[seat] = f"mjai:{PY} {shlex.quote(str(TSUMOGIRI_BOT))}"
    agents = [make_bot(name, f"5:{s}") for s, name in enumerate(names)]
    bot = agents[seat]
    assert isinstance(bot, MjaiProcessAgent) and bot.seat == seat and not bot.running
    start = time.perf_counter()
    game = _play(rules, 5, agents)
    seconds = time.perf_counter() - start
    assert game.over and game.events[-1]["type"] == "end_game" and len(game.results) >= 4
    mine = [e for e in game.events if e.get("actor") == seat]
    discards = [e for e in mine if e["type"] == "dahai"]
    assert len(discards) > 50 and all(e["tsumogiri"] for e in discards)
    assert not [e for e in mine if e["type"] in ("reach", "chi", "pon", "daiminkan", "ankan", "kakan", "hora")]
    assert bot.exchanges >= len(discards) and bot.running
    bot.close()
    assert not bot.running
    print(f"{rules}: {len(game.results)} hands, {bot.exchanges} exchanges in {seconds:.2f} s")


def test_simulate_command_seats_an_mjai_bot(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    bots = f"mjai:{PY} tests/data/mjai_bots/tsumogiri_bot.py,efficiency,random,efficiency"
    code = main(["simulate", "--rules", "tenhou", "--games", "1", "--seed", "4", "--bots", bots, "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "1 games" in out and "tsumogiri_bot.py" in out


@pytest.mark.parametrize(("rules", "seed"), [("standard", 2), ("mu", 7)])
def test_jantaku_bot_over_mjai_plays_whole_games_legally(rules, seed):
    """`jantaku bot` computes its legal actions from the events alone: the engine must accept every answer."""
    agents = [
        MjaiProcessAgent(f"{JANTAKU_BOT} efficiency", seat=0, timeout=30),
        MjaiProcessAgent(f"{JANTAKU_BOT} random --seed 1", seat=1, timeout=30),
        EfficiencyBot(seed),
        MjaiProcessAgent(f"{JANTAKU_BOT} random --seed 3", seat=3, timeout=30),
    ]
    try:
        game = _play(rules, seed, agents)
    finally:
        for a in agents:
            if isinstance(a, MjaiProcessAgent):
                a.close()
    assert game.over
    by = {s: {e["type"] for e in game.events if e.get("actor") == s} for s in range(4)}
    assert {"dahai"} <= by[0] and {"dahai"} <= by[1]
    assert any(by[s] & {"chi", "pon"} for s in (1, 3))  # random bots call


def test_illegal_answer_names_the_bot_and_the_action(tmp_path):
    command = _script(
        tmp_path,
        "bad_bot.py",
        """import json, sys
seat, hand = None, []
for line in sys.stdin:
    answer = {"type": "none"}
    for e in json.loads(line):
        if e["type"] == "start_game":
            seat = e["id"]
        if e["type"] == "start_kyoku":
            hand = e["tehais"][seat]
        if e["type"] == "tsumo" and e["actor"] == seat:
            hand = hand + [e["pai"]]
            # a tile the bot does not hold
            pai = next(t for t in ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C"]
                       if t not in hand)
            answer = {"type": "dahai", "actor": seat, "pai": pai, "tsumogiri": False}
    print(json.dumps(answer), flush=True)
""",
    )
    agent = MjaiProcessAgent(command, seat=0)
    with agent, pytest.raises(IllegalActionError) as info:
        _play("tenhou", 1, [agent, RandomBot(1), RandomBot(2), RandomBot(3)])
    msg = str(info.value)
    assert "bad_bot.py" in msg and "(seat 0)" in msg and '"type": "dahai"' in msg
    assert "cannot discard" in msg and "legal:" in msg
    assert isinstance(info.value, JantakuError) and not agent.running


def test_a_bot_that_stops_answering_times_out(tmp_path):
    command = _script(
        tmp_path,
        "slow_bot.py",
        """import json, sys, time
seat, answered = None, 0
for line in sys.stdin:
    events = json.loads(line)
    seat = next((e["id"] for e in events if e["type"] == "start_game"), seat)
    if answered == 2:
        time.sleep(60)
    last = events[-1]
    answered += 1
    answer = {"type": "none"}
    if last["type"] == "tsumo" and last["actor"] == seat:
        answer = {"type": "dahai", "actor": seat, "pai": last["pai"], "tsumogiri": True}
    print(json.dumps(answer), flush=True)
""",
    )
    agent = MjaiProcessAgent(command, seat=0, timeout=1.0)
    start = time.perf_counter()
    with pytest.raises(MjaiBotError, match=r"slow_bot\.py.*did not answer within 1 s"):
        _play("tenhou", 1, [agent, RandomBot(1), RandomBot(2), RandomBot(3)])
    assert time.perf_counter() - start < 6
    assert agent.exchanges == 2 and not agent.running
    with pytest.raises(MjaiBotError, match="has failed before"):
        _play("tenhou", 1, [agent, RandomBot(1), RandomBot(2), RandomBot(3)])


def test_start_up_time_has_its_own_limit(tmp_path):
    command = _script(tmp_path, "sleepy.py", "import time\ntime.sleep(60)\n")
    agent = MjaiProcessAgent(command, seat=0, timeout=30, startup_timeout=0.5)
    start = time.perf_counter()
    with pytest.raises(MjaiBotError, match=r"within 0\.5 s \(its first answer, start-up included\)"):
        _play("tenhou", 1, [agent, RandomBot(1), RandomBot(2), RandomBot(3)])
    assert time.perf_counter() - start < 5


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("import sys\nsys.stdin.readline()\nprint('hello', flush=True)\n", r"wrote 'hello', which is not JSON"),
        ("import sys\nprint('boom', file=sys.stderr)\nsys.exit(3)\n", r"exit.*status 3.*stderr ends with: boom"),
        ("import sys\nsys.stdin.readline()\nprint('[1]', flush=True)\n", "a JSON object with a 'type'"),
    ],
)
def test_broken_bots_raise_mjai_bot_error(tmp_path, body, message):
    agent = MjaiProcessAgent(_script(tmp_path, "broken.py", body), seat=0)
    with pytest.raises(MjaiBotError, match=message):
        _play("tenhou", 1, [agent, RandomBot(1), RandomBot(2), RandomBot(3)])
    assert not agent.running


def test_agent_construction_checks_the_command_and_starts_nothing():
    with pytest.raises(MjaiBotError, match="not found"):
        MjaiProcessAgent("no-such-program-jantaku --x", seat=0)
    with pytest.raises(MjaiBotError, match="empty"):
        make_bot("mjai:  ", "1:0")
    with pytest.raises(MjaiBotError, match="seat must be 0-3"):
        MjaiProcessAgent(f"{PY} -c pass", seat=5)
    agent = make_bot(f"mjai:{PY} -c pass", "12:3")
    assert isinstance(agent, MjaiProcessAgent) and agent.seat == 3 and not agent.running
    assert make_bot(f"mjai:{PY} -c pass").seat is None  # learnt from the first view
    agent.close()
    with pytest.raises(JantakuError, match="mjai:COMMAND"):
        make_bot("nobody")


# -- `jantaku bot`: jantaku's bots speaking mjai -----------------------------------------------------------

_HAND = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "N"]


def _start(tehai, seat=0, oya=0, **extra):
    tehais = [["?"] * 13 for _ in range(4)]
    tehais[seat] = list(tehai)
    e = {"type": "start_kyoku", "bakaze": "E", "kyoku": oya + 1, "honba": 0, "kyotaku": 0, "oya": oya}
    e.update({"dora_marker": "1s", "scores": [25000] * 4, "tehais": tehais}, **extra)
    return e


def test_jantaku_bot_process_answers_a_scripted_conversation():
    proc = subprocess.Popen(
        [sys.executable, "-m", "jantaku.cli", "bot", "efficiency", "--rules", "tenhou"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    lines = [
        [{"type": "start_game", "id": 1, "names": ["a", "b", "c", "d"]}],
        [
            _start(["1m", "1m", "2m", "9m", "4p", "5p", "8p", "3s", "3s", "7s", "E", "P", "C"], seat=1),
            {"type": "tsumo", "actor": 0, "pai": "?"},
            {"type": "dahai", "actor": 0, "pai": "S", "tsumogiri": True},
            {"type": "tsumo", "actor": 1, "pai": "6s"},
        ],
        {"type": "dahai", "actor": 1, "pai": "E", "tsumogiri": False},  # a single event object is fine too
    ]
    try:
        out, err = proc.communicate("".join(json.dumps(x) + "\n" for x in lines), timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    answers = [json.loads(x) for x in out.splitlines()]
    assert len(answers) == 3
    assert answers[0] == {"type": "none"} and answers[2] == {"type": "none"}
    d = answers[1]
    assert d["type"] == "dahai" and d["actor"] == 1 and d["tsumogiri"] == (d["pai"] == "6s")
    assert d["pai"] in {"9m", "E", "P", "C", "8p", "7s", "6s"}  # an isolated tile


def test_jantaku_bot_declares_riichi_in_two_answers_then_wins_on_a_discard():
    s = MjaiBotSession(EfficiencyBot(0), rules="standard")
    assert s.handle([{"type": "start_game", "id": 0}]) == {"type": "none"}
    assert s.handle([_start(_HAND), {"type": "tsumo", "actor": 0, "pai": "C"}]) == {"type": "reach", "actor": 0}
    assert s.handle([{"type": "reach", "actor": 0}]) == {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": False}
    events = [
        {"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": False},
        {"type": "reach_accepted", "actor": 0, "deltas": [-1000, 0, 0, 0], "scores": [24000, 25000, 25000, 25000]},
        {"type": "tsumo", "actor": 1, "pai": "?"},
        {"type": "dahai", "actor": 1, "pai": "C", "tsumogiri": True},
    ]
    assert s.handle(events) == {"type": "hora", "actor": 0, "target": 1, "pai": "C"}
    assert s.view.scores[0] == 24000 and s.view.riichi(0)


def test_jantaku_bot_knows_furiten_and_tsumo():
    s = MjaiBotSession(EfficiencyBot(0), rules="standard")
    s.handle([{"type": "start_game", "id": 0}, _start(_HAND), {"type": "tsumo", "actor": 0, "pai": "C"}])
    v = s.view
    s.handle([{"type": "dahai", "actor": 0, "pai": "N", "tsumogiri": False}])  # no riichi this time
    assert v.waits == [27, 33] and not v.furiten  # E (double wind) or C: a value pung either way
    s.handle([{"type": "tsumo", "actor": 1, "pai": "?"}])
    v.apply({"type": "dahai", "actor": 1, "pai": "E", "tsumogiri": True})
    assert [a.kind for a in v.legal_actions()] == [RON, PON, PASS]
    v.answered(Action(PASS, 0))
    s.handle([{"type": "tsumo", "actor": 2, "pai": "?"}])  # ... and it was passed: furiten until own discard
    assert v.furiten
    v.apply({"type": "dahai", "actor": 2, "pai": "C", "tsumogiri": True})
    assert [a.kind for a in v.legal_actions()] == [PON, PASS]
    assert s.handle([]) == {"type": "none"}  # the efficiency bot passes: tenpai already, a pon brings it no nearer
    s.handle([{"type": "tsumo", "actor": 3, "pai": "?"}, {"type": "dahai", "actor": 3, "pai": "9p"}])
    assert s.handle([{"type": "tsumo", "actor": 0, "pai": "C"}]) == {
        "type": "hora",
        "actor": 0,
        "target": 0,
        "pai": "C",
    }


def test_jantaku_bot_calls_only_where_the_rules_allow():
    s = MjaiBotSession(EfficiencyBot(0), rules="mleague", seat=2)
    s.handle([_start(["2m", "3m", "4m", "6m", "P", "P", "1p", "1p", "9s", "9s", "W", "7p", "8p"], seat=2)])
    v = s.view
    v.extend([{"type": "tsumo", "actor": 1, "pai": "?"}, {"type": "dahai", "actor": 1, "pai": "5m", "tsumogiri": True}])
    kinds = [(a.kind, tuple(t.mjai for t in a.consumed)) for a in v.legal_actions()]  # from the left: chi
    assert kinds == [(CHI, ("3m", "4m")), (CHI, ("4m", "6m")), (PASS, ())]
    v.apply({"type": "chi", "actor": 2, "target": 1, "pai": "5m", "consumed": ["3m", "4m"]})
    after = {a.tile.mjai for a in v.legal_actions()}
    assert all(a.kind == DISCARD and not a.tsumogiri for a in v.legal_actions())
    assert "6m" in after and "2m" not in after  # kuikae: not the called tile's other end (mleague)
    v.extend(
        [{"type": "dahai", "actor": 2, "pai": "6m", "tsumogiri": False}, {"type": "tsumo", "actor": 3, "pai": "?"}]
    )
    v.apply({"type": "dahai", "actor": 3, "pai": "P", "tsumogiri": True})  # from the right: pon, no chi
    assert {a.kind for a in v.legal_actions()} == {PON, PASS}
    v.answered(Action(PASS, 2))
    v.extend([{"type": "tsumo", "actor": 0, "pai": "?"}, {"type": "dahai", "actor": 0, "pai": "2m", "tsumogiri": True}])
    assert v.legal_actions() == []  # not from the left, no pair: nothing to decide
    assert [len(m) for m in (v.melds(2), v.hand)] == [1, 10]
    assert v.visible_counts()[4] == 1 and v.visible_counts()[1] == 1  # 5m in the chi; 2m in a river


def test_jantaku_bot_strong_plays_whole_mjai_games_beside_other_seats():
    """``jantaku bot strong``: the strong bot as an external mjai process, seated twice in simulated games;
    an illegal answer would stop the game with an error, so the games ending is the check."""
    from jantaku.sim import simulate

    bots = ["mjai:jantaku bot strong", "efficiency", "mjai:jantaku bot strong", "random"]
    summary = simulate("tenhou", 2, seed=5, bots=bots)
    assert summary.games == 2 and summary.hands >= 8
    assert summary.win_rate[0] + summary.win_rate[2] > 0  # the strong seats win hands


def _strong_session_at(bakaze, kyoku, honba=0, kyotaku=0):
    from jantaku.bots.strong import StrongBot

    session = MjaiBotSession(StrongBot(0), rules="tenhou")
    session.handle([{"type": "start_game", "id": 0}])
    tehais = [["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "E", "E", "C", "N"]] + [["?"] * 13] * 3
    start = {
        "type": "start_kyoku",
        "bakaze": bakaze,
        "kyoku": kyoku,
        "honba": honba,
        "kyotaku": kyotaku,
        "oya": (kyoku - 1) % 4,
        "dora_marker": "1s",
        "scores": [24000, 31000, 20000, 25000],
        "tehais": tehais,
    }
    return session, start


@pytest.mark.parametrize(("bakaze", "kyoku"), [("W", 1), ("S", 4), ("E", 2)])
def test_the_strong_bot_over_mjai_answers_in_the_west_round_and_at_all_last(bakaze, kyoku):
    # the strong bot weighs placement when the game may end with the hand (all-last, the west round), which reads
    # the hand's number: over mjai the seat's view lacked it, and the bot process died in the west round
    session, start = _strong_session_at(bakaze, kyoku)
    answer = session.handle([start, {"type": "tsumo", "actor": 0, "pai": "P"}])
    assert answer["type"] in ("dahai", "reach") and answer["actor"] == 0
    assert session.view.hand_number == kyoku


def test_the_mjai_view_tells_the_bots_the_hands_number_honba_sticks_and_events():
    session, start = _strong_session_at("S", 4, honba=3, kyotaku=2)
    session.handle(
        [
            start,
            {"type": "tsumo", "actor": 1, "pai": "?"},
            {"type": "dahai", "actor": 1, "pai": "9m", "tsumogiri": True},
        ]
    )
    view = session.view
    assert (view.hand_number, view.honba, view.deposits) == (4, 3, 2)
    session.handle([{"type": "reach", "actor": 1}, {"type": "dahai", "actor": 1, "pai": "1p", "tsumogiri": False}])
    session.handle([{"type": "reach_accepted", "actor": 1}])
    assert view.deposits == 3  # the accepted riichi's stick is on the table
    events = view.events
    kinds = [e["type"] for e in events]
    assert kinds[:2] == ["start_kyoku", "tsumo"] and kinds[-1] == "reach_accepted"
    assert events[1]["pai"] == "?"  # another seat's draw
    _, start2 = _strong_session_at("S", 4, honba=4)
    session.handle([{"type": "ryukyoku", "deltas": [0, 0, 0, 0]}, start2])
    assert view.events is not events and view.honba == 4  # a new hand: a new event list


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ({"type": "start_kyoku", "bakaze": "X"}, "bakaze 'X' is not a round wind"),
        ({"type": "dahai", "pai": "1m"}, r"malformed dahai event \(no 'actor'\)"),
        ({"type": "reach_accepted", "actor": "a"}, "malformed reach_accepted event"),
        ({"type": "tsumo", "actor": 0, "pai": "1x"}, "'1x' is not an mjai tile"),
    ],
)
def test_a_malformed_event_is_named_not_a_traceback(event, message):
    # `jantaku bot` prints a JantakuError as one line and exits 2; anything else would be a traceback
    session, start = _strong_session_at("E", 1)
    session.handle([start])
    with pytest.raises(JantakuError, match=message):
        session.handle([event])


def test_a_game_with_changed_rules_tells_its_bots_the_changes(capsys):
    # an East-only table of a hanchan preset (the web table's "East only"): a bot told only "mleague" would
    # weigh East 4 as a hand with a South round to come
    rules = load_rules("mleague").replace(rounds=1)
    start = Game(rules, "changed").events[0]
    assert start["rules"] == "mleague" and start["rule_changes"] == {"rounds": 1}
    assert "rule_changes" not in Game(load_rules("mleague"), "plain").events[0]
    # the log read back knows the game was East only
    assert read_mjai(json.dumps(start) + "\n").hanchan is False
    session = MjaiBotSession(EfficiencyBot(0))
    session.handle([player_view_events([start], 0)[0]])
    assert session.view.rules == rules
    # changes that are no rule parameters: said on stderr, and the bot plays by standard
    session.handle([{"type": "start_game", "id": 0, "rules": "mleague", "rule_changes": {"rounds": "many"}}])
    assert session.view.rules == load_rules("standard")
    assert "rounds must be an integer" in capsys.readouterr().err
