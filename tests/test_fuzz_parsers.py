"""Property-based fuzzing of every reader and parser: any input gives a result or a JantakuError, nothing else.

The inputs are random text and numbers, and mutations of real inputs: the records in tests/data/records with
bytes flipped, deleted, inserted or cut off, and their parsed JSON with keys dropped and values replaced by
other types; the preset rule files; valid scoring requests. A record that is read is also checked
(``GameRecord.check``) and replayed, so a malformed record that slipped past a reader would show up as an
exception from the engine. Hypothesis is derandomized (the same examples on every run); the example counts keep
the whole file at about 10 s of CPU: about 3,500 examples (1,200 mutated records, 600 mutated scoring requests,
240 rule files) and every one of the 65,536 mjlog meld codes.
"""

from __future__ import annotations

import copy
import gzip
import json
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jantaku import safejson
from jantaku.cli.score_cmd import _answer_line
from jantaku.errors import JantakuError
from jantaku.hand import Hand, parse_hand_or_tiles
from jantaku.jielu.jsonio import score_request
from jantaku.meld import Meld
from jantaku.records.load import read_records
from jantaku.records.mjai import read_mjai
from jantaku.records.mjlog import read_mjlog
from jantaku.records.mjx import read_mjx
from jantaku.records.record import GameRecord
from jantaku.records.replay import replay_record
from jantaku.records.tenhou6 import read_tenhou6
from jantaku.records.tenhou_meld import decode_mjlog_meld
from jantaku.rules import load_rules, rules_from_mapping
from jantaku.scoring_requests import score_json
from jantaku.tiles import Tile, parse_tiles

ROOT = Path(__file__).parents[1]
RECORDS = ROOT / "tests" / "data" / "records"
PRESETS = ROOT / "src" / "jantaku" / "rules" / "presets"

MJLOG_GZIP = min(
    (p for p in (RECORDS / "tenhou-mjlog").rglob("*.mjlog") if p.read_bytes()[:2] == b"\x1f\x8b"),
    key=lambda p: p.stat().st_size,
)
MJLOG_PLAIN = gzip.decompress(MJLOG_GZIP.read_bytes())
TENHOU6 = [
    RECORDS / "tenhou6" / "jansou_kyoku_00_four_kans.json",
    RECORDS / "tenhou6" / "mjai_reviewer_double_kakan_then_chankan.json",
]
MJX = RECORDS / "mjx-walls" / "encdec-tenhou.json"

FUZZ = settings(max_examples=120, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
FUZZ_FAST = settings(max_examples=300, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


def result_or_named_error(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)``, or None when it raises a JantakuError; any other exception fails the test."""
    try:
        return fn(*args)
    except JantakuError as e:
        assert str(e), "a named error says what is wrong"
        assert len(str(e)) < 2000, "a message quotes only an excerpt of the input"
        return None


def read_and_replay(reader: Callable[..., Any], *args: Any) -> None:
    """Read with ``reader``; every record read passes its check and replays without another exception."""
    records = result_or_named_error(reader, *args)
    if records is None:
        return
    for rec in records if isinstance(records, list) else [records]:
        assert isinstance(rec, GameRecord)
        try:
            rec.check()
        except JantakuError:
            # read_mjai keeps logs without some fields (a player's view); the other readers check their records
            assert reader is read_mjai, f"{reader.__name__} returned a record that fails its check"
            continue
        result_or_named_error(replay_record, rec)


# ---------------------------------------------------------------------------------------------------------
# mutations


def _apply(data: bytes, ops: list[tuple[str, int, int]]) -> bytes:
    b = bytearray(data)
    for op, pos, value in ops:
        if not b:
            break
        i = pos % len(b)
        if op == "flip":
            b[i] ^= 1 << (value % 8)
        elif op == "set":
            b[i] = value
        elif op == "delete":
            del b[i : i + value % 24 + 1]
        elif op == "insert":
            b[i:i] = bytes([value]) * (value % 3 + 1)
        elif op == "cut":
            del b[i:]
    return bytes(b)


BYTE_OPS = st.lists(
    st.tuples(
        st.sampled_from(["flip", "set", "delete", "insert", "cut"]), st.integers(0, 1 << 30), st.integers(0, 255)
    ),
    min_size=1,
    max_size=4,
)

ODD_VALUES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 140),
    st.sampled_from([-1, 4, 136, 10**21, -(10**21), 2**63]),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=6),
    st.sampled_from(["5mr", "?", "E", "1m", "0m", "hora", "", "EVENT_TYPE_DRAW"]),
    st.just([]),
    st.just({}),
    st.lists(st.integers(-2, 140), max_size=5),
    st.lists(st.sampled_from(["1m", "5pr", "?", "C", 7]), max_size=14),
)


def _nodes(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(obj, dict):
        for k, v in obj.items():
            out.extend(_nodes(v, (*path, k)))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out.extend(_nodes(v, (*path, i)))
    return out


def _mutate_tree(obj: Any, ops: list[tuple[str, int, Any]]) -> Any:
    """Drop keys and list items, replace values by others of any type, shorten lists."""
    obj = copy.deepcopy(obj)
    for op, pick, value in ops:
        nodes = [p for p in _nodes(obj) if p]
        if not nodes:
            break
        path = nodes[pick % len(nodes)]
        parent = obj
        for key in path[:-1]:
            parent = parent[key]
        last = path[-1]
        if op == "drop":
            del parent[last]
        elif op == "replace":
            parent[last] = value
        elif op == "shorten" and isinstance(parent[last], list | str):
            parent[last] = parent[last][: len(parent[last]) // 2]
        elif op == "duplicate" and isinstance(parent, list):
            parent.insert(last, copy.deepcopy(parent[last]))
    return obj


TREE_OPS = st.lists(
    st.tuples(st.sampled_from(["drop", "replace", "shorten", "duplicate"]), st.integers(0, 1 << 30), ODD_VALUES),
    min_size=1,
    max_size=3,
)


# ---------------------------------------------------------------------------------------------------------
# tiles, hands, melds, call strings, meld codes

TILE_TEXT = st.text(alphabet="0123456789mpsz +^*", max_size=40)


@FUZZ_FAST
@given(st.one_of(TILE_TEXT, st.text(max_size=20)))
def test_mpsz_tiles_and_hands(text):
    tiles = result_or_named_error(parse_tiles, text)
    if tiles is not None:
        assert all(isinstance(t, Tile) for t in tiles)
    result_or_named_error(Tile, text)
    result_or_named_error(Hand.parse, text)
    result_or_named_error(parse_hand_or_tiles, text)


@FUZZ_FAST
@given(st.one_of(TILE_TEXT, st.text(alphabet="0123456789cpmka", max_size=14)))
def test_meld_notation_and_tenhou6_call_strings(text):
    meld = result_or_named_error(Meld.parse, text)
    if meld is not None:
        assert Meld.parse(str(meld)) == meld
    result_or_named_error(Meld.from_tenhou6, text)


@FUZZ
@given(st.sampled_from(["c275226", "p252525", "m39393939", "424242a42", "k42424242", "37c3738"]), BYTE_OPS)
def test_mutated_tenhou6_call_strings(text, ops):
    mutated = _apply(text.encode(), ops).decode("latin-1")
    result_or_named_error(Meld.from_tenhou6, mutated)
    result_or_named_error(Meld.parse, mutated)


def test_every_16_bit_mjlog_meld_code():
    decoded = 0
    for code in range(1 << 16):
        for red in (True, False):
            if result_or_named_error(decode_mjlog_meld, code, red) is not None:
                decoded += 1
    assert 1000 < decoded < 2 * (1 << 16)


@FUZZ_FAST
@given(st.one_of(st.integers(), st.floats(), st.text(max_size=5), st.none(), st.booleans()))
def test_mjlog_meld_codes_of_any_value(value):
    result_or_named_error(decode_mjlog_meld, value)


# ---------------------------------------------------------------------------------------------------------
# records


@FUZZ
@given(st.sampled_from([MJLOG_PLAIN, MJLOG_GZIP.read_bytes()]), BYTE_OPS)
def test_mutated_mjlog_bytes(data, ops):
    read_and_replay(read_mjlog, _apply(data, ops))


@FUZZ
@given(BYTE_OPS, st.booleans())
def test_mutated_mjlog_xml_inside_gzip(ops, compress):
    xml = gzip.decompress(MJLOG_GZIP.read_bytes())
    data = _apply(xml, ops)
    read_and_replay(read_mjlog, gzip.compress(data) if compress else data)


@FUZZ
@given(st.sampled_from(TENHOU6), BYTE_OPS)
def test_mutated_tenhou6_text(path, ops):
    text = _apply(path.read_bytes(), ops).decode("utf-8", errors="replace")
    read_and_replay(read_tenhou6, text if text.lstrip().startswith(("{", "[")) else "{" + text)


@FUZZ
@given(st.sampled_from(TENHOU6), TREE_OPS)
def test_mutated_tenhou6_structure(path, ops):
    game = json.loads(path.read_text(encoding="utf-8"))
    read_and_replay(read_tenhou6, _mutate_tree(game, ops))


def _mjai_events() -> list[dict[str, Any]]:
    return read_tenhou6(TENHOU6[1])[0].events


@FUZZ
@given(TREE_OPS)
def test_mutated_mjai_events(ops):
    events = _mutate_tree(_mjai_events(), ops)
    read_and_replay(read_mjai, [json.dumps(e) for e in events])


@FUZZ
@given(BYTE_OPS)
def test_mutated_mjai_lines(ops):
    text = "\n".join(json.dumps(e) for e in _mjai_events())
    mutated = _apply(text.encode(), ops).decode("utf-8", errors="replace")
    read_and_replay(read_mjai, mutated if "\n" in mutated else mutated + "\n")


@FUZZ
@given(TREE_OPS)
def test_mutated_mjx_structure(ops):
    line = json.loads(MJX.read_text(encoding="utf-8").splitlines()[0])
    read_and_replay(read_mjx, json.dumps(_mutate_tree(line, ops)))


@FUZZ
@given(BYTE_OPS)
def test_mutated_mjx_text(ops):
    text = _apply(MJX.read_bytes(), ops).decode("utf-8", errors="replace")
    read_and_replay(read_mjx, text if text.lstrip().startswith("{") else "{" + text)


@FUZZ
@given(st.sampled_from([MJLOG_GZIP, TENHOU6[0], MJX]), BYTE_OPS)
def test_mutated_record_files(path, ops):
    with tempfile.TemporaryDirectory() as folder:
        f = Path(folder) / path.name
        f.write_bytes(_apply(path.read_bytes(), ops))
        read_and_replay(read_records, f)


# ---------------------------------------------------------------------------------------------------------
# rule files


@FUZZ
@given(st.sampled_from(sorted(PRESETS.glob("*.toml"))), BYTE_OPS)
def test_mutated_rule_files(path, ops):
    with tempfile.TemporaryDirectory() as folder:
        f = Path(folder) / "mine.toml"
        f.write_bytes(_apply(path.read_bytes(), ops))
        result_or_named_error(load_rules, str(f))


@FUZZ
@given(st.dictionaries(st.sampled_from(["base", "name", "rounds", "red_fives", "yaku_off", "uma", "x"]), ODD_VALUES))
def test_rule_mappings(data):
    result_or_named_error(rules_from_mapping, data)


# ---------------------------------------------------------------------------------------------------------
# scoring requests and JSON

REQUESTS = [
    {"hand": "234m567p456s78999s", "win": "9s", "tsumo": True, "riichi": True, "dora": ["3m"], "rules": "mleague"},
    {"hand": "123m456p11z", "melds": ["777z+", "1111s*"], "win": "1z", "seat_wind": "S", "honba": 2},
    {"hand": "123m456p789s11z344z", "win": "4z", "rules": "jielu"},
    {"hand": "123m456p789s1134z", "extra_wildcards": 1, "rules": "jielu_original"},
]


@FUZZ_FAST
@given(st.sampled_from(REQUESTS), TREE_OPS)
def test_mutated_score_requests(request, ops):
    obj = _mutate_tree(request, ops)
    for scorer in (score_json, score_request):
        out = scorer(obj)
        assert isinstance(out, dict)
        if "error" in out:
            assert isinstance(out["error"], str) and len(out["error"]) <= 300


@FUZZ_FAST
@given(st.sampled_from(REQUESTS), BYTE_OPS)
def test_mutated_score_lines(request, ops):
    out = _answer_line(7, _apply(json.dumps(request).encode(), ops))
    assert isinstance(out, dict)
    assert "error" not in out or out["error"].startswith("line 7: ")


JSON_VALUES = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), st.text(max_size=8)),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
    max_leaves=20,
)


@FUZZ_FAST
@given(st.one_of(JSON_VALUES.map(json.dumps), st.text(max_size=40), st.binary(max_size=40)))
def test_safejson_any_text(text):
    result_or_named_error(safejson.loads, text)


@FUZZ_FAST
@given(st.integers(1, 5000), st.sampled_from(["[", '{"a":']))
def test_safejson_any_depth(depth, opener):
    closer = "]" if opener == "[" else "}"
    value = result_or_named_error(safejson.loads, opener * depth + "1" + closer * depth)
    assert (value is None) == (depth > safejson.DEFAULT_MAX_DEPTH)
