"""The tiles draw anywhere (issue 13, "Tiles that draw anywhere"): each of the 37 faces and the back, as the
server sends them (``/tiles/{name}.svg``), is drawn by chromium onto a canvas and is not blank; a character
tile's numeral and its 萬 both show, and every face is a different picture.

The test machine has no CJK font (``fc-list :lang=zh`` lists none), which is how a fresh Debian chromium
meets the faces; should one be installed, the faces still need none: none has a ``<text>`` element, so no font
is ever asked for."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from jantaku.web.svg import TILE_NAMES

SCALE = 2  # canvas pixels per tile unit
BACKGROUND = (251, 248, 239)  # the face colour
INNER = (9, 9, 51, 71)  # the drawing area x0, y0, x1, y1 (tile units)
NUMERAL = (14, 8, 46, 36)  # where a character tile's numeral is
WAN = (11, 38, 49, 74)  # and its 萬

# Loads every tile through an <img> (same origin, so the canvas stays readable), draws it at SCALE and counts,
# in each box (tile units), the pixels that are clearly not the face colour; the PNG of the whole drawing comes
# back too, to compare the faces.
DRAW = """async ([names, scale, background, boxes]) => {
    const out = {};
    for (const name of names) {
        const img = new Image();
        img.src = `/tiles/${name}.svg`;
        await img.decode();
        const canvas = document.createElement('canvas');
        canvas.width = 60 * scale; canvas.height = 80 * scale;
        const ctx = canvas.getContext('2d');
        ctx.drawImage(img, 0, 0, canvas.width, canvas.height);
        const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
        const inked = {};
        for (const [key, [x0, y0, x1, y1]] of Object.entries(boxes)) {
            let count = 0;
            for (let y = y0 * scale; y < y1 * scale; y++) {
                for (let x = x0 * scale; x < x1 * scale; x++) {
                    const i = (y * canvas.width + x) * 4;
                    const diff = Math.abs(data[i] - background[0]) + Math.abs(data[i + 1] - background[1])
                        + Math.abs(data[i + 2] - background[2]);
                    if (diff > 90) count++;
                }
            }
            inked[key] = count / ((x1 - x0) * (y1 - y0) * scale * scale);
        }
        out[name] = {inked, png: canvas.toDataURL('image/png')};
    }
    return out;
}"""


def _cjk_fonts() -> list[str]:
    if shutil.which("fc-list") is None:
        return []
    run = subprocess.run(["fc-list", ":lang=zh", "family"], capture_output=True, text=True, check=False)
    return [line for line in run.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def drawn(browser, server) -> dict[str, dict]:
    ctx = browser.new_context(viewport={"width": 800, "height": 600})
    page = ctx.new_page()
    page.goto(server.url)
    for name in TILE_NAMES:  # as served: pictures of paths, no text and so no font
        body = page.request.get(f"{server.url}tiles/{name}.svg").text()
        assert "<text" not in body and "font" not in body, name
    boxes = {"inner": INNER, "numeral": NUMERAL, "wan": WAN}
    result = page.evaluate(DRAW, [TILE_NAMES, SCALE, BACKGROUND, boxes])
    ctx.close()
    return result


def test_the_faces_need_no_font(drawn) -> None:
    # Either way the faces are drawn without fonts (no <text>, checked in the fixture); this says which case
    # the run met.
    fonts = _cjk_fonts()
    print(f"\n[e2e] CJK fonts on this machine: {fonts or 'none'}")
    assert set(drawn) == set(TILE_NAMES)


@pytest.mark.parametrize("name", TILE_NAMES[:-1])
def test_every_face_is_drawn(drawn, name: str) -> None:
    # the lightest faces (two bamboo sticks, 白's frame) ink 10-18 % of the drawing area, a blank one 0 %
    inked = drawn[name]["inked"]["inner"]
    assert inked > 0.06, f"{name}: only {inked:.1%} of the drawing area drawn"


@pytest.mark.parametrize("name", [n for n in TILE_NAMES if n.endswith("m")])
def test_character_tiles_show_numeral_and_wan(drawn, name: str) -> None:
    # 一 inks about 11 % of the numeral's box, 四 46 %; 萬 about 44 % of its own
    inked = drawn[name]["inked"]
    assert inked["numeral"] > 0.06, f"{name}: no numeral ({inked['numeral']:.1%})"
    assert inked["wan"] > 0.2, f"{name}: no 萬 ({inked['wan']:.1%})"


def test_the_back_is_drawn_and_every_picture_differs(drawn) -> None:
    assert drawn["back"]["inked"]["inner"] > 0.9
    assert len({face["png"] for face in drawn.values()}) == len(TILE_NAMES)
