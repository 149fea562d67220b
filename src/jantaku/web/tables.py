"""Live tables in the server process: seats (human or bot), secret per-seat tokens, views and actions.

A :class:`LiveTable` wraps a :class:`~jantaku.table.game.Game`. People act by *index* into their list of legal
actions together with the table's ``step`` (how many actions the game has taken) as they saw it: a submission
made against an older state (a second tab, a double click) is refused with 409, an illegal one with 400
naming the rule, and in both cases nothing changes. Bots act at once until a person must decide, or at the
table's pace (:class:`TableOptions`, :class:`LiveTable`: a call window after every discard, a finished hand held
under its result, a turn timer, each person's auto options; a clock thread runs the timed steps). Every
change is written to the :class:`~jantaku.web.storage.GameStore` (rules, seed and the actions so far) before
it is answered or shown to anyone, so a table survives a server restart; a write the store refuses (disk full,
database locked) is answered with 503 and the table is put back exactly as it was, and a write that another
server process on the same file got in first is refused with 409. A finished game is stored with its complete
event log.

The :class:`TableManager` keeps only tables in play in memory: a finished game, and a table nobody has used
for a while, leave memory and are rebuilt from the store when asked for (lazily, one table at a time, so a
restarted server answers at once). It caps the tables it holds and the tables one client may create per
minute.

A seat's view (:meth:`LiveTable.view`) holds its own hand and everything public, never another seat's closed
tiles (nor the game's seed, from which every wall follows), nor another seat's options: while other seats
may answer a discard (pon, chi, kan, ron), rob a kan or declare tenpai, the view says only that the table is
waiting (see :meth:`LiveTable.view`). Its ``step`` counts the changes this seat can see, so a pass is not
counted by anyone but the seat that passed.

A human seat's link is an invitation (:class:`SeatInfo`): the first to open it claims the seat
(:meth:`TableManager.claim`) and alone holds its secret token from then on; the creator, who holds the table's
owner token and its own seat's token, can replace an invitation nobody has used, never read a claimed seat.

A table with people also has a read-only spectator link (:meth:`LiveTable.spectator_token`, derived from the
owner's token): its view (:meth:`LiveTable.spectator_view`) holds the public table only, no closed tile and no
options, until the game is over, when every hand is shown; it can never act.

>>> from jantaku.web.storage import SqliteStore
>>> m = TableManager(SqliteStore(":memory:"))
>>> t = m.create("mleague", ["human", "efficiency", "efficiency", "efficiency"], seed="doc")
>>> v = t.view(0)
>>> len(v["hand"]) + (v["drawn"] is not None), v["players"][1]["hand_count"] in (13, 14), "tiles" in v["players"][1]
(14, True, False)
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import copy
import hashlib
import hmac
import logging
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from jantaku.bots import PlayerView, make_bot
from jantaku.errors import JantakuError
from jantaku.jielu import JieluResult
from jantaku.meld import Meld
from jantaku.riichi.yaku import YAKU_BY_NAME
from jantaku.rules import load_rules, preset_names
from jantaku.rules.ruleset import Ruleset
from jantaku.shapes.shanten import shanten, shanten_regular
from jantaku.shapes.waits import wait_kinds
from jantaku.table import Game
from jantaku.table.actions import ANKAN, CHI, DAIMINKAN, DISCARD, KAKAN, PASS, PON, RIICHI, RON, TENPAI, TSUMO, Action
from jantaku.table.kyoku import CALLED, CHANKAN, DECLARE, DRAWN, ENDED, RESPONSES, IllegalActionError, Kyoku
from jantaku.text import TextError, check_name
from jantaku.tiles import Tile

from .storage import GameStore, StaleWrite, StoredGame, StoredTable, utc_now

log = logging.getLogger("jantaku.web")

__all__ = [
    "BOTS",
    "LENGTHS",
    "PACES",
    "SERVE_DEFAULTS",
    "TIMERS",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "LiveTable",
    "NotFound",
    "TableManager",
    "TableOptions",
    "TooManyRequests",
    "Unavailable",
    "WebError",
    "action_from_json",
    "action_to_json",
    "playable_presets",
    "table_rules",
]

BOTS = ("strong", "efficiency", "random")
"""The bots a web table may seat, the default (``strong``) first (external ``mjai:`` processes are never
started from a web request)."""

_WINDS = "ESWN"

WAITING = "waiting"
"""The phase a seat's view shows while the table waits on decisions that are not this seat's and not public
(another seat's answer to a discard, a robbable kan, a tenpai declaration at the draw)."""

_PUBLIC_PHASES = (DRAWN, CALLED, ENDED)
"""Phases whose decision-maker everyone knows: the seat on its draw/discard turn (or nobody)."""

_ANNOUNCED = ("chi", "pon", "daiminkan", "ankan", "kakan", "reach", "hora", "ryukyoku")
"""The public events a page announces on the board (a call, riichi, a win, a draw of the hand)."""

_ANSWER_PHASES = (RESPONSES, CHANKAN, DECLARE)
"""Phases in which seats answer another seat's move (a discard, a kan) or the draw's tenpai question."""

_WINDOW_KINDS = (DISCARD, RIICHI, KAKAN, ANKAN)
"""Moves other seats may answer (call or win on a discard, rob a kan): at a paced table each is followed by the
same call window whether or not anyone may answer it (see :class:`LiveTable`)."""

PACES = {"normal": 450, "fast": 150, "instant": 0}
"""The named paces of a table: milliseconds between two steps a person sees (a draw, a discard, a call). A
bot's turn is two steps (its draw, then its discard), so ``normal`` plays a bot's turn in about 0.9 s, near
Mahjong Soul's bots; every discard at a paced table waits one step for calls (the call window)."""

MAX_PACE_MS = 3000
"""The slowest pace a table may be given (milliseconds per step)."""

TIMERS = {"off": None, "3+5": (3, 5), "5+10": (5, 10), "5+20": (5, 20), "10+30": (10, 30), "30+60": (30, 60)}
"""The turn timers: seconds for each decision plus a bank of seconds refilled at each deal, used once a
decision takes longer. Tenhou plays East-only games at 3+5 and East-South games at 5+10; on expiry the drawn
tile is discarded (or the call passed)."""

LENGTHS = {"east": 1, "hanchan": 2}
"""Game lengths a table may choose: the rule set's ``rounds`` (1 East only, 2 East and South)."""

_EARLY = 0.0005

CLOCK_IDLE = 1.0
"""The longest the tables' clock sleeps before it looks at every held table again (seconds)."""
"""Seconds a timed step may run before its time (a clock's rounding must not cost a whole extra tick)."""

RESULT_SECONDS_MAX = 600
"""The longest a finished hand's board may wait for the people at the table (seconds)."""


@dataclass
class TableOptions:
    """How a table is paced and timed (see :class:`LiveTable`); chosen when it is created and stored with it.

    ``pace``: milliseconds between two steps a person sees (0: bots move at once); ``result_seconds``: how
    long the finished board of a hand stays under its result panel when not every person closed it (0: the
    next hand is dealt at once); ``timer``: a key of :data:`TIMERS`; ``length``: a key of :data:`LENGTHS`, or
    ``None`` for the rule set's own."""

    pace: int = 0
    result_seconds: int = 0
    timer: str = "off"
    length: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {"pace": self.pace, "result_seconds": self.result_seconds, "timer": self.timer, "length": self.length}

    @classmethod
    def from_json(cls, obj: Any) -> TableOptions:
        """Options as stored (missing or unknown values fall back to the defaults: tables from before them)."""
        if not isinstance(obj, dict):
            return cls()
        pace = obj.get("pace", 0)
        seconds = obj.get("result_seconds", 0)
        timer = obj.get("timer", "off")
        length = obj.get("length")
        return cls(
            pace if _is_int(pace) and 0 <= pace <= MAX_PACE_MS else 0,
            seconds if _is_int(seconds) and 0 <= seconds <= RESULT_SECONDS_MAX else 0,
            timer if timer in TIMERS else "off",
            length if length in LENGTHS else None,
        )


BOT_GAMES_DAYS = 30.0
"""Stored games of bots alone are deleted after this many days (``jantaku serve --bot-games-days``): a server
on the internet would otherwise keep every four-bot game anyone asked for, forever (issue 32)."""

UNWATCHED_SECONDS = 60.0
"""A table without an open websocket and without a request for this long is unwatched: its people's turn timers
stop (issue 32: abandoned tables with a timer went on moving for their absent people, and writing, until they
left memory). Bots still play up to a person's turn; the timers go on when someone opens the table again."""

SERVE_DEFAULTS = TableOptions(pace=PACES["normal"], result_seconds=20, timer="off")
"""The options ``jantaku serve`` gives a table created without them (its ``--pace``, ``--result-seconds`` and
``--timer`` defaults): the normal pace, a finished hand held 20 s under its result, no turn timer."""


def table_rules(rules: str, options: TableOptions) -> Ruleset:
    """A table's rule set: preset ``rules`` with the game length of ``options`` (its ``rounds``).

    >>> table_rules("tenhou", TableOptions(length="east")).rounds, table_rules("tenhou", TableOptions()).rounds
    (1, 2)
    """
    ruleset = load_rules(rules)
    if options.length is not None and LENGTHS[options.length] != ruleset.rounds:
        ruleset = ruleset.replace(rounds=LENGTHS[options.length])
    return ruleset


AUTO_KEYS = ("riichi_discard", "win", "no_calls")
"""A person's automatic answers: discard the drawn tile while in riichi (when nothing else is offered), take
every win offered, pass every call (chi, pon, kan) offered on a discard (never a win)."""


def _no_auto() -> dict[str, bool]:
    return dict.fromkeys(AUTO_KEYS, False)


SPECTATOR = -1
"""The seat number of a spectator's view and listener: it sees what every seat sees in public (no closed tile
of any seat, no seat's options) and, once the game is over, every hand (see :meth:`LiveTable.spectator_view`)."""

_SPECTATOR_KEYS = ("table", "rules", "family", "mode", "round", "players", "wins", "hand_results", "last_result")
_SPECTATOR_KEYS += ("over", "final", "options", "last_discard", "announce")
"""The public parts of a seat's view that a spectator's view keeps (anything else a view may hold is left out)."""


class WebError(Exception):
    """An error a client caused, with its HTTP status."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(WebError):
    """Malformed or illegal input (400)."""

    status = 400


class Forbidden(WebError):
    """A token that is not this table's (403)."""

    status = 403


class NotFound(WebError):
    """An unknown table or game (404)."""

    status = 404


class Conflict(WebError):
    """A stale submission: the table has moved on since the client looked (409)."""

    status = 409


class TooManyRequests(WebError):
    """A client that created more tables in the last minute than the server allows (429)."""

    status = 429


class Unavailable(WebError):
    """The server cannot take the request now: its table limit is reached, or the store refused a write (503).
    Nothing changed."""

    status = 503


def _is_int(x: Any) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


TABLE_FAMILIES = ("riichi", "jielu")
"""The scoring families the table engine plays: riichi and 洁律 (whose hand results carry fans with points, the
score S and the wildcards instead of yaku, han and fu; see :func:`_win_score_json`)."""


def playable_presets() -> list[str]:
    """The presets a web table can play (those of the families in :data:`TABLE_FAMILIES`)."""
    return [name for name in preset_names() if load_rules(name).family in TABLE_FAMILIES]


# -- actions as JSON -----------------------------------------------------------------------------------------


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as a JSON object (tiles in mpsz)."""
    return {
        "type": action.kind,
        "seat": action.seat,
        "tile": action.tile.mpsz if action.tile is not None else None,
        "consumed": [t.mpsz for t in action.consumed],
        "tsumogiri": action.tsumogiri,
    }


def action_from_json(obj: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_json`.

    >>> a = Action.pon(2, Tile("7z"), (Tile("7z"), Tile("7z")))
    >>> action_from_json(action_to_json(a)) == a
    True
    """
    tile = obj.get("tile")
    return Action(
        obj["type"],
        int(obj["seat"]),
        Tile(tile) if tile is not None else None,
        tuple(Tile(t) for t in obj.get("consumed", ())),
        bool(obj.get("tsumogiri", False)),
    )


def _meld_json(meld: Meld) -> dict[str, Any]:
    return {
        "type": meld.kind.value,
        "tiles": [t.mpsz for t in meld.tiles],
        "called": meld.called.mpsz if meld.called is not None else None,
        "source": meld.source,
        "text": str(meld),
    }


_DORA_NAMES = {
    "dora": ("ドラ", "dora", "宝牌"),
    "aka_dora": ("赤ドラ", "red five", "赤宝牌"),
    "ura_dora": ("裏ドラ", "ura dora", "里宝牌"),
}


JIELU_FAN_ENGLISH = {
    # combinations (同 one suit, one number; 逢 different suits, one number; 连 one suit, steps; 步 different
    # suits, steps)
    "逢顺": "Mixed double chow",
    "同顺": "Pure double chow",
    "三步顺": "Mixed shifted chows",
    "双逢顺": "Two mixed double chows",
    "双同顺": "Two pure double chows",
    "三逢顺": "Mixed triple chow",
    "三连顺": "Pure shifted chows",
    "三同顺": "Pure triple chow",
    "四步顺": "Four alternating shifted chows",
    "四逢顺": "Four alternating equal chows",
    "四连顺": "Four pure shifted chows",
    "四同顺": "Quadruple chow",
    "逢刻": "Mixed double pung",
    "双逢刻": "Two mixed double pungs",
    "三步刻": "Mixed shifted pungs",
    "三逢刻": "Mixed triple pung",
    "三连刻": "Pure shifted pungs",
    "四步刻": "Four alternating shifted pungs",
    "四连刻": "Four pure shifted pungs",
    # suits
    "清二色": "Two suits, no honors",
    "五门齐": "All five kinds",
    "混一色": "Half flush",
    "清一色": "Full flush",
    "字一色": "All honors",
    # numbers (混: with honors, 清: without)
    "清五数": "Five numbers, no honors",
    "混四数": "Four numbers with honors",
    "九数齐": "All nine numbers",
    "清四数": "Four numbers, no honors",
    "混三数": "Three numbers with honors",
    "清三数": "Three numbers, no honors",
    "混二数": "Two numbers with honors",
    "清二数": "Two numbers, no honors",
    "混一数": "One number with honors",
    # honors
    "单箭": "One dragon",
    "双风": "Two winds",
    "双箭": "Two dragons",
    "三风": "Three winds",
    "三元": "Three dragons",
    "四喜": "Four winds",
    # shape
    "平和": "All chows",
    "对对和": "All pungs",
    "一杠": "One kong",
    "二杠": "Two kongs",
    "三杠": "Three kongs",
    "四杠": "Four kongs",
    # incidental
    "自摸和": "Self-drawn",
    "海底和": "Last tile",
    "杠上和": "Win on a kong",
    "天和": "Heavenly hand",
}
"""English names of the 洁律 fans (their own names are Chinese: kanji and Chinese are the name itself)."""


def yaku_names(name: str) -> dict[str, str]:
    """A yaku's (or dora's) names: ``kanji``, ``english`` and ``chinese`` (the name itself where unknown).

    >>> yaku_names("pinfu")["kanji"], yaku_names("ura_dora")["chinese"], yaku_names("三连顺")["english"]
    ('平和', '里宝牌', 'Pure shifted chows')
    >>> yaku_names("no such fan")["english"]
    'no such fan'
    """
    y = YAKU_BY_NAME.get(name)
    if y is not None:
        return {"kanji": y.kanji, "english": y.english, "chinese": y.chinese}
    if name in _DORA_NAMES:
        kanji, english, chinese = _DORA_NAMES[name]
        return {"kanji": kanji, "english": english, "chinese": chinese}
    if name in JIELU_FAN_ENGLISH:
        return {"kanji": name, "english": JIELU_FAN_ENGLISH[name], "chinese": name}
    return {"kanji": name, "english": name.replace("_", " "), "chinese": name}


_WIND_NAMES = {"東": ("East", "东"), "南": ("South", "南"), "西": ("West", "西"), "北": ("North", "北")}


def _japanese_yaku_index() -> dict[str, str]:
    """Japanese yaku names as logs write them (tenhou.net/6's and the kanji of :data:`YAKU_BY_NAME`) ->
    jantaku's names."""
    from jantaku.records.tenhou6 import TENHOU6_YAKU_NAMES

    index = {y.kanji: name for name, y in YAKU_BY_NAME.items()}
    index.update({kanji: name for name, (kanji, _, _) in _DORA_NAMES.items()})
    for name, written in TENHOU6_YAKU_NAMES.items():
        if "{" not in written:
            index.setdefault(written, name)
    index.update({y.english.lower(): name for name, y in YAKU_BY_NAME.items()})
    index.update({english.lower(): name for name, (_, english, _) in _DORA_NAMES.items()})
    return index


def record_yaku_names(name: str, family: str = "riichi") -> dict[str, str]:
    """The names of a yaku as a game record writes it (jantaku's own name, tenhou.net/6's Japanese as in
    ``立直``, ``ドラ``, ``自風 北``, ``役牌:場風牌``, or an English name): ``kanji``, ``english`` and ``chinese``,
    for the replay viewer to show in the interface's language (a name it does not know stays as written).
    Under 洁律 (``family`` ``jielu``) the name is a fan's (``平和`` is then All chows, not riichi's Pinfu).

    >>> names = record_yaku_names
    >>> names("立直")["english"], names("ドラ")["chinese"], names("自風 北")["english"]
    ('Riichi', '宝牌', 'Seat wind (North)')
    >>> names("役牌:場風牌")["english"], names("Riichi")["kanji"], names("謎")["english"]
    ('Round wind', '立直', '謎')
    >>> record_yaku_names("平和")["english"], record_yaku_names("平和", "jielu")["english"]
    ('Pinfu', 'All chows')
    """
    if family == "jielu" or name in YAKU_BY_NAME or name in _DORA_NAMES:
        return yaku_names(name)
    text = name.strip().replace("役牌:", "役牌 ").replace("役牌：", "役牌 ")
    for prefix, english, chinese in (("自風", "Seat wind", "自风"), ("場風", "Round wind", "场风")):
        wind = text.removeprefix(prefix).removeprefix("牌").strip()
        if text.startswith(prefix) and wind in _WIND_NAMES:
            en, zh = _WIND_NAMES[wind]
            return {"kanji": name, "english": f"{english} ({en})", "chinese": f"{chinese} {zh}"}
    text = {"役牌 場風牌": "場風牌", "役牌 自風牌": "自風牌", "役牌 发": "役牌 發"}.get(text, text)
    index = _japanese_yaku_index()
    found = index.get(text) or index.get(text.lower())
    return yaku_names(found) if found is not None else yaku_names(name)


def all_yaku_names() -> dict[str, dict[str, str]]:
    """Every yaku and dora name, and every 洁律 fan, with its kanji, English and Chinese names (for the pages'
    tables)."""
    return {name: yaku_names(name) for name in [*YAKU_BY_NAME, *_DORA_NAMES, *JIELU_FAN_ENGLISH]}


def _yaku_json(name: str, value: int, yakuman: bool) -> dict[str, Any]:
    return {"name": name, "value": value, "unit": "yakuman" if yakuman else "han", **yaku_names(name)}


def _fan_json(name: str, points: int, melds: Any = ()) -> dict[str, Any]:
    return {"name": name, "value": points, "unit": "points", **yaku_names(name), "melds": list(melds)}


def jielu_score_json(sc: JieluResult) -> dict[str, Any]:
    """A 洁律 score as the pages show it: S, the value before halving, the fans with their points and the melds
    each uses, the wildcards (the hand's own tile, ``None`` for an extra one, and what it stands for) and the
    reading.

    >>> from jantaku import Hand
    >>> from jantaku.jielu import score_hand
    >>> out = jielu_score_json(score_hand(Hand.parse("123m456p789s11z344z")))
    >>> out["score"], out["value"], out["wildcards"], out["fans"][0]["english"], out["fans"][0]["melds"]
    (5, 11, [{'tile': '3z', 'stands_for': '1z'}], 'Mixed shifted chows', ['123m', '456p', '789s'])
    """
    return {
        "score": sc.score,
        "value": sc.value,
        "total": sc.total,
        "full": sc.full,
        "fans": [_fan_json(f.name, f.points, f.melds) for f in sc.fans],
        "wildcards": [
            {"tile": w.tile.mpsz if w.tile is not None else None, "stands_for": w.stands_for.mpsz} for w in sc.wildcards
        ],
        "reading": {"melds": list(sc.melds), "pair": sc.pair},
    }


def _win_score_json(sc: Any) -> dict[str, Any]:
    """A win's score for the result panel: riichi (han, fu, yaku) or 洁律 (``score`` S with its ``value``, the
    fans as ``yaku`` with points, and the wildcards; ``points`` is S)."""
    if isinstance(sc, JieluResult):
        shown = jielu_score_json(sc)
        return {
            "family": "jielu",
            "han": None,
            "fu": None,
            "yakuman": 0,
            "yaku": shown.pop("fans"),
            "limit": None,
            "points": sc.score,
            **shown,
        }
    return {
        "family": "riichi",
        "han": None if sc.yakuman else sc.han,
        "fu": None if sc.yakuman else sc.fu,
        "yakuman": sc.yakuman,
        "yaku": [_yaku_json(n, v, bool(sc.yakuman)) for n, v in sc.yaku],
        "limit": sc.limit,
        "points": sc.points,
        "fu_items": [[what, fu] for what, fu in sc.fu_items],
    }


def _sorted_ids(k: Kyoku, ids: Any) -> list[int]:
    return sorted(ids, key=lambda i: k.tile(i).sort_key)


def _win_tiles(k: Kyoku) -> list[str | None]:
    """The winning tile of each ``hora`` event of the hand, in the order of :attr:`HandResult.wins`."""
    out: list[str | None] = []
    for e in k.events:
        if e.get("type") == "hora":
            try:
                out.append(Tile.from_mjai(e["pai"]).mpsz)
            except (JantakuError, KeyError):  # pragma: no cover - the engine writes every hora's tile
                out.append(None)
    return out


def hand_result_json(k: Kyoku, number: int, round_name: str) -> dict[str, Any]:
    """The result panel of a finished hand: winners with their hands, yaku (or 洁律 fans), fu, points and
    payments, or the draw with who was tenpai. Only what the table shows everyone at a hand's end.

    Under 洁律 (``family`` ``jielu``) each win carries S, the fans and the wildcards, its ``order`` and, in the
    points mode, its ``multiplier`` (x3, x2, x1 by order of winning); ``completions`` holds the hand of each
    player who did not win, completed with one extra wildcard (points mode)."""
    res = k.result
    assert res is not None
    jielu = k.rules.family == "jielu"
    hora_tiles = _win_tiles(k)
    wins = []
    for n, w in enumerate(res.wins):
        st = k.seats[w.seat]
        sc = w.score
        conditions = getattr(sc, "conditions", None)
        win_tile = conditions.win.mpsz if conditions is not None and conditions.win is not None else None
        if win_tile is None and n < len(hora_tiles):
            win_tile = hora_tiles[n]
        hand = _sorted_ids(k, st.tiles)
        if win_tile is not None and w.from_seat is None:  # a drawn winning tile apart (a ron's is not in the hand)
            apart = next((i for i in reversed(hand) if k.tile(i).mpsz == win_tile), None)
            hand = [i for i in hand if i != apart]
        entry: dict[str, Any] = {
            "seat": w.seat,
            "from": w.from_seat,
            "pao": w.pao,
            "hand": [k.tile(i).mpsz for i in hand],
            "melds": [_meld_json(m) for m in st.melds],
            "win_tile": win_tile,
            **_win_score_json(sc),
            "payments": list(w.payments),
            "ura_indicators": [k.tile(i).mpsz for i in k.ura_indicators()] if st.riichi else [],
        }
        if jielu:
            entry["order"] = n + 1
            gain = w.payments[w.seat]
            entry["multiplier"] = gain // sc.score if k.rules.jielu_mode == "points" and sc.score else None
        wins.append(entry)
    tenpai_hands = {}
    if res.kind == "exhaustive" and not jielu:
        for s in range(4):
            if res.tenpai[s]:
                st = k.seats[s]
                tenpai_hands[str(s)] = [k.tile(i).mpsz for i in _sorted_ids(k, st.tiles)]
    completions = {}
    for s, c in sorted(res.completions.items()):
        st = k.seats[s]
        completions[str(s)] = {
            "seat": s,
            "hand": [k.tile(i).mpsz for i in _sorted_ids(k, st.tiles)],
            "melds": [_meld_json(m) for m in st.melds],
            **jielu_score_json(c),
        }
    out: dict[str, Any] = {
        "number": number,
        "round": round_name,
        "honba": k.honba,
        "family": k.rules.family,
        "kind": res.kind,
        "reason": res.reason,
        "wins": wins,
        "tenpai": list(res.tenpai),
        "tenpai_hands": tenpai_hands,
        "deltas": list(res.deltas),
        "scores": list(res.scores),
        "dora_indicators": [k.tile(i).mpsz for i in k.dora_indicators()],
    }
    if jielu:
        out["mode"] = k.rules.jielu_mode
        out["completions"] = completions
    return out


def _kind_name(kind: int) -> str:
    return Tile.from_kind(kind).mpsz


def _regular_waits(counts: list[int]) -> list[int]:
    """The kinds that complete 3n+1 closed tiles as melds and a pair (no seven pairs, no thirteen orphans)."""
    out = []
    for w in wait_kinds(counts):
        counts[w] += 1
        if shanten_regular(counts) == -1:
            out.append(w)
        counts[w] -= 1
    return out


def waits_json(k: Kyoku, seat: int) -> dict[str, Any]:
    """``seat``'s shanten and waits, as the play screen shows them on request: with 3n+1 closed tiles the waits
    (each with the copies this seat cannot see) and whether the seat is furiten; with 3n+2 the same for every
    discard that leaves the hand tenpai.

    Under 洁律 (``jielu`` true) the shanten and waits are those of the regular form (four melds and a pair: the
    variant has no seven pairs or thirteen orphans) without wildcards, and there is no furiten; a hand may win
    whenever some choice of wildcards makes it worth a point, which the offered tsumo and ron actions show."""
    jielu = k.rules.family == "jielu"
    shanten_of = shanten_regular if jielu else shanten
    waits_of = _regular_waits if jielu else wait_kinds
    st = k.seats[seat]
    counts = list(st.counts)
    seen = list(counts)
    for other in k.seats:
        for m in other.melds:
            for t in m.tiles:
                seen[t.kind] += 1
        for r in other.river:
            if r.called_by is None:
                seen[k.tile(r.tile).kind] += 1
    for i in k.dora_indicators():
        seen[k.tile(i).kind] += 1

    def listed(kinds: list[int]) -> list[dict[str, Any]]:
        return [{"tile": _kind_name(w), "left": max(0, 4 - seen[w])} for w in kinds]

    def option(discard: str | None, kinds: list[int], furiten: bool) -> dict[str, Any]:
        out: dict[str, Any] = {"discard": discard, "waits": listed(kinds)}
        if not jielu:
            out["furiten"] = furiten
        return out

    total = sum(counts)
    options: list[dict[str, Any]] = []
    if total % 3 == 1:
        sh = shanten_of(counts)
        if sh == 0:
            options.append(option(None, waits_of(counts), bool(st.furiten)))
    else:
        best = 8
        for kind in range(34):
            if not counts[kind]:
                continue
            counts[kind] -= 1
            sh = shanten_of(counts)
            best = min(best, sh)
            if sh == 0:
                kinds = waits_of(counts)
                furiten = st.furiten_riichi or any(st.discarded_kinds[w] or w == kind for w in kinds)
                options.append(option(_kind_name(kind), kinds, bool(furiten)))
            counts[kind] += 1
        sh = best
    out: dict[str, Any] = {"shanten": sh, "tenpai": options}
    if jielu:
        out["jielu"] = True
    return out


# -- a table --------------------------------------------------------------------------------------------------


@dataclass
class SeatInfo:
    """Who sits at a seat: ``kind`` is ``human`` or ``bot``.

    A human seat is either *claimed*, when its ``token`` (the secret its holder acts with) is set, or open,
    when only its ``invite`` is: the code of the invitation link the table's creator shares. The first browser
    that opens the invitation claims the seat and receives the token; the creator never sees it.
    """

    kind: str
    name: str
    bot: str | None = None
    token: str | None = None
    invite: str | None = None

    @property
    def claimed(self) -> bool:
        """Whether a person holds this (human) seat."""
        return self.kind == "human" and self.token is not None

    def to_json(self, with_token: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "bot": self.bot}
        if with_token:
            out["token"] = self.token
            if self.invite is not None:
                out["invite"] = self.invite
        return out


Commit = Callable[["LiveTable", int], None]
"""Stores a table's new state; given the table and the step it was at before the change."""


@dataclass
class _Listener:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int]
    seat: int | None = None
    told: tuple[int, str, int] = (-1, "", 0)
    """What the seat's view showed when this listener was last woken (:meth:`LiveTable.seen_key`): a seat's
    listener is woken only when that changed."""


@dataclass
class _Shadow:
    """What the seats not asked to answer a move see during its call window: the hand right after the move,
    before any answer (see :class:`LiveTable`)."""

    kyoku: Kyoku
    round_name: str
    results: int
    until: float
    seats: frozenset[int]
    steps: dict[int, int]


@dataclass
class _Hold:
    """A finished hand's board held under its result panel: until every person closed it, or ``until``."""

    until: float | None
    ready: set[int] = field(default_factory=set)


@dataclass
class LiveTable:
    """One game in play. Use :meth:`act` to move it; :meth:`view` to show it to a seat.

    **Pace** (``options.pace`` milliseconds, :data:`PACES`): at a table with a person, bots (and a person's
    automatic moves) take their turns one step at a time, ``pace`` apart, driven by :meth:`tick` (the
    :class:`TableManager`'s clock calls it); a pace of 0 plays them at once. Answers to a discard or a kan
    (a bot's call or pass, a person's automatic pass) are taken at once, so nothing waits longer than the
    pace. Every move that others may answer (a discard, a kan) opens a *call window* of one step: until it
    closes, every person who was not asked to answer sees the table as it was right after the move (the
    discard in its river, the table waiting), whether or not anyone may answer it and however fast an answer
    came, so neither the wait nor the number of messages tells that someone could call.

    **Hand's end** (``options.result_seconds``): when a hand ends and the game goes on, every seat goes on
    seeing the finished hand (rivers, melds, the result) until every person at the table has closed the
    result panel (:meth:`ready`) or the seconds have passed; only then is the next deal shown and played.

    **Timer** (``options.timer``, :data:`TIMERS`): a person asked to decide has the decision's seconds plus
    what is left of the hand's bank; on expiry the table answers for them (:meth:`_timeout_choice`: pass a
    call, discard the drawn tile), never taking a win unless the person's auto-win is on.

    **Auto options** (:attr:`auto`, per seat, :data:`AUTO_KEYS`): kept with the table and applied whenever
    the seat is asked."""

    id: str
    rules: str
    seed: str
    seats: list[SeatInfo]
    created: str
    game: Game
    actions: list[dict[str, Any]] = field(default_factory=list)
    owner: str | None = None
    tokens: int = 0
    hand_results: list[dict[str, Any]] = field(default_factory=list)
    lock: threading.RLock = field(default_factory=threading.RLock)
    listeners: list[_Listener] = field(default_factory=list)
    last_used: float = field(default_factory=time.monotonic)
    options: TableOptions = field(default_factory=TableOptions)
    auto: list[dict[str, bool]] = field(default_factory=lambda: [_no_auto() for _ in range(4)])
    released: int = 0
    """How many finished hands' boards were let go (every person closed the result, or its time ran out)."""
    clock: Callable[[], float] = time.monotonic
    scheduler: Callable[[], None] | None = None
    """Called when the table's next timed step (:attr:`wake_at`) may have changed (the manager's clock)."""
    wake_at: float | None = None
    """When :meth:`tick` has something to do next (a call window closing, a bot's step, a timer, a hold)."""
    _bots: dict[int, Any] = field(default_factory=dict)
    _seen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, how many times its being asked to act began or ended (a part of :meth:`view_step`)."""
    _ended: Kyoku | None = None
    _ended_round: str = ""
    _shadow: _Shadow | None = None
    _hold: _Hold | None = None
    _last_change: float = 0.0
    _turns: dict[int, tuple[int, float]] = field(default_factory=dict)
    _paused_at: float | None = None
    """When the people's turn timers stopped because nobody watched the table (:meth:`watched`), or ``None``."""
    """Per person asked now: the view step of the decision and when it was shown (for the timer)."""
    _bank: list[float] = field(default_factory=lambda: [0.0] * 4)
    _bank_hand: int = -1

    def __post_init__(self) -> None:
        for s, info in enumerate(self.seats):
            if info.kind == "bot":
                self._bots[s] = make_bot(info.bot or "efficiency", seed=f"{self.seed}:{s}")

    @property
    def step(self) -> int:
        """How many actions the game has taken (a client echoes it back with its action)."""
        return len(self.actions)

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def humans(self) -> list[int]:
        return [s for s, info in enumerate(self.seats) if info.kind == "human"]

    @property
    def paced(self) -> bool:
        """Whether bots take their turns a step at a time (a pace and at least one person at the table)."""
        return self.options.pace > 0 and bool(self.humans)

    def ruleset(self) -> Ruleset:
        """The table's rule set: its preset, with the chosen game length."""
        return table_rules(self.rules, self.options)

    def view_step(self, seat: int) -> int:
        """The ``step`` of ``seat``'s view, which a client echoes back with its action: the public events of the
        game so far (draws, discards, calls, riichi, dora, wins, draws of the hand...) plus the times this seat
        was asked to act or answered, plus the finished hands let go. It moves whenever the view changes, and it
        is a function of what this seat may know: another seat's pass on a discard adds nothing (a pass that
        settles the discard brings the same events, the next draw or call, as a discard nobody could answer),
        so neither the step nor how far it moves tells who else could call. During a call window a seat not
        asked to answer is at the step of the move itself. It follows from the actions alone (a table rebuilt
        from the store counts the same); it is not the table's :attr:`step`, which counts every action. A
        spectator's (:data:`SPECTATOR`) counts the public events and the finished hands let go, and during a call
        window it is a watcher like any seat not asked (so a spectator cannot time who could call either)."""
        sh = self._shadow
        if sh is not None and seat in sh.steps:
            return sh.steps[seat]
        if seat == SPECTATOR:
            return len(self.game.events) + self.released
        return len(self.game.events) + self._seen[seat] + self.released

    def seen_key(self, seat: int) -> tuple[int, str, int]:
        """What ``seat``'s view shows, in brief: its :meth:`view_step` and which scene it is shown (a call window
        it watches, a finished hand held under its result, the live table, the game over). A listener is told
        whenever this changes: a scene can change with the step unchanged (a person's own added kan: the call
        window's step counts the kan and the end of the turn, the table after it the kan and the replacement
        draw), and the page must then be sent what it now shows. Like the step, it is a function of what the
        seat may see."""
        sh = self._shadow
        if sh is not None and (seat in sh.seats or seat == SPECTATOR):
            return self.view_step(seat), "window", sh.results
        if self._hold is not None:
            return self.view_step(seat), "held", len(self.hand_results)
        return self.view_step(seat), "over" if self.game.over else "live", len(self.hand_results)

    def _asked(self) -> list[bool]:
        """Per seat, whether it is asked to act now."""
        return [bool(self.game.legal_actions(s)) for s in range(4)]

    def seat_of(self, token: str | None) -> int:
        """The seat a token belongs to; :class:`Forbidden` for any other token."""
        if isinstance(token, str) and token:
            for s, info in enumerate(self.seats):
                if info.kind == "human" and info.token is not None and secrets.compare_digest(info.token, token):
                    return s
        raise Forbidden("this token does not belong to a seat at this table")

    def _shown_legal(self, seat: int) -> list[Action]:
        """The actions ``seat`` is offered in the view it is shown (none during a call window it only watches,
        nor while a finished hand is held)."""
        sh = self._shadow
        if self.game.over or self._hold is not None or (sh is not None and seat in sh.seats):
            return []
        return self.game.legal_actions(seat)

    def spectator_token(self) -> str | None:
        """The secret of the table's read-only link (``None`` for a table without people, which has no owner).
        It follows from the owner's token (an HMAC), so it survives a restart without being stored, and it
        tells nothing of the owner's token or any seat's."""
        if self.owner is None:
            return None
        digest = hmac.new(self.owner.encode(), b"jantaku spectator link", hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:18]).decode()

    def is_spectator(self, token: str | None) -> bool:
        """Whether ``token`` is this table's read-only (spectator) link."""
        watch = self.spectator_token()
        return isinstance(token, str) and watch is not None and secrets.compare_digest(watch, token)

    # -- moving the game -------------------------------------------------------------------------------------

    def _apply(self, action: Action) -> None:
        """Apply one action (raises IllegalActionError, state unchanged), noting a hand's end."""
        k = self.game.kyoku
        was_playing = k.phase != ENDED
        round_name = self.game.round_name
        before = self._asked()
        self.game.apply(action)
        self.actions.append(action_to_json(action))
        if was_playing and k.phase == ENDED:
            self.hand_results.append(hand_result_json(k, len(self.hand_results) + 1, round_name))
            self._ended, self._ended_round = k, round_name
            if self.options.result_seconds and self.humans and not self.game.over:
                self._hold = _Hold(None)
        for s, now in enumerate(self._asked()):
            if now != before[s]:
                self._seen[s] += 1

    def _apply_move(self, action: Action, now: float) -> None:
        """Apply a move at a live table: a move others may answer opens its call window (at a paced table)."""
        game = self.game
        answering = game.yame_choice is None and game.kyoku.phase in _ANSWER_PHASES
        if not (self.paced and action.kind in _WINDOW_KINDS and not answering):
            self._apply(action)
            self._last_change = now
            return
        before_events = len(game.events)
        before_kyoku = len(game.kyoku.events)
        seen = [self._seen[s] + bool(game.legal_actions(s)) for s in range(4)]
        shadow = self._shadow_kyoku(action)
        round_name, results = game.round_name, len(self.hand_results)
        self._apply(action)
        k = self.game.kyoku
        answers = set(k.options) if k.phase in (RESPONSES, CHANKAN) else set()
        watchers = frozenset(s for s in self.humans if s not in answers)
        added = len(shadow.events) - before_kyoku
        steps = {s: before_events + added + seen[s] + self.released for s in watchers}
        steps[SPECTATOR] = before_events + added + self.released
        self._shadow = _Shadow(shadow, round_name, results, now + self.options.pace / 1000, watchers, steps)
        self._last_change = now

    def _shadow_kyoku(self, action: Action) -> Kyoku:
        """A copy of the hand with ``action`` applied and nothing after it: no answer asked of anyone, no draw,
        no kan completed; the table as everyone not asked to answer sees it during the call window."""
        k = self.game.kyoku.copy()
        k._after_discard_settles = lambda: None  # type: ignore[method-assign]
        k._finish_kan = lambda seat: None  # type: ignore[method-assign]
        k._finish_ankan = lambda seat: None  # type: ignore[method-assign]
        k.apply(action)
        k.options, k.answers = {}, {}
        k.phase = CHANKAN if action.kind in (KAKAN, ANKAN) else RESPONSES
        return k

    def _choose_auto(self, own_turn: bool) -> Action | None:
        """The next move nobody needs to be asked for: a bot's, or a person's automatic one (:attr:`auto`);
        answers to a discard or kan always, own-turn moves only with ``own_turn``."""
        game = self.game
        if game.over or self._hold is not None:
            return None
        answering = game.yame_choice is None and game.kyoku.phase in _ANSWER_PHASES
        if not answering and not own_turn:
            return None
        for s in game.to_act():
            legal = game.legal_actions(s)
            if s in self._bots:
                return self._bots[s].act(PlayerView(game.kyoku, s), legal)
            a = self._auto_choice(s, legal, answering)
            if a is not None:
                return a
        return None

    def _auto_pending(self) -> bool:
        """Whether a bot or a person's auto option has an own-turn move to take (without asking a bot)."""
        game = self.game
        if game.over or self._hold is not None:
            return False
        answering = game.yame_choice is None and game.kyoku.phase in _ANSWER_PHASES
        return any(
            s in self._bots or self._auto_choice(s, game.legal_actions(s), answering) is not None for s in game.to_act()
        )

    def _auto_choice(self, seat: int, legal: list[Action], answering: bool) -> Action | None:
        """A person's automatic move under their :attr:`auto` options, or ``None`` (they decide)."""
        auto = self.auto[seat]
        if not legal:
            return None
        if auto["win"]:
            for a in legal:
                if a.kind in (TSUMO, RON):
                    return a
        kinds = {a.kind for a in legal}
        if answering:
            if auto["no_calls"] and PASS in kinds and kinds <= {CHI, PON, DAIMINKAN, PASS}:
                return next(a for a in legal if a.kind == PASS)
            return None
        k = self.game.kyoku
        if auto["riichi_discard"] and self.game.yame_choice is None and k.seats[seat].riichi and kinds == {DISCARD}:
            return next((a for a in legal if a.tsumogiri), None)
        return None

    def _timeout_choice(self, legal: list[Action]) -> Action:
        """What the table does for a person whose time ran out: pass a call (or a robbable kan), discard the
        drawn tile (else the last tile of the hand), declare tenpai at the draw; never a win."""
        by_kind: dict[str, list[Action]] = {}
        for a in legal:
            by_kind.setdefault(a.kind, []).append(a)
        if PASS in by_kind:
            return by_kind[PASS][0]
        if DISCARD in by_kind:
            return next((a for a in by_kind[DISCARD] if a.tsumogiri), by_kind[DISCARD][-1])
        if TENPAI in by_kind:
            return by_kind[TENPAI][0]
        return next((a for a in legal if a.kind not in (TSUMO, RON)), legal[0])

    def _run_auto(self, now: float) -> None:
        """Take every move nobody needs to be asked for that is due now: answers at once, own-turn moves too at a
        table without a pace."""
        own_turn = not self.paced
        for _ in range(10_000):
            a = self._choose_auto(own_turn)
            if a is None:
                return
            self._apply_move(a, now)

    def run_bots(self) -> None:
        """Let the bots (and the people's auto options) act until a person must decide, the game is over, a
        finished hand is held, or (at a paced table) the next step must wait for its time."""
        now = self.clock()
        self._last_change = now
        self._run_auto(now)
        self._settle(now)

    def _settle(self, now: float) -> None:
        """After a change: start the hold's time, the people's timers, and schedule the next timed step."""
        if self._hold is not None and self._hold.until is None:
            start = self._shadow.until if self._shadow is not None else now
            self._hold.until = start + self.options.result_seconds
        self._retime(now)
        self._reschedule(now)

    def _retime(self, now: float) -> None:
        """Start and stop the people's decision clocks: a decision starts when it is shown to its seat; the time
        it took past the decision's seconds comes off the hand's bank."""
        limits = TIMERS.get(self.options.timer)
        if limits is None:
            self._turns.clear()
            return
        per, bank = limits
        hand = self.game.hand_index
        if hand != self._bank_hand:
            self._bank_hand = hand
            self._bank = [float(bank)] * 4
        for s in self.humans:
            key = self.view_step(s)
            asked = bool(self._shown_legal(s))
            started = self._turns.get(s)
            if started is not None and (not asked or started[0] != key):
                used = now - started[1]
                self._bank[s] = max(0.0, self._bank[s] - max(0.0, used - per))
                del self._turns[s]
                started = None
            if asked and started is None:
                self._turns[s] = (key, now)

    def _deadline(self, seat: int) -> float | None:
        limits = TIMERS.get(self.options.timer)
        started = self._turns.get(seat)
        if limits is None or started is None:
            return None
        return started[1] + limits[0] + self._bank[seat]

    def _due(self) -> float | None:
        """When the next own-turn automatic move is due (one pace after the last change), or ``None``."""
        if not self.paced or self._shadow is not None or not self._auto_pending():
            return None
        return self._last_change + self.options.pace / 1000

    def _reschedule(self, now: float) -> None:
        times: list[float] = []
        if self._shadow is not None:
            times.append(self._shadow.until)
        elif self._hold is not None:
            if self._hold.until is not None:
                times.append(self._hold.until)
        elif not self.game.over:
            due = self._due()
            if due is not None:
                times.append(due)
            if self._paused_at is None:
                times.extend(d for s in self.humans if (d := self._deadline(s)) is not None)
        wake = min(times) if times else None  # a game over may still close its last call window
        changed = wake != self.wake_at
        self.wake_at = wake
        if changed and wake is not None and self.scheduler is not None:
            self.scheduler()

    def tick(self, now: float | None = None) -> bool:
        """Do what is due at ``now`` (default: the table's clock): close a call window, let go of a finished
        hand whose time is up, take a timed-out person's move, or one bot's (or automatic) step. Returns whether
        anything changed that must be stored (a move, a finished hand let go). The caller holds :attr:`lock`,
        stores the change and then calls :meth:`notify`."""
        now = self.clock() if now is None else now
        stored = False
        sh = self._shadow
        at = now + _EARLY  # compared with the times due
        if sh is not None:
            if at < sh.until:
                self._reschedule(now)
                return False
            self._shadow = None
            self._last_change = sh.until
        elif self._hold is not None:
            if self._hold.until is not None and at >= self._hold.until:
                self._release(now)
                stored = True
        elif not self.game.over:
            late = None
            if self._paused_at is None:
                late = next((s for s in self.humans if (d := self._deadline(s)) is not None and at >= d), None)
            if late is not None and not self.watched():
                # nobody watches: the people's timers stop here (an abandoned table makes no moves and writes
                # nothing) until someone opens the table again (:meth:`touch`)
                self._paused_at = now
                late = None
                self._reschedule(now)
            if late is not None:
                legal = self.game.legal_actions(late)
                if legal:
                    chosen = self._auto_choice(late, legal, self._answering()) or self._timeout_choice(legal)
                    self._apply_move(chosen, now)
                    self._run_auto(now)
                    stored = True
            else:
                due = self._due()
                if due is not None and at >= due:
                    a = self._choose_auto(own_turn=True)
                    if a is not None:
                        self._apply_move(a, now)
                        self._run_auto(now)
                        stored = True
        self._settle(now)
        return stored

    def watched(self) -> bool:
        """Whether anyone watches the table: a websocket open on it, or a request about it within the last
        :data:`UNWATCHED_SECONDS`. A table nobody watches stops its people's turn timers."""
        return bool(self.listeners) or time.monotonic() - self.last_used < UNWATCHED_SECONDS

    def touch(self) -> None:
        """Someone asked about the table: it is watched again, and a turn timer stopped meanwhile starts the
        person's decision over (its seconds, and the bank as it was: the person may be just back)."""
        self.last_used = time.monotonic()
        if self._paused_at is None:
            return
        with self.lock:
            if self._paused_at is None:
                return
            now = self.clock()
            self._turns = {s: (key, now) for s, (key, _) in self._turns.items()}
            self._paused_at = None
            self._reschedule(now)

    def _answering(self) -> bool:
        return self.game.yame_choice is None and self.game.kyoku.phase in _ANSWER_PHASES

    def _release(self, now: float) -> None:
        """Let go of a held finished hand: the next deal is shown (and played, where nobody needs asking)."""
        self._hold = None
        self.released = len(self.hand_results)
        self._last_change = now
        self._run_auto(now)

    def act(self, seat: int, step: int, index: int, commit: Commit | None = None) -> None:
        """Apply ``seat``'s legal action number ``index`` if the table is still at ``step``, then the bots.

        ``commit`` (given the table and the step it was at) stores the new state before anyone sees it; if it
        raises, the table is put back exactly as it was and the error goes on."""
        with self.lock:
            self._check_step(seat, step)
            legal = self._shown_legal(seat)
            if not legal:
                raise BadRequest(self._not_asked(seat))
            if not 0 <= index < len(legal):
                raise BadRequest(f"no legal action number {index}: seat {seat} has {len(legal)} (0-{len(legal) - 1})")
            self._move(legal[index], commit)
        self.notify()

    def apply_action(self, seat: int, step: int, action: Action, commit: Commit | None = None) -> None:
        """Like :meth:`act` with an explicit action (an illegal one is refused with 400 naming the rule)."""
        with self.lock:
            self._check_step(seat, step)
            if action.seat != seat:
                raise Forbidden(f"a seat may act only for itself (seat {seat}, action for seat {action.seat})")
            if not self._shown_legal(seat):
                raise BadRequest(self._not_asked(seat))
            self._move(action, commit)
        self.notify()

    def ready(self, seat: int, commit: Commit | None = None) -> None:
        """``seat`` closed the result panel of the finished hand held on the board; when every person has, the
        next deal is shown. Nothing happens when no hand is held."""
        with self.lock:
            hold = self._hold
            if hold is None or seat in hold.ready:
                return
            hold.ready.add(seat)
            if not set(self.humans) <= hold.ready:
                return
            with self._committed(commit) as now:
                self._release(now)
        self.notify()

    def set_auto(self, seat: int, changes: dict[str, bool], commit: Commit | None = None) -> None:
        """Change ``seat``'s auto options (kept with the table) and take any move they now decide."""
        with self.lock, self._committed(commit) as now:
            self.auto[seat] = {**self.auto[seat], **changes}
            if self._shadow is None or seat not in self._shadow.seats:
                self._run_auto(now)
        self.notify()

    @contextlib.contextmanager
    def _committed(self, commit: Commit | None) -> Iterator[float]:
        """A change of the table (made in the ``with`` block, given the time ``now``), then what it makes due
        (:meth:`_settle`) and ``commit``; on any failure the table is put back as it was (:meth:`_restore`)."""
        before = self._snapshot()
        now = self.clock()
        try:
            yield now
            self._settle(now)
            if commit is not None:
                commit(self, before["step"])
        except BaseException:
            self._restore(before)
            raise

    def _not_asked(self, seat: int) -> str:
        """The refusal of an action by a seat that is not asked to act: it names whose turn it is only when that
        is public (a draw/discard turn), never who else may answer a discard."""
        if self._hold is not None:
            return f"seat {seat} is not asked to act now (the hand is over: the next deal waits for the result panel)"
        turn = self._public_to_act(seat)
        if turn:
            return f"seat {seat} is not asked to act now (it is seat {turn[0]}'s turn)"
        return f"seat {seat} is not asked to act now (waiting for other players)"

    def _check_step(self, seat: int, step: int) -> None:
        if self.game.over:
            raise Conflict("the game is over")
        seen = self.view_step(seat)
        if step != seen:
            raise Conflict(f"stale action: this seat's view is at step {seen}, this was sent at step {step}")

    def _move(self, action: Action, commit: Commit | None) -> None:
        """Apply a person's action and the bots' answers, then ``commit``; on any failure after the person's
        action was applied, restore the table (an illegal action changes nothing)."""
        before = self._snapshot()
        now = self.clock()
        try:
            self._apply_move(action, now)
        except IllegalActionError as e:
            raise BadRequest(str(e)) from None
        try:
            self._run_auto(now)
            self._settle(now)
            if commit is not None:
                commit(self, before["step"])
        except BaseException:
            self._restore(before)
            raise

    def _snapshot(self) -> dict[str, Any]:
        """Everything a failed store puts back (see :meth:`_restore`)."""
        return {
            "step": self.step,
            "results": len(self.hand_results),
            "bots": copy.deepcopy(self._bots),
            "seen": list(self._seen),
            "shadow": self._shadow,
            "hold": copy.deepcopy(self._hold),
            "released": self.released,
            "auto": copy.deepcopy(self.auto),
            "last_change": self._last_change,
            "turns": dict(self._turns),
            "bank": list(self._bank),
            "bank_hand": self._bank_hand,
        }

    def _restore(self, snap: dict[str, Any]) -> None:
        """Put the table back as in ``snap``: the game replayed from its seed and first ``step`` actions (the game
        follows from them alone), the hand results, the bots, the seats' view steps and the timing as they were."""
        step = snap["step"]
        actions = self.actions[:step]
        game = Game(self.ruleset(), seed=self.seed, names=[i.name for i in self.seats])
        for a in actions:
            k, name = game.kyoku, game.round_name
            playing = k.phase != ENDED
            game.apply(action_from_json(a))
            if playing and k.phase == ENDED:
                self._ended, self._ended_round = k, name
        self.game, self.actions, self.hand_results = game, actions, self.hand_results[: snap["results"]]
        self._bots, self._seen, self._shadow, self._hold = snap["bots"], snap["seen"], snap["shadow"], snap["hold"]
        self.released, self.auto, self._last_change = snap["released"], snap["auto"], snap["last_change"]
        self._turns, self._bank, self._bank_hand = snap["turns"], snap["bank"], snap["bank_hand"]
        self._reschedule(self.clock())

    def resume(self, now: float | None = None) -> None:
        """After the table was rebuilt from the store: hold a finished hand not yet let go, and schedule what is
        due (a paced bot's step, the people's timers)."""
        now = self.clock() if now is None else now
        self._shadow = None
        held = len(self.hand_results) > self.released and self.options.result_seconds and self.humans
        self._hold = _Hold(now + self.options.result_seconds) if held and not self.game.over else None
        self._last_change = now
        self._settle(now)

    # -- listeners (websockets) ------------------------------------------------------------------------------

    def subscribe(self, seat: int | None = None) -> _Listener:
        """A queue (of the running event loop) that gets a step after every change; with ``seat``, only after a
        change that seat can see (its :meth:`view_step` moved), so the messages pushed to a seat do not tell
        when another seat passed on a discard."""
        listener = _Listener(asyncio.get_running_loop(), asyncio.Queue(), seat)
        with self.lock:
            if seat is not None:
                listener.told = self.seen_key(seat)
            self.listeners.append(listener)
        self.touch()
        return listener

    def unsubscribe(self, listener: _Listener) -> None:
        with self.lock:
            if listener in self.listeners:
                self.listeners.remove(listener)

    def notify(self, wake: int | None = None) -> None:
        """Tell every listener the table changed (thread-safe; from any thread or loop). A seat's listeners are
        told only when its view moved, or when it is ``wake`` (its link was reissued: the old link's sockets
        must learn that they no longer hold the seat)."""
        told: list[tuple[_Listener, int]] = []
        with self.lock:
            for li in self.listeners:
                if li.seat is None:
                    told.append((li, self.step))
                    continue
                seen = self.seen_key(li.seat)
                if seen != li.told or li.seat == wake:
                    li.told = seen
                    told.append((li, seen[0]))
        for li, step in told:
            try:
                li.loop.call_soon_threadsafe(li.queue.put_nowait, step)
            except RuntimeError:  # the listener's loop is closed
                self.unsubscribe(li)

    # -- what a seat sees ------------------------------------------------------------------------------------

    def view(self, seat: int) -> dict[str, Any]:
        """Everything ``seat`` may see, as JSON: own hand (sorted, drawn tile apart), the public table, the
        legal actions with their indices, the last hand's result and the final table once the game is over.

        Nothing in it tells of another seat's options: ``to_act`` names another seat only on its draw/discard
        turn (or the all-last dealer's choice to stop), which everyone sees; while other seats may answer a
        discard, rob a kan or declare tenpai it holds this seat alone if this seat is asked too, else nothing,
        and ``round.phase`` is :data:`WAITING` unless this seat is asked. ``step`` is :meth:`view_step`."""
        with self.lock:
            return self._view(seat)

    def spectator_view(self) -> dict[str, Any]:
        """What a spectator (the read-only link) sees: the public table as every seat sees it, with no closed
        tile of any seat and no seat's options (``hand`` empty, ``actions`` empty, no ``waits``; ``to_act`` and
        ``round.phase`` as told to a seat that is not asked, see :meth:`view`). Once the game is over every
        seat's closed tiles of the last hand are shown (``players[s]["hand"]``). ``seat`` is ``None`` and
        ``spectator`` true; ``step`` counts the public events (a pass on a discard does not move it)."""
        with self.lock:
            seat_view = self._view(0, viewer=SPECTATOR)
            k, _, _, _ = self._scene(SPECTATOR)
            live = k is self.game.kyoku and not (self._hold is not None and k is self._ended)
            out = {key: seat_view[key] for key in _SPECTATOR_KEYS if key in seat_view}
            phase = self._public_phase(SPECTATOR) if live else (ENDED if k.phase == ENDED else WAITING)
            out["round"] = {**seat_view["round"], "phase": phase}
            out["players"] = [dict(p) for p in seat_view["players"]]
            if self.game.over:
                k = self.game.kyoku
                for p in out["players"]:
                    p["hand"] = [k.tile(i).mpsz for i in _sorted_ids(k, k.seats[p["seat"]].tiles)]
            out.update(
                spectator=True,
                seat=None,
                step=self.view_step(SPECTATOR),
                hand=[],
                drawn=None,
                to_act=self._public_to_act(SPECTATOR) if live else [],
                actions=[],
                waits=None,
            )
            return out

    def _public_to_act(self, seat: int) -> list[int]:
        """The seats ``seat`` may be told the table waits for: the seat on its (public) draw/discard turn or the
        all-last dealer deciding whether to stop; ``seat`` itself whenever it is asked; nobody else."""
        game = self.game
        if game.over:
            return []
        waiting = game.to_act()
        if game.yame_choice is not None or game.kyoku.phase in _PUBLIC_PHASES:
            return waiting
        return [seat] if seat in waiting else []

    def _public_phase(self, seat: int) -> str:
        """The hand's phase as ``seat`` may see it: a private decision (answers to a discard, a robbable kan, a
        tenpai declaration) is named only to a seat asked to take part in it."""
        k = self.game.kyoku
        if k.phase in _PUBLIC_PHASES or seat in k.to_act():
            return k.phase
        return WAITING

    def _scene(self, seat: int) -> tuple[Kyoku, str, int, bool]:
        """What ``seat`` is shown: the hand (the live one, a call window's, or a held finished one), its round's
        name, how many hand results it shows and whether the game is shown as over."""
        sh = self._shadow
        if sh is not None and (seat in sh.seats or seat == SPECTATOR):
            return sh.kyoku, sh.round_name, sh.results, False
        if self._hold is not None and self._ended is not None:
            return self._ended, self._ended_round, len(self.hand_results), False
        return self.game.kyoku, self.game.round_name, len(self.hand_results), self.game.over

    def _view(self, seat: int, viewer: int | None = None) -> dict[str, Any]:
        """``seat``'s view; ``viewer`` (default ``seat``) is whose scene it shows: :data:`SPECTATOR` for a
        spectator's view, built on a seat's and then stripped of everything private."""
        game = self.game
        k, round_name, shown_results, over = self._scene(seat if viewer is None else viewer)
        live = k is game.kyoku and not (self._hold is not None and k is self._ended)
        key: Callable[[int], int] = lambda i: k.tile(i).sort_key  # noqa: E731
        own = k.seats[seat]
        drawn = k.drawn if (k.phase == DRAWN and k.actor == seat and k.drawn in own.tiles) else None
        hand = sorted((i for i in own.tiles if i != drawn), key=key)
        players = []
        for s in range(4):
            st = k.seats[s]
            players.append(
                {
                    "seat": s,
                    "name": self.seats[s].name,
                    "kind": self.seats[s].kind,
                    "bot": self.seats[s].bot,
                    "wind": _WINDS[k.seat_wind(s)],
                    "score": k.scores[s],
                    "riichi": st.riichi,
                    "hand_count": len(st.tiles),
                    "has_drawn": k.phase == DRAWN and k.actor == s and not over,
                    "river": [
                        {
                            "tile": k.tile(r.tile).mpsz,
                            "tsumogiri": r.tsumogiri,
                            "riichi": r.riichi,
                            "called_by": r.called_by,
                        }
                        for r in st.river
                    ],
                    "melds": [_meld_json(m) for m in st.melds],
                    "won": bool(k.won[s]),
                }
            )
        # 洁律's points mode: a winner leaves the hand and the others play on; every winner's hand and S is public
        wins_so_far = []
        if k.rules.family == "jielu":
            tiles = _win_tiles(k)
            for n, w in enumerate(k.wins):
                wins_so_far.append(
                    {
                        "seat": w.seat,
                        "from": w.from_seat,
                        "hand": [k.tile(i).mpsz for i in _sorted_ids(k, k.seats[w.seat].tiles)],
                        "win_tile": tiles[n] if n < len(tiles) else None,
                        "score": w.score.score,
                        "payments": list(w.payments),
                    }
                )
        legal = self._shown_legal(seat)
        final = None
        if over and game.result is not None:
            r = game.result
            final = {"scores": list(r.scores), "ranks": list(r.ranks), "final": list(r.final)}
        return {
            "table": self.id,
            "step": self.view_step(seat),
            "seat": seat,
            "rules": self.rules,
            "family": k.rules.family,
            "mode": k.rules.jielu_mode if k.rules.family == "jielu" else None,
            "round": {
                "name": round_name,
                "wind": _WINDS[k.round_wind],
                "number": k.kyoku_number,
                "dealer": k.dealer,
                "honba": k.honba,
                "deposits": k.deposits,
                "tiles_left": k.tiles_left,
                "dora_indicators": [k.tile(i).mpsz for i in k.dora_indicators()],
                "phase": self._public_phase(seat) if live else (ENDED if k.phase == ENDED else WAITING),
            },
            "players": players,
            "hand": [k.tile(i).mpsz for i in hand],
            "drawn": k.tile(drawn).mpsz if drawn is not None else None,
            "to_act": self._public_to_act(seat) if live else [],
            "actions": [{"index": n, **action_to_json(a)} for n, a in enumerate(legal)],
            "waits": waits_json(k, seat) if k.phase != ENDED and not k.won[seat] else None,
            "wins": wins_so_far,
            "hand_results": shown_results,
            "last_result": self.hand_results[shown_results - 1] if shown_results else None,
            "over": over,
            "final": final,
            **self._pacing_view(seat, k),
        }

    def _pacing_view(self, seat: int, k: Kyoku) -> dict[str, Any]:
        """The view's parts about pace and time: the table's options, the seat's own auto options, the last
        discard (its seat and place in that river), the last call, riichi, win or draw to announce (with its
        event number, so a page shows each once), the held finished hand (seconds left, whether this seat closed
        it) and this seat's own decision clock (never another seat's: it would tell who is deciding)."""
        last_discard = None
        announce = None
        for n in range(len(k.events) - 1, -1, -1):
            e = k.events[n]
            kind = e.get("type")
            if announce is None and kind in _ANNOUNCED:
                key = f"{k.round_wind}-{k.kyoku_number}-{k.honba}-{n}"
                announce = {"type": kind, "seat": e.get("actor"), "key": key}
                if kind == "hora":
                    announce["tsumo"] = e.get("actor") == e.get("target")
            if last_discard is None and kind == "dahai":
                actor = e["actor"]
                last_discard = {"seat": actor, "index": len(k.seats[actor].river) - 1}
            if announce is not None and last_discard is not None:
                break
        now = self.clock()
        hold = None
        if self._hold is not None and k is self._ended:
            left = max(0.0, (self._hold.until or now + self.options.result_seconds) - now)
            hold = {"seconds_left": round(left, 1), "ready": seat in self._hold.ready}
        timer = None
        limits = TIMERS.get(self.options.timer)
        deadline = self._deadline(seat)
        if limits is not None:
            timer = {"seconds": limits[0], "bank": round(self._bank[seat], 1), "left": None}
            if deadline is not None and self._shown_legal(seat):
                timer["left"] = round(max(0.0, deadline - now), 1)
        return {
            "options": self.options.to_json(),
            "auto": dict(self.auto[seat]),
            "last_discard": last_discard,
            "announce": announce,
            "hold": hold,
            "timer": timer,
        }

    # -- storage ---------------------------------------------------------------------------------------------

    def stored_table(self) -> StoredTable:
        return StoredTable(
            self.id,
            self.created,
            utc_now(),
            self.rules,
            self.seed,
            [info.to_json(with_token=True) for info in self.seats],
            list(self.actions),
            "finished" if self.over else "playing",
            self.owner,
            self.tokens,
            {**self.options.to_json(), "auto": copy.deepcopy(self.auto), "released": self.released},
        )

    def stored_game(self) -> StoredGame:
        r = self.game.result
        summary: dict[str, Any] = {"hands": len(self.hand_results)}
        if self.options.length is not None:
            summary["length"] = self.options.length
        if r is not None:
            summary.update(scores=list(r.scores), ranks=list(r.ranks), final=list(r.final))
        return StoredGame(
            self.id,
            self.created,
            self.rules,
            [info.to_json() for info in self.seats],
            "finished" if self.over else "playing",
            self.game.events,
            summary,
        )


# -- the manager ------------------------------------------------------------------------------------------------


class TableManager:
    """The tables of the server: those in play held in memory (at most ``max_tables``), every one in the store.

    - A finished game leaves memory once nobody watches it, and so does a table nobody has used for
      ``idle_seconds``; either is rebuilt from the store on its next request (a view of a finished game
      still works).
    - At most ``max_tables`` tables are held: the least recently used unwatched ones leave first; when every
      held table is watched, a new one is refused with 503 (:class:`Unavailable`).
    - One client (an address) may create at most ``creates_per_minute`` tables a minute (429,
      :class:`TooManyRequests`); 0 means no limit.
    """

    def __init__(
        self,
        store: GameStore,
        seed_source: Callable[[], str] | None = None,
        *,
        max_tables: int = 1000,
        idle_seconds: float = 900.0,
        creates_per_minute: int = 60,
        defaults: TableOptions | None = None,
        clock: Callable[[], float] | None = None,
        bot_games_days: float = BOT_GAMES_DAYS,
    ) -> None:
        """``seed_source`` gives each new table's seed (default: 64 random bits); tests pass a fixed sequence
        to make games reproducible. ``bot_games_days``: stored games of bots alone are deleted after this many
        days (0: kept). ``defaults``: the options of a table created without them (default: no
        pace, no hold at a hand's end, no timer, the rule set's length: what a program driving the API
        wants; ``jantaku serve`` passes a person's defaults). ``clock``: the tables' clock (default
        :func:`time.monotonic`, with a thread that runs their timed steps; a test passing its own clock calls
        :meth:`run_due` itself)."""
        if max_tables < 1 or idle_seconds <= 0 or creates_per_minute < 0 or bot_games_days < 0:
            raise ValueError("max_tables >= 1, idle_seconds > 0, creates_per_minute >= 0 and bot_games_days >= 0")
        self.bot_games_days = bot_games_days
        self._expired_at = float("-inf")
        self.defaults = defaults or TableOptions()
        self.clock = clock or time.monotonic
        self._threaded = clock is None
        self._clock_cond = threading.Condition()
        self._clock_thread: threading.Thread | None = None
        self._closed = False
        self.store = store
        self.seed_source = seed_source or (lambda: secrets.token_hex(8))
        self.max_tables = max_tables
        self.idle_seconds = idle_seconds
        self.creates_per_minute = creates_per_minute
        self.tables: dict[str, LiveTable] = {}
        self._lock = threading.RLock()
        self._loading: dict[str, threading.Lock] = {}
        self._creates: dict[str, deque[float]] = {}
        self._swept = 0.0

    # -- creating --------------------------------------------------------------------------------------------

    def create(
        self,
        rules: str,
        seats: list[str],
        names: list[str] | None = None,
        seed: str | None = None,
        client: str | None = None,
        options: TableOptions | None = None,
        creator_seat: Any = "first",
        play: bool = True,
    ) -> LiveTable:
        """A new table: ``seats`` are four of ``human`` or a bot name (:data:`BOTS`). Bots play at once (a
        table of four bots plays its whole game here), or at the table's pace (``options``, default
        :attr:`defaults`). ``client`` (an address) counts against the creation limit. ``play=False``: a table of
        four bots is returned unplayed and unstored (the web server plays it in a worker process,
        :func:`play_bots_only`, and stores it with :meth:`store_bots_only`).

        The creator sits at ``creator_seat``: the first human seat by default, a human seat's number, or
        ``None`` for a creator who only hands out the invitations. That seat is claimed at once (its token is
        the creator's); every other human seat waits for its invitation to be opened (:meth:`claim`)."""
        if not isinstance(rules, str) or rules not in playable_presets():
            raise BadRequest(f"unknown rule set {rules!r}: one of {', '.join(playable_presets())}")
        if not isinstance(seats, list) or len(seats) != 4:
            raise BadRequest("seats: a list of four entries, each 'human' or a bot name")
        infos = []
        for s, kind in enumerate(seats):
            if kind == "human":
                infos.append(SeatInfo("human", f"player {s + 1}", None, None, secrets.token_urlsafe(12)))
            elif isinstance(kind, str) and kind in BOTS:
                infos.append(SeatInfo("bot", f"{kind} bot {s + 1}", kind))
            else:
                raise BadRequest(f"seat {s}: {_short(kind)} is neither 'human' nor a bot ({', '.join(BOTS)})")
        humans = [s for s, info in enumerate(infos) if info.kind == "human"]
        if creator_seat == "first":
            creator_seat = humans[0] if humans else None
        if creator_seat is not None:
            if not _is_int(creator_seat) or creator_seat not in humans:
                raise BadRequest(f"creator_seat: one of the human seats {humans} or null, not {_short(creator_seat)}")
            infos[creator_seat].token, infos[creator_seat].invite = secrets.token_urlsafe(16), None
        if names is not None:
            if not isinstance(names, list) or len(names) != 4 or not all(isinstance(n, str) for n in names):
                raise BadRequest("names: a list of four strings")
            for s, (info, name) in enumerate(zip(infos, names, strict=True)):
                if name.strip():
                    try:
                        info.name = check_name(name, f"names[{s}]")
                    except TextError as e:
                        raise BadRequest(str(e)) from None
        self._count_creation(client)
        self._sweep(force=True)
        with self._lock:
            if len(self.tables) >= self.max_tables and not self._evict_lru():
                raise Unavailable(
                    f"the server holds its limit of {self.max_tables} tables in play, all watched: try again later"
                )
        seed = seed or self.seed_source()
        options = options or self.defaults
        table_id = secrets.token_urlsafe(8)
        with self._storing(table_id):
            while table_id in self.tables or self.store.get_table(table_id) or self.store.get_game(table_id):
                table_id = secrets.token_urlsafe(8)  # pragma: no cover - 64 random bits
        game = Game(table_rules(rules, options), seed=seed, names=[i.name for i in infos])
        table = LiveTable(table_id, rules, seed, infos, utc_now(), game, options=options, clock=self.clock)
        table.scheduler = self._wake_clock
        if any(info.kind == "human" for info in infos):
            table.owner = secrets.token_urlsafe(16)
        if not play and not table.humans:
            return table
        table.run_bots()
        with self._storing(table_id):
            self._persist(table, None)
        if not table.over:
            with self._lock:
                self.tables[table_id] = table
            self._wake_clock()  # the clock may have looked before the table was held
        return table

    def store_bots_only(self, table: LiveTable, played: StoredGame) -> None:
        """Store the game of a table of four bots that :func:`play_bots_only` played elsewhere (``create`` with
        ``play=False`` made the table); stored games of bots alone older than :attr:`bot_games_days` are
        deleted meanwhile (at most once an hour)."""
        if played.id != table.id or played.status != "finished":
            raise BadRequest(f"table {table.id}: not the finished game of this table")
        with self._storing(table.id):
            self.store.finish_table(table.id, played, None, None)
        self.expire_bot_games()

    def expire_bot_games(self, force: bool = False) -> int:
        """Delete the stored games of bots alone older than :attr:`bot_games_days` (none when it is 0); at most
        once an hour unless ``force``. How many were deleted."""
        now = time.monotonic()
        if not self.bot_games_days or (not force and now - self._expired_at < 3600):
            return 0
        self._expired_at = now
        cutoff = (datetime.now(UTC) - timedelta(days=self.bot_games_days)).strftime("%Y-%m-%dT%H:%M:%SZ")
        with self._storing("(expiry)"):
            return self.store.delete_bot_games(cutoff)

    def _count_creation(self, client: str | None) -> None:
        if not self.creates_per_minute or client is None:
            return
        now = time.monotonic()
        with self._lock:
            times = self._creates.setdefault(client, deque())
            while times and times[0] <= now - 60:
                times.popleft()
            if len(times) >= self.creates_per_minute:
                wait = int(times[0] + 60 - now) + 1
                raise TooManyRequests(
                    f"at most {self.creates_per_minute} new tables a minute from one address: try again in {wait} s"
                )
            times.append(now)
            if len(self._creates) > 10_000:  # forget addresses that created nothing in the last minute
                for key in [k for k, v in self._creates.items() if not v or v[-1] <= now - 60]:
                    del self._creates[key]

    # -- holding and loading ---------------------------------------------------------------------------------

    def get(self, table_id: str) -> LiveTable:
        """A table, rebuilt from the store when it is not held (after a restart, once idle, once finished, or
        moved on by another server process on the same file); :class:`NotFound` if there is none."""
        self._sweep()
        with self._lock:
            table = self.tables.get(table_id)
        if table is not None:
            if not table.over:
                with table.lock, self._storing(table_id):  # never compared while a move is being stored
                    if self.store.table_stamp(table_id) != (table.step, table.tokens):
                        self._refresh(table)  # another process moved it on, finished it or reissued a link
            table.touch()
            return table
        with self._lock:
            loading = self._loading.setdefault(table_id, threading.Lock())
        with loading:  # one rebuild per table at a time; other tables are not held up
            with self._lock:
                table = self.tables.get(table_id)
            if table is None:
                table = self._load(table_id)
                with self._lock:
                    if len(self.tables) < self.max_tables or self._evict_lru():
                        self.tables[table_id] = table
                self._wake_clock()  # its timed steps were scheduled before it was held
        with self._lock:
            self._loading.pop(table_id, None)
        return table

    def _load(self, table_id: str) -> LiveTable:
        with self._storing(table_id):
            stored = self.store.get_table(table_id)
            if stored is None:
                stored = self.store.get_finished_table(table_id)
                if stored is None and self.store.get_game(table_id) is not None:
                    raise NotFound(f"game {table_id} is over: see /api/games/{table_id}")
        if stored is None:
            raise NotFound(f"no table {table_id}")
        return self._rebuild(stored)

    def _refresh(self, table: LiveTable) -> None:
        """Read a held table again from the store, in place (its watchers stay and are told)."""
        with table.lock:
            with self._storing(table.id):
                stored = self.store.get_table(table.id) or self.store.get_finished_table(table.id)
            if stored is None:
                self.evict(table.id, table)
                raise NotFound(f"no table {table.id}")
            fresh = self._rebuild(stored)
            table.game, table.actions, table.hand_results = fresh.game, fresh.actions, fresh.hand_results
            table._bots, table._seen = fresh._bots, fresh._seen
            table.seats, table.owner, table.tokens = fresh.seats, fresh.owner, fresh.tokens
            table.options, table.auto, table.released = fresh.options, fresh.auto, fresh.released
            table._ended, table._ended_round = fresh._ended, fresh._ended_round
            table._turns.clear()
            table._bank_hand = -1
            table.resume()
        table.notify()

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        return rebuild_table(stored, self.clock, self._wake_clock)

    def evict(self, table_id: str, table: LiveTable | None = None) -> None:
        """Let a table leave memory (it stays in the store); with ``table``, only if that object is held."""
        with self._lock:
            if table is None or self.tables.get(table_id) is table:
                self.tables.pop(table_id, None)

    def _sweep(self, force: bool = False) -> None:
        """Let finished and idle unwatched tables leave memory (at most once a second unless ``force``)."""
        now = time.monotonic()
        with self._lock:
            if not force and now - self._swept < 1.0:
                return
            self._swept = now
            for tid, t in list(self.tables.items()):
                if not t.listeners and (t.over or now - t.last_used > self.idle_seconds):
                    del self.tables[tid]

    def _evict_lru(self) -> bool:
        """Make room for one table: the least recently used unwatched one leaves memory (``False``: none can)."""
        with self._lock:
            free = [t for t in self.tables.values() if not t.listeners]
            if not free:
                return False
            oldest = min(free, key=lambda t: t.last_used)
            del self.tables[oldest.id]
            return True

    def release(self, table: LiveTable) -> None:
        """A watcher left: a finished table nobody watches any more leaves memory."""
        if table.over and not table.listeners:
            self.evict(table.id, table)

    # -- moving ----------------------------------------------------------------------------------------------

    def act(self, table_id: str, token: Any, step: Any, index: Any) -> LiveTable:
        """Apply a person's action, by index into the legal actions (see :meth:`LiveTable.act`) or as an action
        object (``{"type", "tile", "consumed", "tsumogiri"}``), storing the new state before it is applied for
        good (see the module docs)."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        if not _is_int(step):
            raise BadRequest("'step' (an integer: the step of the view the action was chosen in) is required")
        table = self.get(table_id)
        seat = table.seat_of(token)
        try:
            if isinstance(index, dict):
                try:
                    action = action_from_json({**index, "seat": index.get("seat", seat)})
                except (JantakuError, KeyError, TypeError, ValueError, OverflowError) as e:
                    raise BadRequest(f"malformed action: {e}") from None
                table.apply_action(seat, step, action, self._commit)
            elif _is_int(index):
                table.act(seat, step, index, self._commit)
            else:
                raise BadRequest("an action is {'step': int, 'index': int} or {'step': int, 'action': {...}}")
        except StaleWrite:
            self._refresh(table)
            raise Conflict(
                "another server process moved this table first: nothing was applied, reload the table"
            ) from None
        table.touch()
        return table

    def claim(self, table_id: str, invite: Any) -> tuple[LiveTable, int, str]:
        """Open an invitation: the seat whose invitation code is ``invite`` is claimed by whoever opens it first,
        who receives the seat's secret token (returned with the table and the seat). A code that is no longer any
        seat's, because the seat was claimed or the creator issued a new invitation, is refused (409)."""
        if not isinstance(invite, str) or not invite:
            raise BadRequest("'invite' (the invitation code of a seat link, a string) is required")
        table = self.get(table_id)
        with table.lock:
            seats = [
                s
                for s, info in enumerate(table.seats)
                if info.kind == "human" and info.invite is not None and secrets.compare_digest(info.invite, invite)
            ]
            if not seats:
                raise Conflict(
                    "this invitation was already used (the seat is taken) or replaced by a new one: "
                    "ask the table's creator for a new link"
                )
            if table.over:
                raise Conflict(f"table {table.id} is over: its seats can no longer be taken")
            fresh = secrets.token_urlsafe(16)
            self._change_seat(table, seats[0], token=fresh, invite=None)
        return table, seats[0], fresh

    def reissue(self, table_id: str, token: Any, seat: Any) -> tuple[LiveTable, str, str]:
        """A new link for human seat ``seat``: returns the table, what the secret is (``"invite"`` or
        ``"token"``) and the secret.

        - The seat's holder (``token`` its own token) gets a new token; its old link is refused (403) from then.
        - The table's creator (``token`` its ``owner_token``) may replace the invitation of a seat nobody has
          claimed yet, or whose holder left (:meth:`leave`): the old invitation is refused from then. A claimed
          seat belongs to its holder, and the creator can neither read nor replace its link (409).

        A finished table's links stay as they are (409)."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the creator's owner_token or the seat's own token, a string) is required")
        if not _is_int(seat) or not 0 <= seat < 4:
            raise BadRequest(f"seat: 0-3, not {_short(seat)}")
        table = self.get(table_id)
        with table.lock:
            info = table.seats[seat]
            owner = table.owner is not None and secrets.compare_digest(table.owner, token)
            own = info.token is not None and secrets.compare_digest(info.token, token)
            if not (owner or own):
                raise Forbidden("only the table's creator (its owner_token) or the seat itself may reissue its link")
            if info.kind != "human":
                raise BadRequest(f"seat {seat} is a bot: it has no link")
            if table.over:
                raise Conflict(f"table {table.id} is over: its links can no longer be changed")
            if own:
                fresh = secrets.token_urlsafe(16)
                self._change_seat(table, seat, token=fresh, invite=None)
                kind = "token"
            elif info.claimed:
                raise Conflict(
                    f"seat {seat} is held by the person who opened its invitation: only they can change its link "
                    "(or leave the seat, after which you can invite someone else)"
                )
            else:
                fresh = secrets.token_urlsafe(12)
                self._change_seat(table, seat, token=None, invite=fresh)
                kind = "invite"
        table.touch()
        table.notify(wake=seat)  # the old link's websockets learn that it no longer holds the seat
        return table, kind, fresh

    def leave(self, table_id: str, token: Any) -> tuple[LiveTable, int]:
        """The holder of ``token`` leaves the seat: the token is refused from then on, and the seat waits for a
        new invitation, which the creator issues (:meth:`reissue`, :meth:`seat_links`). The game does not wait
        for the empty seat any more than for a person who does not act (the turn timer and the auto options
        apply as before). Returns the table and the seat."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        table = self.get(table_id)
        with table.lock:
            seat = table.seat_of(token)
            if table.over:
                raise Conflict(f"table {table.id} is over: its seats can no longer be changed")
            self._change_seat(table, seat, token=None, invite=secrets.token_urlsafe(12))
        table.touch()
        table.notify(wake=seat)
        return table, seat

    def seat_links(self, table_id: str, owner: Any) -> tuple[LiveTable, list[dict[str, Any]]]:
        """The creator's view of the seats (``owner`` the ``owner_token``): each human seat's name, whether it is
        claimed, and the invitation code of each seat nobody holds. Never a claimed seat's token."""
        if not isinstance(owner, str):
            raise BadRequest("'token' (the creator's owner_token, a string) is required")
        table = self.get(table_id)
        if table.owner is None or not secrets.compare_digest(table.owner, owner):
            raise Forbidden("only the table's creator (its owner_token) may list the invitations")
        out = []
        for seat, info in enumerate(table.seats):
            if info.kind != "human":
                continue
            entry: dict[str, Any] = {"seat": seat, "name": info.name, "claimed": info.claimed}
            if not info.claimed and info.invite is not None:
                entry["invite"] = info.invite
            out.append(entry)
        return table, out

    def _change_seat(self, table: LiveTable, seat: int, token: str | None, invite: str | None) -> None:
        """Set seat ``seat``'s token and invitation and store them (with ``table.lock`` held); on a refused write
        the seat is put back as it was."""
        info = table.seats[seat]
        old = info.token, info.invite
        info.token, info.invite = token, invite
        table.tokens += 1
        try:
            with self._storing(table.id):
                self.store.save_tokens(table.stored_table(), table.step, table.tokens - 1)
        except StaleWrite:
            (info.token, info.invite), table.tokens = old, table.tokens - 1
            self._refresh(table)
            raise Conflict("another server process changed this table first: nothing was changed, try again") from None
        except BaseException:
            (info.token, info.invite), table.tokens = old, table.tokens - 1
            raise

    def ready(self, table_id: str, token: Any) -> LiveTable:
        """The seat of ``token`` closed the result panel of the hand held on the board (see
        :meth:`LiveTable.ready`); the next deal is shown once every person has."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        table = self.get(table_id)
        seat = table.seat_of(token)
        self._guarded(table, lambda: table.ready(seat, self._commit))
        return table

    def set_auto(self, table_id: str, token: Any, changes: Any) -> LiveTable:
        """Change the auto options of ``token``'s seat (``changes``: some of :data:`AUTO_KEYS`, each a boolean);
        they are stored with the table and apply at once."""
        if not isinstance(token, str):
            raise BadRequest("'token' (the seat's secret, a string) is required")
        if not isinstance(changes, dict) or not changes:
            raise BadRequest(f"auto options: an object with some of {', '.join(AUTO_KEYS)}, each true or false")
        for key, value in changes.items():
            if key not in AUTO_KEYS:
                raise BadRequest(f"unknown auto option {_short(key)}: one of {', '.join(AUTO_KEYS)}")
            if not isinstance(value, bool):
                raise BadRequest(f"auto option {key}: true or false, not {_short(value)}")
        table = self.get(table_id)
        seat = table.seat_of(token)
        if table.over:
            raise Conflict("the game is over")
        if "riichi_discard" in changes and not table.game.rules.riichi:
            raise BadRequest(f"auto option riichi_discard: {table.rules} has no riichi")
        self._guarded(table, lambda: table.set_auto(seat, dict(changes), self._commit))
        table.touch()
        return table

    def _guarded(self, table: LiveTable, change: Callable[[], None]) -> None:
        try:
            change()
        except StaleWrite:
            self._refresh(table)
            raise Conflict(
                "another server process moved this table first: nothing was applied, reload the table"
            ) from None

    # -- the clock: paced steps, call windows, timers, held hands ---------------------------------------------

    def _wake_clock(self) -> None:
        """A table's next timed step may have changed, or a table was created or read back: make sure the clock
        runs, and let it look again at once."""
        if not self._threaded:
            return
        with self._clock_cond:
            if self._clock_thread is None or not self._clock_thread.is_alive():
                self._clock_thread = threading.Thread(target=self._clock_loop, name="jantaku-table-clock", daemon=True)
                self._clock_thread.start()
            self._clock_cond.notify_all()

    def _clock_loop(self) -> None:
        """Run each held table's :meth:`LiveTable.tick` when it is due.

        The one clock of the manager: it lives until :meth:`close`, sleeping until the earliest time due, or
        :data:`CLOCK_IDLE` seconds when nothing is due, and looks at every held table again whenever it wakes.
        A table created, read back or moved on while it sleeps is seen at the latest :data:`CLOCK_IDLE`
        seconds later (at once, as every change of a table's timed step wakes it): no table can be missed
        because it was made between a look and a sleep."""
        while not self._closed:
            with self._clock_cond:
                with self._lock:
                    times = [t.wake_at for t in self.tables.values() if t.wake_at is not None]
                wait = min(times) - self.clock() if times else CLOCK_IDLE
                if wait > 0:
                    self._clock_cond.wait(min(wait, CLOCK_IDLE))
                    continue
            try:
                self.run_due()
            except Exception:  # never let one table's failure stop every table's clock
                log.exception("the table clock failed; it goes on")

    def close(self, wait: float = 10.0) -> None:
        """Stop the clock thread (the server is shutting down) and wait up to ``wait`` seconds for a timed step it
        is taking to end, so that nothing is written after the store is closed."""
        with self._clock_cond:
            self._closed = True
            self._clock_cond.notify_all()
            thread = self._clock_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(wait)

    def run_due(self, now: float | None = None) -> None:
        """Tick every held table whose next timed step is due (the clock thread calls this; tests may too)."""
        with self._lock:
            tables = list(self.tables.values())
        for table in tables:
            at = now if now is not None else table.clock()
            if table.wake_at is not None and table.wake_at <= at + _EARLY:
                self._tick(table, at)

    def _tick(self, table: LiveTable, now: float) -> None:
        with table.lock:
            before = table._snapshot()
            try:
                stored = table.tick(now)
                if stored:
                    self._commit(table, before["step"])
            except StaleWrite:
                table._restore(before)
                with contextlib.suppress(WebError):
                    self._refresh(table)
                return
            except Exception as e:  # a store that refused the write: put the table back and try again in a second
                table._restore(before)
                if isinstance(e.__cause__, sqlite3.ProgrammingError):  # the store was closed: the server stops
                    table.wake_at = None
                    return
                log.warning("table %s: a timed step could not be stored (%s); retrying", table.id, e)
                table.wake_at = now + 1.0
                return
        table.notify()

    def _commit(self, table: LiveTable, step: int) -> None:
        with self._storing(table.id):
            self._persist(table, step)

    def _persist(self, table: LiveTable, expected_step: int | None) -> None:
        if table.over:
            # the table itself is kept only where a person holds a token to view it with
            state = table.stored_table() if any(i.kind == "human" for i in table.seats) else None
            self.store.finish_table(table.id, table.stored_game(), expected_step, state)
        else:
            self.store.save_table(table.stored_table(), expected_step)

    @contextlib.contextmanager
    def _storing(self, table_id: str) -> Iterator[None]:
        """A context in which a store failure (disk full, database locked) becomes :class:`Unavailable`."""
        try:
            yield
        except (sqlite3.Error, OSError) as e:
            raise Unavailable(
                f"table {table_id}: the game store refused the request ({e}); nothing changed, try again"
            ) from e


def rebuild_table(
    stored: StoredTable, clock: Callable[[], float] = time.monotonic, scheduler: Callable[[], None] | None = None
) -> LiveTable:
    """The live table ``stored`` describes: its game replayed from the seed and its actions, ready to go on
    (:meth:`LiveTable.resume`); :class:`NotFound` when its actions do not replay."""
    infos = [SeatInfo(s["kind"], s["name"], s.get("bot"), s.get("token"), s.get("invite")) for s in stored.seats]
    options = TableOptions.from_json(stored.options)
    game = Game(table_rules(stored.rules, options), seed=stored.seed, names=[i.name for i in infos])
    table = LiveTable(stored.id, stored.rules, stored.seed, infos, stored.created, game, options=options, clock=clock)
    table.owner, table.tokens = stored.owner, stored.tokens
    table.scheduler = scheduler
    auto = stored.options.get("auto")
    if isinstance(auto, list) and len(auto) == 4 and all(isinstance(a, dict) for a in auto):
        table.auto = [{key: a.get(key) is True for key in AUTO_KEYS} for a in auto]
    released = stored.options.get("released", 0)
    table.released = released if _is_int(released) and released >= 0 else 0
    try:
        for a in stored.actions:
            table._apply(action_from_json(a))
    except (JantakuError, KeyError, ValueError) as e:
        raise NotFound(f"table {stored.id} cannot be restored ({e})") from None
    table.resume()
    return table


def play_bots_only(stored: StoredTable) -> StoredGame:
    """The whole game of a new table of four bots (``stored``, as :meth:`TableManager.prepare` made it), as it
    is stored: heavy work, run in a worker process (:mod:`jantaku.web.heavy_tasks`)."""
    table = rebuild_table(stored)
    table.run_bots()
    if not table.over:  # pragma: no cover - bots alone always play to the end
        raise Unavailable(f"table {stored.id}: the bots stopped before the end")
    return table.stored_game()


def _short(value: Any) -> str:
    """``repr(value)`` cut to 40 characters (error messages name the bad part, never a whole request)."""
    text = repr(value) if not isinstance(value, list | dict) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
