"""The tile faces draw anywhere (issue 13, "Tiles that draw anywhere"): no face uses ``<text>``, so no font is
needed; characters and honours are paths of jantaku's own stroke font, and every face is a different picture."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from jantaku.web.svg import _GLYPHS, TILE_NAMES, TilesImage, hand_svg, tile_svg

SVG = "{http://www.w3.org/2000/svg}"
LETTERED = [n for n in TILE_NAMES if n.endswith("m") or (n.endswith("z") and n != "5z")]


def test_there_are_37_faces_and_a_back() -> None:
    assert len(TILE_NAMES) == 38 and len(set(TILE_NAMES)) == 38
    assert TILE_NAMES[-1] == "back"


@pytest.mark.parametrize("name", TILE_NAMES)
def test_no_face_uses_text_or_a_font(name: str) -> None:
    svg = tile_svg(name)
    ET.fromstring(svg)  # well-formed
    assert "<text" not in svg
    assert "font" not in svg


@pytest.mark.parametrize("name", LETTERED)
def test_characters_and_honours_are_paths(name: str) -> None:
    root = ET.fromstring(tile_svg(name))
    paths = root.findall(f"{SVG}path")
    assert paths, name
    for p in paths:
        assert p.get("fill") == "none" and p.get("stroke-linecap") == "round"
        # only absolute moves, lines and quadratic curves, inside the tile
        d = p.get("d", "")
        assert re.fullmatch(r"(?:[MLQ](?:-?[\d.]+,-?[\d.]+ ?)+)+", d), d
        for x, y in re.findall(r"(-?[\d.]+),(-?[\d.]+)", d):
            assert 2 <= float(x) <= 58 and 2 <= float(y) <= 78, (name, x, y)


def test_a_character_tile_has_its_numeral_over_wan_and_red_fives_are_red() -> None:
    def paths(name: str) -> list[tuple[str, str]]:
        return [(p.get("stroke"), p.get("d")) for p in ET.fromstring(tile_svg(name)).iter(f"{SVG}path")]

    one, five, red_five = paths("1m"), paths("5m"), paths("0m")
    assert len(one) == len(five) == len(red_five) == 2
    assert one[1] == five[1] == red_five[1]  # the same red 萬 under each numeral
    assert one[1][0] == "#c62828"
    assert five[0][0] == "#222" and red_five[0][0] == "#c62828" and five[0][1] == red_five[0][1]
    assert one[0][1] != five[0][1]


def test_honour_colours() -> None:
    def stroke(name: str) -> str | None:
        return ET.fromstring(tile_svg(name)).find(f"{SVG}path").get("stroke")

    assert {stroke(f"{n}z") for n in range(1, 5)} == {"#222"}
    assert stroke("6z") == "#1d7a3a" and stroke("7z") == "#c62828"
    assert ET.fromstring(tile_svg("5z")).find(f"{SVG}path") is None  # 白 is a frame


def test_faces_differ_from_each_other() -> None:
    bodies = {name: tile_svg(name).split("</title>", 1)[-1] for name in TILE_NAMES}
    assert len(set(bodies.values())) == len(TILE_NAMES)


def test_the_stroke_font_has_the_16_glyphs_and_they_differ() -> None:
    assert set(_GLYPHS) == set("一二三四五六七八九萬東南西北中發")
    assert len({strokes for strokes in _GLYPHS.values()}) == 16
    # the stroke counts a reader expects of the simple numerals
    assert [len(_GLYPHS[c]) for c in "一二三"] == [1, 2, 3]


def test_rows_and_jupyter_keep_working() -> None:
    row = hand_svg("19m1z")
    assert row.count("<svg") == 4 and "<text" not in row
    assert TilesImage("7z")._repr_svg_().count("<path") == 1
    with pytest.raises(ValueError, match="no tile named '8z'"):
        tile_svg("8z")
