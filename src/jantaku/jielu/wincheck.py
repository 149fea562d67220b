"""The legal-win check, compiled: may this 14-tile hand win for at least 1 point (the rule set's minimum)?

The table engine asks this after every discard, for every other seat, and on every draw (004 无振听: a 洁律 win is
not gated by waits), so it is the cost of a 洁律 game. :func:`jantaku.jielu.search.best_completion` answers it
too, and explains the best completion; this module only answers yes or no, with the same definitions, in code
that numba compiles to machine code on first use.

A *reading* of the hand is its closed melds still to form and its pair. A reading that needs tiles the hand
lacks uses that many wildcards, ``w`` (each stands for a missing tile, and as many of the hand's own tiles are
treated as wildcards); it wins when its value halved ``w`` times is at least 1, that is ``value >= 2**w``, and
when every group holds a real tile of its own (no pair or meld made only of wildcards: Hall's condition over the
groups). With ``w = 0`` the win's incidental fans count too. Values reach at most ``max(full, cap)`` (32), so no
reading with more than 5 wildcards can win.

A rule set may change the win rule (rule-maker's options, :func:`jantaku.jielu.fantable.with_win_rule`): a
least score ``m`` above 1 (the reading's value must reach ``m * 2**w``; the search starts as if a score of
``m - 1`` had been found) and a cap on ``w`` (the levels above it are never searched).

The search visits the kinds in order, honors first, and at each kind chooses the chows that begin there, a pung
and the pair (the groups' lowest kind), so each reading is reached once and the wildcards it needs are known kind
by kind: the tiles of a kind the groups need beyond the hand's are misses, the hand's tiles beyond what they need
are drops, and a complete reading has as many of each. A reading's value comes from tables built once per fan
table (:class:`_Tables`):

- the suit, number and honor fans depend only on the reading's content mask (:func:`jantaku.jielu.melds.
  tile_mask`), in three independent parts (which suits and honor categories; which numbers and whether an honor;
  which winds and dragons): three small tables hold each part's points and its largest fan;
- the combination fans: the best points of each sorted tuple of two to four number melds, and the best
  assignment of the four melds to them, enumerated and tie-broken as :func:`jantaku.jielu.combos.best_assignment`
  does (:func:`_assignment`);
- the shape fans (平和, 对对和, the kong fans) from the melds' kinds;

then the 32/24 rule: a fan worth ``full`` makes the value ``full``, else the sum capped at ``cap``.

Every pruning rule is exact (none can lose a winning reading; the tests compare the check with the optimiser
under four fan tables):

- a reading with more wildcards than the cap pays for (``2**w > cap``) wins only with a fan worth ``full``; when
  no such fan is within reach of the hand (:func:`_full_fits`: a content fan's forbidden tiles and missing honor
  kinds, a combination instance's missing tiles, the shape and kong fans) that level is not searched;
- the combination fans count only the instances the hand can hold (:func:`_combo_cap`: the tiles an instance
  lacks, plus the regular distance of the other tiles to the groups left), and at a search position only those
  whose melds are chosen or may still begin at a later kind;
- the search moves straight to the next kind with a choice (one the hand holds, one that chows begun need, or
  where a chow of the next tiles may begin), and more chows at a kind stop being tried once their own misses
  exceed the wildcards;
- the wildcards so far plus a lower bound of those still to come (the regular distance of the tiles left, from
  :func:`jantaku.shapes.tables.distance_table`, and the tiles left beyond what the groups to come can hold) must
  be at most 5;
- the value the reading can still reach must be at least ``2**w``: the content fans over every mask that the
  groups still to come can make (in the number phase, only number groups; and a number or suit set that would
  leave out more of the hand's later tiles than the wildcards allow is out of reach), plus the combination
  fans' best over every way to complete the number melds chosen so far with melds at later kinds (a fan worth
  ``full`` only when one of its instances fits in the wildcards), plus the shape fans still possible;
- a reading whose groups are all chosen is scored at once (the tiles left are drops).

>>> from jantaku.tiles import counts34, parse_tiles
>>> from jantaku.jielu.fantable import default_fan_table
>>> check = WinCheck(default_fan_table())
>>> check(counts34(parse_tiles("123m456p789s11z344z")), ()), check(counts34(parse_tiles("19m19p19s11234567z")), ())
(True, False)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from functools import cache

import numpy as np

from jantaku.extras import require
from jantaku.shapes.tables import block_distance_table

from .combos import combination_key, instances
from .errors import JieluError
from .fantable import FanTable
from .melds import KONG, PUNG, is_chow, meld_tiles, tile_mask
from .wholehand import _content_names

__all__ = ["WinCheck", "warm_up", "win_check"]

njit = require("numba", "jielu", "洁律 scoring and play").njit

# The 55 melds (34 pungs, honors first, then the 21 chows): their tiles, for their content masks.
_MELD_TILES = np.zeros((55, 3), dtype=np.int64)
for _i, _k in enumerate((*range(27, 34), *range(27))):
    _MELD_TILES[_i] = (_k, _k, _k)
for _j, _k in enumerate(k for k in range(27) if k % 9 <= 6):
    _MELD_TILES[34 + _j] = (_k, _k + 1, _k + 2)
_TILE_MASK = np.array([tile_mask(k) for k in range(34)], dtype=np.int64)
_MELD_MASK = np.array([_TILE_MASK[a] | _TILE_MASK[b] | _TILE_MASK[c] for a, b, c in _MELD_TILES], dtype=np.int64)
_N_KEYS = 48
"""Combination keys: the 21 chows (0-20), then the 27 number pungs (21-47), in the order of their codes."""


def _compact(code: int) -> int:
    """A meld's combination key (0-47), or -1 for an honor meld (which takes part in no combination)."""
    key = combination_key(code)
    if key is None:
        return -1
    if key < PUNG:
        return 7 * (key // 9) + key % 9
    return 21 + key - PUNG


_ORDER = np.array([*range(27, 34), *range(27)], dtype=np.int64)
"""The search's order of the kinds: honors first (they settle the honor fans early), then the number tiles."""
_CHOW_MASK = np.array(
    [_MELD_MASK[34 + 7 * (k // 9) + k % 9] if k < 27 and k % 9 <= 6 else 0 for k in range(34)], dtype=np.int64
)
_BIT_INDEX = np.zeros(521, dtype=np.int64)
"""``_BIT_INDEX[(1 << i) % 521] == i`` for i < 9 (a perfect hash of the nine single bits)."""
for _b in range(9):
    _BIT_INDEX[(1 << _b) % 521] = _b
_POW5 = np.array([5**i for i in range(9)], dtype=np.int64)
_KEY_OF_CODE = np.array([_compact(c) if c < 27 or c >= PUNG else -1 for c in range(KONG + 34)], dtype=np.int64)
"""Meld code -> combination key (-1: an honor meld, or no meld)."""


@cache
def _distance_tables() -> tuple[np.ndarray, np.ndarray]:
    """The regular distance tables of a suit and of the honors (the same for every fan table: built once)."""
    return block_distance_table(9), block_distance_table(7)


def _scoring_sets(part: np.ndarray, bits: int, full: int) -> np.ndarray:
    """``out[flags]``: the sets (of ``bits`` bits) whose part of the content fans scores, with the other flag bits
    ``flags``, as (value, set) rows best first (:data:`_FULL_MARK` for a fan worth ``full``), padded with
    zeros."""
    n_flags = part.shape[0] >> bits
    rows = []
    for flags in range(n_flags):
        got = []
        for x in range(1 << bits):
            tot, top = (int(v) for v in part[x | flags << bits])
            if tot or top:
                got.append((_FULL_MARK if top >= full else tot, x))
        rows.append(sorted(got, reverse=True))
    out = np.zeros((n_flags, max(map(len, rows)) + 1, 2), dtype=np.int64)
    for flags, got in enumerate(rows):
        for i, row in enumerate(got):
            out[flags, i] = row
    return out


def _instance_tiles(found: list[tuple[int, int, tuple[int, ...]]]) -> tuple[np.ndarray, np.ndarray]:
    """Combination instances, given as (points, melds, codes), most first of what they add to a reading (a fan of
    two melds may come twice in four melds: twice its points): each one's tiles as (kind, count) rows, and per
    instance (kinds, what it adds, melds, the number kinds it needs at least 1, 2, 3 and 4 of as bit sets, its
    melds' combination keys as a bit set)."""
    found = sorted(found, key=lambda f: -f[0] * (2 if f[1] == 2 else 1))
    tiles = np.zeros((max(1, len(found)), 12, 2), dtype=np.int64)
    info = np.zeros((len(found), 8), dtype=np.int64)
    for n, (points, melds, codes) in enumerate(found):
        need: dict[int, int] = {}
        for code in codes:
            for k in meld_tiles(code):
                need[k] = need.get(k, 0) + 1
        for x, (k, cnt) in enumerate(sorted(need.items())):
            tiles[n, x] = (k, cnt)
        at_least = [sum(1 << k for k, cnt in need.items() if cnt >= j) for j in (1, 2, 3, 4)]
        key_set = 0
        for code in codes:
            key_set |= 1 << _compact(code)
        info[n] = (len(need), points * (2 if melds == 2 else 1), melds, *at_least, key_set)
    return tiles, np.asfortranarray(info)  # column by column: the scan reads one column of every instance


def _full_content_options(t: _Tables) -> tuple[np.ndarray, np.ndarray]:
    """Every way a content fan worth ``full`` can come (a row per exact set of its part of the content mask):
    ``allowed[i, k]`` 1 for the kinds such a reading may hold (the hand's other tiles must be made wildcards), and
    ``required[i, k]`` 1 for the honor kinds it must hold a group of (an honor group holds a real tile of its own
    kind). The suit and number parts say which categories and numbers are present; they require no kind, as
    wildcards may stand for a number in a chow."""
    allowed: list[list[int]] = []
    required: list[list[int]] = []
    for x in range(32):  # suits: three suit bits, a wind present, a dragon present
        if t.suits[x, 1] >= t.full:
            ok = [x >> (k // 9) & 1 if k < 27 else x >> (3 if k < 31 else 4) & 1 for k in range(34)]
            allowed.append(ok)
            required.append([0] * 34)
    for x in range(1024):  # numbers: nine number bits, an honor present
        if t.numbers[x, 1] >= t.full:
            allowed.append([x >> (k % 9) & 1 if k < 27 else x >> 9 & 1 for k in range(34)])
            required.append([0] * 34)
    for x in range(128):  # honors: the exact set of honor kinds present
        if t.honors[x, 1] >= t.full:
            allowed.append([1 if k < 27 else x >> (k - 27) & 1 for k in range(34)])
            required.append([0 if k < 27 else x >> (k - 27) & 1 for k in range(34)])
    return np.array(allowed, dtype=np.int64).reshape(-1, 34), np.array(required, dtype=np.int64).reshape(-1, 34)


class _Tables:
    """The per-fan-table arrays the compiled check reads."""

    def __init__(self, t: FanTable) -> None:
        fam = t.family

        def part(mask: int, family: str) -> tuple[int, int]:
            pts = [t.points[n] for n in _content_names(mask) if fam[n] == family]
            return sum(pts), max(pts, default=0)

        # suits: 3 suit bits, a wind present, a dragon present
        self.suits = np.zeros((32, 2), dtype=np.int64)
        for x in range(32):
            self.suits[x] = part((x & 7) | (x >> 3 & 1) << 12 | (x >> 4 & 1) << 16, "suits")
        # numbers: 9 number bits, an honor present
        self.numbers = np.zeros((1024, 2), dtype=np.int64)
        for x in range(1024):
            self.numbers[x] = part((x & 511) << 3 | (x >> 9 & 1) << 12, "numbers")
        # honors: 4 wind bits, 3 dragon bits
        self.honors = np.zeros((128, 2), dtype=np.int64)
        for x in range(128):
            self.honors[x] = part(x << 12, "honors")
        # combination fans: the best points of each sorted key tuple, two or three melds in dense tables, four in
        # a sorted list of the instances' indexes (a few hundred; looked up by binary search)
        self.combo2 = np.zeros(_N_KEYS**2, dtype=np.int64)
        self.combo3 = np.zeros(_N_KEYS**3, dtype=np.int64)
        four: dict[int, int] = {}
        for spec in t.combinations:
            for inst in instances(spec):
                keys = sorted(_compact(c) for c in inst)
                idx = 0
                for k in keys:
                    idx = idx * _N_KEYS + k
                if len(keys) == 2:
                    self.combo2[idx] = max(self.combo2[idx], spec.points)
                elif len(keys) == 3:
                    self.combo3[idx] = max(self.combo3[idx], spec.points)
                else:
                    four[idx] = max(four.get(idx, 0), spec.points)
        self.combo4_keys = np.array(sorted(four), dtype=np.int64)
        self.combo4_points = np.array([four[k] for k in sorted(four)], dtype=np.int64)
        self.shape = np.array(
            [t.points.get("平和", 0), t.points.get("对对和", 0)]
            + [t.points.get(n, 0) for n in ("一杠", "二杠", "三杠", "四杠")],
            dtype=np.int64,
        )
        self.full = t.full
        self.cap = t.cap
        self.max_w = max(t.full, t.cap).bit_length() - 1
        self.content_ub = _content_bounds(self.suits, self.numbers, self.honors, self.full)
        self.number_ub = _number_bounds(self.suits, self.numbers, self.full)
        self.combo_ub = _combo_bounds(self.full, self.combo2, self.combo3, self.combo4_keys, self.combo4_points)
        # every instance of a combination fan worth ``full``: its tiles as (kind, count), and how many kinds
        inst = [i for spec in t.combinations if spec.points >= t.full for i in instances(spec)]
        self.inst_tiles = np.zeros((max(1, len(inst)), 12, 2), dtype=np.int64)
        self.inst_info = np.zeros(len(inst), dtype=np.int64)
        for n, codes in enumerate(inst):
            need: dict[int, int] = {}
            for code in codes:
                for k in meld_tiles(code):
                    need[k] = need.get(k, 0) + 1
            for x, (k, cnt) in enumerate(sorted(need.items())):
                self.inst_tiles[n, x] = (k, cnt)
            self.inst_info[n] = len(need)
        self.full_allowed, self.full_required = _full_content_options(self)
        every = [(spec.points, len(inst), inst) for spec in t.combinations for inst in instances(spec)]
        self.all_tiles, self.all_info = _instance_tiles(every)
        self.nlist = _scoring_sets(self.numbers, 9, self.full)
        self.slist = _scoring_sets(self.suits, 3, self.full)
        self.dist9, self.dist7 = _distance_tables()
        self.tabs = (
            self.suits,
            self.numbers,
            self.honors,
            self.shape,
            self.combo2,
            self.combo3,
            self.combo4_keys,
            self.combo4_points,
            self.content_ub,
            self.number_ub,
            self.combo_ub,
            self.dist9,
            self.dist7,
            self.nlist,
            self.slist,
            self.inst_tiles,
            self.inst_info,
            self.full_allowed,
            self.full_required,
            self.all_tiles,
            self.all_info,
        )


@njit(cache=True, inline="always")
def _combo_points(
    keys: np.ndarray, n: int, combo2: np.ndarray, combo3: np.ndarray, c4k: np.ndarray, c4p: np.ndarray
) -> int:
    """The best points of one sorted key tuple of ``n`` (2-4) melds (0 when no combination fan matches it)."""
    if n == 2:
        return combo2[keys[0] * _N_KEYS + keys[1]]
    if n == 3:
        return combo3[(keys[0] * _N_KEYS + keys[1]) * _N_KEYS + keys[2]]
    idx = ((keys[0] * _N_KEYS + keys[1]) * _N_KEYS + keys[2]) * _N_KEYS + keys[3]
    j = np.searchsorted(c4k, idx)
    if j < c4k.shape[0] and c4k[j] == idx:
        return c4p[j]
    return 0


@njit(cache=True, inline="always")
def _sort_small(a: np.ndarray, n: int) -> None:
    """Sort the first ``n`` entries of ``a`` in place (n <= 5: insertion sort)."""
    for i in range(1, n):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True)
def _assignment(
    keys: np.ndarray, u: int, full: int, combo2: np.ndarray, combo3: np.ndarray, c4k: np.ndarray, c4p: np.ndarray
) -> tuple[int, bool]:
    """The best assignment of ``u`` melds (their combination keys in the order of their codes) to combination fans:
    its points and whether it holds a fan worth ``full``. The same enumeration and tie-breaking as
    :func:`jantaku.jielu.combos.best_assignment`: per set of melds, its first meld in no fan, then in a fan with
    one, two or three of the others in lexicographic order, a later option replacing an earlier only when it has
    strictly more points."""
    pts = np.zeros(16, dtype=np.int64)
    fl = np.zeros(16, dtype=np.bool_)
    mem = np.empty(4, dtype=np.int64)
    grp = np.empty(4, dtype=np.int64)
    for mask in range(1, 1 << u):
        k = 0
        for i in range(u):
            if mask >> i & 1:
                mem[k] = i
                k += 1
        first = mem[0]
        bp = pts[mask ^ (1 << first)]
        bf = fl[mask ^ (1 << first)]
        for size in range(1, k):
            for a in range(1, k):
                for b in range(a + 1 if size >= 2 else k, k + 1 if size < 2 else k):
                    for c in range(b + 1 if size == 3 else k, k + 1 if size < 3 else k):
                        grp[0] = keys[first]
                        grp[1] = keys[mem[a]]
                        gm = (1 << first) | (1 << mem[a])
                        n = 2
                        if size >= 2:
                            grp[2] = keys[mem[b]]
                            gm |= 1 << mem[b]
                            n = 3
                        if size == 3:
                            grp[3] = keys[mem[c]]
                            gm |= 1 << mem[c]
                            n = 4
                        _sort_small(grp, n)
                        p = _combo_points(grp, n, combo2, combo3, c4k, c4p)
                        if p > 0:
                            sub = mask & ~gm
                            cand = p + pts[sub]
                            if cand > bp:
                                bp = cand
                                bf = p >= full or fl[sub]
        pts[mask] = bp
        fl[mask] = bf
    top = (1 << u) - 1
    return pts[top], fl[top]


_FULL_MARK = 1 << 20
"""In the bound tables: a fan worth ``full`` can be reached."""


@njit(cache=True, inline="always")
def _content(mask: int, suits: np.ndarray, numbers: np.ndarray, honors: np.ndarray) -> tuple[int, int]:
    """The suit, number and honor fans of content mask ``mask``: their points and the largest fan."""
    winds = mask >> 12 & 15
    dragons = mask >> 16 & 7
    si = (mask & 7) | (8 if winds else 0) | (16 if dragons else 0)
    ni = (mask >> 3 & 511) | (512 if winds or dragons else 0)
    hi = mask >> 12 & 127
    return (suits[si, 0] + numbers[ni, 0] + honors[hi, 0], max(suits[si, 1], numbers[ni, 1], honors[hi, 1]))


@njit(cache=True)
def _content_bounds(suits: np.ndarray, numbers: np.ndarray, honors: np.ndarray, full: int) -> np.ndarray:
    """``out[r, mask]``: the most the suit, number and honor fans can be worth once at most ``r`` more groups add
    their tiles to content mask ``mask`` (:data:`_FULL_MARK` when a fan worth ``full`` can be reached)."""
    out = np.zeros((6, 1 << 19), dtype=np.int32)
    for mask in range(1 << 19):
        tot, top = _content(mask, suits, numbers, honors)
        out[0, mask] = _FULL_MARK if top >= full else tot
    groups = np.unique(_MELD_MASK)
    for r in range(1, 6):
        for mask in range(1 << 19):
            best = out[r - 1, mask]
            for g in groups:
                v = out[r - 1, mask | g]
                if v > best:
                    best = v
            out[r, mask] = best
    return out


@njit(cache=True, inline="always")
def _key_kind(key: int) -> int:
    """The kind a combination key's meld begins at."""
    if key < 21:
        return 9 * (key // 7) + key % 7
    return key - 21


@njit(cache=True, inline="always")
def _tuple_index(keys: np.ndarray, n: int) -> int:
    """The dense index of a sorted tuple of ``n`` (0-3) keys: base 48."""
    idx = 0
    for i in range(n):
        idx = idx * _N_KEYS + keys[i]
    return idx


_OFFSETS = np.array(
    [0, 1, 1 + _N_KEYS, 1 + _N_KEYS + _N_KEYS**2, 1 + _N_KEYS + _N_KEYS**2 + _N_KEYS**3], dtype=np.int64
)
"""Where the sorted tuples of 0, 1, 2 and 3 keys begin in the combination bound table."""
_KEYS_BEFORE = np.array(
    [sum(1 << key for key in range(_N_KEYS) if _key_kind(key) < t) for t in range(28)], dtype=np.int64
)
"""``_KEYS_BEFORE[t]``: the combination keys (as a bit set) whose meld begins at a kind before ``t``."""


@njit(cache=True)
def _combo_bounds(full: int, combo2: np.ndarray, combo3: np.ndarray, c4k: np.ndarray, c4p: np.ndarray) -> np.ndarray:
    """``out[tuple, t, :]`` for each sorted tuple of 0-3 combination keys (the melds chosen so far) and each
    kind ``t`` (0-27): the most the combination fans of four melds holding them can be worth, when every other
    number meld begins at kind ``t`` or later, and the largest single combination fan there (``[..., 0]`` and
    ``[..., 1]``)."""
    out = np.zeros((_OFFSETS[4], 28, 2), dtype=np.int32)
    keys = np.empty(4, dtype=np.int64)
    sub = np.empty(4, dtype=np.int64)
    rest = np.empty(4, dtype=np.int64)
    n = _N_KEYS
    for a in range(n):
        for b in range(a, n):
            for c in range(b, n):
                for d in range(c, n):
                    keys[0], keys[1], keys[2], keys[3] = a, b, c, d
                    tot = _assignment(keys, 4, full, combo2, combo3, c4k, c4p)[0]
                    top = 0
                    for s in range(16):
                        k = 0
                        for i in range(4):
                            if s >> i & 1:
                                sub[k] = keys[i]
                                k += 1
                        if k >= 2:
                            top = max(top, _combo_points(sub, k, combo2, combo3, c4k, c4p))
                    for s in range(15):  # the chosen melds: every proper subset
                        k = 0
                        r = 0
                        for i in range(4):
                            if s >> i & 1:
                                sub[k] = keys[i]
                                k += 1
                            else:
                                rest[r] = keys[i]
                                r += 1
                        t = 27
                        for i in range(r):
                            t = min(t, _key_kind(rest[i]))
                        row = _OFFSETS[k] + _tuple_index(sub, k)
                        if out[row, t, 0] < tot:
                            out[row, t, 0] = tot
                        if out[row, t, 1] < top:
                            out[row, t, 1] = top
    for row in range(out.shape[0]):
        for t in range(26, -1, -1):
            out[row, t, 0] = max(out[row, t, 0], out[row, t + 1, 0])
            out[row, t, 1] = max(out[row, t, 1], out[row, t + 1, 1])
    return out


@njit(cache=True)
def _number_bounds(suits: np.ndarray, numbers: np.ndarray, full: int) -> np.ndarray:
    """``out[b, r, x]`` for the number phase of the search (``b``: the first suit still open, 0-2): the most the
    suit and number fans can be worth once at most ``r`` more number groups of the open suits are added, from
    ``x`` = the suit bits, the number bits (<< 3), a wind present (<< 12) and a dragon present (<< 13);
    :data:`_FULL_MARK` when a fan worth ``full`` can be reached. The honor fans are final in this phase."""
    out = np.zeros((3, 6, 1 << 14), dtype=np.int32)
    groups = np.zeros(48, dtype=np.int64)
    for b in range(3):
        n_groups = 0
        for s in range(b, 3):
            for num in range(9):
                groups[n_groups] = (1 << s) | (1 << (3 + num))
                n_groups += 1
            for a in range(7):
                groups[n_groups] = (1 << s) | (7 << (3 + a))
                n_groups += 1
        for x in range(1 << 14):
            winds = x >> 12 & 1
            dragons = x >> 13 & 1
            si = (x & 7) | (winds << 3) | (dragons << 4)
            ni = (x >> 3 & 511) | ((winds | dragons) << 9)
            tot = suits[si, 0] + numbers[ni, 0]
            out[b, 0, x] = _FULL_MARK if max(suits[si, 1], numbers[ni, 1]) >= full else tot
        for r in range(1, 6):
            for x in range(1 << 14):
                best = out[b, r - 1, x]
                for g in range(n_groups):
                    v = out[b, r - 1, x | groups[g]]
                    if v > best:
                        best = v
                out[b, r, x] = best
    return out


@njit(cache=True)
def _budget_bound(
    mask: int, k: int, allow: int, hist_n: np.ndarray, hist_s: np.ndarray, nlist: np.ndarray, slist: np.ndarray
) -> int:
    """In the number phase, after kind ``k``: the most the suit and number fans can be worth when at most
    ``allow`` of the hand's tiles after ``k`` are left out (made wildcards): every tile kept puts its number and
    suit in the hand, so a number set or suit set leaving more than ``allow`` of them out is out of reach.
    ``nlist[h]`` / ``slist[wd]``: the number sets / suit sets that score, best first, as (value, set);
    ``hist_n[k, 9]`` / ``hist_s[k, 3]``: all the tiles after ``k``."""
    winds = 1 if mask >> 12 & 15 else 0
    dragons = 1 if mask >> 16 & 7 else 0
    numbers = mask >> 3 & 511
    least = hist_n[k, 9] - allow  # the tiles after k a number set must hold
    best_n = 0
    rows = nlist[winds | dragons]
    for i in range(rows.shape[0]):
        nset = rows[i, 1]
        if rows[i, 0] == 0:
            break
        if nset & numbers != numbers:
            continue
        inside = 0
        rest = nset
        while rest:
            low = rest & -rest
            inside += hist_n[k, _BIT_INDEX[low % 521]]
            rest ^= low
        if inside >= least:
            best_n = rows[i, 0]
            break
    suits = mask & 7
    least = hist_s[k, 3] - allow
    best_s = 0
    rows = slist[winds | dragons << 1]
    for i in range(rows.shape[0]):
        sset = rows[i, 1]
        if rows[i, 0] == 0:
            break
        if sset & suits != suits:
            continue
        inside = 0
        for x in range(3):
            if sset >> x & 1:
                inside += hist_s[k, x]
        if inside >= least:
            best_s = rows[i, 0]
            break
    return best_n + best_s


@njit(cache=True, inline="always")
def _bound_args(
    kong_pts: int,
    content_ub: np.ndarray,
    number_ub: np.ndarray,
    honors: np.ndarray,
    combo_ub: np.ndarray,
    keys: np.ndarray,
    shape: np.ndarray,
    full: int,
    cap: int,
    hist_n: np.ndarray,
    hist_s: np.ndarray,
    nlist: np.ndarray,
    slist: np.ndarray,
    combo_full_fits: bool,
    combo2: np.ndarray,
    combo3: np.ndarray,
    c4k: np.ndarray,
    c4p: np.ndarray,
    combo_cap: int,
    fits: np.ndarray,
    info: np.ndarray,
) -> tuple[object, ...]:
    """What :func:`_may_reach` reads besides the search position, gathered once per search (the kong points, the
    bound tables, a work array for the combination keys, the value limits, the hand's later tiles by number and
    suit, the scoring sets, the combination tables, and the hand's combination bound and fitting instances)."""
    return (kong_pts, content_ub, number_ub, honors, combo_ub, keys, shape, full, cap, hist_n, hist_s, nlist, slist,
            combo_full_fits, combo2, combo3, c4k, c4p, combo_cap, fits, info)  # fmt: skip


@njit(cache=True)
def _may_reach(
    need: int,
    groups_left: int,
    mask: int,
    k: int,
    codes: np.ndarray,
    n_codes: int,
    chows: int,
    allow: int,
    bound: tuple[object, ...],
) -> bool:
    """Whether a reading holding the melds ``codes[:n_codes]`` and content ``mask`` once the groups at kind ``k``
    are chosen, with ``groups_left`` groups (melds and the pair) to come at later kinds and at most ``allow`` more
    of the hand's tiles left out, can still be worth ``need``: an upper bound of each family's points. ``bound``:
    what a search reads about its fan table and hand (:func:`_bound_args`)."""
    (kong_pts, content_ub, number_ub, honors, combo_ub, keys, shape, full, cap, hist_n, hist_s, nlist, slist,
     combo_full_fits, combo2, combo3, c4k, c4p, combo_cap, fits, info) = bound  # fmt: skip
    if need > max(full, cap):
        return False
    t = 0 if k >= 27 else k + 1  # the first kind a meld still to come may begin at (in the honor phase: any)
    sh = 0
    if chows == n_codes and shape[0] > sh:
        sh = shape[0]
    if chows == 0 and shape[1] > sh:
        sh = shape[1]
    if sh >= full or kong_pts >= full:
        return True
    # first a quick look with the hand's combination bound (when no combination fan worth ``full`` fits)
    hi = mask >> 12 & 127
    if k < 27:
        if honors[hi, 1] >= full:
            return True
        x = (mask & 7) | (mask >> 3 & 511) << 3 | (1 << 12 if mask >> 12 & 15 else 0) | (1 << 13 if hi >> 4 else 0)
        cu = number_ub[k // 9, groups_left, x] + honors[hi, 0]
    else:
        cu = content_ub[groups_left, mask]
    if not combo_full_fits and cu < _FULL_MARK and min(cu + combo_cap + sh + kong_pts, cap) < need:
        return False
    # the melds' fans (table look-ups), then the content fans (in the number phase a look-up, and the budget
    # bound only when the look-up alone does not settle it)
    u = 0
    for i in range(n_codes):
        key = _KEY_OF_CODE[codes[i]]
        if key >= 0:
            keys[u] = key
            u += 1
    ctot = 0
    if n_codes == 4:  # every meld chosen (the pair still to come): the combination fans are known
        ctot, f = _melds_combinations(codes, keys, full, combo2, combo3, c4k, c4p)
        if f:
            return True
    else:
        _sort_small(keys, u)
        row = _OFFSETS[u] + _tuple_index(keys, u)
        if combo_ub[row, min(t, 27), 1] >= full and combo_full_fits:
            return True
        ctot = min(combo_ub[row, min(t, 27), 0], combo_cap)
        n_fit = fits[fits.shape[0] - 1]
        if ctot > 0 and n_fit >= 0:
            # the first fitting instance whose melds are chosen or may still come
            chosen = 0
            for j in range(u):
                chosen |= 1 << keys[j]
            out = _KEYS_BEFORE[min(t, 27)] & ~chosen
            here = 0
            for j in range(n_fit):
                if info[fits[j], 7] & out == 0:
                    here = info[fits[j], 1]
                    break
            ctot = min(ctot, here)
    rest = ctot + sh + kong_pts
    if k >= 27:  # the honor phase: any group may still come
        return cu >= _FULL_MARK or min(cu + rest, cap) >= need
    nb = cu - honors[hi, 0]
    if nb < _FULL_MARK and min(nb + honors[hi, 0] + rest, cap) < need:
        return False
    nb = min(nb, _budget_bound(mask, k, allow, hist_n, hist_s, nlist, slist))
    return nb >= _FULL_MARK or min(nb + honors[hi, 0] + rest, cap) >= need


_BITS9 = np.array([bin(x).count("1") for x in range(512)], dtype=np.int64)


@njit(cache=True, inline="always")
def _bits27(x: int) -> int:
    """The number of bits set in ``x`` < 2**27."""
    return _BITS9[x & 511] + _BITS9[x >> 9 & 511] + _BITS9[x >> 18]


@njit(cache=True)
def _combo_cap(
    c: np.ndarray,
    fixed_cnt: np.ndarray,
    n_fixed: int,
    w: int,
    tiles: np.ndarray,
    info: np.ndarray,
    dist9: np.ndarray,
    dist7: np.ndarray,
    fits: np.ndarray,
) -> int:
    """The most the combination fans of a reading with at most ``w`` wildcards can add: each meld counts in at
    most one fan, so four melds score one fan of four, one of three, or two of two (at most twice the best of
    two); and a fan counts only if one of its instances fits (``tiles``, ``info``: every instance, most first of
    what it adds). An instance fits when the tiles it lacks (beyond the hand's and the fixed melds') are at most
    ``w``; for the bound returned, without fixed melds, the regular distance of the hand's other tiles to the
    groups left (its melds taken) counts too: exactly the fewest wildcards of a reading that holds it.

    ``fits`` gets the instances that lack at most ``w`` tiles, in order, and their number in ``fits[-1]`` (-1 when
    they are more than it holds): :func:`_may_reach` finds there the first one a search position still allows."""
    base = np.zeros(4, dtype=np.int64)  # each block's base-5 index: honors, then the three suits
    short = np.zeros(4, dtype=np.int64)  # the number kinds the hand and its fixed melds hold fewer than j + 1 of
    for k in range(34):
        if k < 27:
            base[1 + k // 9] += c[k] * _POW5[k % 9]
            for j in range(c[k] + fixed_cnt[k], 4):
                short[j] |= 1 << k
        else:
            base[0] += c[k] * _POW5[k - 27]
    idx = np.zeros(4, dtype=np.int64)
    acc = np.zeros(10, dtype=np.int64)
    nxt = np.zeros(10, dtype=np.int64)
    room = fits.shape[0] - 1
    n_fit = 0
    cap = -1
    for i in range(info.shape[0]):
        lack = _bits27(info[i, 3] & short[0])  # the tiles it lacks: the kinds held fewer than 1, 2, 3, 4 times
        if lack > w:
            continue
        lack += _bits27(info[i, 4] & short[1]) + _bits27(info[i, 5] & short[2]) + _bits27(info[i, 6] & short[3])
        if lack > w:
            continue
        if n_fit < room:
            fits[n_fit] = i
        n_fit += 1
        if cap >= 0:
            continue
        if n_fixed == 0:  # the other tiles must still make the pair and the other melds
            for b in range(4):
                idx[b] = base[b]
            for x in range(info[i, 0]):
                kx = tiles[i, x, 0]
                idx[1 + kx // 9] -= min(c[kx], tiles[i, x, 1]) * _POW5[kx % 9]
            for j in range(10):
                acc[j] = dist7[idx[0], j]
            for b in range(1, 4):
                _min_plus(acc, dist9[idx[b]], nxt)
                for j in range(10):
                    acc[j] = nxt[j]
            if lack + acc[5 + 4 - info[i, 2]] > w:
                continue
        cap = info[i, 1]
    fits[room] = n_fit if n_fit <= room else -1
    return max(cap, 0)


@njit(cache=True)
def _setup(
    c: np.ndarray,
    fixed_cnt: np.ndarray,
    max_w: int,
    dist7: np.ndarray,
    dist9: np.ndarray,
    inst_tiles: np.ndarray,
    inst_info: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool, np.ndarray, np.ndarray]:
    """What the searches read about the hand: the tiles at each search position and later, the regular distances
    of the blocks, each kind's base-5 index of its block's later tiles, whether a combination fan worth ``full``
    fits in the wildcards, and the number tiles after each kind by number and by suit."""
    suffix = np.zeros(35, dtype=np.int64)
    for pos in range(33, -1, -1):
        suffix[pos] = suffix[pos + 1] + c[_ORDER[pos]]
    # regular distances (:func:`jantaku.shapes.tables.distance_table`), a lower bound on the wildcards groups
    # need: comb[b] for the blocks b.. together (0 the honors, 1-3 the suits), as (pairs * 5 + melds) rows
    comb = np.full((5, 10), 99, dtype=np.int64)
    comb[4, 0] = 0
    own = np.zeros(10, dtype=np.int64)
    for b in range(3, -1, -1):
        idx = 0
        if b == 0:
            for x in range(7):
                idx += c[27 + x] * _POW5[x]
            for j in range(10):
                own[j] = dist7[idx, j]
        else:
            for x in range(9):
                idx += c[9 * (b - 1) + x] * _POW5[x]
            for j in range(10):
                own[j] = dist9[idx, j]
        _min_plus(own, comb[b + 1], comb[b])
    # per kind, the base-5 index of its block's tiles after it (for the distance of what is left at each node)
    after = np.zeros(34, dtype=np.int64)
    for k in range(34):
        start = 27 if k >= 27 else 9 * (k // 9)
        end = 34 if k >= 27 else start + 9
        for x in range(k + 1, end):
            after[k] += c[x] * _POW5[x - start]
    # whether some combination fan worth ``full`` fits in the wildcards: an instance's tiles that the hand and its
    # fixed melds lack are wildcards at least
    combo_lack = 99  # the fewest wildcards an instance needs
    for i in range(inst_info.shape[0]):
        lack = 0
        for x in range(inst_info[i]):
            kx = inst_tiles[i, x, 0]
            lack += max(0, inst_tiles[i, x, 1] - c[kx] - fixed_cnt[kx])
        combo_lack = min(combo_lack, lack)
    combo_full_fits = combo_lack <= max_w  # (a bound for any ``best``: fewer wildcards are allowed as it grows)
    hist_n = np.zeros((27, 10), dtype=np.int64)  # the hand's number tiles after each kind: by number, in all
    hist_s = np.zeros((27, 4), dtype=np.int64)  # and by suit, in all
    for k in range(25, -1, -1):
        for n in range(10):
            hist_n[k, n] = hist_n[k + 1, n]
        for x in range(4):
            hist_s[k, x] = hist_s[k + 1, x]
        hist_n[k, (k + 1) % 9] += c[k + 1]
        hist_s[k, (k + 1) // 9] += c[k + 1]
        hist_n[k, 9] += c[k + 1]
        hist_s[k, 3] += c[k + 1]
    return suffix, comb, after, combo_full_fits, hist_n, hist_s, combo_lack


@njit(cache=True)
def _full_fits(
    c: np.ndarray,
    fixed_cnt: np.ndarray,
    w: int,
    extra: int,
    combo_lack: int,
    full_fan_shape: bool,
    allowed: np.ndarray,
    required: np.ndarray,
) -> bool:
    """Whether a reading with ``w`` wildcards (``extra`` of them on top of the hand's tiles) may hold a fan worth
    ``full``: a combination instance whose missing tiles are at most ``w`` (``combo_lack``), a shape fan worth it,
    or a content option (:func:`_full_content_options`) whose forbidden kinds hold at most ``w - extra`` of the
    hand's tiles and none of its fixed melds' tiles, and whose required honor kinds the hand holds, each short of
    a pung by at most ``w`` in all (one of them may be the pair)."""
    if full_fan_shape or combo_lack <= w:
        return True
    for i in range(allowed.shape[0]):
        drops = extra
        short = 0
        n_required = 0
        ok = True
        for k in range(34):
            if allowed[i, k] == 0:
                if fixed_cnt[k]:
                    ok = False
                    break
                drops += c[k]
            elif required[i, k]:
                held = c[k] + fixed_cnt[k]
                if held == 0:
                    ok = False
                    break
                short += max(0, 3 - held)
                n_required += 1
        if ok and drops <= w and short - (1 if n_required else 0) <= w:
            return True
    return False


@njit(cache=True)
def _top_wildcards(
    best: int,
    top_w: int,
    full: int,
    cap: int,
    c: np.ndarray,
    fixed_cnt: np.ndarray,
    extra: int,
    combo_lack: int,
    full_fan_shape: bool,
    full_allowed: np.ndarray,
    full_required: np.ndarray,
) -> int:
    """The most wildcards (from ``top_w`` down, -1 for none) a reading scoring more than ``best`` can use: its
    value must reach ``(best + 1) << w``, which no value above ``full`` and ``cap`` does; and where that exceeds
    the cap only a fan worth ``full`` pays, so a level where none is within reach of the hand (:func:`_full_fits`)
    is left out too."""
    while top_w >= 0 and (best + 1) << top_w > full and (best + 1) << top_w > cap:
        top_w -= 1
    while (
        top_w > 0
        and (best + 1) << top_w > cap
        and not _full_fits(c, fixed_cnt, top_w, extra, combo_lack, full_fan_shape, full_allowed, full_required)
    ):
        top_w -= 1
    return top_w


@njit(cache=True, inline="always")
def _next_choice(pos: int, c: np.ndarray, melds_left: int) -> int:
    """The next search position after ``pos`` with a choice, when no chow begun needs a tile there: a kind the hand
    holds, or where a chow of the hand's next tiles may begin (at the others nothing can be chosen, and nothing
    changes); 34 when there is none."""
    q = pos + 1
    while q < 34:
        k = _ORDER[q]
        if c[k] or (k < 27 and k % 9 <= 6 and melds_left > 0 and c[k + 1] + c[k + 2] > 0):
            return q
        q += 1
    return 34


@njit(cache=True)
def _search(
    c: np.ndarray,
    fixed_cnt: np.ndarray,
    codes: np.ndarray,
    ints: np.ndarray,
    suits: np.ndarray,
    numbers: np.ndarray,
    honors: np.ndarray,
    shape: np.ndarray,
    combo2: np.ndarray,
    combo3: np.ndarray,
    c4k: np.ndarray,
    c4p: np.ndarray,
    content_ub: np.ndarray,
    number_ub: np.ndarray,
    combo_ub: np.ndarray,
    dist9: np.ndarray,
    dist7: np.ndarray,
    nlist: np.ndarray,
    slist: np.ndarray,
    inst_tiles: np.ndarray,
    inst_info: np.ndarray,
    full_allowed: np.ndarray,
    full_required: np.ndarray,
    all_tiles: np.ndarray,
    all_info: np.ndarray,
) -> bool:
    """The best score of a reading (at most ``stop``: a legal-win check stops at 1) by a depth-first search over
    the search positions (honors first, then the number kinds in order), choosing at each the chows that begin
    there, a pung and the pair. ``extra``: wildcards the hand has on top of its tiles (a non-winner's at the end).

    Per position the state is: melds and pair still to choose, wildcards standing for missing tiles and the
    hand's tiles made wildcards so far, the tiles of this kind and the next that chows begun earlier need, the
    content mask, the chows, the meld codes chosen (after the fixed ones) and the pair."""
    full, cap, max_w, kong_pts, n_fixed, mask0, chows0 = ints[0], ints[1], ints[2], ints[3], ints[6], ints[7], ints[8]
    extra, stop = ints[9], ints[10]
    if _count_problem(c, fixed_cnt, n_fixed, extra):  # not a hand of 14 (the caller says what is wrong)
        return -1
    codes = codes.copy()  # the fixed melds' codes, then the melds chosen
    best = ints[11]  # the best score found (a check stops at 1), from a score known to be reached
    suffix, comb, after, combo_full_fits, hist_n, hist_s, combo_lack = _setup(
        c, fixed_cnt, max_w, dist7, dist9, inst_tiles, inst_info
    )
    if best >= stop:
        return best
    full_fan_shape = kong_pts >= full or shape[0] >= full or shape[1] >= full
    top_w = _top_wildcards(  # the most wildcards a reading scoring more than ``best`` can use
        best, max_w, full, cap, c, fixed_cnt, extra, combo_lack, full_fan_shape, full_allowed, full_required
    )
    if comb[0, 5 + 4 - n_fixed] > top_w:  # the hand's regular distance: more wildcards than can ever pay
        return best
    fits = np.zeros(129, dtype=np.int64)
    combo_cap = _combo_cap(c, fixed_cnt, n_fixed, top_w, all_tiles, all_info, dist9, dist7, fits)
    keys = np.zeros(4, dtype=np.int64)  # work space for the combination keys
    bound = _bound_args(
        kong_pts, content_ub, number_ub, honors, combo_ub, keys, shape, full, cap, hist_n, hist_s, nlist, slist,
        combo_full_fits, combo2, combo3, c4k, c4p, combo_cap, fits, all_info,
    )  # fmt: skip
    state = np.zeros((13, 35), dtype=np.int64)  # the state per search position, one row per field
    ml, pl, miss, drop, pa, pb = state[0], state[1], state[2], state[3], state[4], state[5]
    mask, chows, n_codes, pair, opt, wlb = state[6], state[7], state[8], state[9], state[10], state[11]
    parent = state[12]  # the position chosen before (the kinds between offered no choice)
    ml[0] = 4 - n_fixed
    pl[0] = 1
    mask[0] = mask0
    chows[0] = chows0
    n_codes[0] = n_fixed
    pair[0] = -1
    opt[0] = -1
    parent[0] = -1
    pos = 0
    while pos >= 0:
        k = _ORDER[pos]
        ck = c[k]
        room = 4 - fixed_cnt[k]
        w_in = wlb[pos]
        m0 = ml[pos]
        p0 = pl[pos]
        top_ch = min(m0, 4) if k < 27 and k % 9 <= 6 else 0
        o = opt[pos] + 1
        found = False
        q = pos  # the child's position, once found
        while o < 4 * (top_ch + 1):
            ch = o >> 2
            pung = o >> 1 & 1
            pr = o & 1
            o += 1
            if ch:
                if ck + c[k + 1] + c[k + 2] == 0:  # a chow made only of wildcards: never allowed
                    break
                if pb[pos] + ch > 4 - fixed_cnt[k + 1] or ch > 4 - fixed_cnt[k + 2]:
                    break
                if pung + pr == 0:  # the chows' own misses (at this kind and the next two) only grow with more
                    short = max(0, pa[pos] + ch - ck) + max(0, pb[pos] + ch - c[k + 1]) + max(0, ch - c[k + 2])
                    if miss[pos] + short > top_w:
                        break
            if pung and (m0 - ch < 1 or ck == 0):  # a pung made only of wildcards: never allowed
                continue
            if pr and (p0 == 0 or ck == 0):
                continue
            need = pa[pos] + ch + 3 * pung + 2 * pr
            if need > room:
                continue
            miss2 = miss[pos] + (need - ck if need > ck else 0)
            drop2 = drop[pos] + (ck - need if ck > need else 0)
            ml2 = m0 - ch - pung
            pl2 = p0 - pr
            later = 3 * ml2 + 2 * pl2 + pb[pos] + 2 * ch  # tiles the groups still to come hold
            have = suffix[pos + 1]
            w = max(miss2 + max(0, later - have), drop2 + extra + max(0, have - later))
            if w > top_w:
                continue
            w = max(w, miss2 + _future_misses(k, pb[pos] + ch, ch, ml2, pl2, c, after, comb, dist9, dist7))
            if w > top_w:
                continue
            mask2 = mask[pos]
            n2 = n_codes[pos]
            if ch:
                mask2 |= _CHOW_MASK[k]
                for _ in range(ch):
                    codes[n2] = k
                    n2 += 1
            if pung:
                mask2 |= _TILE_MASK[k]
                codes[n2] = PUNG + k
                n2 += 1
            if pr:
                mask2 |= _TILE_MASK[k]
            if ml2 + pl2 == 0:  # every group chosen: the chows begun take their tiles, every other tile is dropped
                m_end = miss2
                d_end = drop2 + have
                n1 = pb[pos] + ch
                if n1:
                    m_end += max(0, n1 - c[k + 1])
                    d_end -= min(n1, c[k + 1])
                if ch:
                    m_end += max(0, ch - c[k + 2])
                    d_end -= min(ch, c[k + 2])
                if m_end == d_end + extra and m_end <= top_w:
                    v = _leaf_value(
                        mask2,
                        chows[pos] + ch,
                        codes,
                        m_end,
                        ints,
                        suits,
                        numbers,
                        honors,
                        shape,
                        combo2,
                        combo3,
                        c4k,
                        c4p,
                        keys,
                    )
                    score = v >> m_end
                    if score > best and (m_end == 0 or _real_tiles(c, codes, n_fixed, k if pr else pair[pos])):
                        best = score
                        if best >= stop:
                            return best
                        top_w = _top_wildcards(
                            best, top_w, full, cap, c, fixed_cnt, extra, combo_lack, full_fan_shape,
                            full_allowed, full_required,
                        )  # fmt: skip
                continue
            if (
                w > 0
                and (ch + pung + pr or w > w_in)
                and not _may_reach(
                    (best + 1) << w,
                    ml2 + pl2,
                    mask2,
                    k,
                    codes,
                    n2,
                    chows[pos] + ch,
                    top_w - extra - drop2,
                    bound,
                )
            ):
                continue
            q = pos + 1 if pb[pos] + ch else _next_choice(pos, c, ml2)
            if q == 34:  # groups left and no kind to form them
                continue
            parent[q] = pos
            ml[q] = ml2
            pl[q] = pl2
            miss[q] = miss2
            drop[q] = drop2
            pa[q] = pb[pos] + ch
            pb[q] = ch
            mask[q] = mask2
            chows[q] = chows[pos] + ch
            n_codes[q] = n2
            pair[q] = k if pr else pair[pos]
            opt[q] = -1
            wlb[q] = w
            found = True
            break
        opt[pos] = o - 1
        pos = q if found else parent[pos]
    return best


@njit(cache=True)
def _find(
    c: np.ndarray,
    fixed_cnt: np.ndarray,
    codes: np.ndarray,
    ints: np.ndarray,
    target: int,
    suits: np.ndarray,
    numbers: np.ndarray,
    honors: np.ndarray,
    shape: np.ndarray,
    combo2: np.ndarray,
    combo3: np.ndarray,
    c4k: np.ndarray,
    c4p: np.ndarray,
    content_ub: np.ndarray,
    number_ub: np.ndarray,
    combo_ub: np.ndarray,
    dist9: np.ndarray,
    dist7: np.ndarray,
    nlist: np.ndarray,
    slist: np.ndarray,
    inst_tiles: np.ndarray,
    inst_info: np.ndarray,
    full_allowed: np.ndarray,
    full_required: np.ndarray,
    all_tiles: np.ndarray,
    all_info: np.ndarray,
) -> int:
    """The optimiser's first reading with at least one wildcard scoring ``target`` or more, found in its own order:
    wildcard counts ascending, and at each count its depth-first search (:class:`jantaku.jielu.search._Search`):
    the search positions in order, and at each the pair (without, then with), a pung (without, then with) and
    then 0, 1, ... chows. Returns its wildcard count, with its closed melds written to ``codes`` after the fixed
    ones and its pair to ``codes[4]``; 0 when there is none (never, for the best score S as ``target``)."""
    full, cap, max_w, kong_pts, n_fixed, mask0, chows0 = ints[0], ints[1], ints[2], ints[3], ints[6], ints[7], ints[8]
    extra = ints[9]
    suffix, comb, after, combo_full_fits, hist_n, hist_s, combo_lack = _setup(
        c, fixed_cnt, max_w, dist7, dist9, inst_tiles, inst_info
    )
    fits = np.zeros(129, dtype=np.int64)
    combo_cap = _combo_cap(c, fixed_cnt, n_fixed, max_w, all_tiles, all_info, dist9, dist7, fits)
    keys = np.zeros(4, dtype=np.int64)  # work space for the combination keys
    bound = _bound_args(
        kong_pts, content_ub, number_ub, honors, combo_ub, keys, shape, full, cap, hist_n, hist_s, nlist, slist,
        combo_full_fits, combo2, combo3, c4k, c4p, combo_cap, fits, all_info,
    )  # fmt: skip
    state = np.zeros((14, 35), dtype=np.int64)
    parent = state[13]  # the position chosen before (the kinds between offered no choice)
    ml, pl, miss, drop, pa, pb = state[0], state[1], state[2], state[3], state[4], state[5]
    mask, chows, n_codes, pair, o_pr, o_pung, o_ch = (
        state[6],
        state[7],
        state[8],
        state[9],
        state[10],
        state[11],
        state[12],
    )
    full_fan_shape = kong_pts >= full or shape[0] >= full or shape[1] >= full
    for w in range(max(1, extra), max_w + 1):
        if max(full, cap) >> w < target:
            break
        if target << w > cap and not _full_fits(
            c, fixed_cnt, w, extra, combo_lack, full_fan_shape, full_allowed, full_required
        ):  # only a fan worth ``full`` pays at this level, and none is within reach
            continue
        d = w - extra
        ml[0] = 4 - n_fixed
        pl[0] = 1
        miss[0] = 0
        drop[0] = 0
        pa[0] = 0
        pb[0] = 0
        mask[0] = mask0
        chows[0] = chows0
        n_codes[0] = n_fixed
        pair[0] = -1
        o_pr[0] = 0
        o_pung[0] = 0
        o_ch[0] = -1
        parent[0] = -1
        pos = 0
        while pos >= 0:
            k = _ORDER[pos]
            ck = c[k]
            room = 4 - fixed_cnt[k]
            m0 = ml[pos]
            p0 = pl[pos]
            chow_ok = k < 27 and k % 9 <= 6 and ck + c[k + 1] + c[k + 2] > 0
            pr, pung, ch = o_pr[pos], o_pung[pos], o_ch[pos] + 1
            found = False
            q = pos
            while pr <= (1 if p0 and ck else 0):
                if pung > (1 if m0 and ck else 0):
                    pr += 1
                    pung = 0
                    ch = 0
                    continue
                top = m0 - pung if chow_ok else 0
                stop_c = ch > top
                if not stop_c:
                    nk = pa[pos] + 2 * pr + 3 * pung + ch
                    if nk > room or (ch and (pb[pos] + ch + fixed_cnt[k + 1] > 4 or ch + fixed_cnt[k + 2] > 4)):
                        stop_c = True
                if not stop_c:
                    delta = ck - nk
                    d2 = drop[pos] + (delta if delta > 0 else 0)
                    m2 = miss[pos] + (-delta if delta < 0 else 0)
                    p1 = pb[pos] + ch - c[k + 1] if k < 33 else 0
                    p2 = ch - c[k + 2] if ch else 0
                    if m2 + (p1 if p1 > 0 else 0) + (p2 if p2 > 0 else 0) > w:
                        stop_c = True
                if stop_c:
                    pung += 1
                    ch = 0
                    continue
                cur = ch
                ch += 1
                if d2 > d:
                    continue
                ml2 = m0 - pung - cur
                pl2 = p0 - pr
                n2 = n_codes[pos]
                mask2 = mask[pos]
                if pr:
                    mask2 |= _TILE_MASK[k]
                if pung:
                    mask2 |= _TILE_MASK[k]
                    codes[n2] = PUNG + k
                    n2 += 1
                if cur:
                    mask2 |= _CHOW_MASK[k]
                    for _ in range(cur):
                        codes[n2] = k
                        n2 += 1
                pair2 = k if pr else pair[pos]
                if ml2 + pl2 == 0:  # every group chosen: the tiles left are dropped, the chows begun take theirs
                    m_end = m2
                    d_end = d2 + suffix[pos + 1]
                    n1 = pb[pos] + cur
                    if n1:
                        m_end += max(0, n1 - c[k + 1])
                        d_end -= min(n1, c[k + 1])
                    if cur:
                        m_end += max(0, cur - c[k + 2])
                        d_end -= min(cur, c[k + 2])
                    if m_end == w and d_end == d:
                        v = _leaf_value(
                            mask2,
                            chows[pos] + cur,
                            codes,
                            w,
                            ints,
                            suits,
                            numbers,
                            honors,
                            shape,
                            combo2,
                            combo3,
                            c4k,
                            c4p,
                            keys,
                        )
                        if v >> w >= target and _real_tiles(c, codes, n_fixed, pair2):
                            codes[4] = pair2
                            return w
                    continue
                # exact bounds: they skip only branches holding no reading of w wildcards scoring ``target``
                if m2 + _future_misses(k, pb[pos] + cur, cur, ml2, pl2, c, after, comb, dist9, dist7) > w:
                    continue
                if (pr or pung or cur or d2 > drop[pos]) and not _may_reach(
                    target << w,
                    ml2 + pl2,
                    mask2,
                    k,
                    codes,
                    n2,
                    chows[pos] + cur,
                    d - d2,
                    bound,
                ):
                    continue
                q = pos + 1 if pb[pos] + cur else _next_choice(pos, c, ml2)
                if q == 34:  # groups left and no kind to form them
                    continue
                parent[q] = pos
                ml[q] = ml2
                pl[q] = pl2
                miss[q] = m2
                drop[q] = d2
                pa[q] = pb[pos] + cur
                pb[q] = cur
                mask[q] = mask2
                chows[q] = chows[pos] + cur
                n_codes[q] = n2
                pair[q] = pair2
                o_pr[q] = 0
                o_pung[q] = 0
                o_ch[q] = -1
                found = True
                break
            o_pr[pos] = pr
            o_pung[pos] = pung
            o_ch[pos] = ch - 1
            pos = q if found else parent[pos]
    return 0


@njit(cache=True)
def _min_plus(a: np.ndarray, b: np.ndarray, out: np.ndarray) -> None:
    """Distance rows (index ``pairs * 5 + melds``) of two sets of tiles -> the row of both together."""
    for p in range(2):
        for m in range(5):
            best = 99
            for p1 in range(p + 1):
                for m1 in range(m + 1):
                    v = a[p1 * 5 + m1] + b[(p - p1) * 5 + m - m1]
                    if v < best:
                        best = v
            out[p * 5 + m] = best


@njit(cache=True, inline="always")
def _future_misses(
    k: int,
    pend1: int,
    pend2: int,
    ml: int,
    pl: int,
    c: np.ndarray,
    after: np.ndarray,
    comb: np.ndarray,
    dist9: np.ndarray,
    dist7: np.ndarray,
) -> int:
    """A lower bound on the wildcards the groups still to come need once the groups at kind ``k`` are chosen:
    the tiles chows begun need beyond what the hand holds, plus the regular distance of the tiles left after
    ``k`` (its block's rest, then the later blocks) to ``ml`` melds and ``pl`` pairs."""
    short = 0
    idx = after[k]
    if pend1:
        x = k + 1
        use = min(pend1, c[x])
        short += pend1 - use
        idx -= use * _POW5[x % 9]
    if pend2:
        x = k + 2
        use = min(pend2, c[x])
        short += pend2 - use
        idx -= use * _POW5[x % 9]
    if k >= 27:
        row = dist7[idx]
        nxt = comb[1]
    else:
        row = dist9[idx]
        nxt = comb[2 + k // 9]
    best = 99
    for p1 in range(pl + 1):
        for m1 in range(ml + 1):
            v = row[p1 * 5 + m1] + nxt[(pl - p1) * 5 + ml - m1]
            if v < best:
                best = v
    return short + best


@njit(cache=True)
def _leaf_value(
    mask: int,
    chows: int,
    codes: np.ndarray,
    w: int,
    ints: np.ndarray,
    suits: np.ndarray,
    numbers: np.ndarray,
    honors: np.ndarray,
    shape: np.ndarray,
    combo2: np.ndarray,
    combo3: np.ndarray,
    c4k: np.ndarray,
    c4p: np.ndarray,
    keys: np.ndarray,
) -> int:
    """The value (after the 32/24 rule) of the reading with content ``mask``, ``chows`` chows and the four melds
    ``codes``; with ``w == 0`` (no wildcard) the incidental fans of ``ints`` count too."""
    full, cap, kong_pts, inc_total, inc_max = ints[0], ints[1], ints[3], ints[4], ints[5]
    tot, top = _content(mask, suits, numbers, honors)
    tot += kong_pts
    top = max(top, kong_pts)
    if chows == 4:
        tot += shape[0]
        top = max(top, shape[0])
    elif chows == 0:
        tot += shape[1]
        top = max(top, shape[1])
    if w == 0:
        tot += inc_total
        top = max(top, inc_max)
    p, f = _melds_combinations(codes, keys, full, combo2, combo3, c4k, c4p)
    tot += p
    if f:
        top = full
    return full if top >= full else min(tot, cap)


@njit(cache=True)
def _melds_combinations(
    codes: np.ndarray,
    keys: np.ndarray,
    full: int,
    combo2: np.ndarray,
    combo3: np.ndarray,
    c4k: np.ndarray,
    c4p: np.ndarray,
) -> tuple[int, bool]:
    """The combination fans of the four melds ``codes[:4]`` (``keys``: scratch): the best assignment's points, and
    whether it holds a fan worth ``full`` (the melds taken in the order of their codes, as the optimiser takes
    them)."""
    srt = np.empty(4, dtype=np.int64)
    for i in range(4):
        srt[i] = codes[i]
    _sort_small(srt, 4)
    u = 0
    for i in range(4):
        key = _KEY_OF_CODE[srt[i]]
        if key >= 0:
            keys[u] = key
            u += 1
    if u < 2:
        return 0, False
    return _assignment(keys, u, full, combo2, combo3, c4k, c4p)


@njit(cache=True)
def _real_tiles(c: np.ndarray, codes: np.ndarray, n_fixed: int, pair: int) -> bool:
    """No pair or meld made only of wildcards: each closed group can be given a real tile of its own (Hall's
    condition over every set of groups)."""
    kinds = np.zeros((5, 3), dtype=np.int64)
    n_kinds = np.zeros(5, dtype=np.int64)
    used = np.zeros(34, dtype=np.int64)
    groups = 0
    for i in range(n_fixed, 4):
        code = codes[i]
        if code < PUNG:
            for x in range(3):
                kinds[groups, x] = code + x
                used[code + x] += 1
            n_kinds[groups] = 3
        else:
            kinds[groups, 0] = code - PUNG
            used[code - PUNG] += 3
            n_kinds[groups] = 1
        groups += 1
    kinds[groups, 0] = pair
    used[pair] += 2
    n_kinds[groups] = 1
    groups += 1
    seen = np.zeros(34, dtype=np.bool_)
    for sub in range(1, 1 << groups):
        seen[:] = False
        size = 0
        supply = 0
        for g in range(groups):
            if sub >> g & 1:
                size += 1
                for x in range(n_kinds[g]):
                    k = kinds[g, x]
                    if not seen[k]:
                        seen[k] = True
                        supply += min(c[k], used[k])
        if supply < size:
            return False
    return True


_TABLES_BY_FANS: dict[tuple[object, ...], _Tables] = {}


def _tables_of(table: FanTable) -> _Tables:
    """The arrays of ``table`` (built once per set of fan values: tables that differ only in their win rule share
    them, :func:`~jantaku.jielu.fantable.with_win_rule`)."""
    key = (tuple(table.points.items()), tuple(table.family.items()), table.combinations, table.full, table.cap)
    found = _TABLES_BY_FANS.get(key)
    if found is None:
        if len(_TABLES_BY_FANS) > 64:
            _TABLES_BY_FANS.clear()
        found = _TABLES_BY_FANS[key] = _Tables(table)
    return found


class WinCheck:
    """The compiled legal-win check for one fan table: ``check(counts, fixed, incidental)``.

    Args of a call:
        counts: the closed tiles (the winning tile included), 34 counts.
        fixed: the called melds' codes (:mod:`jantaku.jielu.melds`).
        incidental: the win's incidental fans as (name, points); they count only without wildcards.

    The table's win rule applies (:class:`~jantaku.jielu.fantable.FanTable`): the hand may win when some choice
    of at most ``table.max_wildcards`` wildcards makes it worth ``table.min_score`` or more (the document: any
    number of wildcards, 1 point). It answers exactly what ``best_completion(counts, fixed,
    incidental=incidental, table=table, stop_at=m, floor=m - 1) is not None`` answers for ``m =
    table.min_score`` (the tests compare them), and raises :class:`~jantaku.jielu.errors.JieluError` for counts
    that are not a hand of 14 tiles or hold a fifth copy of a kind.
    """

    def __init__(self, table: FanTable) -> None:
        self.table = table
        self._t = _tables_of(table)
        self._per_melds: dict[tuple[tuple[int, ...], tuple[tuple[str, int], ...]], tuple[np.ndarray, ...]] = {}

    def __call__(self, counts: Sequence[int], fixed: Sequence[int], incidental: Sequence[tuple[str, int]] = ()) -> bool:
        key = (tuple(fixed), tuple(incidental))
        prep = self._per_melds.get(key)
        if prep is None:
            prep = self._per_melds[key] = self._prepare(*key)
        return self._answer(counts, *prep)

    def checker(
        self, fixed: Sequence[int], incidental: Sequence[tuple[str, int]] = ()
    ) -> Callable[[Sequence[int]], bool]:
        """The check with the fixed melds and incidental fans bound: ``checker(fixed, incidental)(counts)`` answers
        ``check(counts, fixed, incidental)``, for a table that asks with the same melds and moment again and again.

        >>> from jantaku.tiles import counts34, parse_tiles
        >>> from jantaku.jielu.fantable import default_fan_table
        >>> WinCheck(default_fan_table()).checker(())(counts34(parse_tiles("123m456p789s11z344z")))
        True
        """
        key = (tuple(fixed), tuple(incidental))
        prep = self._per_melds.get(key)
        if prep is None:
            prep = self._per_melds[key] = self._prepare(*key)
        answer = self._answer
        return lambda counts: answer(counts, *prep)

    def _answer(self, counts: Sequence[int], fixed_cnt: np.ndarray, codes: np.ndarray, ints: np.ndarray) -> bool:
        try:
            c = np.array(counts, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            c = None
        if c is None or c.shape != (34,):
            self._counts(counts, fixed_cnt, ints, 0)  # raises, naming what is wrong
        found = _search(c, fixed_cnt, codes, ints, *self._t.tabs)
        if found < 0:  # the counts are not a hand to check (the search looks first)
            self._counts(counts, fixed_cnt, ints, 0)
        return found >= self.table.min_score  # (the search starts from min_score - 1: _prepare)

    def best_score(
        self,
        counts: Sequence[int],
        fixed: Sequence[int],
        incidental: Sequence[tuple[str, int]] = (),
        extra: int = 0,
        at_least: int = 0,
    ) -> int:
        """The best score S of the hand (0 when no completion is worth 1 point), as the optimiser's
        ``best_completion(counts, fixed, extra=extra, incidental=incidental, table=table).score``; ``extra``:
        wildcards on top of the hand's tiles (a non-winner's one at the end). ``at_least``: a score the hand is
        known to reach (a table that has just checked the win knows 1), so that the search looks only for more;
        given a score the hand does not reach, the answer is that score.

        >>> from jantaku.tiles import counts34, parse_tiles
        >>> from jantaku.jielu.fantable import default_fan_table
        >>> WinCheck(default_fan_table()).best_score(counts34(parse_tiles("123m123m456m789m1z")), (), extra=1)
        9
        """
        key = (tuple(fixed), tuple(incidental))
        prep = self._per_melds.get(key)
        if prep is None:
            prep = self._per_melds[key] = self._prepare(*key)
        fixed_cnt, codes, ints = prep
        c = self._counts(counts, fixed_cnt, ints, extra)
        if isinstance(at_least, bool) or not isinstance(at_least, int) or at_least < 0:
            raise JieluError(f"at_least must be a whole number >= 0, got {at_least!r}")
        ints = ints.copy()
        ints[2] = self._max_w(extra)
        ints[9] = extra
        ints[10] = max(self.table.full, self.table.cap)
        ints[11] = at_least
        return int(_search(c, fixed_cnt, codes, ints, *self._t.tabs))

    def first_reading(
        self, counts: Sequence[int], fixed: Sequence[int], target: int, extra: int = 0
    ) -> tuple[int, tuple[int, ...], int] | None:
        """The optimiser's first reading with at least one wildcard scoring ``target`` or more, in its own search
        order (:func:`_find`): ``(wildcards, closed meld codes in the order chosen, pair)``, or ``None``. Told the
        best score S, this is the completion :func:`jantaku.jielu.search.best_completion` returns when it has no
        plain reading of score S."""
        key = ((*fixed,), ())
        prep = self._per_melds.get(key)
        if prep is None:
            prep = self._per_melds[key] = self._prepare(*key)
        fixed_cnt, _, ints = prep
        c = self._counts(counts, fixed_cnt, ints, extra)
        ints = ints.copy()
        ints[2] = self._max_w(extra)
        ints[9] = extra
        out = np.zeros(5, dtype=np.int64)
        out[: len(fixed)] = fixed
        w = int(_find(c, fixed_cnt, out, ints, target, *self._t.tabs))
        if w == 0:
            return None
        return w, tuple(int(x) for x in out[len(fixed) : 4]), int(out[4])

    def _max_w(self, extra: int = 0) -> int:
        """The most wildcards a reading may use: what can still pay (``2**w`` at most the highest value), within
        the table's cap (:meth:`~jantaku.jielu.fantable.FanTable.wildcard_limit`; a non-winner's extra wildcards
        always allowed)."""
        limit = self.table.wildcard_limit(extra)
        return self._t.max_w if limit is None else min(self._t.max_w, limit)

    @staticmethod
    def _counts(counts: Sequence[int], fixed_cnt: np.ndarray, ints: np.ndarray, extra: int) -> np.ndarray:
        try:
            c = np.array(counts, dtype=np.int64)
        except (TypeError, ValueError, OverflowError):
            raise JieluError(f"34 counts (0-4) are expected, got {counts!r}") from None
        if c.shape != (34,):
            raise JieluError(f"34 counts (0-4) are expected, got {list(counts)}")
        if isinstance(extra, bool) or not isinstance(extra, int) or extra < 0:
            raise JieluError(f"extra wildcards must be a whole number >= 0, got {extra!r}")
        problem = _count_problem(c, fixed_cnt, int(ints[6]), extra)
        if problem:
            raise JieluError(
                _PROBLEMS[problem].format(tiles=int(c.sum()) + 3 * int(ints[6]) + extra, counts=list(counts))
            )
        return c

    def _prepare(
        self, fixed: tuple[int, ...], incidental: tuple[tuple[str, int], ...]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The arrays a call with these fixed melds and incidental fans passes (built once per pair)."""
        if len(fixed) > 4:
            raise JieluError(f"a hand has at most four melds, got {len(fixed)}")
        t = self._t
        fixed_cnt = np.zeros(34, dtype=np.int64)
        fixed_mask = fixed_chows = kongs = 0
        for code in fixed:
            for k in meld_tiles(code):
                fixed_cnt[k] += 1
                fixed_mask |= int(_TILE_MASK[k])
            fixed_chows += is_chow(code)
            kongs += code >= KONG
        codes = np.zeros(4, dtype=np.int64)
        codes[: len(fixed)] = fixed
        inc = [p for _, p in incidental]
        ints = np.array(
            [
                t.full,
                t.cap,
                self._max_w(),  # the most wildcards (best_score and first_reading set theirs)
                t.shape[1 + kongs] if kongs else 0,
                sum(inc),
                max(inc, default=0),
                len(fixed),
                fixed_mask,
                fixed_chows,
                0,  # extra wildcards (set by best_score)
                self.table.min_score,  # stop at the least score a win needs: the legal-win check
                self.table.min_score - 1,  # look only above it (set by best_score: a score known to be reached)
            ],
            dtype=np.int64,
        )
        if len(self._per_melds) > 4096:
            self._per_melds.clear()
        return fixed_cnt, codes, ints


_PROBLEMS = {
    1: "34 counts (0-4) are expected, got {counts}",
    2: "a hand to check has 14 tiles (each meld counting as 3, extra wildcards included); this one has {tiles}",
    3: "a kind has more than four copies in the hand and its melds",
}


@njit(cache=True)
def _count_problem(c: np.ndarray, fixed_cnt: np.ndarray, n_fixed: int, extra: int) -> int:
    """0 when ``c`` is a closed hand that completes 14 tiles with ``n_fixed`` melds and ``extra`` wildcards, else a
    key of :data:`_PROBLEMS`."""
    total = 0
    for k in range(34):
        if c[k] < 0 or c[k] > 4:
            return 1
        if c[k] + fixed_cnt[k] > 4:
            return 3
        total += c[k]
    return 0 if total + extra == 3 * (4 - n_fixed) + 2 else 2


COMPILE_NOTICE = (
    "jantaku: compiling the 洁律 legal-win check, once (about 15 s, longer on a busy machine; later runs load it "
    "from the cache)"
)
"""What :func:`win_check` says through :data:`jantaku.extras.notice` when its first use in a process takes more
than :data:`NOTICE_AFTER` seconds: numba compiling the check (the compiled code is then cached beside the module,
or in ``NUMBA_CACHE_DIR``, and later processes load it in about a second)."""

NOTICE_AFTER = 1.0

_warm = False


def warm_up() -> None:
    """Compile the check for the shipped fan table now (or load it from numba's cache): a server calls it at start,
    in a thread, and a command before its first 洁律 hand, so that no hand waits for the compiler."""
    from .fantable import default_fan_table

    win_check(default_fan_table())


@cache
def win_check(table: FanTable) -> WinCheck:
    """The :class:`WinCheck` of ``table`` (built once per table). The first one of a process is compiled (or
    loaded from the cache) here, saying so when that takes a while (:data:`COMPILE_NOTICE`)."""
    global _warm
    check = WinCheck(table)
    if not _warm:
        from jantaku import extras

        timer = threading.Timer(NOTICE_AFTER, lambda: extras.notice(COMPILE_NOTICE) if extras.notice else None)
        timer.daemon = True
        timer.start()
        try:
            hand = [0] * 34
            for k in (0, 1, 2, 9, 10, 11, 18, 19, 20, 27, 27, 27, 31, 31):
                hand[k] += 1
            check(hand, ())
            check.best_score(hand, ())
            check.first_reading(hand, (), 1)  # the optimiser's search (a hand with wildcards): its own function
        finally:
            timer.cancel()
        _warm = True
    return check
