"""mjx's JSON records (one hand per line, with the full wall in ``hiddenState.wall``) as :class:`GameRecord`\\ s.

The wall comes in dealing order, so a replay can deal and draw from it directly and check that jantaku's wall
layout (haipai, live draws, dora and ura indicators, replacement tiles) gives exactly the tiles the record
shows. Events are protobuf JSON with defaults left out (no ``type``: a discard; no ``who``: seat 0); a draw
carries no tile, which comes from the drawer's ``drawHistory``; calls carry Tenhou's meld bit-field.

Every field is checked before use (tile ids 0-135, seats 0-3, the wall holding each tile id once); a line
that fails is a :class:`~jantaku.records.errors.RecordError` naming the file and the line.

>>> read_mjx('{"publicObservation": {"initScore": {"tens": [25000, 25000, 25000]}}}')
Traceback (most recent call last):
...
jantaku.records.errors.RecordError: <text>#1: malformed mjx record (privateObservations: missing)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jantaku import safejson
from jantaku.errors import JantakuError, excerpt

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


class _Malformed(Exception):
    """A field of an mjx record that is missing or has the wrong type (the message names it)."""


def _get(obj: Any, key: str, default: Any = _Malformed, kind: type | tuple[type, ...] = object) -> Any:
    """``obj[key]`` checked to be a ``kind``; a missing key gives ``default`` (required when not given)."""
    if not isinstance(obj, dict):
        raise _Malformed(f"{key}: its parent is not an object")
    if key not in obj or obj[key] is None:
        if default is _Malformed:
            raise _Malformed(f"{key}: missing")
        return default
    value = obj[key]
    if not isinstance(value, kind) or (kind is not object and isinstance(value, bool) and bool not in _kinds(kind)):
        raise _Malformed(f"{key}: expected {_kind_name(kind)}, got {excerpt(value)}")
    return value


def _kinds(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    return " or ".join(
        {"dict": "an object", "list": "a list", "int": "a whole number", "str": "a string"}.get(k.__name__, k.__name__)
        for k in _kinds(kind)
    )


def _int(obj: Any, key: str, lo: int, hi: int, default: int | None = None) -> int:
    value = _get(obj, key, _Malformed if default is None else default, int)
    if not lo <= value <= hi:
        raise _Malformed(f"{key}: expected {lo}-{hi}, got {excerpt(value)}")
    return value


def _tile_id(x: Any, what: str) -> int:
    if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x < 136:
        raise _Malformed(f"{what}: a tile id is 0-135, got {excerpt(x)}")
    return x


def _tile_ids(obj: Any, key: str, most: int, default: Any = _Malformed) -> list[int]:
    value = _get(obj, key, default, list)
    if len(value) > most:
        raise _Malformed(f"{key}: at most {most} tile ids, got {len(value)}")
    return [_tile_id(x, key) for x in value]


def read_mjx(source: str | Path, name: str | None = None) -> list[GameRecord]:
    """Read mjx JSON lines (a file path, or the text itself): one :class:`GameRecord` (one hand, with its wall)
    per line. ``name`` names the source in messages (default: the path, or ``<text>``)."""
    if isinstance(source, str) and source.lstrip().startswith("{"):
        text, shown = source, "<text>"
    else:
        path = Path(source)
        text, shown = read_text_file(path), str(path)
    shown = name or shown
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{shown}#{n}"
        try:
            data = safejson.loads(line)
        except JantakuError as e:
            raise RecordError(f"{where}: {e}") from None
        try:
            rec = _hand(data, where)
        except _Malformed as e:
            raise RecordError(f"{where}: malformed mjx record ({e})") from None
        except JantakuError as e:
            raise RecordError(f"{where}: {e}") from None
        rec.check()
        out.append(rec)
    return out


def _hand(d: Any, where: str) -> GameRecord:
    t = mjai_tile
    pub = _get(d, "publicObservation", kind=dict)
    init = _get(pub, "initScore", kind=dict)
    rnd = _int(init, "round", 0, 15, 0)
    private = _get(d, "privateObservations", kind=list)
    if len(private) != 4:
        raise _Malformed(f"privateObservations: expected 4 seats, got {len(private)}")
    wall = _tile_ids(_get(d, "hiddenState", kind=dict), "wall", 136)
    if sorted(wall) != list(range(136)):
        raise _Malformed("hiddenState.wall: expected each tile id 0-135 once")
    names = _get(pub, "playerIds", ["", "", "", ""], list)
    rec = GameRecord(source=where, walls=[wall], red_fives=True, open_tanyao=True, hanchan=True)
    ev = rec.events
    ev.append({"type": "start_game", "names": [str(x)[:100] for x in names]})
    dora = _tile_ids(pub, "doraIndicators", 5)
    if not dora:
        raise _Malformed("doraIndicators: empty")
    ev.append(
        {
            "type": "start_kyoku",
            "bakaze": "ESWN"[rnd // 4],
            "kyoku": rnd % 4 + 1,
            "honba": _int(init, "honba", 0, 1000, 0),
            "kyotaku": _int(init, "riichi", 0, 1000, 0),
            "oya": rnd % 4,
            "dora_marker": t(dora[0]),
            "scores": list(_get(init, "tens", kind=list)),
            "tehais": [
                [t(x) for x in _tile_ids(_get(private[s], "initHand", kind=dict), "closedTiles", 13)] for s in range(4)
            ],
        }
    )
    draws = [_tile_ids(private[s], "drawHistory", 136, []) for s in range(4)]
    drawn = [0, 0, 0, 0]
    term = _get(d, "roundTerminal", {}, dict)
    wins: dict[int, dict[str, Any]] = {}
    for w in _get(term, "wins", [], list):
        if not isinstance(w, dict):
            raise _Malformed(f"roundTerminal.wins: expected objects, got {excerpt(w)}")
        wins[_int(w, "who", 0, 3, 0)] = w
    for i, e in enumerate(_get(pub, "events", kind=list)):
        if not isinstance(e, dict):
            raise _Malformed(f"events[{i}]: expected an object, got {excerpt(e)}")
        kind = _get(e, "type", "EVENT_TYPE_DISCARD", str)
        who = _int(e, "who", 0, 3, 0)
        if kind == "EVENT_TYPE_DRAW":
            if drawn[who] >= len(draws[who]):
                raise _Malformed(f"events[{i}]: seat {who} draws more tiles than its drawHistory holds")
            ev.append({"type": "tsumo", "actor": who, "pai": t(draws[who][drawn[who]])})
            drawn[who] += 1
        elif kind in ("EVENT_TYPE_DISCARD", "EVENT_TYPE_TSUMOGIRI"):
            tile = _tile_id(_get(e, "tile", 0), f"events[{i}].tile")
            ev.append({"type": "dahai", "actor": who, "pai": t(tile), "tsumogiri": kind == "EVENT_TYPE_TSUMOGIRI"})
        elif kind == "EVENT_TYPE_RIICHI":
            ev.append({"type": "reach", "actor": who})
        elif kind == "EVENT_TYPE_RIICHI_SCORE_CHANGE":
            ev.append({"type": "reach_accepted", "actor": who})
        elif kind == "EVENT_TYPE_NEW_DORA":
            ev.append({"type": "dora", "dora_marker": t(_tile_id(_get(e, "tile", 0), f"events[{i}].tile"))})
        elif kind in (
            "EVENT_TYPE_CHI",
            "EVENT_TYPE_PON",
            "EVENT_TYPE_OPEN_KAN",
            "EVENT_TYPE_CLOSED_KAN",
            "EVENT_TYPE_ADDED_KAN",
        ):
            ev.append(_meld_event(who, _get(e, "open", kind=int)))
        elif kind in ("EVENT_TYPE_TSUMO", "EVENT_TYPE_RON"):
            w = wins.get(who)
            if w is None:
                raise RecordError(f"{where}: a win by seat {who} without its result")
            tile = _get(e, "tile", None)
            if tile is None:
                tile = _get(w, "winTile", 0)
            ev.append(_hora(w, who, _tile_id(tile, f"events[{i}].tile")))
        elif kind in _ABORTS:
            nw = _get(term, "noWinner", {}, dict)
            event: dict[str, Any] = {
                "type": "ryukyoku",
                "reason": _ABORTS[kind],
                "deltas": list(_get(nw, "tenChanges", [0, 0, 0, 0], list)),
            }
            if _ABORTS[kind] in ("exhaustive", "nagashi_mangan"):
                tenpai = set()
                for x in _get(nw, "tenpais", [], list):
                    tenpai.add(_int(x, "who", 0, 3, 0))
                event["tenpais"] = [s in tenpai for s in range(4)]
            ev.append(event)
        else:
            raise RecordError(f"{where}: unknown mjx event type {excerpt(kind)}")
    if ev[-1]["type"] in ("hora", "ryukyoku"):
        final = _get(_get(term, "finalScore", {}, dict), "tens", None, list)
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
    yakus = _get(w, "yakus", [], list)
    fans = _get(w, "fans", [], list)
    for y, f in zip(yakus, fans, strict=False):
        if not (isinstance(y, int) and isinstance(f, int)) or isinstance(f, bool) or not 0 <= f <= 1000:
            raise _Malformed(f"yakus/fans: expected whole numbers, got {excerpt(y)}, {excerpt(f)}")
        if f:
            yaku.append([TENHOU_YAKU_NAMES.get(y, f"tenhou_{y}"), f])
            han += f
    for y in _get(w, "yakumans", [], list):
        if not isinstance(y, int):
            raise _Malformed(f"yakumans: expected whole numbers, got {excerpt(y)}")
        yaku.append([TENHOU_YAKU_NAMES.get(y, f"tenhou_{y}"), 1])
        yakuman += 1
    return {
        "type": "hora",
        "actor": who,
        "target": _int(w, "fromWho", 0, 3, 0),
        "pai": mjai_tile(tile),
        "deltas": list(_get(w, "tenChanges", [0, 0, 0, 0], list)),
        "ura_markers": [mjai_tile(x) for x in _tile_ids(w, "uraDoraIndicators", 5, [])],
        "han": None if yakuman else han,
        "fu": _int(w, "fu", 0, 1000, 0),
        "points": _int(w, "ten", 0, 10_000_000, 0),
        "yakuman": yakuman,
        "yaku": yaku,
    }
