"""``jantaku shanten HAND``: shanten of each form, and the waits or ukeire of a hand."""

from __future__ import annotations

import argparse

from jantaku.hand import check_tile_supply, parse_hand_or_tiles
from jantaku.shapes import shanten_forms
from jantaku.shapes.decompose import decompositions
from jantaku.shapes.shanten import read_counts
from jantaku.shapes.waits import discard_options, ukeire
from jantaku.tiles import parse_tiles

_EPILOG = """examples:
  jantaku shanten 123m456p789s1122z          tenpai: waits and copies left
  jantaku shanten 123m456p789s125z55z        14 tiles: the best discards and what they accept
  jantaku shanten "23m456p11z 555z+ 789s+"   melds after the closed tiles (777z+ pon, 1111s* closed kan)
  jantaku shanten 19m19p19s1234567z --visible 1z1z
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "shanten",
        help="shanten, waits and ukeire of a hand",
        description="Shanten of a hand (regular, seven pairs, thirteen orphans); for a 3n+1 hand the tiles that "
        "complete or improve it, for a 3n+2 hand the best discards.",
        epilog=_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("hand", nargs="+", help="the hand in mpsz, melds as separate words (quote it or not)")
    p.add_argument("--visible", default=None, metavar="TILES", help="tiles seen elsewhere (mpsz), for copies left")
    p.add_argument("--all", action="store_true", help="list every discard, not only the best ones")
    p.set_defaults(run=run)


def _fmt_tiles(tiles: dict[str, int]) -> str:
    return " ".join(f"{name}({n})" for name, n in tiles.items()) or "-"


def _check_tiles(text: str, visible: str | None) -> None:
    """Refuse tiles that cannot all exist: a fifth copy or a second red five, counting the hand (melds included)
    and the visible tiles together."""
    closed, melds = parse_hand_or_tiles(text)
    if visible is None:
        return
    seen = parse_tiles(visible)
    check_tile_supply(seen, "--visible")
    check_tile_supply([*closed, *(t for m in melds for t in m.tiles), *seen], "the hand and --visible together")


def run(args: argparse.Namespace) -> int:
    text = " ".join(args.hand)
    _check_tiles(text, args.visible)
    counts = read_counts(text)
    forms = shanten_forms(counts)
    labels = {-1: "complete", 0: "tenpai"}
    best = forms.minimum
    print(f"hand: {text}")
    parts = [f"regular {forms.regular}"]
    if forms.chiitoitsu is not None:
        parts.append(f"seven pairs {forms.chiitoitsu}")
    if forms.kokushi is not None:
        parts.append(f"thirteen orphans {forms.kokushi}")
    print(f"shanten: {best} ({labels.get(best, f'{best}-shanten')}); " + ", ".join(parts))
    n = sum(counts)
    if n % 3 == 1:
        u = ukeire(counts, args.visible)
        word = "waits" if u.shanten == 0 else "ukeire"
        print(f"{word}: {_fmt_tiles(u.tiles)}  total {u.total}")
        return 0
    if best == -1:
        for d in decompositions(counts):
            print(f"  {d}")
        return 0
    options = discard_options(counts, args.visible)
    top = options[0]
    for o in options:
        if not args.all and (o.shanten, o.total) != (top.shanten, top.total) and o.shanten > top.shanten:
            continue
        state = "tenpai" if o.shanten == 0 else f"{o.shanten}-shanten"
        print(f"  discard {o.discard}: {state}, accepts {_fmt_tiles(o.tiles)}  total {o.total}")
    return 0
