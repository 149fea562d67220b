"""The committed copy of the real Tenhou corpus replays point for point through the engine.

tests/data/records holds the mjlog games (130), the mjx hands with their full walls (416 hands) and the
tenhou.net/6 files. Every hand must match: the engine's own draws, calls, kan dora, riichi sticks, the end of
the hand, han/fu/points, every seat's deltas, the next hand's round/dealer/honba/deposits and the final scores.
"""

import gzip
from pathlib import Path

import pytest

from jantaku.cli import main
from jantaku.records.errors import RecordError
from jantaku.records.load import iter_record_files, read_records
from jantaku.records.mjlog import read_mjlog
from jantaku.records.mjx import read_mjx
from jantaku.records.replay import replay_record, wall_from_hand

DATA = Path(__file__).parent / "data" / "records"
MJLOG = sorted((DATA / "tenhou-mjlog").rglob("*.mjlog"))
MJX = sorted((DATA / "mjx-walls").glob("*.json"))


def test_corpus_is_there():
    assert len(MJLOG) == 130  # mjx-houou 35, fastmaj 77, tenhou-python-bot 18
    assert len(MJX) >= 80


@pytest.mark.parametrize("chunk", range(4))
def test_every_mjlog_hand_matches(chunk):
    """Every hand, and every game's final settlement: the final points Tenhou printed (owari) are read back
    into a settlement (uma and rounding) and the engine's final scores give exactly those points."""
    hands = matched = finals = 0
    failures = []
    for path in MJLOG[chunk::4]:
        for rec in read_mjlog(path):
            report = replay_record(rec)
            hands += report.hands
            matched += report.matched
            failures.extend(str(m) for m in report.mismatches)
            if rec.final is not None:
                assert report.settlement is not None and report.final_checked, rec.source
                finals += 1
    assert not failures, "\n".join(failures[:10])
    assert matched == hands > 200
    assert finals >= 30


def test_mjx_walls_replay_from_the_wall_itself():
    """The wall of every mjx hand (in dealing order) deals and draws exactly what the record shows."""
    hands = matched = 0
    failures = []
    for path in MJX:
        for rec in read_mjx(path):
            assert rec.walls and len(rec.walls[0]) == 136
            report = replay_record(rec)
            hands += report.hands
            matched += report.matched
            failures.extend(str(m) for m in report.mismatches)
    assert not failures, "\n".join(failures[:10])
    assert matched == hands >= 400


def test_rebuilt_wall_deals_the_recorded_hands():
    rec = read_mjlog(MJLOG[0])[0]
    hand = rec.hands()[0]
    wall = wall_from_hand(hand, rec.red_fives)
    from jantaku.records.mjlog import mjai_tile

    dealt = wall.haipai(hand[0]["oya"])
    for seat in range(4):
        assert sorted(mjai_tile(i) for i in dealt[seat]) == sorted(hand[0]["tehais"][seat])


def test_a_truncated_log_keeps_its_complete_hands_and_says_where_it_stops(tmp_path):
    src = next(p for p in MJLOG if "no-round-end" in p.name)
    rec = read_mjlog(src)[0]
    assert rec.problems and "hand 8" in rec.problems[0] and "truncated" in rec.problems[0]
    report = replay_record(rec)
    assert report.hands == 7 and report.matched == 7 and report.notes


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'<mjloggm><GO type="185"/></mjloggm>', "three-player"),
        (b"hello", "not a Tenhou mjlog"),
        (gzip.compress(b'<mjloggm><RYUUKYOKU type="zzz" sc="1"/></mjloggm>', mtime=0), "unknown draw type"),
    ],
)
def test_malformed_mjlog_is_named(text, message):
    with pytest.raises(RecordError, match=message):
        read_mjlog(text)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'<mjloggm><INIT seed="0,0,0" ten="250,250,250,250" oya="0"/></mjloggm>', "INIT seed needs 6"),
        (b'<mjloggm><INIT seed="0,0,0,1,1,1" ten="250,250,250,250" oya="0" hai0="1,2"/></mjloggm>', "hai0 must be 13"),
    ],
)
def test_a_broken_hand_is_named_not_fatal(text, message):
    rec = read_mjlog(text)[0]
    assert len(rec.problems) == 1 and message in rec.problems[0] and "hand skipped" in rec.problems[0]
    assert rec.hands() == []


def _summary(out: str) -> tuple[int, int, int]:
    last = next(line for line in out.splitlines() if " files, " in line)
    files, hands, matched = (int(w) for w in last.replace(",", "").split()[::2][:3])
    return files, hands, matched


def test_cli_replay_check(capsys):
    """Every hand matches, but one log is cut in the middle of its 8th hand and another before its end: a check
    that checked less than the files hold is not a pass (exit 2, and the note says what was not checked)."""
    code = main(["replay", str(DATA / "tenhou-mjlog" / "mjx-houou"), str(DATA / "mjx-walls"), "--check"])
    out = capsys.readouterr().out
    assert code == 2, out[-2000:]
    _files, hands, matched = _summary(out)
    assert hands == matched > 500
    assert "not checked:" in out and "hand 8: the log ends in the middle of the hand (truncated)" in out
    # and its twin that stops after hand 7 without Tenhou's end of game (owari)
    assert "no-game-end.mjlog: the record stops after" in out and "2 not checked" in out


def test_cli_replay_check_all_matched_exits_0(capsys):
    """The 18 tenhou-python-bot games and the 5 Mahjong Soul games: every hand and every final settlement."""
    paths = [str(DATA / "tenhou-mjlog" / "tenhou-python-bot"), str(DATA / "tenhou6-json" / "mahjongsoul")]
    code = main(["replay", *paths, "--check"])
    out = capsys.readouterr().out
    assert code == 0, out[-2000:]
    files, hands, matched = _summary(out)
    assert files == 23 and hands == matched == 214
    assert "final points: 23 matched" in out
    assert "return 25,000, rank points +15/+5/-5/-15, rounding none (exact, to 0.1): 5 record(s)" in out


def test_cli_replay_reports_a_difference_and_exits_1(tmp_path, capsys):
    """Change one recorded number and --check must say where and fail."""
    src = (DATA / "tenhou-mjlog" / "mjx-houou").glob("2010081709gm*.mjlog")
    text = next(iter(src)).read_bytes()
    import re

    raw = gzip.decompress(text) if text[:2] == b"\x1f\x8b" else text

    def bump(m):
        return m.group(1) + str(int(m.group(2)) + 100).encode() + b","

    tampered = re.sub(rb'(<AGARI [^>]*?ten="\d+,)(\d+),', bump, raw, count=1)  # the first win's points
    assert tampered != raw
    path = tmp_path / "tampered.mjlog"
    path.write_bytes(tampered)
    assert main(["replay", str(path), "--check"]) == 1
    out = capsys.readouterr().out
    assert "points" in out and "expected" in out


def test_reader_dispatch_and_missing_paths():
    assert [p.suffix for p in iter_record_files([str(DATA / "mjx-walls")])][:1] == [".json"]
    assert read_records(MJX[0])[0].walls
    with pytest.raises(RecordError, match="no such file"):
        list(iter_record_files(["/nonexistent/records"]))


def test_every_tenhou6_hand_matches_except_the_self_contradicting_ones():
    """The tenhou.net/6 files (edge cases: double ron, triple-ron draws, four kans, four winds, four riichi, nine
    terminals, nagashi mangan, chankan, tricky calls; and the mjx twins of the mjlog games) replay through the
    engine. Two hands contradict themselves (a fifth 5s; deltas without an accepted riichi stick): the replay
    reports them as unverifiable instead of matching or failing them."""
    hands = matched = unverifiable = 0
    failures = []
    for path in sorted((DATA / "tenhou6-json").rglob("*.json")):
        for rec in read_records(path):
            report = replay_record(rec)
            hands += report.hands
            matched += report.matched
            unverifiable += report.unverifiable
            failures.extend(str(m) for m in report.mismatches)
    assert not failures, "\n".join(failures[:10])
    assert unverifiable == 2 and matched == hands - 2 and hands >= 390


def test_a_broken_tag_costs_only_its_hand(tmp_path, capsys):
    """A malformed tag in the middle of a log: the replay names the file, the hand and the tag, skips that hand
    and goes on with the others (nothing crashes)."""
    src = next(p for p in MJLOG if p.name.startswith("2010081709gm"))
    raw = src.read_bytes()
    raw = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
    inits = [i for i in range(len(raw)) if raw.startswith(b"<INIT", i)]
    third = raw.index(b"<D", inits[2])  # the first discard of the third hand
    broken = raw[:third] + b'<N who="1" m="notanumber" />' + raw[third:]
    path = tmp_path / "broken.mjlog"
    path.write_bytes(broken)
    rec = read_mjlog(path)[0]
    assert len(rec.problems) == 1 and "hand 3: bad <N> tag, hand skipped" in rec.problems[0]
    report = replay_record(rec)
    assert report.hands == len(inits) - 1 and report.matched == report.hands and not report.mismatches
    assert main(["replay", str(path), "--check"]) == 2  # every replayed hand matched, but one was skipped
    out = capsys.readouterr().out
    assert "note:" in out and "broken.mjlog: hand 3: bad <N> tag" in out
    assert "not checked:" in out and "hand skipped" in out


def test_an_mjlog_record_is_checked_once_when_read_and_again_after_a_change(monkeypatch):
    """The mjlog reader checks each event as it makes it, so the check after reading does not check them a second
    time; a later check does (events changed after reading: a bad tile is named, not passed on to a replay)."""
    import jantaku.records.record as record

    calls = []
    real = record.check_events
    monkeypatch.setattr(record, "check_events", lambda *a, **kw: (calls.append(1), real(*a, **kw)))
    (rec,) = read_mjlog(MJLOG[0])
    rec.check()
    assert calls == []
    rec.check()
    assert calls == [1]
    dahai = next(e for e in rec.events if e["type"] == "dahai")
    dahai["pai"] = "10m"
    with pytest.raises(RecordError, match="dahai"):
        rec.check()
