"""The observation encoding and the action space of jantaku's environments, version 1.

Everything is seen from the acting seat ("me"). Other seats are named by their position relative to it:
0 me, 1 the player to my right (shimocha, who plays after me), 2 across, 3 to my left (kamicha).

Observation: a ``float32`` array of shape ``(OBS_PLANES, 34)`` (``(OBS_PLANES_PRIVILEGED, 34)`` with the
privileged option): feature planes over the 34 tile kinds (``1-9m`` 0-8, ``1-9p`` 9-17, ``1-9s`` 18-26,
East South West North White Green Red 27-33). A few planes are indexed by something else than the kind
(a river slot, a named scalar); the table says which.

=========  ======================================================================================
planes     content
=========  ======================================================================================
0-3        my closed hand, thermometer: plane ``i`` is 1 where I hold more than ``i`` tiles of the kind
4          my red fives (1 at 5m / 5p / 5s when I hold the red one)
5          the tile I just drew (my turn after a draw)
6          the tile I am asked about: the discard I may call or ron, or the added kan I may rob
7          kinds that are dora (the indicators' successors; 1 however many indicators point there)
8-39       melds, 8 planes per relative seat ``r`` at ``8 + 8r``: +0..+3 the meld tiles as a thermometer
           of counts, +4 kinds of pon or kan, +5 kinds of kan, +6 kinds of closed kan, +7 red fives in melds
40-175     rivers, 34 planes per relative seat ``r`` at ``40 + 34r``: +0..+29 one discard each in order
           (slot 0 the oldest kept; a river longer than 30 keeps its last 30), a one-hot of its kind;
           then four planes indexed by slot (column ``j`` = slot ``j``): +30 tsumogiri, +31 the riichi
           declaration, +32 taken by a call, +33 a red five
176-180    the dora indicators in order, one plane each, one-hot of the indicator's kind
181        reserved (zero)
182-184    scalar rows: column ``j`` of row ``182 + i`` holds scalar ``SCALARS[i][j]`` (below)
185-199    privileged only: the other players' closed hands, for relative seats 1-3: 4 thermometer
           planes each at ``185 + 4(r - 1)``, then their red fives at ``197 + (r - 1)``
=========  ======================================================================================

Scores are divided by :func:`score_scale` (100,000 under riichi rules, 1,000 under 洁律, whose hands score
far less) and clipped to ``[-4, 4]``, as are the rule set's starting and return points in the switches'
row; every other value lies in ``[0, 1]``.

Actions: one :class:`gymnasium.spaces.Discrete` space of ``NUM_ACTIONS`` (161) indices. A tile "code" is
0-33 for a plain tile of that kind and 34 / 35 / 36 for the red 5m / 5p / 5s (:attr:`jantaku.tiles.Tile.code`).

=========  ======================================================================================
index      action
=========  ======================================================================================
0-36       discard a tile of this code (one from the hand when there is one besides the drawn
           tile, else the drawn tile)
37         tsumogiri: discard the tile just drawn
38-74      declare riichi discarding a tile of this code (``38 + code``), as for 0-36
75         declare riichi discarding the tile just drawn
76-81      chi: ``76 + 2 * position + red``; position 0/1/2 = the called tile is the lowest / middle /
           highest of the run, red 1 = the two tiles from my hand include a red five
82, 83     pon without / with a red five from my hand
84         open kan on the discard (daiminkan)
85-118     closed kan of the kind ``index - 85`` (ankan)
119-152    added kan of the kind ``index - 119`` (kakan)
153 / 154  tsumo / ron (a robbed kan included)
155        pass (decline every call and win on offer)
156        abortive draw by nine terminals (kyuushu kyuuhai)
157 / 158  the all-last dealer, tenpai at a draw and first, where the rule set lets it choose: stop the
           game here (tenpai-yame) / play on
159 / 160  at an exhaustive draw: declare tenpai / stay silent (reserved for that decision; see below)
=========  ======================================================================================

An engine action of a kind this version does not know raises :class:`UnknownActionError` naming it, and
the encoding's version goes up when indices are added. The tenpai decision's kinds are matched by name
(``KIND_ALIASES``) so that an engine that offers it under one of those names works with version 1.

The engine's actions for the current decision map to indices with :func:`legal_indices`; the observation
of many games is built at once with :func:`encode_batch` (one scatter into one array).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jantaku.errors import JantakuError
from jantaku.table.actions import (
    ANKAN,
    CHI,
    CONTINUE,
    DAIMINKAN,
    DISCARD,
    KAKAN,
    KYUUSHU,
    PASS,
    PON,
    RIICHI,
    RON,
    STOP,
    TSUMO,
    Action,
)
from jantaku.table.kyoku import CALLED, CHANKAN, DRAWN, RESPONSES
from jantaku.table.legal import _PREBUILT, PlayState
from jantaku.table.playerview import PlayerView
from jantaku.table.public_codes import RIVER_SLOTS
from jantaku.table.seatview import SeatView

if TYPE_CHECKING:
    from jantaku.rules import Ruleset
    from jantaku.table import Game

__all__ = [
    "ACTION_NAMES",
    "ENCODING_VERSION",
    "KIND_ALIASES",
    "NUM_ACTIONS",
    "OBS_PLANES",
    "OBS_PLANES_PRIVILEGED",
    "SCALARS",
    "GameFacts",
    "UnknownActionError",
    "action_name",
    "encode",
    "encode_batch",
    "legal_indices",
    "observation_bounds",
    "score_scale",
]

ENCODING_VERSION = 1
"""Raised whenever a plane or an action index changes meaning or is added."""

# -- actions ---------------------------------------------------------------------------------------------

A_DISCARD = 0
A_TSUMOGIRI = 37
A_RIICHI = 38
A_RIICHI_TSUMOGIRI = 75
A_CHI = 76
A_PON = 82
A_DAIMINKAN = 84
A_ANKAN = 85
A_KAKAN = 119
A_TSUMO = 153
A_RON = 154
A_PASS = 155
A_KYUUSHU = 156
A_STOP = 157
A_CONTINUE = 158
A_TENPAI = 159
A_SILENT = 160
NUM_ACTIONS = 161

TENPAI_DECLARE = "tenpai"
TENPAI_SILENT = "noten"
KIND_ALIASES: dict[str, str] = {
    "tenpai": TENPAI_DECLARE,
    "declare_tenpai": TENPAI_DECLARE,
    "tenpai_declare": TENPAI_DECLARE,
    "noten": TENPAI_SILENT,
    "silent": TENPAI_SILENT,
    "stay_silent": TENPAI_SILENT,
    "tenpai_silent": TENPAI_SILENT,
    "no_tenpai": TENPAI_SILENT,
}
"""Engine action kinds for the exhaustive draw's tenpai decision, by the names it may carry."""


class UnknownActionError(JantakuError):
    """The engine offered an action this encoding version has no index for."""


def _names() -> list[str]:
    from jantaku.tiles import Tile

    codes = [Tile.from_kind(k).mpsz for k in range(34)] + ["0m", "0p", "0s"]
    kinds = [Tile.from_kind(k).mpsz for k in range(34)]
    names = [f"discard {c}" for c in codes] + ["tsumogiri"]
    names += [f"riichi {c}" for c in codes] + ["riichi tsumogiri"]
    for pos in ("low", "middle", "high"):
        names += [f"chi {pos}", f"chi {pos} red"]
    names += ["pon", "pon red", "daiminkan"]
    names += [f"ankan {k}" for k in kinds] + [f"kakan {k}" for k in kinds]
    names += ["tsumo", "ron", "pass", "nine terminals", "stop", "continue", "declare tenpai", "stay silent"]
    return names


ACTION_NAMES: tuple[str, ...] = tuple(_names())
"""A short English name per action index (``ACTION_NAMES[37] == "tsumogiri"``)."""


def action_name(index: int) -> str:
    """The name of an action index.

    >>> action_name(0), action_name(36), action_name(77), action_name(154)
    ('discard 1m', 'discard 0s', 'chi low red', 'ron')
    """
    if not isinstance(index, int | np.integer) or not 0 <= int(index) < NUM_ACTIONS:
        raise JantakuError(f"an action index is an integer 0-{NUM_ACTIONS - 1}, got {index!r}")
    return ACTION_NAMES[int(index)]


def _index(a: Action) -> int:
    kind = a.kind
    if kind == DISCARD:
        return A_TSUMOGIRI if a.tsumogiri else a.tile.code  # type: ignore[union-attr]
    if kind == PASS:
        return A_PASS
    if kind == RIICHI:
        return A_RIICHI_TSUMOGIRI if a.tsumogiri else A_RIICHI + a.tile.code  # type: ignore[union-attr]
    if kind == CHI:
        t = a.tile
        assert t is not None
        k = t.kind
        lo = min(k, a.consumed[0].kind)
        pos = k - lo
        red = 1 if (a.consumed[0].red or a.consumed[1].red) else 0
        return A_CHI + 2 * pos + red
    if kind == PON:
        return A_PON + (1 if any(c.red for c in a.consumed) else 0)
    if kind == DAIMINKAN:
        return A_DAIMINKAN
    if kind == ANKAN:
        return A_ANKAN + a.consumed[0].kind
    if kind == KAKAN:
        return A_KAKAN + a.tile.kind  # type: ignore[union-attr]
    if kind == TSUMO:
        return A_TSUMO
    if kind == RON:
        return A_RON
    if kind == KYUUSHU:
        return A_KYUUSHU
    if kind == STOP:
        return A_STOP
    if kind == CONTINUE:
        return A_CONTINUE
    alias = KIND_ALIASES.get(kind)
    if alias == TENPAI_DECLARE:
        return A_TENPAI
    if alias == TENPAI_SILENT:
        return A_SILENT
    raise UnknownActionError(
        f"the engine offered {a!r}, an action kind ({kind!r}) that observation encoding version "
        f"{ENCODING_VERSION} has no index for; update jantaku.env.encoding"
    )


_PREBUILT_INDEX: dict[int, tuple[int, int]] = {
    id(a): (
        (A_DISCARD if kind == DISCARD else A_RIICHI) + a.tile.code,  # type: ignore[union-attr]
        (A_TSUMOGIRI if kind == DISCARD else A_RIICHI_TSUMOGIRI) if a.tsumogiri else 0,
    )
    for kind, by_seat in _PREBUILT.items()
    for by_code in by_seat
    for pair in by_code
    for a in pair
}
"""The engine's prebuilt discard and riichi actions (they live as long as the module) by ``id``: their index and,
for a tsumogiri, the tsumogiri index (else 0)."""


def legal_indices(legal: Sequence[Action]) -> dict[int, Action]:
    """Map the engine's legal actions to action indices: ``{index: Action}``.

    A discard index (0-36, riichi 38-74) stands for the tile from the hand when both that and the drawn
    tile of the same code may go; the tsumogiri indices (37, 75) always stand for the drawn tile.

    >>> from jantaku.tiles import Tile
    >>> legal = [Action.discard(0, Tile("3m")), Action.discard(0, Tile("3m"), tsumogiri=True)]
    >>> sorted(legal_indices(legal).items())
    [(2, Action('dahai', 0, Tile('3m'))), (37, Action('dahai', 0, Tile('3m'), tsumogiri=True))]
    """
    out: dict[int, Action] = {}
    prebuilt = _PREBUILT_INDEX
    for a in legal:
        hit = prebuilt.get(id(a))
        if hit is not None:  # one of the engine's prebuilt discard and riichi actions (most of them)
            code, tg = hit
            if tg:
                out[tg] = a
                out.setdefault(code, a)
            else:
                out[code] = a
            continue
        kind = a.kind
        if kind in (DISCARD, RIICHI):
            first = A_DISCARD if kind == DISCARD else A_RIICHI
            code = first + a.tile.code  # type: ignore[union-attr]
            if a.tsumogiri:
                out[A_TSUMOGIRI if kind == DISCARD else A_RIICHI_TSUMOGIRI] = a
                out.setdefault(code, a)  # a tile from the hand of the same code takes the index over
            else:
                out[code] = a
        else:
            out[_index(a)] = a
    return out


# -- observations ----------------------------------------------------------------------------------------

P_HAND = 0
P_RED = 4
P_DRAWN = 5
P_OFFERED = 6
P_DORA = 7
P_MELDS = 8
P_RIVERS = 40
P_INDICATORS = 176
P_SCALARS = 182
P_PRIVILEGED = 185
OBS_PLANES = 185
OBS_PLANES_PRIVILEGED = 200

SCALARS: tuple[tuple[str, ...], ...] = (
    (
        "score me",
        "score right",
        "score across",
        "score left",
        "round wind E",
        "round wind S",
        "round wind W",
        "round wind N",
        "seat wind E",
        "seat wind S",
        "seat wind W",
        "seat wind N",
        "hand number / 4",
        "honba / 10",
        "deposits / 10",
        "tiles left / live wall",
        "riichi me",
        "riichi right",
        "riichi across",
        "riichi left",
        "won me",
        "won right",
        "won across",
        "won left",
        "dealer me",
        "dealer right",
        "dealer across",
        "dealer left",
        "phase own turn after a draw",
        "phase own turn after a call",
        "phase answering a discard",
        "phase answering an added kan",
        "hands played / 16",
        "stop-or-continue decision",
    ),
    (
        "discarder me",
        "discarder right",
        "discarder across",
        "discarder left",
        "closed hand me",
        "closed hand right",
        "closed hand across",
        "closed hand left",
        "kans / 4 me",
        "kans / 4 right",
        "kans / 4 across",
        "kans / 4 left",
        "ippatsu me",
        "ippatsu right",
        "ippatsu across",
        "ippatsu left",
        "all-last hand",
        "extra round",
        "dora indicators / 5",
        "game over",
    ),
    (
        "red 5m",
        "red 5p",
        "red 5s",
        "dead wall",
        "furiten",
        "riichi allowed",
        "kuikae forbidden",
        "kan after a call",
        "calls on the last discard",
        "family jielu",
        "jielu points mode",
        "open tanyao",
        "kan dora",
        "ura dora",
        "ippatsu yaku",
        "rounds / 4",
        "bust ends the game",
        "west round",
        "agari-yame",
        "dealer repeats",
        "nagashi mangan",
        "multiple ron: head bump",
        "multiple ron: double",
        "multiple ron: all",
        "min han / 4",
        "kiriage mangan",
        "kazoe yakuman",
        "starting points / scale",
        "return points / scale",
    ),
)
"""The names of the scalars in the three scalar rows (planes 182-184), by column; unnamed columns are 0."""


def score_scale(rules: Ruleset) -> float:
    """What scores are divided by in the observation (and in ``reward="score"``)."""
    return 1000.0 if rules.family == "jielu" else 100_000.0


def observation_bounds(privileged: bool = False, extra: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """``(low, high)`` arrays of the observation's shape (with ``extra`` optional planes, see
    :mod:`jantaku.env.planes`): 0 and 1, and -4 / 4 for the score columns."""
    planes = (OBS_PLANES_PRIVILEGED if privileged else OBS_PLANES) + extra
    low = np.zeros((planes, 34), np.float32)
    high = np.ones((planes, 34), np.float32)
    low[P_SCALARS, 0:4] = -4.0
    high[P_SCALARS, 0:4] = 4.0
    high[P_SCALARS + 2, 27:29] = 4.0
    low[P_SCALARS + 2, 27:29] = -4.0
    return low, high


_SUCC = [
    (k // 9) * 9 + (k % 9 + 1) % 9 if k < 27 else (27 + (k - 27 + 1) % 4 if k < 31 else 31 + (k - 31 + 1) % 3)
    for k in range(34)
]
_MULTI = {"head_bump": 21, "double": 22, "all": 23}
_PHASES = {DRAWN: 28, CALLED: 29, RESPONSES: 30, CHANKAN: 31}


def _rule_row(rules: Ruleset) -> list[tuple[int, float]]:
    scale = score_scale(rules)
    vals = [
        *(float(x) for x in rules.red_fives),
        rules.dead_wall,
        rules.furiten,
        rules.riichi,
        rules.kuikae == "forbidden",
        rules.kan_after_call,
        rules.last_discard_calls,
        rules.family == "jielu",
        rules.family == "jielu" and rules.jielu_mode == "points",
        rules.open_tanyao,
        rules.kan_dora,
        rules.ura_dora,
        rules.ippatsu,
        rules.rounds / 4,
        rules.bust,
        rules.west_round,
        rules.agari_yame,
        rules.dealer_repeats,
        rules.nagashi_mangan,
    ]
    out = [(j, float(v)) for j, v in enumerate(vals) if v]
    out.append((_MULTI.get(rules.multiple_ron, 23), 1.0))
    out += [(24, min(1.0, rules.min_han / 4)), (25, float(rules.kiriage)), (26, float(bool(rules.kazoe_yakuman)))]
    out += [
        (27, float(np.clip(rules.starting_points / scale, -4, 4))),
        (28, float(np.clip(rules.return_points / scale, -4, 4))),
    ]
    return [(j, v) for j, v in out if v]


_RULE_ROWS: dict[int, tuple[Ruleset, np.ndarray]] = {}
"""The rule switches' row per rule set (the rule set is kept, so that its id cannot be reused)."""


def _rule_template(rules: Ruleset) -> np.ndarray:
    entry = _RULE_ROWS.get(id(rules))
    if entry is None or entry[0] is not rules:
        row = np.zeros(34, np.float32)
        for j, v in _rule_row(rules):
            row[j] = v
        entry = _RULE_ROWS[id(rules)] = (rules, row)
    return entry[1]


_CACHE: weakref.WeakKeyDictionary[PlayState, _HandPlanes] = weakref.WeakKeyDictionary()
"""Per hand (the engine's, or a seat's view of it): the public planes, kept up to date as the hand goes on."""

_RED_IDS = (16, 52, 88)


_CALL_EVENTS = frozenset(("chi", "pon", "daiminkan"))
_KAN_EVENTS = frozenset(("ankan", "kakan"))


class _HandState:
    """What an encoder keeps of one hand between observations: the rule set's score scale, the live wall's size
    and per seat the scalar rows that stay the same through the hand (:meth:`scalar_template`)."""

    __slots__ = ("live_wall", "scale", "template_key", "templates")

    def __init__(self, rules: Ruleset) -> None:
        self.scale = score_scale(rules)
        self.live_wall = 70 if rules.dead_wall else 84
        self.templates: list[np.ndarray | None] = [None, None, None, None]
        self.template_key: tuple[int, int, int] = (-1, -1, -1)

    def scalar_template(self, game: Game, k: PlayState, seat: int) -> np.ndarray:
        """The scalar rows' values that stay the same for ``seat`` through the hand (the round, the seat's wind,
        the dealer, the hand's number and counters, the game's stage, the rule set's switches)."""
        key = (game.hands_played, game.round_wind, game.dealer)
        if key != self.template_key:
            self.templates = [None, None, None, None]
            self.template_key = key
        row = self.templates[seat]
        if row is None:
            rules = game.rules
            row = np.zeros((3, 34), np.float32)
            r0, r1 = row[0], row[1]
            r0[4 + (k.round_wind & 3)] = 1.0
            r0[8 + (seat - k.dealer) % 4] = 1.0
            r0[24 + (k.dealer - seat) % 4] = 1.0
            r0[12] = k.kyoku_number / 4
            r0[13] = min(1.0, k.honba / 10)
            r0[32] = min(1.0, game.hands_played / 16)
            if game.round_wind >= rules.rounds - 1 and game.dealer == (game.first_dealer + 3) % 4:
                r1[16] = 1.0
            if game.round_wind >= rules.rounds:
                r1[17] = 1.0
            row[2] = _rule_template(rules)
            self.templates[seat] = row
        return row


class _HandPlanes(_HandState):
    """One hand's rivers and melds as observation planes, per absolute seat, kept current incrementally from the
    seats of the engine's hand or of a seat's view of it: what it has written (a river only grows during a hand and
    only its last tile can change, taken by a call; melds change by identity) and each seat's closed flag.

    ``rivers[s]`` holds seat ``s``'s 34 river planes and ``melds[s]`` its 8 meld planes, each stored twice (at
    ``s`` and ``s + 4``), so that the four seats in a viewer's order (``viewer``, ``viewer + 1``, ...) are the
    contiguous slice ``[viewer : viewer + 4]`` and an observation copies them without gathering."""

    __slots__ = ("closed", "dora", "meld_key", "melds", "river_called", "river_len", "rivers", "synced_at")

    def __init__(self, rules: Ruleset) -> None:
        super().__init__(rules)
        self.closed = [True, True, True, True]
        self.synced_at = -1
        self.river_len = [0, 0, 0, 0]
        self.river_called = [False, False, False, False]
        self.meld_key: list[tuple[int, ...]] = [(), (), (), ()]
        self.rivers = np.zeros((8, 34, 34), np.uint8)
        self.melds = np.zeros((8, 8, 34), np.uint8)
        self.dora: tuple[int, list[int]] = (0, [])

    def sync(self, k: PlayState) -> None:
        """Bring the rivers and melds up to date with the hand ``k``: the seats named by the hand's events since
        the last call (a discard's, a call's and its discarder's, a kan's), or every seat when the hand keeps no
        events or this is the first call."""
        events = getattr(k, "events", None)
        if events is None or self.synced_at < 0:
            for s in range(4):
                self._sync_river(k, s)
                self._sync_melds(k, s)
            if events is not None:
                self.synced_at = len(events)
            return
        n_events = len(events)
        if n_events == self.synced_at:
            return
        for j in range(self.synced_at, n_events):
            e = events[j]
            kind = e["type"]
            if kind == "dahai":
                self._sync_river(k, e["actor"])
            elif kind in _CALL_EVENTS:
                self._sync_river(k, e["target"])
                self._sync_melds(k, e["actor"])
            elif kind in _KAN_EVENTS:
                self._sync_melds(k, e["actor"])
        self.synced_at = n_events

    def _sync_river(self, k: PlayState, s: int) -> None:
        river = k.seats[s].river
        n = len(river)
        if n and (n != self.river_len[s] or (river[-1].called_by is not None) != self.river_called[s]):
            if n > RIVER_SLOTS:  # the slots move: write the last 30 again
                self._river(k, s, river, 0, n - RIVER_SLOTS, True)
            else:
                self._river(k, s, river, max(0, self.river_len[s] - 1), 0, False)
            self.river_len[s] = n
            self.river_called[s] = river[-1].called_by is not None

    def _sync_melds(self, k: PlayState, s: int) -> None:
        melds = k.seats[s].melds
        if melds:
            key = tuple(map(id, melds))
            if key != self.meld_key[s]:
                self.meld_key[s] = key
                self._melds(s, melds)
                self.closed[s] = not any(m.is_open for m in melds)

    def _river(self, k: PlayState, s: int, river: list[Any], first: int, start: int, rewrite: bool) -> None:
        """Write seat ``s``'s river slots ``first``.. (slot ``j`` holds ``river[start + j]``); ``rewrite``: the
        slots moved, clear them first."""
        pl = self.rivers[s]
        if rewrite:
            pl.fill(0)
        tiles = k._tiles
        for j in range(first, len(river) - start):
            rt = river[start + j]
            t = rt.tile
            pl[j, t >> 2] = 1
            if rt.tsumogiri:
                pl[30, j] = 1
            if rt.riichi:
                pl[31, j] = 1
            if rt.called_by is not None:
                pl[32, j] = 1
            if t in _RED_IDS and tiles[t].red:
                pl[33, j] = 1
        self.rivers[s + 4] = pl

    def _melds(self, s: int, melds: list[Any]) -> None:
        """Write seat ``s``'s melds (all of them, replacing what was there)."""
        pl = self.melds[s]
        pl.fill(0)
        mcount = [0] * 34
        for m in melds:
            for t in m.tiles:
                kd = t.kind
                if mcount[kd] < 4:
                    pl[mcount[kd], kd] = 1
                mcount[kd] += 1
                if t.red:
                    pl[7, kd] = 1
            mk = m.kind
            if mk.value != "chi":
                kk = m.tiles[0].kind
                pl[4, kk] = 1
                if mk.is_kan:
                    pl[5, kk] = 1
                    if mk.value == "ankan":
                        pl[6, kk] = 1
        self.melds[s + 4] = pl

    def dora_ones(self, indicators: list[int]) -> list[int]:
        """The flat indices of the dora and indicator planes (kept while the indicators stay the same)."""
        n = len(indicators)
        if n != self.dora[0]:
            ones = []
            for j, i in enumerate(indicators[:5]):
                ones.append(P_DORA * 34 + _SUCC[i >> 2])
                ones.append((P_INDICATORS + j) * 34 + (i >> 2))
            self.dora = (n, ones)
        return self.dora[1]


def _hand_planes(k: PlayState, rules: Ruleset) -> _HandPlanes:
    c = _CACHE.get(k)
    if c is None:
        c = _CACHE[k] = _HandPlanes(rules)
    c.sync(k)
    return c


def _hand(tiles: list[int], k: PlayState, plane: int, red_plane: int, ones: list[int]) -> None:
    seen = [0] * 34
    ap = ones.append
    for t in tiles:
        kd = t >> 2
        ap(plane + 34 * seen[kd] + kd)
        seen[kd] += 1
        if (t == 16 or t == 52 or t == 88) and k._tiles[t].red:
            ap(red_plane + kd)


def _gather(
    game: Game,
    seat: int,
    privileged: bool,
    out: np.ndarray,
    ones: list[int],
    idx: list[int],
    val: list[float],
    base: int,
    view: SeatView | None = None,
) -> None:
    """Write ``seat``'s rivers and melds into ``out`` (its ``(planes, 34)`` observation, zeroed) and collect the
    rest as flat indices offset by ``base``: ``ones`` are set to 1, ``idx`` to the values in ``val``. The hand is
    read from the engine, or from the seat's ``view`` (the same names:
    :class:`~jantaku.table.legal.PlayState`)."""
    if view is None:
        k: Any = game.kyoku
        phase = k.phase
    else:
        k = view
        phase = None if view._exhaustive_draw_now() else view.phase  # the engine's DECLARE: no phase bit
    planes = _hand_planes(k, game.rules)
    out[P_MELDS:P_RIVERS] = planes.melds[seat : seat + 4].reshape(32, 34)
    out[P_RIVERS:P_INDICATORS] = planes.rivers[seat : seat + 4].reshape(136, 34)
    seats = k.seats
    ap = ones.append
    _hand(seats[seat].tiles, k, base, base + P_RED * 34, ones)
    if phase == DRAWN and k.actor == seat and k.drawn is not None:
        ap(base + P_DRAWN * 34 + (k.drawn >> 2))
    discarder = -1
    if phase == RESPONSES and k.last_discard is not None:
        discarder, tid = k.last_discard
        ap(base + P_OFFERED * 34 + (tid >> 2))
    elif phase == CHANKAN and k.kakan_tile is not None:
        discarder = k.actor
        ap(base + P_OFFERED * 34 + (k.kakan_tile >> 2))
    indicators = k._dora_ids()
    if indicators:
        dora = planes.dora_ones(indicators)
        ones.extend([base + i for i in dora] if base else dora)
    out[P_SCALARS : P_SCALARS + 3] = planes.scalar_template(game, k, seat)
    s0 = base + P_SCALARS * 34
    s1 = s0 + 34
    scale = planes.scale
    scores = k.scores
    won = k.won
    closed = planes.closed
    vp = idx.append
    vv = val.append
    for r in range(4):
        s = (seat + r) % 4
        v = scores[s]
        if v:
            v /= scale
            vp(s0 + r)
            vv(-4.0 if v < -4 else (4.0 if v > 4 else v))
        st = seats[s]
        if st.riichi:
            ap(s0 + 16 + r)
        if won[s]:
            ap(s0 + 20 + r)
        if closed[s]:
            ap(s1 + 4 + r)
        if st.kans:
            vp(s1 + 8 + r)
            vv(st.kans / 4 if st.kans < 4 else 1.0)
        if st.ippatsu:
            ap(s1 + 12 + r)
    if k.deposits:
        vp(s0 + 14)
        vv(k.deposits / 10 if k.deposits < 10 else 1.0)
    left = k.tiles_left / planes.live_wall
    if left > 0:
        vp(s0 + 15)
        vv(left if left < 1 else 1.0)
    over = game.result is not None
    p = _PHASES.get(phase)
    if game.yame_choice is not None:
        ap(s0 + 33)
    elif p is not None and not over:
        ap(s0 + p)
    if discarder >= 0:
        ap(s1 + (discarder - seat) % 4)
    if indicators:
        vp(s1 + 18)
        vv(len(indicators) / 5 if len(indicators) < 5 else 1.0)
    if over:
        ap(s1 + 19)
    if privileged:
        for r in (1, 2, 3):
            _hand(
                seats[(seat + r) % 4].tiles,
                k,
                base + (P_PRIVILEGED + 4 * (r - 1)) * 34,
                base + (P_PRIVILEGED + 12 + r - 1) * 34,
                ones,
            )


def _scatter(flat: np.ndarray, ones: list[int], idx: list[int], val: list[float]) -> None:
    flat[ones] = 1.0
    flat[idx] = val


class GameFacts:
    """What :func:`encode` reads of a game besides its hand, for a hand seen without its :class:`Game`: a hand
    replayed from a record (:mod:`jantaku.env.dataset`) or a seat's view (:mod:`jantaku.env.agent`). ``kyoku`` is
    the hand (the engine's or a seat's view of it); the game's result is not known mid-game; ``yame_choice`` is the
    seat choosing to stop or play on, if that is the decision."""

    __slots__ = ("dealer", "first_dealer", "hands_played", "kyoku", "result", "round_wind", "rules", "yame_choice")

    def __init__(
        self, rules: Ruleset, kyoku: Any, hands_played: int, first_dealer: int, yame_choice: int | None = None
    ) -> None:
        self.rules = rules
        self.kyoku = kyoku
        self.hands_played = hands_played
        self.first_dealer = first_dealer
        self.round_wind = kyoku.round_wind
        self.dealer = kyoku.dealer
        self.result = None
        self.yame_choice = yame_choice


def encode(
    game: Game,
    seat: int,
    privileged: bool = False,
    *,
    view: SeatView | PlayerView | None = None,
    extra_planes: Sequence[str] = (),
) -> np.ndarray:
    """``seat``'s observation of ``game`` now: a new ``float32`` array ``(OBS_PLANES, 34)`` (see the module), with
    the optional planes ``extra_planes`` after the base ones (:mod:`jantaku.env.planes`).

    The hand is read from the engine, or with ``view`` from the seat's own view
    (:meth:`Game.view <jantaku.table.game.Game.view>`), built from the events the seat received: the
    observation is the same (``tests/test_env_encoding.py`` checks it at every decision of seeded games of every
    preset), so it holds nothing the seat does not know; the engine is read by default as it is faster. The
    game's own facts (hands played, the last hand's stop-or-go-on choice) are public and read from ``game``.

    >>> from jantaku.rules import load_rules
    >>> from jantaku.table import Game
    >>> obs = encode(Game(load_rules("standard"), seed=1), 0)
    >>> obs.shape, int(obs[0].sum() + obs[1].sum() + obs[2].sum() + obs[3].sum()) in (13, 14)
    ((185, 34), True)
    """
    if not 0 <= seat <= 3:
        raise JantakuError(f"seat must be 0-3, got {seat!r}")
    planes = OBS_PLANES_PRIVILEGED if privileged else OBS_PLANES
    out = np.zeros((planes, 34), np.float32)
    ones: list[int] = []
    idx: list[int] = []
    val: list[float] = []
    if view is not None:
        if privileged:
            raise JantakuError("a privileged observation shows every hand: it is read from the engine, not a view")
        if view.seat != seat:
            raise JantakuError(f"the view is seat {view.seat}'s, not seat {seat}'s")
        if isinstance(view, PlayerView):
            view = view.seat_view
    _gather(game, seat, privileged, out, ones, idx, val, 0, view)
    _scatter(out.reshape(-1), ones, idx, val)
    if extra_planes:
        from .planes import extra_planes as optional

        out = np.concatenate([out, optional(game, seat, extra_planes, view=view)])
    return out


def encode_batch(
    games: Sequence[Game], seats: Sequence[int], privileged: bool = False, out: np.ndarray | None = None
) -> np.ndarray:
    """The observations of many games at once, ``(len(games), OBS_PLANES, 34)``: every game's features are
    gathered as indices into one array and written with one scatter (into ``out``, zeroed first, if given).

    >>> from jantaku.rules import load_rules
    >>> from jantaku.table import Game
    >>> games = [Game(load_rules("mu"), seed=s) for s in range(3)]
    >>> batch = encode_batch(games, [0, 1, 2])
    >>> batch.shape, bool((batch[1] == encode(games[1], 1)).all())
    ((3, 185, 34), True)
    """
    if len(games) != len(seats):
        raise JantakuError(f"encode_batch needs one seat per game, got {len(games)} games and {len(seats)} seats")
    planes = OBS_PLANES_PRIVILEGED if privileged else OBS_PLANES
    size = planes * 34
    if out is None:
        out = np.zeros((len(games), planes, 34), np.float32)
    else:
        if out.shape != (len(games), planes, 34) or out.dtype != np.float32:
            raise JantakuError(f"out must be a float32 array of shape {(len(games), planes, 34)}, got {out.shape}")
        out.fill(0.0)
    ones: list[int] = []
    idx: list[int] = []
    val: list[float] = []
    for n, (g, s) in enumerate(zip(games, seats, strict=True)):
        if not 0 <= s <= 3:
            raise JantakuError(f"seat must be 0-3, got {s!r}")
        _gather(g, s, privileged, out[n], ones, idx, val, n * size)
    _scatter(out.reshape(-1), ones, idx, val)
    return out


def mask_of(legal: dict[int, Action]) -> np.ndarray:
    """The action mask (``int8``, ``NUM_ACTIONS``) of a :func:`legal_indices` map."""
    m = bytearray(NUM_ACTIONS)  # written byte by byte, then seen as the array (no copy): half numpy's fancy indexing
    for index in legal:
        m[index] = 1
    return np.frombuffer(m, np.int8)
