"""Melds and hands: jantaku's notation, tenhou.net/6 call strings, and validation."""

import json
import re
from pathlib import Path

import pytest

from jantaku import Hand, HandError, Meld, MeldKind, TileError, parse_tiles
from jantaku.tiles import Tile

DATA = Path(__file__).parent / "data"


@pytest.mark.parametrize(
    ("text", "kind", "tiles", "called", "source", "added"),
    [
        ("312m+", MeldKind.CHI, "123m", "3m", 3, None),
        ("777z+", MeldKind.PON, "777z", "7z", 3, None),
        ("550p+1", MeldKind.PON, "505p", "5p", 1, None),
        ("055p+2", MeldKind.PON, "055p", "0p", 2, None),
        ("5555s+2", MeldKind.MINKAN, "5555s", "5s", 2, None),
        ("5550p^1", MeldKind.KAKAN, "0555p", "5p", 1, "0p"),
        ("1111s*", MeldKind.ANKAN, "1111s", None, None, None),
    ],
)
def test_meld_notation(text, kind, tiles, called, source, added):
    m = Meld.parse(text)
    assert m.kind is kind
    assert sorted(m.tiles) == sorted(parse_tiles(tiles))
    assert m.called == (Tile(called) if called else None)
    assert m.source == source
    assert m.added == (Tile(added) if added else None)
    assert Meld.parse(str(m)) == m
    assert eval(repr(m)) == m
    assert Meld.from_tenhou6(m.tenhou6()) == m
    assert m.is_open is (kind is not MeldKind.ANKAN)


@pytest.mark.parametrize(
    ("text", "own"),
    [
        ("c275226", "706p+"),
        ("p252525", "555p+"),
        ("4646p46", "666z+1"),
        ("43p4343", "333z+2"),
        ("m39393939", "9999s+"),
        ("39m393939", "9999s+2"),
        ("272727m27", "7777p+1"),
        ("31k313131", "1111s^2"),
        ("k51151515", "5550m^"),
        ("4242k4242", "2222z^1"),
        ("424242a42", "2222z*"),
        ("151515a51", "0555m*"),
    ],
)
def test_tenhou6_call_strings(text, own):
    m = Meld.from_tenhou6(text)
    assert m == Meld.parse(own)
    assert m.tenhou6() == text


def _calls_in_realdata():
    root = Path(__file__).parents[2] / "shared" / "realdata" / "tenhou6-json"
    if not root.exists():
        root = Path("/work/shared/realdata/tenhou6-json")
    calls = set()
    for path in sorted(root.rglob("*.json")):
        for token in re.findall(r'"(\d*[cpmka]\d+)"', path.read_text()):
            calls.add(token)
    return sorted(calls)


def test_every_call_string_in_the_real_logs_round_trips():
    calls = _calls_in_realdata()
    if not calls:
        pytest.skip("shared/realdata is not beside this checkout")
    assert len(calls) > 100
    for text in calls:
        assert Meld.from_tenhou6(text).tenhou6() == text, text


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("124m+", "three consecutive tiles"),
        ("123z+", "three consecutive tiles"),
        ("123m+2", "only be called from the player to the left"),
        ("77z+", "three or four tiles"),
        ("7777z*2", "closed kan has no source"),
        ("777z^", "added kan has four tiles"),
        ("778z+", "not a tile"),
        ("00p5p+", "not a meld"),
        ("550p5p+", "not a meld"),
        ("c27522", "not a meld"),
        ("c2752", "has 2 tiles"),
        ("c27520026", "not a tenhou.net/6 tile code"),
        ("2727k27", "has 3 tiles"),
        ("777z+9", "not a meld"),
    ],
)
def test_bad_melds(text, message):
    with pytest.raises(HandError, match=message):
        Meld.parse(text)


def test_hand_round_trip_and_properties():
    h = Hand.parse("123m 456p 11z 777z+ 1111s*")
    assert str(h) == "123m456p11z 777z+ 1111s*"
    assert eval(repr(h)) == h
    assert h.tile_count == 14 and not h.is_closed
    assert Hand.parse("123m456p789s11z 1111s*").is_closed
    assert Hand.parse("123m456p11z p474747 1111s*") == h
    assert sum(h.counts34()) == 8
    assert len(h.all_tiles()) == 8 + 3 + 4


def test_packed_counts_are_kept_and_invisible():
    import copy
    import dataclasses
    import pickle

    h = Hand.parse("123m 406p 11z 777z+ 1111s*")
    blank = pickle.dumps(h)
    closed, reds, melds, *blocks = h.packed
    assert h.packed is h.packed  # computed once, kept
    assert [closed >> 3 * k & 7 for k in range(34)] == h.counts34()
    assert blocks == [closed & (1 << 27) - 1, closed >> 27 & (1 << 27) - 1, closed >> 54 & (1 << 27) - 1, closed >> 81]
    assert reds == 0b010  # the red 5p
    codes = sorted(1 + 2 * (34 * i + k) + r for i, k, r in ((1, 33, 0), (4, 18, 0)))
    assert melds == codes[0] << 9 | codes[1]
    assert Hand.parse("123m 406p 11z 1111s* 777z+").packed[2] == melds  # melds in any order
    assert Hand.parse("123m 11z 1111s* 777z+ 406p+").packed[2] >> 18 == 1 + 2 * (34 * 0 + 12) + 1  # chi, red
    assert Hand.parse("123m456p789s11z22z").packed[2] == 0
    # not a field: pickling, equality, hashing and repr see closed and melds only
    assert pickle.dumps(h) == blank
    assert [f.name for f in dataclasses.fields(Hand)] == ["closed", "melds"]
    other = Hand.parse(str(h))
    assert other == h and hash(other) == hash(h) and repr(other) == repr(h)
    for c in (pickle.loads(blank), copy.copy(h), copy.deepcopy(h), dataclasses.replace(h)):
        assert c == h and c.packed == h.packed
    with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):  # as for any name that is not a field
        h._packed = None  # type: ignore[misc]


@pytest.mark.parametrize(
    ("text", "error", "message"),
    [
        ("123m456p789s11z2", TileError, "digit '2' at position 15 has no suit letter"),
        ("123m456p789s11z8z", TileError, "'8z' is not a tile"),
        ("123m456p789s11222z3z", HandError, "13 or 14 tiles .* has 15"),
        ("123m456p789s1z", HandError, "has 10"),
        ("123m456p11z 777z+ 1111s* 222z+", HandError, "has 17"),
        ("1111m 1m 234p 567p 789s", HandError, "five copies of 1m"),
        ("11m 222m+ 333m+ 1111m* 444m+", HandError, "six copies of 1m|five copies"),
        ("00m55m 234p567p789s", HandError, "two red 5m"),
        ("0m 234p567p789s1z 505m+", HandError, "two red 5m"),
        ("777z+ 123m", HandError, "closed tiles come before the melds"),
        ("123m456p11z 7777z?", TileError, "unknown character"),
    ],
)
def test_bad_hands(text, error, message):
    with pytest.raises(error, match=message):
        Hand.parse(text)


def test_hand_rejects_five_melds_and_non_strings():
    with pytest.raises(HandError, match="at most four melds"):
        Hand((), tuple(Meld.parse(x) for x in ("111m+", "222m+", "333m+", "444m+", "555m+")))
    with pytest.raises(HandError, match="given as a string"):
        Hand.parse(123)


def test_realdata_json_is_valid():
    # guards the helper above: the files it scans are JSON (one object, or one per line)
    root = Path("/work/shared/realdata/tenhou6-json")
    if not root.exists():
        pytest.skip("shared/realdata is not beside this checkout")
    for path in sorted(root.rglob("*.json"))[:5]:
        for line in path.read_text().splitlines():
            if line.strip():
                json.loads(line)
