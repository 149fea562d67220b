"""Tenhou mjlog meld codes (jantaku.records.tenhou_meld) and the golden corpus of real wins.

Every code in CODES is a real one, taken from the real Tenhou games of tests/data/records/tenhou-mjlog
(mjx-houou and fastmaj); tools/extract_wins.py replays those games and checks that each decoded call takes
the last discard of the seat its source bits name, from tiles the caller holds.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jantaku import Hand, JantakuError, Meld, MeldKind, Tile
from jantaku.records.errors import RecordError
from jantaku.records.tenhou_meld import MjlogMeld, decode_mjlog_meld

CORPUS = Path(__file__).parent / "data" / "wins" / "tenhou_wins.jsonl"

# code, meld with red fives, meld without, 136-ids, called id, added id
CODES = [
    # chi (always from the left)
    (31, "123m+", "123m+", (3, 4, 8), 3, None),
    (8207, "034m+", "534m+", (9, 12, 16), 16, None),
    (6175, "340m+", "345m+", (11, 12, 16), 11, None),
    # pon from the right, across, left
    (73, "111m+1", "111m+1", (0, 1, 3), 0, None),
    (6185, "055m+1", "555m+1", (16, 18, 19), 16, None),
    (21033, "550p+1", "555p+1", (52, 54, 55), 55, None),
    (42, "111m+2", "111m+2", (0, 2, 3), 0, None),
    (6186, "055m+2", "555m+2", (16, 18, 19), 16, None),
    (75, "111m+", "111m+", (0, 1, 3), 0, None),
    (6219, "055m+", "555m+", (16, 17, 19), 16, None),
    # added kan: the pon's source, the ponned tile and the added one
    (1137, "1111m^1", "1111m^1", (0, 1, 2, 3), 2, 3),
    (20049, "0555p^1", "5555p^1", (52, 53, 54, 55), 52, 54),
    (9746, "7777m^2", "7777m^2", (24, 25, 26, 27), 26, 24),
    (6226, "0555m^2", "5555m^2", (16, 17, 18, 19), 16, 18),
    (1651, "2222m^", "2222m^", (4, 5, 6, 7), 4, 7),
    (34899, "5505s^", "5555s^", (88, 89, 90, 91), 91, 90),
    # open kan (daiminkan) from the right, across, left
    (15105, "6666p+1", "6666p+1", (56, 57, 58, 59), 59, None),
    (15106, "6666p+2", "6666p+2", (56, 57, 58, 59), 59, None),
    (6147, "7777m+", "7777m+", (24, 25, 26, 27), 24, None),
    # closed kan
    (0, "1111m*", "1111m*", (0, 1, 2, 3), None, None),
    (4096, "5550m*", "5555m*", (16, 17, 18, 19), None, None),
    (23040, "5550s*", "5555s*", (88, 89, 90, 91), None, None),
]

KINDS = {"+": None, "^": MeldKind.KAKAN, "*": MeldKind.ANKAN}


@pytest.mark.parametrize(("code", "red", "plain", "ids", "called", "added"), CODES)
def test_real_codes(code, red, plain, ids, called, added):
    d = decode_mjlog_meld(code)
    assert isinstance(d, MjlogMeld)
    assert str(d.meld) == red
    assert d.meld == Meld.parse(red)
    assert d.ids136 == ids
    assert d.called_id == called
    assert d.added_id == added
    # the meld's tiles are exactly its ids' tiles; the called and added tiles are the ids'
    assert d.meld.tiles == tuple(sorted(Tile.from_id136(i) for i in ids))
    if called is not None:
        assert d.meld.called is Tile.from_id136(called)
    if added is not None:
        assert d.meld.added is Tile.from_id136(added)
    # without red fives: the same meld, every five plain
    p = decode_mjlog_meld(code, red_fives=False)
    assert str(p.meld) == plain
    assert p.ids136 == ids and p.called_id == called and p.added_id == added
    assert not any(t.red for t in p.meld.tiles)


def test_every_kind_and_source_is_covered():
    seen = {(decode_mjlog_meld(c).meld.kind, decode_mjlog_meld(c).meld.source) for c, *_ in CODES}
    expected = {(MeldKind.CHI, 3), (MeldKind.ANKAN, None)}
    expected |= {(k, s) for k in (MeldKind.PON, MeldKind.KAKAN, MeldKind.MINKAN) for s in (1, 2, 3)}
    assert seen == expected
    reds = [c for c, red, plain, *_ in CODES if red != plain]
    assert len(reds) >= 10


def test_source_is_the_low_two_bits():
    # the same pon of 1m with the source bits 1, 2, 3
    assert [decode_mjlog_meld(c).meld.source for c in (73 & ~3 | 1, 73 & ~3 | 2, 73 & ~3 | 3)] == [1, 2, 3]


def test_kinds_of_real_codes():
    assert decode_mjlog_meld(31).meld.kind is MeldKind.CHI
    assert decode_mjlog_meld(42).meld.kind is MeldKind.PON
    assert decode_mjlog_meld(1137).meld.kind is MeldKind.KAKAN
    assert decode_mjlog_meld(15105).meld.kind is MeldKind.MINKAN
    assert decode_mjlog_meld(4096).meld.kind is MeldKind.ANKAN


def test_kakan_is_its_pon_plus_the_added_tile():
    # 20049 (added kan) and 21033-like pon share the 5p pon; the pon code is the kakan code with bit 4 -> bit 3
    kan = decode_mjlog_meld(20049)
    pon = decode_mjlog_meld(20049 & ~16 | 8)
    assert pon.meld.kind is MeldKind.PON
    assert pon.called_id == kan.called_id and pon.meld.source == kan.meld.source
    assert sorted((*pon.ids136, kan.added_id)) == list(kan.ids136)


def test_frozen():
    d = decode_mjlog_meld(31)
    with pytest.raises(AttributeError):
        d.called_id = 4  # type: ignore[misc]


def test_all_codes_decode_or_raise_record_error():
    """Every 16-bit value is either a consistent meld or a RecordError, never another exception."""
    kinds = {k: 0 for k in MeldKind}
    for code in range(1 << 16):
        try:
            d = decode_mjlog_meld(code)
        except RecordError:
            continue
        kinds[d.meld.kind] += 1
        assert len(set(d.ids136)) == len(d.ids136) == len(d.meld.tiles)
        assert d.meld.tiles == tuple(sorted(Tile.from_id136(i) for i in d.ids136))
        assert (d.called_id is None) == (d.meld.kind is MeldKind.ANKAN)
        assert (d.added_id is None) == (d.meld.kind is not MeldKind.KAKAN)
        assert d.meld.source == (code & 3 or None)
    # chi: 21 runs x 3 called x 4^3 copies; pon/kakan: 34 x 3 x 4 x 3 sources; kans: 136 ids
    assert kinds == {
        MeldKind.CHI: 21 * 3 * 64,
        MeldKind.PON: 34 * 3 * 4 * 3,
        MeldKind.KAKAN: 34 * 3 * 4 * 3,
        MeldKind.MINKAN: 136 * 3,
        MeldKind.ANKAN: 136,
    }


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (30752, "nukidora"),  # North set aside (3-player); made up, the 4-player logs have none
        (-1, "out of range"),
        (1 << 16, "out of range"),
        (6367 & ~3 | 1, "chi comes from the left"),  # a real chi with its source bits changed
        (6367 | 1 << 9, "bit 9"),
        ((63 << 10) | 4 | 3, "run number 21"),  # no run after 7-8-9s
        (42 & ~3, "needs a source"),  # a pon from nobody
        (42 | 16, "unused"),  # pon and kakan flags together
        (42 | 1 << 7, "unused"),
        (1137 & ~3, "needs a source"),
        ((102 << 9) | 8 | 1, "kind 34"),  # pon of a 35th kind
        ((136 << 8) | 1, "tile id 136"),  # kan of a 35th kind
        (15105 | 1 << 6, "bits 6 and 7"),
    ],
)
def test_errors(code, message):
    with pytest.raises(RecordError, match=message):
        decode_mjlog_meld(code)


@pytest.mark.parametrize("bad", ["6367", 6367.0, True, None])
def test_not_an_integer(bad):
    with pytest.raises(RecordError, match="integer"):
        decode_mjlog_meld(bad)


def test_record_error_is_a_jantaku_error():
    assert issubclass(RecordError, JantakuError)
    assert issubclass(RecordError, ValueError)


# -- the golden corpus of real wins -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> list[dict]:
    assert CORPUS.exists(), f"{CORPUS} is missing: run tools/extract_wins.py"
    with CORPUS.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def test_corpus_size(corpus):
    assert len(corpus) > 830
    sources = [r["source"] for r in corpus]
    assert len(set(sources)) == len(sources)
    folders = {s.split("#")[0].rsplit("/", 1)[0] for s in sources}
    assert folders == {
        "tenhou-mjlog/fastmaj",
        "tenhou-mjlog/mjx-houou",
        "tenhou6-json/edge-cases-a",
        "tenhou6-json/edge-cases-b",
        "tenhou6-json/mjx-twins",
    }


def test_corpus_hands_parse(corpus):
    for rec in corpus:
        text = rec["hand"] + " " + " ".join(rec["melds"])
        hand = Hand.parse(text)
        assert hand.tile_count == 14, rec["source"]
        assert [str(m) for m in hand.melds] == rec["melds"], rec["source"]
        assert Tile(rec["win"]) in hand.closed, rec["source"]


def test_corpus_records_are_consistent(corpus):
    fields = {
        "source", "hand", "melds", "win", "tsumo", "riichi", "double_riichi", "ippatsu", "haitei", "houtei",
        "rinshan", "chankan", "tenhou", "chiihou", "seat_wind", "round_wind", "dora", "ura", "honba", "deposits",
        "winner", "discarder", "dealer", "pao", "red_fives", "open_tanyao", "rules", "expected",
    }  # fmt: skip
    for rec in corpus:
        src = rec["source"]
        assert set(rec) == fields, src
        e = rec["expected"]
        assert sum(e["deltas"]) == 1000 * rec["deposits"], src
        assert e["deltas"][rec["winner"]] == e["points"] + 300 * rec["honba"] + 1000 * rec["deposits"], src
        assert rec["tsumo"] == (rec["discarder"] is None), src
        assert "ESWN"[(rec["winner"] - rec["dealer"]) % 4] == rec["seat_wind"], src
        if rec["double_riichi"]:
            assert rec["riichi"], src
        if e["yakuman"]:
            assert e["han"] is None and e["limit"] == 5, src
            assert sum(1 for _, h in e["yaku"] if h == 13) == e["yakuman"], src
        else:
            assert e["han"] == sum(h for _, h in e["yaku"]), src
        if not rec["red_fives"]:
            assert "0" not in rec["hand"] + "".join(rec["melds"]), src
