"""Tenhou mjlog XML (plain or gzipped) into :class:`~jantaku.records.record.GameRecord` objects.

Every tag becomes its mjai event: ``INIT`` -> ``start_kyoku``; ``T U V W`` draws -> ``tsumo``; ``D E F G``
discards -> ``dahai`` (tsumogiri when the id is the one just drawn); ``N`` -> ``chi``/``pon``/``daiminkan``/
``kakan``/``ankan`` (the meld bit-field, :mod:`jantaku.records.tenhou_meld`); ``REACH`` step 1/2 ->
``reach``/``reach_accepted``; ``DORA`` -> ``dora``; ``AGARI`` -> ``hora`` with Tenhou's han, fu, points,
yaku and the per-seat deltas; ``RYUUKYOKU`` -> ``ryukyoku`` with the draw's reason and the tenpai hands;
``owari`` -> ``end_game`` and :attr:`GameRecord.final`. The ``GO`` type bits give red fives (bit 2 =
none), open tanyao (bit 4 = none) and the length (bit 8 = East+South); three-player games are refused.

>>> xml = ('<mjloggm ver="2.3"><GO type="169"/><UN n0="a" n1="b" n2="c" n3="d"/><TAIKYOKU oya="0"/>'
...        '<INIT seed="0,0,0,1,2,20" ten="250,250,250,250" oya="0" hai0="0,1,2,3,4,5,6,7,8,9,10,11,12" '
...        'hai1="13,14,15,17,18,19,20,21,22,23,24,25,26" hai2="27,28,29,30,31,32,33,34,35,36,37,38,39" '
...        'hai3="40,41,42,43,44,45,46,47,48,49,50,51,52"/><T53/><D53/><U54/>'
...        '<RYUUKYOKU type="yao9" ba="0,0" sc="250,0,250,0,250,0,250,0"/></mjloggm>')
>>> rec = read_mjlog(xml)[0]
>>> [e["type"] for e in rec.events]
['start_game', 'start_kyoku', 'tsumo', 'dahai', 'tsumo', 'ryukyoku', 'end_kyoku']
>>> rec.events[3]
{'type': 'dahai', 'actor': 0, 'pai': '5p', 'tsumogiri': True}
"""

from __future__ import annotations

import re
import urllib.parse
from pathlib import Path
from typing import Any

from jantaku.errors import excerpt
from jantaku.meld import MeldKind
from jantaku.riichi.yaku import YAKU, YAKUMAN
from jantaku.table.game import tenhou_thousands
from jantaku.tiles import RED_IDS136

from .errors import RecordError, gunzip, read_bytes_file
from .record import MAX_EVENTS, GameRecord, event_problem
from .tenhou_meld import decode_mjlog_meld

__all__ = ["TENHOU_YAKU_NAMES", "mjai_tile", "read_mjlog"]

_TAG = re.compile(r"<(\w+)((?:\s+[\w]+=\"[^\"]*\")*)\s*/?>")
_ATTR = re.compile(r"(\w+)=\"([^\"]*)\"")
_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_DRAW = {"T": 0, "U": 1, "V": 2, "W": 3}
_DISCARD = {"D": 0, "E": 1, "F": 2, "G": 3}
_DRAW_REASON = {
    None: "exhaustive",
    "yao9": "nine_terminals",
    "reach4": "four_riichi",
    "ron3": "triple_ron",
    "kan4": "four_kans",
    "kaze4": "four_winds",
    "nm": "nagashi_mangan",
}
TENHOU_YAKU_NAMES: dict[int, str] = {y.tenhou_id: y.name for y in (*YAKU, *YAKUMAN) if y.name != "renhou_yakuman"}
"""Tenhou's yaku ids -> jantaku's yaku names (dora 52, ura 53, aka 54; winds 10-17 by seat/round)."""
TENHOU_YAKU_NAMES.update({52: "dora", 53: "ura_dora", 54: "aka_dora"})
for _i in range(4):
    TENHOU_YAKU_NAMES[10 + _i] = "yakuhai_seat_wind"
    TENHOU_YAKU_NAMES[14 + _i] = "yakuhai_round_wind"


def mjai_tile(tile_id: int, red_fives: bool = True) -> str:
    """The mjai name of a 136-id (``5mr`` for a red five when the game has them).

    >>> mjai_tile(16), mjai_tile(16, red_fives=False), mjai_tile(135)
    ('5mr', '5m', 'C')
    """
    kind = tile_id >> 2
    if kind >= 27:
        return _HONORS[kind - 27]
    name = f"{kind % 9 + 1}{'mps'[kind // 9]}"
    if red_fives and tile_id in RED_IDS136:
        name += "r"
    return name


def _implied_rank_points(scores: list[int], final: list[float], first_dealer: int) -> tuple[int, int, int, int]:
    """The uma a Tenhou game used, read back from its final scores (Tenhou changed its uma over the years):
    each non-first player's final value minus their rounded points; first place gets the rest of the oka."""
    order = sorted(range(4), key=lambda s: (-scores[s], (s - first_dealer) % 4))
    uma = []
    for s in order[1:]:
        uma.append(round(final[s] - tenhou_thousands(scores[s] - 30000)) * 1000)
    oka = 4 * (30000 - 25000)
    return (oka - sum(uma), uma[0], uma[1], uma[2])


def _ints(text: str) -> list[int]:
    return [int(x) for x in text.split(",") if x.strip() != ""]


def _load(source: str | Path | bytes) -> tuple[str, str]:
    if isinstance(source, bytes):
        data = source
        name = "<bytes>"
    elif isinstance(source, Path) or (isinstance(source, str) and not source.lstrip().startswith("<")):
        path = Path(source)
        data = read_bytes_file(path)
        name = str(path)
    else:
        return source, "<text>"
    if data[:2] == b"\x1f\x8b":
        data = gunzip(data, name)
    try:
        return data.decode("utf-8"), name
    except UnicodeDecodeError as e:
        raise RecordError(f"{name}: not UTF-8 text (byte 0x{data[e.start]:02x} at position {e.start})") from None


def read_mjlog(source: str | Path | bytes, name: str | None = None) -> list[GameRecord]:
    """Read one mjlog game (a path, gzipped or plain bytes, or the XML text). Returns a one-game list.

    Raises :class:`~jantaku.records.errors.RecordError` naming the file, the hand and the tag for malformed
    input.
    """
    text, loaded_name = _load(source)
    name = name or loaded_name
    if "<mjloggm" not in text:
        raise RecordError(f"{name}: not a Tenhou mjlog (no <mjloggm> root)")
    rec = GameRecord(source=name)
    state = _State(rec, name)
    for m in _TAG.finditer(text):
        tag, attrs = m.group(1), dict(_ATTR.findall(m.group(2)))
        if state.skipping and tag != "INIT":
            continue
        try:
            state.tag(tag, attrs)
        except (RecordError, LookupError, ValueError, TypeError, ArithmeticError, AssertionError) as e:
            if not state.started or tag == "GO":
                if isinstance(e, RecordError):
                    raise
                raise RecordError(f"{name}: bad <{tag}> tag ({type(e).__name__}: {excerpt(str(e), 100)})") from None
            # a broken hand: note it, drop its events, go on with the next hand (which the replay re-syncs to)
            why = str(e) if isinstance(e, RecordError) else f"{type(e).__name__}: {excerpt(str(e), 100)}"
            rec.problems.append(f"{name}: hand {state.hand}: bad <{tag}> tag, hand skipped ({why})")
            while rec.events and rec.events[-1]["type"] not in ("end_kyoku", "start_game", "end_game"):
                rec.events.pop()
            state.open_hand = False
            state.skipping = True
    if state.open_hand:
        # keep the hands that are complete; the replay reports the cut one and goes on
        rec.problems.append(f"{name}: hand {state.hand}: the log ends in the middle of the hand (truncated)")
        while rec.events and rec.events[-1]["type"] != "end_kyoku":
            rec.events.pop()
    elif "</mjloggm>" not in text[-200:]:
        where = f"after hand {state.hand}" if state.hand else "before its first hand"
        rec.problems.append(f"{name}: the log ends {where} without </mjloggm> (truncated)")
    rec._events_checked = True  # every event passed event_problem in _State.emit (GameRecord.check skips them)
    return [rec]


class _State:
    def __init__(self, rec: GameRecord, name: str) -> None:
        self.rec = rec
        self.name = name
        self.names = ["", "", "", ""]
        self.hand = 0
        self.open_hand = False
        self.last_draw = [-1, -1, -1, -1]
        self.started = False
        self.first_dealer = 0
        self.skipping = False

    def t(self, i: int) -> str:
        return mjai_tile(i, self.rec.red_fives)

    def emit(self, event: dict[str, Any]) -> None:
        problem = event_problem(event)
        if problem is not None:
            raise RecordError(f"{self.name}: hand {self.hand}: {problem}")
        if len(self.rec.events) >= MAX_EVENTS:
            raise RecordError(f"{self.name}: more than {MAX_EVENTS} events, more than a game holds")
        self.rec.events.append(event)

    def tag(self, tag: str, a: dict[str, str]) -> None:
        if tag == "GO":
            go = int(a.get("type", "0"))
            if go & 16:
                raise RecordError(f"{self.name}: three-player games are not supported (GO type {go})")
            self.rec.red_fives = not go & 2
            self.rec.open_tanyao = not go & 4
            self.rec.hanchan = bool(go & 8)
        elif tag == "UN" and "n0" in a:
            self.names = [urllib.parse.unquote(a.get(f"n{i}", "")) for i in range(4)]
        elif tag == "INIT":
            self._init(a)
        elif tag[0] in _DRAW and tag[1:].isascii() and tag[1:].isdigit():
            seat = _DRAW[tag[0]]
            tile = int(tag[1:])
            self.last_draw[seat] = tile
            self.emit({"type": "tsumo", "actor": seat, "pai": self.t(tile)})
        elif tag[0] in _DISCARD and tag[1:].isascii() and tag[1:].isdigit():
            seat = _DISCARD[tag[0]]
            tile = int(tag[1:])
            self.emit({"type": "dahai", "actor": seat, "pai": self.t(tile), "tsumogiri": tile == self.last_draw[seat]})
            self.last_draw[seat] = -1
        elif tag == "N":
            self._call(int(a["who"]), int(a["m"]))
        elif tag == "REACH":
            seat = int(a["who"])
            if a.get("step") == "1":
                self.emit({"type": "reach", "actor": seat})
            else:
                event: dict[str, Any] = {"type": "reach_accepted", "actor": seat}
                if "ten" in a:
                    event["scores"] = [100 * x for x in _ints(a["ten"])]
                self.emit(event)
        elif tag == "DORA":
            self.emit({"type": "dora", "dora_marker": self.t(int(a["hai"]))})
        elif tag == "AGARI":
            self._agari(a)
        elif tag == "RYUUKYOKU":
            self._ryuukyoku(a)

    def _init(self, a: dict[str, str]) -> None:
        if not self.started:
            self.emit({"type": "start_game", "names": list(self.names)})
            self.started = True
        if self.open_hand:
            raise RecordError(f"{self.name}: hand {self.hand}: a new hand starts before the last one ended")
        seed = _ints(a["seed"])
        if len(seed) != 6:
            raise RecordError(f"{self.name}: hand {self.hand + 1}: INIT seed needs 6 numbers, got {a['seed']!r}")
        round_, honba, kyotaku, _d1, _d2, dora = seed
        scores = [100 * x for x in _ints(a["ten"])]
        hands = []
        for i in range(4):
            ids = _ints(a[f"hai{i}"])
            if len(ids) != 13 or not all(0 <= x < 136 for x in ids):
                raise RecordError(f"{self.name}: hand {self.hand + 1}: hai{i} must be 13 tile ids 0-135")
            hands.append([self.t(x) for x in ids])
        if self.hand == 0:
            self.first_dealer = int(a["oya"])
        resync = self.skipping
        self.skipping = False
        self.hand += 1
        self.open_hand = True
        self.last_draw = [-1, -1, -1, -1]
        self.emit(
            {
                "type": "start_kyoku",
                "bakaze": "ESWN"[round_ // 4],
                "kyoku": round_ % 4 + 1,
                "honba": honba,
                "kyotaku": kyotaku,
                "oya": int(a["oya"]),
                "dora_marker": self.t(dora),
                "scores": scores,
                "tehais": hands,
                "dice": [_d1 + 1, _d2 + 1],
                **({"resync": True} if resync else {}),
            }
        )

    def _call(self, who: int, code: int) -> None:
        d = decode_mjlog_meld(code, self.rec.red_fives)
        meld = d.meld
        kind = meld.kind
        if kind is MeldKind.ANKAN:
            self.emit({"type": "ankan", "actor": who, "consumed": [self.t(i) for i in d.ids136]})
            return
        if kind is MeldKind.KAKAN:
            added = d.added_id
            assert added is not None
            pon = [self.t(i) for i in d.ids136 if i != added]
            self.emit({"type": "kakan", "actor": who, "pai": self.t(added), "consumed": pon})
            return
        assert d.called_id is not None and meld.source is not None
        target = (who + meld.source) % 4
        others = [self.t(i) for i in d.ids136 if i != d.called_id]
        name = {MeldKind.CHI: "chi", MeldKind.PON: "pon", MeldKind.MINKAN: "daiminkan"}[kind]
        self.emit({"type": name, "actor": who, "target": target, "pai": self.t(d.called_id), "consumed": others})

    def _agari(self, a: dict[str, str]) -> None:
        who = int(a["who"])
        from_who = int(a["fromWho"])
        fu, points, limit = _ints(a["ten"])[:3]
        sc = _ints(a["sc"])
        deltas = [100 * sc[2 * i + 1] for i in range(4)]
        after = [100 * (sc[2 * i] + sc[2 * i + 1]) for i in range(4)]
        yaku: list[list[Any]] = []
        han = 0
        if "yaku" in a:
            raw = _ints(a["yaku"])
            for j in range(0, len(raw), 2):
                if raw[j + 1]:
                    yaku.append([TENHOU_YAKU_NAMES.get(raw[j], f"tenhou_{raw[j]}"), raw[j + 1]])
                    han += raw[j + 1]
        yakuman = 0
        if "yakuman" in a:
            for y in _ints(a["yakuman"]):
                yaku.append([TENHOU_YAKU_NAMES.get(y, f"tenhou_{y}"), 1])
                yakuman += 1
        machi = int(a["machi"])
        ura = [self.t(i) for i in _ints(a.get("doraHaiUra", ""))]
        event: dict[str, Any] = {
            "type": "hora",
            "actor": who,
            "target": from_who,
            "pai": self.t(machi),
            "deltas": deltas,
            "ura_markers": ura,
            "han": None if yakuman else han,
            "fu": fu,
            "points": points,
            "limit": limit,
            "yakuman": yakuman,
            "yaku": yaku,
            "pao": int(a["paoWho"]) if "paoWho" in a else None,
            "scores": after,
        }
        self.emit(event)
        self._maybe_end(a, after)

    def _ryuukyoku(self, a: dict[str, str]) -> None:
        reason = _DRAW_REASON.get(a.get("type"))
        if reason is None:
            raise RecordError(f"{self.name}: hand {self.hand}: unknown draw type {a.get('type')!r}")
        sc = _ints(a["sc"])
        deltas = [100 * sc[2 * i + 1] for i in range(4)]
        after = [100 * (sc[2 * i] + sc[2 * i + 1]) for i in range(4)]
        event: dict[str, Any] = {"type": "ryukyoku", "reason": reason, "deltas": deltas, "scores": after}
        if reason in ("exhaustive", "nagashi_mangan"):
            event["tenpais"] = [f"hai{i}" in a for i in range(4)]
        self.emit(event)
        self._maybe_end(a, after)

    def _maybe_end(self, a: dict[str, str], after: list[int]) -> None:
        self.open_hand = False
        ev = self.rec.events
        # a double ron is two AGARI tags in a row: hora, hora, end_kyoku (one end for the hand)
        if len(ev) >= 3 and ev[-1]["type"] == "hora" and ev[-2]["type"] == "end_kyoku" and ev[-3]["type"] == "hora":
            del ev[-2]
        self.emit({"type": "end_kyoku"})
        if "owari" in a:
            owari = a["owari"].split(",")
            numbers = [float(x) for x in owari[:8]]
            if len(numbers) < 8 or not all(abs(x) < 1e7 for x in numbers):  # also NaN
                raise RecordError(f"{self.name}: hand {self.hand}: owari needs 8 numbers, got {excerpt(a['owari'])}")
            final_scores = [int(numbers[2 * i]) * 100 for i in range(4)]
            self.rec.final = [numbers[2 * i + 1] for i in range(4)]
            self.rec.rank_points = _implied_rank_points(final_scores, self.rec.final, self.first_dealer)
            self.emit({"type": "end_game", "scores": final_scores})
