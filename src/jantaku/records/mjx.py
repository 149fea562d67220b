"""mjx's JSON records (one hand per line, with the full wall in ``hiddenState.wall``) as :class:`GameRecord`\\ s.

The wall comes in dealing order, so a replay can deal and draw from it directly and check that jantaku's wall
layout (haipai, live draws, dora and ura indicators, replacement tiles) gives exactly the tiles the record
shows. Events are protobuf JSON with defaults left out (no ``type``: a discard; no ``who``: seat 0); a draw
carries no tile, which comes from the drawer's ``drawHistory``; calls carry Tenhou's meld bit-field.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .errors import RecordError, read_text_file
from .mjlog import TENHOU_YAKU_NAMES, mjai_tile
from .record import GameRecord
from .tenhou_meld import decode_mjlog_meld

__all__ = ["read_mjx"]

_ABORTS = {
    "EVENT_TYPE_ABORTIVE_DRAW_NINE_TERMINALS": "nine_terminals",
    "EVENT_TYPE_ABORTIVE_DRAW_FOUR_RIICHIS": "four_riichi",
    "EVENT_TYPE_ABORTIVE_DRAW_THREE_RONS": "triple_ron",
    "EVENT_TYPE_ABORTIVE_DRAW_FOUR_KANS": "four_kans",
    "EVENT_TYPE_ABORTIVE_DRAW_FOUR_WINDS": "four_winds",
    "EVENT_TYPE_EXHAUSTIVE_DRAW_NORMAL": "exhaustive",
    "EVENT_TYPE_EXHAUSTIVE_DRAW_NAGASHI_MANGAN": "nagashi_mangan",
}


def read_mjx(source: str | Path) -> list[GameRecord]:
    """Read an mjx JSON-lines file: one :class:`GameRecord` (one hand, with its wall) per line."""
    path = Path(source)
    lines = read_text_file(path).splitlines()
    out = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}#{n}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"{where}: not JSON ({e.msg})") from None
        try:
            out.append(_hand(data, where))
        except (KeyError, IndexError, TypeError, ValueError) as e:
            raise RecordError(f"{where}: malformed mjx record ({type(e).__name__}: {e})") from None
    return out


def _hand(d: dict[str, Any], where: str) -> GameRecord:
    t = mjai_tile
    pub = d["publicObservation"]
    init = pub["initScore"]
    rnd = init.get("round", 0)
    private = d["privateObservations"]
    wall = d["hiddenState"]["wall"]
    rec = GameRecord(source=where, walls=[wall], red_fives=True, open_tanyao=True, hanchan=True)
    ev = rec.events
    ev.append({"type": "start_game", "names": list(pub.get("playerIds", ["", "", "", ""]))})
    ev.append(
        {
            "type": "start_kyoku",
            "bakaze": "ESWN"[rnd // 4],
            "kyoku": rnd % 4 + 1,
            "honba": init.get("honba", 0),
            "kyotaku": init.get("riichi", 0),
            "oya": rnd % 4,
            "dora_marker": t(pub["doraIndicators"][0]),
            "scores": list(init["tens"]),
            "tehais": [[t(x) for x in private[s]["initHand"]["closedTiles"]] for s in range(4)],
        }
    )
    draws = [list(private[s].get("drawHistory", [])) for s in range(4)]
    drawn = [0, 0, 0, 0]
    term = d.get("roundTerminal", {})
    wins = {w.get("who", 0): w for w in term.get("wins", [])}
    for e in pub["events"]:
        kind = e.get("type", "EVENT_TYPE_DISCARD")
        who = e.get("who", 0)
        if kind == "EVENT_TYPE_DRAW":
            ev.append({"type": "tsumo", "actor": who, "pai": t(draws[who][drawn[who]])})
            drawn[who] += 1
        elif kind in ("EVENT_TYPE_DISCARD", "EVENT_TYPE_TSUMOGIRI"):
            ev.append(
                {"type": "dahai", "actor": who, "pai": t(e.get("tile", 0)), "tsumogiri": kind == "EVENT_TYPE_TSUMOGIRI"}
            )
        elif kind == "EVENT_TYPE_RIICHI":
            ev.append({"type": "reach", "actor": who})
        elif kind == "EVENT_TYPE_RIICHI_SCORE_CHANGE":
            ev.append({"type": "reach_accepted", "actor": who})
        elif kind == "EVENT_TYPE_NEW_DORA":
            ev.append({"type": "dora", "dora_marker": t(e.get("tile", 0))})
        elif kind in (
            "EVENT_TYPE_CHI",
            "EVENT_TYPE_PON",
            "EVENT_TYPE_OPEN_KAN",
            "EVENT_TYPE_CLOSED_KAN",
            "EVENT_TYPE_ADDED_KAN",
        ):
            ev.append(_meld_event(who, e["open"]))
        elif kind in ("EVENT_TYPE_TSUMO", "EVENT_TYPE_RON"):
            w = wins.get(who)
            if w is None:
                raise RecordError(f"{where}: a win by seat {who} without its result")
            ev.append(_hora(w, who, e.get("tile", w.get("winTile", 0))))
        elif kind in _ABORTS:
            nw = term.get("noWinner", {})
            event: dict[str, Any] = {
                "type": "ryukyoku",
                "reason": _ABORTS[kind],
                "deltas": list(nw.get("tenChanges", [0, 0, 0, 0])),
            }
            if _ABORTS[kind] in ("exhaustive", "nagashi_mangan"):
                tenpai = {x.get("who", 0) for x in nw.get("tenpais", [])}
                event["tenpais"] = [s in tenpai for s in range(4)]
            ev.append(event)
        else:
            raise RecordError(f"{where}: unknown mjx event type {kind!r}")
    if ev[-1]["type"] in ("hora", "ryukyoku"):
        final = term.get("finalScore", {}).get("tens")
        if final is not None:
            ev[-1]["scores"] = list(final)
        ev.append({"type": "end_kyoku"})
    return rec


def _meld_event(who: int, code: int) -> dict[str, Any]:
    d = decode_mjlog_meld(code, True)
    t = mjai_tile
    kind = d.meld.kind.value
    if kind == "ankan":
        return {"type": "ankan", "actor": who, "consumed": [t(i) for i in d.ids136]}
    if kind == "kakan":
        assert d.added_id is not None
        return {
            "type": "kakan",
            "actor": who,
            "pai": t(d.added_id),
            "consumed": [t(i) for i in d.ids136 if i != d.added_id],
        }
    assert d.called_id is not None and d.meld.source is not None
    name = {"chi": "chi", "pon": "pon", "minkan": "daiminkan"}[kind]
    return {
        "type": name,
        "actor": who,
        "target": (who + d.meld.source) % 4,
        "pai": t(d.called_id),
        "consumed": [t(i) for i in d.ids136 if i != d.called_id],
    }


def _hora(w: dict[str, Any], who: int, tile: int) -> dict[str, Any]:
    yaku = []
    han = 0
    yakuman = 0
    for y, f in zip(w.get("yakus", []), w.get("fans", []), strict=False):
        if f:
            yaku.append([TENHOU_YAKU_NAMES.get(y, f"tenhou_{y}"), f])
            han += f
    for y in w.get("yakumans", []):
        yaku.append([TENHOU_YAKU_NAMES.get(y, f"tenhou_{y}"), 1])
        yakuman += 1
    return {
        "type": "hora",
        "actor": who,
        "target": w.get("fromWho", 0),
        "pai": mjai_tile(tile),
        "deltas": list(w.get("tenChanges", [0, 0, 0, 0])),
        "ura_markers": [mjai_tile(x) for x in w.get("uraDoraIndicators", [])],
        "han": None if yakuman else han,
        "fu": w.get("fu", 0),
        "points": w.get("ten", 0),
        "yakuman": yakuman,
        "yaku": yaku,
    }
