"""Bad input to the command line and the record readers: every case is refused with a named error saying what and
where, never a traceback; `score --jsonl` answers every line and goes on after a bad one (issue 11, "Bad input").
"""

from __future__ import annotations

import gzip
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from jantaku.cli import main
from jantaku.errors import JantakuError
from jantaku.jielu.wincheck import COMPILE_NOTICE
from jantaku.records.errors import RecordError, gunzip
from jantaku.records.load import read_records
from jantaku.records.mjai import write_mjai
from jantaku.records.mjlog import read_mjlog
from jantaku.records.tenhou6 import read_tenhou6
from jantaku.rules import RulesError, load_rules

ROOT = Path(__file__).parents[1]
RECORDS = ROOT / "tests" / "data" / "records"
MJLOG_GZIP = min(
    (p for p in (RECORDS / "tenhou-mjlog").rglob("*.mjlog") if p.read_bytes()[:2] == b"\x1f\x8b"),
    key=lambda p: p.stat().st_size,
)
TENHOU6 = RECORDS / "tenhou6" / "mjai_reviewer_double_kakan_then_chankan.json"
MJX = RECORDS / "mjx-walls" / "encdec-tenhou.json"
GOOD = {"hand": "234m567p456s78999s", "win": "9s", "tsumo": True, "riichi": True, "dora": ["3m"], "rules": "mleague"}


def cli(*argv: str, stdin: bytes = b"", env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    full_env = {**os.environ, **(env or {})}
    return subprocess.run(
        [sys.executable, "-m", "jantaku.cli", *argv], input=stdin, capture_output=True, env=full_env, timeout=300
    )


def no_traceback(proc: subprocess.CompletedProcess[bytes]) -> str:
    err = proc.stderr.decode("utf-8", errors="replace")
    assert "Traceback" not in err, err[-3000:]
    assert proc.returncode in (0, 1, 2), (proc.returncode, err[-2000:])
    # the one notice a command may print besides its errors: the 洁律 check compiling on its first use
    return "".join(line for line in err.splitlines(keepends=True) if line.rstrip("\n") != COMPILE_NOTICE)


# ---------------------------------------------------------------------------------------------------------
# score --jsonl

BAD_LINES: list[tuple[bytes, str]] = [
    (b"[" * 2000 + b"]" * 2000, "nested deeper than 100 levels"),
    (b'{"hand": "234m567p456s78999s", "win": "9s", "honba": ' + b"9" * 5000 + b"}", "integer of 5000 digits"),
    (json.dumps({**GOOD, "round_wind": 1}).encode(), "round_wind must be E, S, W or N, got 1"),
    (json.dumps({**GOOD, "dora": "11111m"}).encode(), "five copies of 1m"),
    (json.dumps({**GOOD, "honba": []}).encode(), "honba must be a whole number 0-99, got []"),
    (json.dumps({**GOOD, "honba": {}}).encode(), "honba must be a whole number 0-99, got {}"),
    (json.dumps({**GOOD, "honba": ""}).encode(), "honba must be a whole number 0-99, got ''"),
    (json.dumps({**GOOD, "honba": 10**21}).encode(), "honba must be a whole number 0-99"),
    (json.dumps({**GOOD, "honba": -1}).encode(), "honba must be a whole number 0-99, got -1"),
    (json.dumps({**GOOD, "deposits": 1.5}).encode(), "deposits must be a whole number 0-99"),
    (json.dumps({**GOOD, "winner": "1"}).encode(), "winner must be a whole number 0-3"),
    (json.dumps({**GOOD, "tsumo": False, "discarder": 7}).encode(), "discarder must be a whole number 0-3"),
    (json.dumps({**GOOD, "dora": 3}).encode(), "dora must be a list of tiles or an mpsz string"),
    (json.dumps({**GOOD, "dora": "1m2m3m4m5m6m"}).encode(), "at most 5"),
    (json.dumps({**GOOD, "rules": 5}).encode(), "rules must be a preset name"),
    (json.dumps({**GOOD, "rules": "/nowhere/at/all.toml"}).encode(), "rule file not found: '/nowhere/at/all.toml'"),
    (json.dumps({**GOOD, "red_fives": [2, 0, 0]}).encode(), "red_fives must be"),
    (json.dumps({**GOOD, "melds": "777z+ 777z+ 777z+ 777z+ 777z+"}).encode(), "at most four"),
    (b'{"hand": "\xff\xfe", "win": "9s"}', "not UTF-8 text (byte 0xff"),
    (b'{"hand": "1m", "win": NaN}', "NaN is not JSON"),
    (b"[1, 2]", "a request is a JSON object, got list"),
    (b"{oops", "not JSON: Expecting property name"),
    (json.dumps({"hand": "123m456p789s11z344z", "win": "4z", "rules": "jielu", "honba": 10**21}).encode(), "honba"),
    (json.dumps({"hand": "123m456p789s1134z", "extra_wildcards": 5, "rules": "jielu"}).encode(), "0-1"),
]


@pytest.mark.parametrize("env", [{}, {"LC_ALL": "C", "LANG": "C"}, {"PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0"}])
def test_score_jsonl_answers_every_line_and_goes_on(tmp_path, env):
    bad_rules = tmp_path / "latin1.toml"
    bad_rules.write_bytes(b'base = "mleague"\ntitle = "caf\xe9"\n')
    lines = [line for line, _ in BAD_LINES]
    lines.append(json.dumps({**GOOD, "rules": str(bad_rules)}).encode())
    lines.append(
        json.dumps({"hand": "123m456p789s11z344z", "win": "4z", "rules": "jielu"}, ensure_ascii=False).encode()
    )
    lines.append(json.dumps(GOOD).encode())
    proc = cli("score", "--jsonl", stdin=b"\n".join(lines) + b"\n", env=env)
    assert proc.returncode == 0 and no_traceback(proc) == ""
    answers = [
        json.loads(x) for x in proc.stdout.decode("ascii" if env.get("PYTHONIOENCODING") else "utf-8").splitlines()
    ]
    assert len(answers) == len(lines)
    for n, ((_, expected), answer) in enumerate(zip(BAD_LINES, answers, strict=False), 1):
        assert answer["error"].startswith(f"line {n}: ") and expected in answer["error"], answer
        assert len(answer["error"]) < 300
    assert (
        "is not UTF-8 text" in answers[len(BAD_LINES)]["error"] and str(bad_rules) in answers[len(BAD_LINES)]["error"]
    )
    assert answers[-2]["score"] == 5 and answers[-2]["fans"][0][0] == "三步顺"
    assert answers[-1]["han"] == 4 and answers[-1]["points"] > 0


def test_score_jsonl_error_quotes_only_an_excerpt():
    huge = json.dumps({"hand": "1m" * 100_000, "win": "1m"}).encode()
    bad_tile = json.dumps({"hand": "1m" * 50_000 + "x", "win": "1m"}).encode()
    proc = cli("score", "--jsonl", stdin=huge + b"\n" + bad_tile + b"\n")
    no_traceback(proc)
    answers = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert [a["error"][:8] for a in answers] == ["line 1: ", "line 2: "]
    assert all(len(a["error"]) < 300 for a in answers)
    assert "100000 characters" in answers[1]["error"] or "characters" in answers[1]["error"]


def test_score_jsonl_in_process_reads_text_streams(monkeypatch, capsys):
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO('{"hand": 1}\n' + json.dumps(GOOD) + "\n"))
    assert main(["score", "--jsonl"]) == 0
    out = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert out[0] == {"error": "line 1: the field 'hand' (mpsz text of the closed tiles) is required"}
    assert out[1]["han"] == 4


# ---------------------------------------------------------------------------------------------------------
# score: one hand


def test_jielu_hand_that_cannot_win_exits_2_like_a_riichi_one():
    riichi = cli("score", "19m19p19s1234567z", "--win", "1z", "--tsumo")
    jielu = cli("score", "19m19p19s11234567z", "--rules", "jielu")
    for proc in (riichi, jielu):
        err = no_traceback(proc)
        assert proc.returncode == 2 and proc.stdout == b""
        assert err.startswith("jantaku score: error: ") and err.count("\n") == 1
    assert "cannot win" in jielu.stderr.decode()
    assert cli("score", "19m19p19s11234567z", "--rules", "jielu", "--json").returncode == 2


def test_score_flags_out_of_range_are_named():
    proc = cli("score", "234m567p456s78999s", "--win", "9s", "--honba", str(10**21))
    assert proc.returncode == 2 and "honba must be a whole number 0-99" in no_traceback(proc)
    proc = cli("score", "234m567p456s78999s", "--win", "9s", "--dora", "11111m")
    assert proc.returncode == 2 and "five copies of 1m" in no_traceback(proc)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b'base = "mleague"\nname = "caf\xe9"\n', "is not UTF-8 text (byte 0xe9"),
        (b"a = " + b"[" * 3000 + b"]" * 3000 + b"\n", "nests arrays or tables deeper than 20 levels"),
        (b"starting_points = " + b"9" * 5000 + b"\n", "an integer has too many digits"),
        (b"starting_points = 99999999999999\n", "starting_points must lie within"),
        (b'starting_points = "25000"\n', "starting_points must be an integer, got '25000'"),
        (b"payment_rounding = 0\n", "payment_rounding must be at least 1"),
        (b"rounds = 5\n", "rounds must lie within 1..4, got 5"),  # no fifth wind (issue 32: games crashed)
        (b"rounds = 1000000000\n", "rounds must lie within 1..4"),
        (b"time_limit_minutes = nan\n", "time_limit_minutes must lie within"),
        (b"red_fives = [1, 1]\n", "red_fives must be a list of 3 integers"),
        (b"base = 3\n", "base must be a preset name"),
        (b"[table]\nx = 1\n", "tables are not used"),
        (b"x = = 1\n", "is not valid TOML"),
    ],
)
def test_score_rules_file_malformed_names_the_file(tmp_path, capsys, content, expected):
    path = tmp_path / "league.toml"
    path.write_bytes(content)
    assert main(["score", "234m567p456s78999s", "--win", "9s", "--rules", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("jantaku score: error: ") and err.count("\n") == 1
    assert expected in err and str(path) in err
    with pytest.raises(RulesError, match=r"league\.toml"):
        load_rules(str(path))


def test_score_rules_file_malformed_in_a_subprocess(tmp_path):
    path = tmp_path / "deep.toml"
    path.write_bytes(b"a = " + b"[" * 3000 + b"]" * 3000 + b"\n")
    proc = cli("score", "234m567p456s78999s", "--win", "9s", "--rules", str(path))
    assert proc.returncode == 2 and str(path) in no_traceback(proc)


def test_rules_file_missing_too_long_or_a_folder(tmp_path):
    for spec in (str(tmp_path / "nope.toml"), str(tmp_path), "/x/" + "y" * 5000 + ".toml", "a\0b.toml"):
        with pytest.raises(RulesError) as info:
            load_rules(spec)
        assert len(str(info.value)) < 400
    proc = cli("rules", "/x/" + "y" * 5000 + ".toml")
    assert proc.returncode == 2 and len(no_traceback(proc)) < 400


# ---------------------------------------------------------------------------------------------------------
# shanten and tile input


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["123m456p789s1122z", "--visible", "11111m"], "five copies of 1m in --visible"),
        (["123m456p789s1122z", "--visible", "0m0m"], "two red 5m in --visible"),
        (["123m456p789s1122z", "--visible", "1z1z1z"], "five copies of 1z in the hand and --visible together"),
        (["123m406p789s1122z", "--visible", "0p"], "two red 5p in the hand and --visible together"),
        (["11111m"], "five copies of 1m"),
        (["0m0m123p"], "two red 5m"),
        (["123m456p789s1122z", "--visible", "8z"], "'8z' is not a tile"),
    ],
)
def test_shanten_refuses_impossible_tiles(capsys, argv, expected):
    assert main(["shanten", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and expected in err and err.count("\n") == 1


def test_shanten_visible_within_the_supply_still_works(capsys):
    assert main(["shanten", "123m456p789s1122z", "--visible", "1z1z"]) == 0
    assert "1z(0) 2z(2)" in capsys.readouterr().out


# ---------------------------------------------------------------------------------------------------------
# readers


def _error(path: Path) -> str:
    with pytest.raises(RecordError) as info:
        read_records(path)
    return str(info.value)


def test_gzip_with_a_flipped_byte_or_cut_short_names_the_file(tmp_path):
    data = MJLOG_GZIP.read_bytes()
    flipped = bytearray(data)
    flipped[len(data) // 2] ^= 0xFF
    f = tmp_path / "flipped.mjlog"
    f.write_bytes(bytes(flipped))
    msg = _error(f)
    assert str(f) in msg and ("broken gzip data" in msg or "hand" in msg)
    cut = tmp_path / "cut.mjlog"
    cut.write_bytes(data[: len(data) // 2])
    assert _error(cut) == f"{cut}: broken gzip data (the file is cut short)"
    header_only = tmp_path / "header.mjlog"
    header_only.write_bytes(data[:100])
    assert "broken gzip data" in _error(header_only)


def test_gzip_bomb_is_refused():
    bomb = gzip.compress(b"<" + b" " * (5 << 20))
    with pytest.raises(RecordError, match="inflating to more than 1048576 bytes"):
        gunzip(bomb, "bomb.mjlog", limit=1 << 20)


def test_unreadable_record_paths(tmp_path):
    assert "cannot read" in _error(tmp_path)  # a folder given as a file
    empty = tmp_path / "empty.json"
    empty.write_bytes(b"")
    assert str(empty) in _error(empty)


def _mjai_file(tmp_path: Path, change) -> Path:
    events = read_tenhou6(TENHOU6)[0].events
    events = [dict(e) for e in events]
    change(events)
    path = tmp_path / "game.mjson"
    write_mjai(events, path)
    return path


def _first(events, kind):
    return next(e for e in events if e["type"] == kind)


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (lambda ev: _first(ev, "start_kyoku").pop("dora_marker"), "line 2: start_kyoku: 'dora_marker' is missing"),
        (lambda ev: _first(ev, "dahai").pop("actor"), "dahai: 'actor' is missing"),
        (lambda ev: _first(ev, "dahai").update(actor="0"), "dahai: actor must be a whole number 0-3, got '0'"),
        (lambda ev: _first(ev, "tsumo").update(pai="?"), "tsumo: pai must be an mjai tile"),
        (
            lambda ev: _first(ev, "start_kyoku").update(scores=[25000] * 3),
            "start_kyoku: scores must be 4 whole numbers",
        ),
        (lambda ev: _first(ev, "start_kyoku")["tehais"][0].pop(), "tehais[0] must be a list of 13 tiles"),
        (lambda ev: _first(ev, "hora").pop("deltas"), "hora: 'deltas' is missing"),
        (lambda ev: _first(ev, "start_kyoku").update(bakaze=1), "start_kyoku: bakaze must be E, S, W or N, got 1"),
        (lambda ev: _first(ev, "start_game").update(rules="/etc/passwd"), "line 1: start_game: rules must name"),
    ],
)
def test_mjai_events_missing_or_mistyped_are_named_with_their_line(tmp_path, change, expected):
    path = _mjai_file(tmp_path, change)
    msg = _error(path)
    assert msg.startswith(str(path)) and expected in msg and "line " in msg


def test_tenhou6_score_list_too_short_names_the_hand(tmp_path):
    game = json.loads(TENHOU6.read_text(encoding="utf-8"))
    game["log"][0][1] = game["log"][0][1][:3]
    f = tmp_path / "short.json"
    f.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    msg = _error(f)
    assert msg.startswith(f"{f}#0 log[0] (") and "the scores must be 4 integers" in msg
    game["log"][0][1] = ["25000", 25000, 25000, 25000]
    f.write_text(json.dumps(game, ensure_ascii=False), encoding="utf-8")
    assert "the scores must be 4 integers" in _error(f)


def test_mjlog_hand_with_three_scores_is_skipped_and_named():
    xml = gzip.decompress(MJLOG_GZIP.read_bytes()).decode()
    start = xml.index('ten="') + len('ten="')
    end = xml.index('"', start)
    cut = xml[:start] + ",".join(xml[start:end].split(",")[:3]) + xml[end:]
    rec = read_mjlog(cut)[0]
    assert any("hand 1" in p and "scores must be 4 whole numbers" in p for p in rec.problems)
    rec.check()


def test_mjx_bad_fields_name_the_line(tmp_path):
    line = json.loads(MJX.read_text(encoding="utf-8").splitlines()[0])
    line["publicObservation"]["events"][0]["who"] = "1"
    f = tmp_path / "bad.json"
    f.write_text(json.dumps(line), encoding="utf-8")
    assert _error(f) == f"{f}#1: malformed mjx record (who: expected a whole number, got '1')"
    line = json.loads(MJX.read_text(encoding="utf-8").splitlines()[0])
    line["hiddenState"]["wall"][5] = line["hiddenState"]["wall"][6]
    f.write_text(json.dumps(line), encoding="utf-8")
    assert "each tile id 0-135 once" in _error(f)


# ---------------------------------------------------------------------------------------------------------
# a batch of mutated inputs through the real command


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    b = bytearray(data)
    for _ in range(rnd.randint(1, 3)):
        if not b:
            break
        i = rnd.randrange(len(b))
        op = rnd.choice(["flip", "delete", "insert", "cut"])
        if op == "flip":
            b[i] ^= 1 << rnd.randrange(8)
        elif op == "delete":
            del b[i : i + rnd.randint(1, 20)]
        elif op == "insert":
            b[i:i] = bytes([rnd.randrange(256)]) * rnd.randint(1, 3)
        else:
            del b[i:]
    return bytes(b)


def test_cli_batch_of_mutated_inputs_never_tracebacks(tmp_path):
    rnd = random.Random(11)
    # 1. 200 mutated scoring requests, some naming mutated rule files, in one --jsonl stream
    presets = sorted((ROOT / "src" / "jantaku" / "rules" / "presets").glob("*.toml"))
    rule_files = []
    for i in range(20):
        f = tmp_path / f"rules{i}.toml"
        f.write_bytes(_mutate(rnd.choice(presets).read_bytes(), rnd))
        rule_files.append(str(f))
    requests = [
        GOOD,
        {"hand": "123m456p11z", "melds": ["777z+", "1111s*"], "win": "1z", "seat_wind": "S", "honba": 2},
        {"hand": "123m456p789s11z344z", "win": "4z", "rules": "jielu"},
    ]
    lines = []
    for i in range(200):
        req = dict(rnd.choice(requests))
        if i % 10 == 0:
            req["rules"] = rnd.choice(rule_files)
        lines.append(_mutate(json.dumps(req, ensure_ascii=False).encode(), rnd).replace(b"\n", b" "))
    proc = cli("score", "--jsonl", stdin=b"\n".join(lines) + b"\n")
    no_traceback(proc)
    answers = proc.stdout.decode().splitlines()
    assert proc.returncode == 0 and len(answers) == sum(1 for x in lines if x.strip())
    assert all(isinstance(json.loads(a), dict) for a in answers)
    # 2. 45 mutated record files of every format, replayed in one run
    folder = tmp_path / "records"
    folder.mkdir()
    sources = [MJLOG_GZIP, TENHOU6, MJX, RECORDS / "tenhou6" / "jansou_kyoku_00_four_kans.json"]
    mjai = tmp_path / "game.mjson"
    write_mjai(read_tenhou6(TENHOU6)[0].events, mjai)
    sources.append(mjai)
    for i in range(45):
        src = sources[i % len(sources)]
        (folder / f"m{i}{src.suffix}").write_bytes(_mutate(src.read_bytes(), rnd))
    proc = cli("replay", str(folder), "--check")
    no_traceback(proc)
    assert b"45 files" in proc.stdout
    # 3. mutated hands and visible tiles
    for i in range(3):
        hand = _mutate(b"123m456p789s1122z", rnd).decode("latin-1")
        proc = cli("shanten", hand or "1m", "--visible", _mutate(b"1z2z0m", rnd).decode("latin-1") or "1m")
        no_traceback(proc)
        proc = cli("score", hand or "1m", "--rules", rule_files[i])
        no_traceback(proc)


def test_named_errors_are_jantaku_errors():
    assert issubclass(RecordError, JantakuError) and issubclass(RulesError, JantakuError)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--games", "0"], "--games must be 1-10000000, got 0"),
        (["--games", "1", "--workers", "0"], "--workers must be 1-256, got 0"),
        (["--games", "1", "--workers", "-3"], "--workers must be 1-256, got -3"),
        (["--games", "1", "--out", "/proc/no/such/folder"], "cannot make the folder"),
        (["--games", "1", "--bots", ","], "give one bot for every seat or one for all, got 0"),
    ],
)
def test_simulate_refuses_bad_numbers_and_folders_before_playing(capsys, argv, expected):
    assert main(["simulate", "--quiet", *argv]) == 2
    out, err = capsys.readouterr()
    assert out == "" and expected in err and err.count("\n") == 1


def test_mjlog_cut_anywhere_says_it_is_truncated():
    xml = gzip.decompress(MJLOG_GZIP.read_bytes()).decode()
    for cut in (100, len(xml) // 2, xml.rindex("<AGARI") if "<AGARI" in xml else len(xml) - 20):
        rec = read_mjlog(xml[:cut])[0] if xml[:cut].count("<mjloggm") else None
        assert rec is not None and any("truncated" in p for p in rec.problems), cut
    assert not read_mjlog(xml)[0].problems


def test_cjk_output_under_an_ascii_locale_is_escaped_not_a_traceback():
    proc = cli("score", "123m456p789s11z344z", "--rules", "jielu", env={"PYTHONIOENCODING": "ascii", "PYTHONUTF8": "0"})
    assert proc.returncode == 0 and no_traceback(proc) == ""
    assert "\\u4e09\\u6b65\\u987a" in proc.stdout.decode("ascii")  # 三步顺, escaped
