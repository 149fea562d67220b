"""Tiles: every notation round-trips, and bad input raises a TileError naming the problem."""

import pytest

from jantaku import Tile, TileError, format_tiles, parse_tiles
from jantaku.tiles import (
    KIND_NAMES,
    RED_IDS136,
    counts34,
    dora_from_indicator,
    ids136_from_tiles,
    kind_name,
    tiles_from_ids136,
)

ALL_TILES = [Tile.from_kind(k) for k in range(34)] + [Tile.from_kind(k, red=True) for k in (4, 13, 22)]


def test_there_are_37_distinct_interned_tiles():
    assert len(set(ALL_TILES)) == 37
    assert all(Tile(t.mpsz) is t for t in ALL_TILES)


@pytest.mark.parametrize("tile", ALL_TILES, ids=str)
def test_every_notation_round_trips(tile):
    assert eval(repr(tile)) is tile
    assert Tile(tile.mpsz) is tile
    assert Tile.from_mjai(tile.mjai) is tile
    assert Tile.from_tenhou6(tile.tenhou6) is tile
    for i in tile.ids136():
        assert Tile.from_id136(i) is tile
    assert Tile.from_kind(tile.kind, tile.red) is tile


def test_notation_values():
    assert [t.mjai for t in parse_tiles("1m9s1234567z0m0p0s")] == [
        "1m",
        "9s",
        "E",
        "S",
        "W",
        "N",
        "P",
        "F",
        "C",
        "5mr",
        "5pr",
        "5sr",
    ]
    assert [t.tenhou6 for t in parse_tiles("1m9m1p9s1z7z0m0p0s")] == [11, 19, 21, 39, 41, 47, 51, 52, 53]
    assert [Tile.from_id136(i).mpsz for i in (0, 3, 16, 17, 52, 88, 135)] == ["1m", "1m", "0m", "5m", "0p", "0s", "7z"]
    assert [Tile.from_id136(i, red_fives=False).mpsz for i in RED_IDS136] == ["5m", "5p", "5s"]


def test_tile_properties():
    t = Tile("9p")
    assert (t.kind, t.suit, t.number, t.is_terminal, t.is_honor, t.is_yaochu) == (17, "p", 9, True, False, True)
    r = Tile("0s")
    assert (r.kind, r.red, r.suit, r.number, r.code) == (22, True, "s", 5, 36)
    assert Tile("5z").is_honor and Tile("5z").is_yaochu and not Tile("5z").is_terminal
    assert not Tile("5m").is_yaochu


def test_ordering_puts_red_five_after_plain_five():
    tiles = parse_tiles("6m0m5m1z4m")
    assert format_tiles(sorted(tiles)) == "4506m1z"


def test_parse_keeps_order_and_allows_spaces():
    assert format_tiles(parse_tiles(" 3 1m  2m 7z ")) == "312m7z"
    assert parse_tiles("") == []


def test_ids136_assign_distinct_copies():
    ids = ids136_from_tiles(parse_tiles("0m555m"))
    assert ids == [16, 17, 18, 19]
    assert tiles_from_ids136(ids) == parse_tiles("0555m")
    with pytest.raises(TileError, match="more copies of 5m"):
        ids136_from_tiles(parse_tiles("5555m"))  # one of the four is the red five
    with pytest.raises(TileError, match="only one red five"):
        ids136_from_tiles(parse_tiles("00m"))


def test_counts_and_dora():
    assert counts34(parse_tiles("0m5m9s"))[4] == 2
    assert [kind_name(dora_from_indicator(Tile(x).kind)) for x in ("9s", "4z", "7z", "3z", "5z")] == [
        "1s",
        "1z",
        "5z",
        "4z",
        "6z",
    ]
    assert KIND_NAMES[33] == "7z"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("123x", "unknown character 'x' at position 3"),
        ("123", "digit '1' at position 0 has no suit letter"),
        ("12m3", "digit '3' at position 3 has no suit letter"),
        ("m", "suit letter 'm' at position 0 has no digits"),
        ("8z", "'8z' is not a tile: honors are 1z-7z"),
        ("0z", "'0z' is not a tile"),
        ("1ｍ", "unknown character"),
    ],
)
def test_bad_tile_strings(text, message):
    with pytest.raises(TileError, match=message):
        parse_tiles(text)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: Tile("5"), "not a tile: '5'"),
        (lambda: Tile(5), "mpsz string"),
        (lambda: Tile.from_kind(34), "0-33"),
        (lambda: Tile.from_kind(5, red=True), "only a five"),
        (lambda: Tile.from_mjai("5zr"), "not an mjai tile"),
        (lambda: Tile.from_tenhou6(10), "not a tenhou.net/6 tile code"),
        (lambda: Tile.from_tenhou6(48), "not a tenhou.net/6 tile code"),
        (lambda: Tile.from_id136(136), "0-135"),
    ],
)
def test_bad_tile_constructors(call, message):
    with pytest.raises(TileError, match=message):
        call()


def test_errors_are_value_errors():
    with pytest.raises(ValueError):
        parse_tiles("9q")
