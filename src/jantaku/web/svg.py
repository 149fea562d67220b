"""The tiles drawn as SVG by jantaku itself (nothing is fetched): 37 faces and a back.

Pins are drawn as circles and bamboo as sticks in the usual patterns, characters and honors as their
written forms, drawn as strokes of jantaku's own small stroke font (no ``<text>``: the faces need no font, so a
browser without CJK fonts shows them the same), red fives in red. :func:`tile_svg` gives one
tile by its mpsz name (``"5m"``, ``"0p"``, ``"7z"``, ``"back"``), :func:`hand_svg` a row of tiles, and
:class:`TilesImage` shows tiles inline in Jupyter (``_repr_svg_``).

>>> len(TILE_NAMES), TILE_NAMES[:3], TILE_NAMES[-1]
(38, ['1m', '2m', '3m'], 'back')
>>> tile_svg("5p").startswith("<svg") and "circle" in tile_svg("5p")
True
>>> TilesImage("123m 0p")._repr_svg_().count("<svg")   # the row and its four tiles
5
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import cache

from jantaku.tiles import Tile, parse_tiles

__all__ = ["TILE_NAMES", "TilesImage", "hand_svg", "tile_svg"]

TILE_NAMES = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + ["0m", "0p", "0s"]
TILE_NAMES += [f"{n}z" for n in range(1, 8)] + ["back"]

W, H = 60, 80
_OPEN = '<svg xmlns="http://www.w3.org/2000/svg" '
_INNER = (9.0, 9.0, 42.0, 62.0)  # x, y, width, height of the drawing area
_BLUE, _GREEN, _RED, _INK = "#1f4e9c", "#1d7a3a", "#c62828", "#222"
_NUMERALS = "一二三四五六七八九"
_HONORS = {1: ("東", _INK), 2: ("南", _INK), 3: ("西", _INK), 4: ("北", _INK), 6: ("發", _GREEN), 7: ("中", _RED)}

_PIN_LAYOUT: dict[int, list[tuple[float, float]]] = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.25), (0.5, 0.75)],
    3: [(0.2, 0.15), (0.5, 0.5), (0.8, 0.85)],
    4: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75)],
    5: [(0.24, 0.18), (0.76, 0.18), (0.5, 0.5), (0.24, 0.82), (0.76, 0.82)],
    6: [(0.27, 0.14), (0.73, 0.14), (0.27, 0.55), (0.73, 0.55), (0.27, 0.86), (0.73, 0.86)],
    7: [(0.2, 0.09), (0.5, 0.2), (0.8, 0.31), (0.27, 0.6), (0.73, 0.6), (0.27, 0.88), (0.73, 0.88)],
    8: [(x, y) for y in (0.11, 0.37, 0.63, 0.89) for x in (0.27, 0.73)],
    9: [(x, y) for y in (0.15, 0.5, 0.85) for x in (0.2, 0.5, 0.8)],
}
_PIN_RADIUS = {1: 17.0, 2: 10.0, 3: 8.0, 4: 9.0, 5: 8.0, 6: 7.0, 7: 6.0, 8: 6.0, 9: 6.5}
_PIN_COLORS = {
    2: [_GREEN, _BLUE],
    3: [_BLUE, _RED, _GREEN],
    4: [_BLUE, _GREEN, _GREEN, _BLUE],
    5: [_BLUE, _GREEN, _RED, _GREEN, _BLUE],
    6: [_GREEN, _GREEN] + [_RED] * 4,
    7: [_GREEN] * 3 + [_RED] * 4,
    8: [_BLUE] * 8,
    9: [_BLUE] * 3 + [_RED] * 3 + [_GREEN] * 3,
}
_SOU_LAYOUT: dict[int, list[tuple[float, float]]] = {
    2: [(0.5, 0.25), (0.5, 0.75)],
    3: [(0.5, 0.25), (0.27, 0.75), (0.73, 0.75)],
    4: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.75), (0.73, 0.75)],
    5: [(0.2, 0.25), (0.8, 0.25), (0.5, 0.5), (0.2, 0.75), (0.8, 0.75)],
    6: [(x, y) for y in (0.25, 0.75) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.14)] + [(x, y) for y in (0.5, 0.84) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.25, 0.75) for x in (0.13, 0.38, 0.62, 0.87)],
    9: [(x, y) for y in (0.16, 0.5, 0.84) for x in (0.2, 0.5, 0.8)],
}


def _at(fx: float, fy: float) -> tuple[float, float]:
    x, y, w, h = _INNER
    return x + fx * w, y + fy * h


def _pins(n: int, red: bool) -> str:
    r = _PIN_RADIUS[n]
    colors = [_RED] * n if red else _PIN_COLORS.get(n, [_BLUE])
    out = []
    for i, (fx, fy) in enumerate(_PIN_LAYOUT[n]):
        cx, cy = _at(fx, fy)
        c = colors[i % len(colors)]
        if n == 1 and not red:
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{_GREEN}"/>')
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.7:.1f}" fill="#fbf8ef"/>')
            out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.45:.1f}" fill="{_RED}"/>')
            continue
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r}" fill="{c}"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.55:.1f}" fill="#fbf8ef"/>')
        out.append(f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r * 0.25:.1f}" fill="{c}"/>')
    return "".join(out)


def _stick(cx: float, cy: float, h: float, color: str) -> str:
    w = 6.0
    x, y = cx - w / 2, cy - h / 2
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h:.1f}" rx="2.5" fill="{color}"/>'
        f'<line x1="{x:.1f}" y1="{cy:.1f}" x2="{x + w:.1f}" y2="{cy:.1f}" stroke="#fbf8ef" stroke-width="1"/>'
    )


def _sou(n: int, red: bool) -> str:
    if n == 1:
        cx, cy = _at(0.5, 0.5)
        return (
            f'<ellipse cx="{cx:.1f}" cy="{cy + 6:.1f}" rx="11" ry="17" fill="{_GREEN}"/>'
            f'<path d="M{cx - 11:.1f},{cy + 14:.1f} L{cx - 18:.1f},{cy + 28:.1f} L{cx - 4:.1f},{cy + 20:.1f} Z" '
            f'fill="{_BLUE}"/>'
            f'<path d="M{cx + 11:.1f},{cy + 14:.1f} L{cx + 18:.1f},{cy + 28:.1f} L{cx + 4:.1f},{cy + 20:.1f} Z" '
            f'fill="{_BLUE}"/>'
            f'<circle cx="{cx:.1f}" cy="{cy - 15:.1f}" r="7" fill="{_RED}"/>'
            f'<path d="M{cx + 6:.1f},{cy - 16:.1f} L{cx + 13:.1f},{cy - 13:.1f} L{cx + 6:.1f},{cy - 11:.1f} Z" '
            f'fill="#d8a200"/>'
        )
    rows = len({fy for _, fy in _SOU_LAYOUT[n]})
    h = {1: 40.0, 2: 24.0, 3: 17.0}[min(rows, 3)]
    out = []
    for i, (fx, fy) in enumerate(_SOU_LAYOUT[n]):
        cx, cy = _at(fx, fy)
        color = _GREEN
        if red or (n == 5 and i == 2) or (n == 7 and i == 0) or (n == 9 and i % 3 == 1):
            color = _RED
        out.append(_stick(cx, cy, h, color))
    return "".join(out)


# A small stroke font of jantaku's own: each glyph is a list of strokes in a 100 x 100 box (x to the right,
# y down), written as path data with absolute M (move), L (line) and Q (quadratic curve) commands only. They
# are drawn as round-capped lines, so a face needs no font at all (a machine without CJK fonts draws them the
# same). The forms follow the regular script's stroke structure; 萬 and 發 are simplified but keep their parts
# (艹 over 禺; 癶 over 弓 and 殳).
_GLYPHS: dict[str, tuple[str, ...]] = {
    "一": ("M8,52 Q50,46 92,48",),
    "二": ("M22,30 Q50,27 78,28", "M8,74 Q50,69 92,71"),
    "三": ("M20,16 Q50,13 80,14", "M28,48 Q50,45 72,46", "M8,84 Q50,79 92,81"),
    "四": (
        "M14,18 L14,86",
        "M14,18 L86,18 L86,86",
        "M40,18 Q40,50 24,62",
        "M60,18 L60,56 Q60,62 68,62 L86,62",
        "M14,86 L86,86",
    ),
    "五": ("M16,14 L84,14", "M46,14 L38,82", "M24,46 L72,46 L70,82", "M8,84 L92,84"),
    "六": ("M46,6 L56,22", "M8,36 L92,36", "M38,52 Q32,72 14,88", "M62,52 Q74,68 86,86"),
    "七": ("M8,48 L92,36", "M40,10 L40,78 Q40,88 52,88 L86,88 L88,74"),
    "八": ("M40,16 Q38,62 10,88", "M58,24 Q66,66 92,86"),
    "九": ("M42,8 Q42,58 10,90", "M14,36 L64,36 Q62,72 66,84 Q68,90 78,90 L92,90 L92,76"),
    "萬": (
        "M6,14 L94,14",
        "M32,4 L36,26",
        "M68,4 L64,26",
        "M26,32 L26,58",
        "M26,32 L74,32 L74,58",
        "M26,45 L74,45",
        "M50,32 L50,58",
        "M26,58 L74,58",
        "M16,66 L16,98",
        "M16,66 L84,66 L84,92 Q84,99 74,97",
        "M50,58 L50,70",
        "M46,70 L32,86 L68,84",
        "M58,74 L68,88",
    ),
    "東": (
        "M12,16 L88,16",
        "M24,26 L24,60",
        "M24,26 L76,26 L76,60",
        "M24,43 L76,43",
        "M24,60 L76,60",
        "M50,4 L50,96",
        "M46,62 Q34,80 10,92",
        "M54,62 Q68,80 92,92",
    ),
    "南": (
        "M12,14 L88,14",
        "M50,3 L50,26",
        "M18,30 L18,96",
        "M18,30 L82,30 L82,88 Q82,96 72,94",
        "M36,40 L43,50",
        "M64,40 L57,50",
        "M30,56 L70,56",
        "M28,72 L72,72",
        "M50,56 L50,94",
    ),
    "西": (
        "M8,12 L92,12",
        "M16,32 L16,90",
        "M16,32 L84,32 L84,90",
        "M40,12 Q40,52 22,66",
        "M60,12 L60,58 Q60,66 68,66 L84,66",
        "M16,90 L84,90",
    ),
    "北": (
        "M36,8 L36,92",
        "M10,40 L36,40",
        "M8,80 L36,68",
        "M64,8 L64,80 Q64,90 74,90 L92,90 L92,78",
        "M64,44 L88,30",
    ),
    "中": ("M14,28 L14,68", "M14,28 L86,28 L86,68", "M14,68 L86,68", "M50,4 L50,97"),
    "發": (
        "M12,8 L36,8 Q30,26 8,38",
        "M18,20 L28,30",
        "M38,24 L44,32",
        "M60,10 L80,10 L68,22",
        "M62,2 Q66,24 94,36",
        "M12,46 L36,46 L36,58 L16,58 L16,72 L40,72 Q40,94 28,94",
        "M58,42 L58,54 Q56,62 46,66",
        "M58,42 L72,42 L72,56 Q72,62 90,60",
        "M50,70 L82,70 Q72,88 46,96",
        "M56,76 Q70,90 94,96",
    ),
}
_NUMBER = re.compile(r"(-?[0-9.]+),(-?[0-9.]+)")


def _glyph(char: str, x: float, y: float, size: float, color: str, width: float) -> str:
    """``char`` from the stroke font as one ``<path>``, its 100 x 100 box scaled to ``size`` at (``x``, ``y``)."""
    k = size / 100

    def place(m: re.Match[str]) -> str:
        return f"{x + float(m[1]) * k:.1f},{y + float(m[2]) * k:.1f}"

    d = " ".join(_NUMBER.sub(place, stroke) for stroke in _GLYPHS[char])
    return (
        f'<path d="{d}" fill="none" stroke="{color}" stroke-width="{width}" stroke-linecap="round" '
        'stroke-linejoin="round"/>'
    )


def _man(n: int, red: bool) -> str:
    return _glyph(_NUMERALS[n - 1], 16, 8, 28, _RED if red else _INK, 3.4) + _glyph("萬", 11, 37, 38, _RED, 2.6)


def _honor(n: int) -> str:
    if n == 5:
        return f'<rect x="14" y="16" width="32" height="48" rx="3" fill="none" stroke="{_BLUE}" stroke-width="3"/>'
    char, color = _HONORS[n]
    return _glyph(char, 8, 19, 44, color, 3.4)


@cache
def tile_svg(name: str) -> str:
    """One tile as a standalone SVG document (60 x 80 user units): ``"1m"`` ... ``"7z"``, ``"0m"`` (red five),
    or ``"back"``. Raises ``ValueError`` for any other name."""
    if name not in TILE_NAMES:
        raise ValueError(f"no tile named {name!r}: one of {', '.join(TILE_NAMES)}")
    head = f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}">'
    if name == "back":
        return (
            head + f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="6" fill="#d98c1f" stroke="#8a5a10" '
            'stroke-width="1.5"/><rect x="6" y="6" width="48" height="68" rx="4" fill="none" stroke="#f4c27a" '
            'stroke-width="1.5"/></svg>'
        )
    number, suit = int(name[0]), name[1]
    red = number == 0
    n = 5 if red else number
    if suit == "m":
        body = _man(n, red)
    elif suit == "p":
        body = _pins(n, red)
    elif suit == "s":
        body = _sou(n, red)
    else:
        body = _honor(n)
    face = f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="6" fill="#fbf8ef" stroke="#8c8577" '
    face += 'stroke-width="1.5"/>'
    return f"{head}<title>{name}</title>{face}{body}</svg>"


def _names(tiles: Iterable[Tile | str] | str) -> list[str]:
    if isinstance(tiles, str):
        return [t.mpsz for t in parse_tiles(tiles)]
    return [t.mpsz if isinstance(t, Tile) else str(t) for t in tiles]


def hand_svg(tiles: Iterable[Tile | str] | str, gap: int = 2) -> str:
    """A row of tiles (mpsz text, tile names or :class:`~jantaku.tiles.Tile` objects) as one SVG document."""
    names = _names(tiles)
    width = max(len(names) * (W + gap) - gap, 1)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {H}" width="{width}" height="{H}">']
    for i, name in enumerate(names):
        inner = tile_svg(name).replace(_OPEN, f'<svg x="{i * (W + gap)}" y="0" ', 1)
        parts.append(inner)
    parts.append("</svg>")
    return "".join(parts)


class TilesImage:
    """Tiles that show themselves as pictures in Jupyter: ``TilesImage("123m456p")``."""

    def __init__(self, tiles: Iterable[Tile | str] | str) -> None:
        self.names = _names(tiles)

    def _repr_svg_(self) -> str:
        return hand_svg(self.names)

    def __repr__(self) -> str:
        return f"TilesImage({' '.join(self.names)!r})"
