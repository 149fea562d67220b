"""Walls for scenario tests, built from readable hands, and a small driver that plays scripted actions.

:func:`build_wall` lays tiles out in the engine's dealing order (see :mod:`jantaku.table.wall`): the four
starting hands (by absolute seat; the dealer's hand is dealt first), the live draws in the raw order they
are drawn (index 0 is the dealer's first draw; a call changes who draws next, so this is simply the order
of the draws as they happen), dora and ura indicators, replacement tiles. Every position that is not given
gets one of the remaining tile ids, lowest ids first in wall order, so all 136 ids appear exactly once.
``0m 0p 0s`` are the red fives (ids 16, 52, 88); a plain ``5m`` never takes the red id.

:func:`play` applies compact steps to a :class:`~jantaku.table.Kyoku` or a :class:`~jantaku.table.Game`:

==========================  ====================================================================
step                        action
==========================  ====================================================================
``("d", seat, "5m")``       discard that tile (the drawn copy if it is one, else from the hand)
``("tg", seat)``            discard the tile just drawn (tsumogiri)
``("r", seat, "5m")``       declare riichi with that discard
``("t", seat)``             tsumo
``("ron", seat)``           ron (on a discard or robbing a kan)
``("pon", seat)``           pon (``("pon", seat, "55p")`` picks the two tiles from the hand)
``("chi", seat, "46m")``    chi with those two tiles from the hand
``("kan", seat)``           open kan on the discard (daiminkan)
``("ankan", seat, "1z")``   closed kan
``("kakan", seat, "3p")``   added kan
``("kyuushu", seat)``       nine terminals (abortive draw, the player's choice)
``("pass", seat)``          pass on a discard or a kan; ``("pass",)`` passes for every seat asked
``("tenpai", seat)``        at an exhaustive draw, show a tenpai hand (``("noten", seat)``: stay silent)
==========================  ====================================================================

Own-turn steps (``d tg r t ankan kakan kyuushu``) first pass for every seat still asked about the previous
discard, so a script only writes the calls and wins that happen. A step that is not legal fails the test
with the seat's legal actions in the message.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

import pytest

from jantaku.table import Action, Kyoku, Wall
from jantaku.table.kyoku import CHANKAN, DECLARE, RESPONSES
from jantaku.table.wall import hand_positions
from jantaku.tiles import RED_IDS136, Tile, format_tiles, parse_tiles

__all__ = [
    "build_wall",
    "closed_hand",
    "find_action",
    "play",
    "run_out",
    "snapshot",
    "step",
    "turns",
]

_RINSHAN = (134, 135, 132, 133)
_RED_OF_SUIT = {0: 16, 1: 52, 2: 88}


def _tiles(spec: str | None) -> list[Tile]:
    return parse_tiles(spec) if spec else []


def _take(pool: dict[int, list[int]], tile: Tile, where: str) -> int:
    ids = pool[tile.kind]
    if tile.red:
        rid = _RED_OF_SUIT[tile.kind // 9]
        if rid not in ids:
            raise ValueError(f"{where}: the red five {tile} is used twice")
        ids.remove(rid)
        return rid
    for i in ids:
        if i not in RED_IDS136:
            ids.remove(i)
            return i
    if tile.kind in (4, 13, 22):
        raise ValueError(f"{where}: a fourth plain {tile} (with the red one that makes five; the red one is 0m/0p/0s)")
    raise ValueError(f"{where}: a fifth {tile}")


def turns(per_seat: Mapping[int, Sequence[str | None]], dealer: int = 0) -> list[str | None]:
    """Interleave each seat's own draws into the raw draw order of a hand without calls.

    ``per_seat[s][n]`` is seat ``s``'s ``n``-th draw (``None``: any tile). Draw ``i`` goes to seat
    ``(dealer + i) % 4``.

    >>> turns({0: ["1z", "2z"], 2: ["9m"]})
    ['1z', None, '9m', None, '2z']
    """
    length = max((4 * (len(v) - 1) + (s - dealer) % 4 + 1 for s, v in per_seat.items() if v), default=0)
    out: list[str | None] = []
    for i in range(length):
        mine = per_seat.get((dealer + i) % 4, ())
        n = i // 4
        out.append(mine[n] if n < len(mine) else None)
    while out and out[-1] is None:
        out.pop()
    return out


def build_wall(
    hands: Sequence[str | None] | Mapping[int, str],
    draws: Iterable[str | None] = (),
    *,
    dealer: int = 0,
    dora: Sequence[str] = (),
    ura: Sequence[str] = (),
    rinshan: Sequence[str] = (),
    tail: Sequence[str] = (),
    dice: tuple[int, int] = (3, 4),
) -> Wall:
    """A :class:`Wall` with these starting hands (13 tiles each, by absolute seat), live draws in draw
    order (a string may hold several tiles; ``None`` is one unspecified tile), dora indicators (the first,
    then kan dora), ura indicators under them, and replacement tiles in the order they are taken.

    ``tail`` places tiles at the wall's end, last first (indexes 135, 134, ...): without a dead wall (洁律)
    they are the kan replacement tiles in the order taken, and index 135 is also the last live draw."""
    pool = {k: [k * 4 + c for c in range(4)] for k in range(34)}
    wall: list[int | None] = [None] * 136
    hand_map = dict(hands) if isinstance(hands, Mapping) else dict(enumerate(hands))
    for seat, spec in hand_map.items():
        tiles = _tiles(spec)
        if len(tiles) > 13:
            raise ValueError(f"seat {seat}: {len(tiles)} tiles in a starting hand")
        for pos, t in zip(hand_positions(dealer)[seat], tiles, strict=False):
            wall[pos] = _take(pool, t, f"seat {seat}'s hand")
    pos = 52
    for item in draws:
        if item is None:
            pos += 1
            continue
        for t in _tiles(item):
            if pos >= 122:
                raise ValueError("more live draws than the live wall holds")
            wall[pos] = _take(pool, t, f"draw {pos - 52}")
            pos += 1
    for k, spec in enumerate(dora):
        wall[130 - 2 * k] = _take(pool, Tile(spec), f"dora indicator {k}")
    for k, spec in enumerate(ura):
        wall[131 - 2 * k] = _take(pool, Tile(spec), f"ura indicator {k}")
    for k, spec in enumerate(rinshan):
        wall[_RINSHAN[k]] = _take(pool, Tile(spec), f"replacement tile {k}")
    for k, spec in enumerate(tail):
        wall[135 - k] = _take(pool, Tile(spec), f"tail tile {k}")
    leftover = sorted(i for ids in pool.values() for i in ids)
    it = iter(leftover)
    filled = [w if w is not None else next(it) for w in wall]
    return Wall(filled, dice)


# -- the driver --------------------------------------------------------------------------------------------

_OWN_TURN = {"d", "tg", "r", "t", "ankan", "kakan", "kyuushu"}
_KIND = {
    "d": "dahai",
    "tg": "dahai",
    "r": "reach",
    "t": "tsumo",
    "ron": "ron",
    "pon": "pon",
    "chi": "chi",
    "kan": "daiminkan",
    "ankan": "ankan",
    "kakan": "kakan",
    "kyuushu": "ryukyoku",
    "pass": "none",
    "tenpai": "tenpai",
    "noten": "noten",
}


def _kyoku(table: Any) -> Kyoku:
    return table.kyoku if hasattr(table, "kyoku") else table


def _pass_all(table: Any) -> None:
    k = _kyoku(table)
    while k.phase in (RESPONSES, CHANKAN) and k.to_act():
        seat = k.to_act()[0]
        table.apply(Action("none", seat))


def find_action(
    table: Any, kind: str, seat: int, tile: str | None = None, consumed: str | None = None
) -> Action | None:
    """The legal action of ``seat`` of this kind (and tile / consumed tiles), or ``None``."""
    k = _kyoku(table)
    want = Tile(tile) if tile else None
    want_consumed = tuple(sorted(parse_tiles(consumed))) if consumed else None
    matches = []
    for a in table.legal_actions(seat):
        if a.kind != kind:
            continue
        if want is not None and kind not in ("ankan",) and a.tile != want:
            continue
        if want is not None and kind == "ankan" and a.consumed[0].kind != want.kind:
            continue
        if want_consumed is not None and tuple(sorted(a.consumed)) != want_consumed:
            continue
        matches.append(a)
    if not matches:
        return None
    if kind == "dahai":
        drawn = k.drawn
        tsumogiri = [a for a in matches if a.tsumogiri]
        if tsumogiri and drawn is not None:
            return tsumogiri[0]
    return matches[0]


def step(table: Any, item: tuple[Any, ...], index: int = 0) -> Action:
    """Apply one scripted step (see the module docs) and return the action applied."""
    k = _kyoku(table)
    what = item[0]
    if what not in _KIND:
        raise ValueError(f"unknown step {item!r}")
    if what == "pass" and len(item) == 1:
        _pass_all(table)
        return Action("none", -1)
    seat = item[1]
    if what in _OWN_TURN:
        _pass_all(table)
    action: Action | None
    if what == "tg":
        drawn = k.drawn
        action = None
        if drawn is not None:
            action = next(
                (a for a in table.legal_actions(seat) if a.kind == "dahai" and a.tsumogiri),
                None,
            )
    elif what in ("chi", "pon") and len(item) > 2:
        action = find_action(table, _KIND[what], seat, None, item[2])
    else:
        tile = item[2] if len(item) > 2 else None
        action = find_action(table, _KIND[what], seat, tile)
    if action is None:
        legal = table.legal_actions(seat)
        pytest.fail(
            f"step {index} {item!r} is not legal: phase {k.phase}, to act {k.to_act()}, "
            f"seat {seat} holds {closed_hand(k, seat)}; its legal actions: {legal}",
            pytrace=False,
        )
    table.apply(action)
    return action


def play(table: Any, script: Iterable[tuple[Any, ...]]) -> None:
    """Apply every step of ``script`` in order."""
    for i, item in enumerate(script):
        step(table, item, i)


def run_out(table: Any, until: Callable[[Kyoku], bool] | None = None, max_steps: int = 5000) -> None:
    """Play on with passes and tsumogiri (a call's discard: the first legal tile) until the hand ends, or
    until ``until(kyoku)`` holds before a step. At an exhaustive draw every seat asked declares tenpai."""
    k = _kyoku(table)
    for _ in range(max_steps):
        if k.result is not None or (until is not None and until(k)):
            return
        if k.phase in (RESPONSES, CHANKAN):
            _pass_all(table)
            continue
        if k.phase == DECLARE:
            table.apply(Action("tenpai", k.to_act()[0]))
            continue
        seat = k.to_act()[0]
        legal = table.legal_actions(seat)
        discards = [a for a in legal if a.kind == "dahai"]
        choice = next((a for a in discards if a.tsumogiri), discards[0])
        table.apply(choice)
    raise AssertionError("the hand did not end")


# -- looking at a hand ---------------------------------------------------------------------------------------


def closed_hand(k: Kyoku, seat: int) -> str:
    """The closed tiles of ``seat`` in sorted mpsz."""
    return format_tiles((k.tile(i) for i in k.seats[seat].tiles), sort=True)


def snapshot(k: Kyoku) -> dict[str, Any]:
    """Everything an illegal action must leave as it was."""
    return {
        "events": [dict(e) for e in k.events],
        "scores": list(k.scores),
        "deposits": k.deposits,
        "phase": k.phase,
        "to_act": k.to_act(),
        "live_next": k.live_next,
        "dora": k.dora_indicators(),
        "hands": [sorted(s.tiles) for s in k.seats],
        "melds": [list(s.meld_ids) for s in k.seats],
        "rivers": [[(r.tile, r.tsumogiri, r.riichi, r.called_by) for r in s.river] for s in k.seats],
        "riichi": [(s.riichi, s.riichi_pending, s.furiten_temp, s.furiten_riichi, s.ippatsu) for s in k.seats],
        "legal": {seat: list(k.legal_actions(seat)) for seat in range(4)},
    }
