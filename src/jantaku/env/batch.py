"""The observations of a fixed set of games, encoded together by one compiled kernel (every environment's and the
dataset's).

:class:`BatchEncoder` keeps, per game slot, one row of small integers: what it reads from the engine at each call
(the seat, its closed tiles, the flags and counters of the four seats) and the hand's rivers and melds, which it
does not read tile by tile: the hand engine keeps them as integers itself (:mod:`jantaku.table.public_codes`,
written where a discard, call or kan changes them) and the row takes that block with one slice. One numba kernel
then writes every slot's observation: the rivers and melds in the viewer's seat order, the hand's thermometer, the
dora, the scalar rows. The engine stays the one source of truth.

The result is the same array :func:`~jantaku.env.encoding.encode` gives for each game (the tests compare them at
every decision of whole games of four presets, privileged observations too; ``encode`` reads the seats' rivers
and melds, so the comparison also checks the engine's integer block). The kernel writes an observation in about
1 us; the Python reading of the engine around it is most of the cost.

>>> from jantaku.rules import load_rules
>>> from jantaku.table import Game
>>> from jantaku.env.encoding import encode
>>> games = [Game(load_rules("tenhou"), seed=s) for s in range(3)]
>>> batch = BatchEncoder(3).encode(games, [0, 1, 2])
>>> batch.shape, all((batch[n] == encode(games[n], n)).all() for n in range(3))
((3, 185, 34), True)
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from jantaku.errors import JantakuError
from jantaku.extras import require
from jantaku.table import public_codes

from .encoding import (
    _PHASES,
    _SUCC,
    CHANKAN,
    DRAWN,
    OBS_PLANES,
    OBS_PLANES_PRIVILEGED,
    RESPONSES,
    _HandState,
)
from .planes import check_names, extra_planes, plane_count

if TYPE_CHECKING:
    from jantaku.table import Game

__all__ = ["BatchEncoder"]

njit = require("numba", "env", "the environments' batch encoder").njit

# the row of integers per slot
I_SEAT = 0  # I_SEAT .. I_FLAGS + 3: read from the engine at every call, written together
I_DRAWN = 1  # kind of the tile just drawn, or -1
I_OFFERED = 2  # kind of the tile offered (a discard or an added kan), or -1
I_DISCARDER = 3  # relative seat of the offered tile's owner, or -1
I_PHASE = 4  # column of the phase bit in scalar row 0, or -1
I_YAME = 5
I_OVER = 6
I_SCORES = 7  # 4, absolute seats
I_DEPOSITS = 11
I_LEFT = 12
I_LIVE = 13
I_FLAGS = 14  # 4, absolute seats: riichi 1, won 2, ippatsu 8, kans << 4
I_NDORA = 18
I_DORA = 19  # 5 indicator ids
I_RED = 24  # 3: red fives in play per suit
I_SCALE = 27
I_HANDS = 28  # per absolute seat: the count, then 14 tile ids
HAND_WIDTH = 15

# The engine's public codes (jantaku.table.public_codes), written here as numbers: numba freezes a global into a
# cached kernel, and its cache follows this file only, so a change there must be made here too (checked below).
TSUMOGIRI, RIICHI, CALLED, RED = 1 << 6, 1 << 7, 1 << 8, 1 << 9
MELD_RED = 1 << 6
CHI, PON, CLOSED_KAN = 0, 1, 3
RIVER_WIDTH, MELD_WIDTH, MELDS, SIZE = 31, 25, 124, 224
_SHARED = "TSUMOGIRI RIICHI CALLED RED MELD_RED CHI PON CLOSED_KAN RIVER_WIDTH MELD_WIDTH MELDS SIZE"
_DIFFERENT = [name for name in _SHARED.split() if globals()[name] != getattr(public_codes, name)]
if _DIFFERENT:  # pragma: no cover - a change made in one of the two files only
    raise JantakuError(f"jantaku.env.batch's copy of {', '.join(_DIFFERENT)} differs from jantaku.table.public_codes")

I_RIVERS = I_HANDS + 4 * HAND_WIDTH  # the engine's public codes: rivers, then melds
I_MELDS = I_RIVERS + MELDS
I_END = I_RIVERS + SIZE
WIDTH = I_END

_SUCC_ARRAY = np.array(_SUCC, np.int64)


@njit(cache=True, nogil=True)
def _fill(  # pragma: no cover - compiled
    out: np.ndarray, tmpl: np.ndarray, ints: np.ndarray, succ: np.ndarray, priv: bool
) -> None:
    """Write each slot's observation into ``out`` from its integer row and scalar template."""
    n = out.shape[0]
    seen = np.zeros(34, np.int64)
    for i in range(n):
        o = out[i]
        o[:, :] = 0.0
        row = ints[i]
        seat = row[I_SEAT]
        for r in range(4):
            s = (seat + r) % 4
            base = I_RIVERS + RIVER_WIDTH * s
            p = 40 + 34 * r
            for j in range(row[base]):
                e = row[base + 1 + j]
                o[p + j, e & 63] = 1.0
                if e & TSUMOGIRI:
                    o[p + 30, j] = 1.0
                if e & RIICHI:
                    o[p + 31, j] = 1.0
                if e & CALLED:
                    o[p + 32, j] = 1.0
                if e & RED:
                    o[p + 33, j] = 1.0
            base = I_MELDS + MELD_WIDTH * s
            p = 8 + 8 * r
            seen[:] = 0
            for m in range(row[base]):
                mb = base + 1 + 6 * m
                kind = row[mb]
                for j in range(row[mb + 1]):
                    v = row[mb + 2 + j]
                    kd = v & 63
                    if seen[kd] < 4:
                        o[p + seen[kd], kd] = 1.0
                    seen[kd] += 1
                    if v & MELD_RED:
                        o[p + 7, kd] = 1.0
                if kind != CHI:
                    first = row[mb + 2] & 63
                    o[p + 4, first] = 1.0
                    if kind != PON:
                        o[p + 5, first] = 1.0
                        if kind == CLOSED_KAN:
                            o[p + 6, first] = 1.0
        for h in range(4 if priv else 1):
            abs_seat = (seat + h) % 4
            base = I_HANDS + HAND_WIDTH * abs_seat
            cnt = row[base]
            if h == 0:
                plane, red_plane = 0, 4
            else:
                plane, red_plane = 185 + 4 * (h - 1), 197 + h - 1
            seen[:] = 0
            for j in range(cnt):
                t = row[base + 1 + j]
                kd = t >> 2
                if seen[kd] < 4:
                    o[plane + seen[kd], kd] = 1.0
                seen[kd] += 1
                if (t == 16 or t == 52 or t == 88) and row[I_RED + kd // 9] != 0:
                    o[red_plane, kd] = 1.0
        if row[I_DRAWN] >= 0:
            o[5, row[I_DRAWN]] = 1.0
        if row[I_OFFERED] >= 0:
            o[6, row[I_OFFERED]] = 1.0
        nd = row[I_NDORA]
        for j in range(min(nd, 5)):
            ind = row[I_DORA + j]
            o[7, succ[ind >> 2]] = 1.0
            o[176 + j, ind >> 2] = 1.0
        for p in range(3):
            for c in range(34):
                o[182 + p, c] = tmpl[i, seat, p, c]
        s0 = o[182]
        s1 = o[183]
        scale = row[I_SCALE]
        for r in range(4):
            s = (seat + r) % 4
            v = row[I_SCORES + s] / scale
            s0[r] = -4.0 if v < -4.0 else (4.0 if v > 4.0 else v)
            f = row[I_FLAGS + s]
            if f & 1:
                s0[16 + r] = 1.0
            if f & 2:
                s0[20 + r] = 1.0
            closed = True
            base = I_MELDS + MELD_WIDTH * s
            for m in range(row[base]):
                if row[base + 1 + 6 * m] != CLOSED_KAN:
                    closed = False
            if closed:
                s1[4 + r] = 1.0
            if f & 8:
                s1[12 + r] = 1.0
            kans = f >> 4
            if kans:
                s1[8 + r] = kans / 4.0 if kans < 4 else 1.0
        dep = row[I_DEPOSITS]
        s0[14] = dep / 10.0 if dep < 10 else 1.0
        left = row[I_LEFT] / row[I_LIVE]
        s0[15] = 0.0 if left <= 0.0 else (left if left < 1.0 else 1.0)
        if row[I_YAME]:
            s0[33] = 1.0
        elif row[I_PHASE] >= 0 and not row[I_OVER]:
            s0[row[I_PHASE]] = 1.0
        if row[I_DISCARDER] >= 0:
            s1[row[I_DISCARDER]] = 1.0
        if nd:
            s1[18] = nd / 5.0 if nd < 5 else 1.0
        if row[I_OVER]:
            s1[19] = 1.0


class BatchEncoder:
    """Observations of ``slots`` games (one per slot), for a vector environment: see the module. ``extra_planes``
    names optional planes (:mod:`jantaku.env.planes`), added after the base ones.

    A slot follows whatever game is passed at its position; when that game's hand changes, the slot's planes
    start again for the new hand.
    """

    def __init__(self, slots: int, privileged: bool = False, extra_planes: Sequence[str] = ()) -> None:
        if not isinstance(slots, int) or slots < 1:
            raise JantakuError(f"slots must be a positive integer, got {slots!r}")
        self.slots = slots
        self.privileged = bool(privileged)
        self.extra_planes = check_names(extra_planes)
        self._base = OBS_PLANES_PRIVILEGED if self.privileged else OBS_PLANES
        self.planes = self._base + plane_count(self.extra_planes)
        self._tmpl = np.zeros((slots, 4, 3, 34), np.float32)
        """Per slot and seat, the scalar rows that stay the same through a hand (written when a hand begins)."""
        self._buf = array("i", bytes(4 * slots * WIDTH))
        """The integer rows, written from Python item by item (no conversion of a list into an array) and read by
        the kernel through :attr:`_ints`, a NumPy view of the same memory."""
        self._ints = np.frombuffer(self._buf, np.int32).reshape(slots, WIDTH)
        self._hand_of: list[tuple[Any, _SlotHand] | None] = [None] * slots
        self._tmpl_of = [-1] * slots
        """Per slot, the game's ``hands_played`` its templates were written for (-1: none, or a new hand held)."""

    def encode(self, games: Sequence[Game], seats: Sequence[int], out: np.ndarray | None = None) -> np.ndarray:
        """``(slots, planes, 34)`` observations: ``seats[i]``'s of ``games[i]`` (into ``out`` if given)."""
        n = self.slots
        if len(games) != n or len(seats) != n:
            raise JantakuError(f"give one game and one seat per slot ({n}), got {len(games)} and {len(seats)}")
        if out is None:
            out = np.empty((n, self.planes, 34), np.float32)
        elif out.shape != (n, self.planes, 34) or out.dtype != np.float32:
            raise JantakuError(f"out must be a float32 array of shape {(n, self.planes, 34)}, got {out.shape}")
        for i in range(n):
            seat = seats[i]
            if not 0 <= seat <= 3:
                raise JantakuError(f"seat must be 0-3, got {seat!r}")
            self._row(i, games[i], seat)
        _fill(out, self._tmpl, self._ints, _SUCC_ARRAY, self.privileged)
        if self.extra_planes:  # computed in Python, from the engine (jantaku.env.planes)
            base = self._base
            for i in range(n):
                out[i, base:] = extra_planes(games[i], seats[i], self.extra_planes)
        return out

    def _row(self, i: int, game: Game, seat: int) -> None:
        k: Any = game.kyoku
        o = i * WIDTH
        held = self._hand_of[i]
        if held is None or held[0] is not k:
            held = (k, _SlotHand(game.rules))
            self._hand_of[i] = held
            red = k._red
            self._buf[o + I_RED : o + I_RED + 3] = array("i", red)
            self._buf[o + I_SCALE] = int(held[1].scale)
            self._tmpl_of[i] = -1
        planes = held[1]
        self._buf[o + I_RIVERS : o + I_END] = k.public.codes  # the engine's own record of rivers and melds
        # a new hand, or its end (the game counts the hand played, and the round, dealer and counters move on with
        # it): the four seats' templates at once
        if self._tmpl_of[i] != game.hands_played:
            for s in range(4):
                self._tmpl[i, s] = planes.scalar_template(game, k, s)
            self._tmpl_of[i] = game.hands_played
        row = self._buf
        phase = k.phase
        drawn = k.drawn >> 2 if phase == DRAWN and k.actor == seat and k.drawn is not None else -1
        if phase == RESPONSES and k.last_discard is not None:
            d, tid = k.last_discard
            offered, discarder = tid >> 2, (d - seat) % 4
        elif phase == CHANKAN and k.kakan_tile is not None:
            offered, discarder = k.kakan_tile >> 2, (k.actor - seat) % 4
        else:
            offered = discarder = -1
        if k.dora_revealed != planes.dora_count:  # the indicators only change when one is turned
            indicators = k._dora_ids()[:5]
            _HEAD[len(indicators)].pack_into(row, 4 * (o + I_NDORA), len(indicators), *indicators)
            planes.dora_count = k.dora_revealed
        won = k.won
        seats = k.seats
        a, b, c, d_ = seats
        sc = k.scores
        _READ.pack_into(  # I_SEAT .. I_FLAGS + 3, in order
            row,
            4 * o,
            seat,
            drawn,
            offered,
            discarder,
            _PHASES.get(phase, -1),
            game.yame_choice is not None,
            game.result is not None,
            sc[0],
            sc[1],
            sc[2],
            sc[3],
            k.deposits,
            k.live_end - k.live_next,  # k.tiles_left, inlined
            planes.live_wall,
            a.riichi | won[0] << 1 | a.ippatsu << 3 | a.kans << 4,
            b.riichi | won[1] << 1 | b.ippatsu << 3 | b.kans << 4,
            c.riichi | won[2] << 1 | c.ippatsu << 3 | c.kans << 4,
            d_.riichi | won[3] << 1 | d_.ippatsu << 3 | d_.kans << 4,
        )
        for s in range(4) if self.privileged else (seat,):
            tiles = seats[s].tiles
            _HAND[len(tiles)].pack_into(row, 4 * (o + I_HANDS + HAND_WIDTH * s), len(tiles), *tiles)


_READ = struct.Struct("18i")
_HEAD = [struct.Struct(f"{1 + n}i") for n in range(6)]
"""The dora count and ``n`` indicator ids (the slots after them keep older values the kernel does not read)."""
_HAND = [struct.Struct(f"{1 + n}i") for n in range(HAND_WIDTH)]
"""A closed hand: its count and ``n`` tile ids."""


class _SlotHand(_HandState):
    """A slot's hand: its templates (:class:`~jantaku.env.encoding._HandState`) and how many dora indicators its row
    holds."""

    __slots__ = ("dora_count",)

    def __init__(self, rules: Any) -> None:
        super().__init__(rules)
        self.dora_count = -1
