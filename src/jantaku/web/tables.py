"""Live tables in the server process: seats (human or bot), secret per-seat tokens, views and actions.

A :class:`LiveTable` wraps a :class:`~jantaku.table.game.Game`. People act by *index* into their list of legal
actions together with the table's ``step`` (how many actions the game has taken) as they saw it: a submission
made against an older state (a second tab, a double click) is refused with 409, an illegal one with 400
naming the rule, and in both cases nothing changes. Bots act at once until a person must decide. Every
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

>>> from jantaku.web.storage import SqliteStore
>>> m = TableManager(SqliteStore(":memory:"))
>>> t = m.create("mleague", ["human", "efficiency", "efficiency", "efficiency"], seed="doc")
>>> v = t.view(0)
>>> len(v["hand"]) + (v["drawn"] is not None), v["players"][1]["hand_count"] in (13, 14), "tiles" in v["players"][1]
(14, True, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import secrets
import sqlite3
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from jantaku.bots import PlayerView, make_bot
from jantaku.errors import JantakuError
from jantaku.jielu import JieluResult
from jantaku.meld import Meld
from jantaku.riichi.yaku import YAKU_BY_NAME
from jantaku.rules import load_rules, preset_names
from jantaku.shapes.shanten import shanten, shanten_regular
from jantaku.shapes.waits import wait_kinds
from jantaku.table import Game
from jantaku.table.actions import Action
from jantaku.table.kyoku import CALLED, DRAWN, ENDED, IllegalActionError, Kyoku
from jantaku.tiles import Tile

from .storage import GameStore, StaleWrite, StoredGame, StoredTable, utc_now

__all__ = [
    "BOTS",
    "BadRequest",
    "Conflict",
    "Forbidden",
    "LiveTable",
    "NotFound",
    "TableManager",
    "TooManyRequests",
    "Unavailable",
    "WebError",
    "action_from_json",
    "action_to_json",
    "playable_presets",
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
    """Who sits at a seat: ``kind`` is ``human`` or ``bot``; a human seat has a secret token."""

    kind: str
    name: str
    bot: str | None = None
    token: str | None = None

    def to_json(self, with_token: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "name": self.name, "bot": self.bot}
        if with_token:
            out["token"] = self.token
        return out


Commit = Callable[["LiveTable", int], None]
"""Stores a table's new state; given the table and the step it was at before the change."""


@dataclass
class _Listener:
    loop: asyncio.AbstractEventLoop
    queue: asyncio.Queue[int]
    seat: int | None = None
    told: int = -1
    """The seat's view step this listener was last woken for (a seat's listener is woken only when its view
    changed)."""


@dataclass
class LiveTable:
    """One game in play. Use :meth:`act` to move it; :meth:`view` to show it to a seat."""

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
    _bots: dict[int, Any] = field(default_factory=dict)
    _seen: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """Per seat, how many times its being asked to act began or ended (a part of :meth:`view_step`)."""

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

    def view_step(self, seat: int) -> int:
        """The ``step`` of ``seat``'s view, which a client echoes back with its action: the public events of the
        game so far (draws, discards, calls, riichi, dora, wins, draws of the hand...) plus the times this seat
        was asked to act or answered. It moves whenever the view changes, and it is a function of what this seat
        may know: another seat's pass on a discard adds nothing (a pass that settles the discard brings the same
        events, the next draw or call, as a discard nobody could answer), so neither the step nor how far it
        moves tells who else could call. It follows from the actions alone (a table rebuilt from the store
        counts the same); it is not the table's :attr:`step`, which counts every action."""
        return len(self.game.events) + self._seen[seat]

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
        for s, now in enumerate(self._asked()):
            if now != before[s]:
                self._seen[s] += 1

    def run_bots(self) -> None:
        """Let the bots act until a person must decide or the game is over."""
        game = self.game
        while not game.over:
            waiting = game.to_act()
            bot_seats = [s for s in waiting if s in self._bots]
            if not bot_seats:
                return
            s = bot_seats[0]
            legal = game.legal_actions(s)
            self._apply(self._bots[s].act(PlayerView(game.kyoku, s), legal))

    def act(self, seat: int, step: int, index: int, commit: Commit | None = None) -> None:
        """Apply ``seat``'s legal action number ``index`` if the table is still at ``step``, then the bots.

        ``commit`` (given the table and the step it was at) stores the new state before anyone sees it; if it
        raises, the table is put back exactly as it was and the error goes on."""
        with self.lock:
            self._check_step(seat, step)
            legal = self.game.legal_actions(seat)
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
            if not self.game.legal_actions(seat):
                raise BadRequest(self._not_asked(seat))
            self._move(action, commit)
        self.notify()

    def _not_asked(self, seat: int) -> str:
        """The refusal of an action by a seat that is not asked to act: it names whose turn it is only when that
        is public (a draw/discard turn), never who else may answer a discard."""
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
        before = (self.step, len(self.hand_results), copy.deepcopy(self._bots), list(self._seen))
        try:
            self._apply(action)
        except IllegalActionError as e:
            raise BadRequest(str(e)) from None
        try:
            self.run_bots()
            if commit is not None:
                commit(self, before[0])
        except BaseException:
            self._restore(*before)
            raise

    def _restore(self, step: int, results: int, bots: dict[int, Any], seen: list[int]) -> None:
        """Put the table back at ``step``: the game replayed from its seed and first ``step`` actions (the game
        follows from them alone), the hand results, the bots and the seats' view steps as they were."""
        actions = self.actions[:step]
        game = Game(load_rules(self.rules), seed=self.seed, names=[i.name for i in self.seats])
        for a in actions:
            game.apply(action_from_json(a))
        self.game, self.actions, self.hand_results, self._bots = game, actions, self.hand_results[:results], bots
        self._seen = seen

    # -- listeners (websockets) ------------------------------------------------------------------------------

    def subscribe(self, seat: int | None = None) -> _Listener:
        """A queue (of the running event loop) that gets a step after every change; with ``seat``, only after a
        change that seat can see (its :meth:`view_step` moved), so the messages pushed to a seat do not tell
        when another seat passed on a discard."""
        listener = _Listener(asyncio.get_running_loop(), asyncio.Queue(), seat)
        with self.lock:
            if seat is not None:
                listener.told = self.view_step(seat)
            self.listeners.append(listener)
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
                elif self.view_step(li.seat) != li.told or li.seat == wake:
                    li.told = self.view_step(li.seat)
                    told.append((li, li.told))
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

    def _view(self, seat: int) -> dict[str, Any]:
        game = self.game
        k = game.kyoku
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
                    "has_drawn": k.phase == DRAWN and k.actor == s and not game.over,
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
        legal = game.legal_actions(seat) if not game.over else []
        final = None
        if game.result is not None:
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
                "name": game.round_name,
                "wind": _WINDS[k.round_wind],
                "number": k.kyoku_number,
                "dealer": k.dealer,
                "honba": k.honba,
                "deposits": k.deposits,
                "tiles_left": k.tiles_left,
                "dora_indicators": [k.tile(i).mpsz for i in k.dora_indicators()],
                "phase": self._public_phase(seat),
            },
            "players": players,
            "hand": [k.tile(i).mpsz for i in hand],
            "drawn": k.tile(drawn).mpsz if drawn is not None else None,
            "to_act": self._public_to_act(seat),
            "actions": [{"index": n, **action_to_json(a)} for n, a in enumerate(legal)],
            "waits": waits_json(k, seat) if k.phase != ENDED and not k.won[seat] else None,
            "wins": wins_so_far,
            "hand_results": len(self.hand_results),
            "last_result": self.hand_results[-1] if self.hand_results else None,
            "over": game.over,
            "final": final,
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
        )

    def stored_game(self) -> StoredGame:
        r = self.game.result
        summary: dict[str, Any] = {"hands": len(self.hand_results)}
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
    ) -> None:
        """``seed_source`` gives each new table's seed (default: 64 random bits); tests pass a fixed sequence
        to make games reproducible."""
        if max_tables < 1 or idle_seconds <= 0 or creates_per_minute < 0:
            raise ValueError("max_tables >= 1, idle_seconds > 0 and creates_per_minute >= 0")
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
    ) -> LiveTable:
        """A new table: ``seats`` are four of ``human`` or a bot name (:data:`BOTS`). Bots play at once (a
        table of four bots plays its whole game here). ``client`` (an address) counts against the creation
        limit."""
        if not isinstance(rules, str) or rules not in playable_presets():
            raise BadRequest(f"unknown rule set {rules!r}: one of {', '.join(playable_presets())}")
        if not isinstance(seats, list) or len(seats) != 4:
            raise BadRequest("seats: a list of four entries, each 'human' or a bot name")
        infos = []
        for s, kind in enumerate(seats):
            if kind == "human":
                infos.append(SeatInfo("human", f"player {s + 1}", None, secrets.token_urlsafe(16)))
            elif isinstance(kind, str) and kind in BOTS:
                infos.append(SeatInfo("bot", f"{kind} bot {s + 1}", kind))
            else:
                raise BadRequest(f"seat {s}: {_short(kind)} is neither 'human' nor a bot ({', '.join(BOTS)})")
        if names is not None:
            if not isinstance(names, list) or len(names) != 4 or not all(isinstance(n, str) for n in names):
                raise BadRequest("names: a list of four strings")
            for info, name in zip(infos, names, strict=True):
                if name.strip():
                    info.name = name.strip()[:40]
        self._count_creation(client)
        self._sweep(force=True)
        with self._lock:
            if len(self.tables) >= self.max_tables and not self._evict_lru():
                raise Unavailable(
                    f"the server holds its limit of {self.max_tables} tables in play, all watched: try again later"
                )
        seed = seed or self.seed_source()
        game = Game(load_rules(rules), seed=seed, names=[i.name for i in infos])
        table_id = secrets.token_urlsafe(8)
        with self._storing(table_id):
            while table_id in self.tables or self.store.get_table(table_id) or self.store.get_game(table_id):
                table_id = secrets.token_urlsafe(8)  # pragma: no cover - 64 random bits
        table = LiveTable(table_id, rules, seed, infos, utc_now(), game)
        if any(info.kind == "human" for info in infos):
            table.owner = secrets.token_urlsafe(16)
        table.run_bots()
        with self._storing(table_id):
            self._persist(table, None)
        if not table.over:
            with self._lock:
                self.tables[table_id] = table
        return table

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
            table.last_used = time.monotonic()
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
        table.notify()

    def _rebuild(self, stored: StoredTable) -> LiveTable:
        infos = [SeatInfo(s["kind"], s["name"], s.get("bot"), s.get("token")) for s in stored.seats]
        game = Game(load_rules(stored.rules), seed=stored.seed, names=[i.name for i in infos])
        table = LiveTable(stored.id, stored.rules, stored.seed, infos, stored.created, game)
        table.owner, table.tokens = stored.owner, stored.tokens
        try:
            for a in stored.actions:
                table._apply(action_from_json(a))
        except (JantakuError, KeyError, ValueError) as e:
            raise NotFound(f"table {stored.id} cannot be restored ({e})") from None
        return table

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
        table.last_used = time.monotonic()
        return table

    def reissue(self, table_id: str, token: Any, seat: Any) -> tuple[LiveTable, str]:
        """Replace human seat ``seat``'s token with a new one (its old link then gets 403); allowed to the table's
        creator (``token`` its ``owner_token``) and to the seat itself. Returns the table and the new token.
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
            old, fresh = info.token, secrets.token_urlsafe(16)
            info.token = fresh
            table.tokens += 1
            try:
                with self._storing(table.id):
                    self.store.save_tokens(table.stored_table(), table.step, table.tokens - 1)
            except StaleWrite:
                info.token, table.tokens = old, table.tokens - 1
                self._refresh(table)
                raise Conflict(
                    "another server process changed this table first: nothing was changed, try again"
                ) from None
            except BaseException:
                info.token, table.tokens = old, table.tokens - 1
                raise
        table.last_used = time.monotonic()
        table.notify(wake=seat)  # the old link's websockets learn that it no longer holds the seat
        return table, fresh

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


def _short(value: Any) -> str:
    """``repr(value)`` cut to 40 characters (error messages name the bad part, never a whole request)."""
    text = repr(value) if not isinstance(value, list | dict) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."
