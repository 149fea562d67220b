"""Per-suit distance tables, built once per process with numpy, and the interned vectors behind them.

For one suit (9 counts) or the honors (7 counts) and for every target of ``m`` melds (0-4) plus ``p`` pairs
(0-1), the table holds the *distance*: the fewest tiles that must be added so that the tiles contain such a
target, never using a fifth copy of a kind. A whole hand's regular distance is a min-plus combination of
its four blocks' rows, and its shanten is that distance minus one.

How the table is computed (no search per hand): let ``T`` be the set of targets (count vectors of ``m``
runs/pungs and ``p`` pairs with no count above 4) and ``S`` the set of all their sub-multisets. The
distance of a block ``c`` is ``3m + 2p - max{|x| : x in S, x <= c}``. ``S`` is the downward closure of
``T``: with a block's counts as the base-5 digits of an index, it is a running OR along each digit from
4 down to 0. The maximum over ``x <= c`` is likewise a running maximum along each digit from 0 up to 4.
Both are nine vectorised passes over 5**9 entries, so the whole table takes well under a second.

Rows are *interned*: equal rows share one small integer id, and the min-plus merge of two ids is cached,
so a one-hand query is a few dictionary look-ups.

Row layout (``VECTOR_LEN == 10``): index ``p * 5 + m``.
"""

from __future__ import annotations

import itertools
from functools import lru_cache

import numpy as np

from jantaku.errors import HandError

__all__ = [
    "MAX_MELDS",
    "MERGE_SHIFT",
    "VECTOR_LEN",
    "TableSet",
    "distance_table",
    "tables",
]

MAX_MELDS = 4
VECTOR_LEN = 2 * (MAX_MELDS + 1)
_INF = 99
MERGE_SHIFT = 24
"""Merge-cache keys pack two vector ids as ``a << MERGE_SHIFT | b``."""


def _targets(n_pos: int, runs: bool, melds: int, pairs: int) -> np.ndarray:
    """Base-5 indices of every target block with ``melds`` melds and ``pairs`` pairs (counts <= 4)."""
    shapes: list[np.ndarray] = []
    for k in range(n_pos):
        v = np.zeros(n_pos, np.int64)
        v[k] = 3
        shapes.append(v)
    if runs:
        for k in range(n_pos - 2):
            v = np.zeros(n_pos, np.int64)
            v[k : k + 3] = 1
            shapes.append(v)
    meld_vectors = np.array(shapes)
    combos = list(itertools.combinations_with_replacement(range(len(shapes)), melds))
    base = meld_vectors[np.array(combos)].sum(axis=1) if combos and melds else np.zeros((1, n_pos), np.int64)
    if pairs:
        eye = 2 * np.eye(n_pos, dtype=np.int64)
        base = (base[:, None, :] + eye[None, :, :]).reshape(-1, n_pos)
    base = base[(base <= 4).all(axis=1)]
    powers = 5 ** np.arange(n_pos, dtype=np.int64)
    return np.unique(base @ powers)


def distance_table(n_pos: int, runs: bool) -> np.ndarray:
    """The distance table of a block of ``n_pos`` kinds: shape ``(5**n_pos, VECTOR_LEN)``, ``uint8``.

    Entry ``[index, p * 5 + m]`` is the fewest tiles to add to the block whose counts are the base-5 digits
    of ``index`` (digit ``i`` = count of the block's ``i``-th kind) so that it contains ``m`` melds and
    ``p`` pairs. ``runs=False`` for honors.

    >>> t = distance_table(9, True)
    >>> key = 1 + 1 * 5 + 1 * 25            # 123 of a suit
    >>> int(t[key, 1]), int(t[key, 5]), int(t[key, 6])   # one meld; a pair; meld and pair
    (0, 1, 2)
    """
    size = 5**n_pos
    digit_sum = np.zeros(1, np.int8)
    for _ in range(n_pos):  # digit sums of all base-5 indices, built digit by digit
        digit_sum = (digit_sum[None, :] + np.arange(5, dtype=np.int8)[:, None]).reshape(-1)
    # one bit per (pairs, melds) target set, closed downward in one pass over the digits
    mark = np.zeros(size, np.uint16)
    for pairs in (0, 1):
        for melds in range(MAX_MELDS + 1):
            mark[_targets(n_pos, runs, melds, pairs)] |= np.uint16(1 << (pairs * 5 + melds))
    for i in range(n_pos):
        view = mark.reshape(5 ** (n_pos - 1 - i), 5, 5**i)
        for c in range(3, -1, -1):
            view[:, c, :] |= view[:, c + 1, :]
    # best[j, index]: the largest sub-multiset of a target of set j inside the block, a running max per digit
    best = np.empty((VECTOR_LEN, size), np.int8)
    for j in range(VECTOR_LEN):
        np.copyto(best[j], np.where(mark & np.uint16(1 << j), digit_sum, np.int8(-1)))
    for i in range(n_pos):
        view = best.reshape(VECTOR_LEN * 5 ** (n_pos - 1 - i), 5, 5**i)
        for c in range(1, 5):
            np.maximum(view[:, c, :], view[:, c - 1, :], out=view[:, c, :])
    target_size = np.array([3 * (j % 5) + 2 * (j // 5) for j in range(VECTOR_LEN)], np.int8)
    table = np.ascontiguousarray((target_size[:, None] - best).T.astype(np.uint8))
    return table


def _pack(rows: np.ndarray) -> np.ndarray:
    """Pack rows of ten values < 16 into one int64 each (4 bits per value)."""
    packed = np.zeros(rows.shape[0], np.int64)
    for j in range(VECTOR_LEN):
        packed |= rows[:, j].astype(np.int64) << (4 * j)
    return packed


class TableSet:
    """The suit and honor tables with interned rows and a cached min-plus merge.

    One instance per process (see :func:`tables`). ``suit`` and ``honor`` are the raw numpy tables for the
    batch API; ``suit_ids``/``honor_ids`` map a block index to an interned vector id; ``vectors[id]`` is the
    row as a tuple.
    """

    def __init__(self) -> None:
        self.suit = distance_table(9, True)
        self.honor = distance_table(7, False)
        self.suit_t = np.ascontiguousarray(self.suit.T)
        """``suit`` transposed, (10, 5**9): the batch API gathers whole rows per target."""
        self.honor_t = np.ascontiguousarray(self.honor.T)
        # id 0 is a placeholder so that every real id is truthy (``cache.get(k) or miss(k)``)
        self.vectors: list[tuple[int, ...]] = [(_INF,) * VECTOR_LEN]
        self._vector_ids: dict[tuple[int, ...], int] = {}
        self.suit_ids = self._intern_table(self.suit)
        self.honor_ids = self._intern_table(self.honor)
        self.suit_cache: dict[bytes, int] = {}
        """suit block (9 count bytes) -> vector id, filled on demand by :meth:`suit_id`."""
        self.honor_cache: dict[bytes, int] = {}
        """honor block (7 count bytes) -> vector id, filled on demand by :meth:`honor_id`."""
        self.merge_cache: dict[int, int] = {}
        """``a << MERGE_SHIFT | b`` -> id of the merge of vectors a and b, filled by :meth:`merge`."""
        self._powers9 = [5**i for i in range(9)]

    def _intern_table(self, table: np.ndarray) -> np.ndarray:
        packed = _pack(table)
        uniq, first, inverse = np.unique(packed, return_index=True, return_inverse=True)
        local_to_global = np.empty(len(uniq), np.int32)
        for j, row_index in enumerate(first):
            local_to_global[j] = self.intern(tuple(int(v) for v in table[row_index]))
        return local_to_global[inverse.reshape(-1)]

    def intern(self, vector: tuple[int, ...]) -> int:
        """The id of ``vector``, registering it if new."""
        vid = self._vector_ids.get(vector)
        if vid is None:
            vid = len(self.vectors)
            self.vectors.append(vector)
            self._vector_ids[vector] = vid
        return vid

    def suit_id(self, counts: bytes) -> int:
        """The vector id of a suit block given as 9 count bytes."""
        vid = self.suit_cache.get(counts)
        if vid:
            return vid
        if len(counts) != 9 or max(counts) > 4:
            raise HandError(f"a suit block has nine counts of 0-4, got {list(counts)}")
        index = 0
        for c, p in zip(counts, self._powers9, strict=True):
            index += c * p
        vid = int(self.suit_ids[index])
        self.suit_cache[counts] = vid
        return vid

    def honor_id(self, counts: bytes) -> int:
        """The vector id of the honor block given as 7 count bytes."""
        vid = self.honor_cache.get(counts)
        if vid:
            return vid
        if len(counts) != 7 or max(counts) > 4:
            raise HandError(f"the honor block has seven counts of 0-4, got {list(counts)}")
        index = 0
        for c, p in zip(counts, self._powers9, strict=False):
            index += c * p
        vid = int(self.honor_ids[index])
        self.honor_cache[counts] = vid
        return vid

    def merge(self, a: int, b: int) -> int:
        """The id of the min-plus combination of vectors ``a`` and ``b``."""
        vid = self.merge_cache.get(a << MERGE_SHIFT | b)
        if vid:
            return vid
        va, vb = self.vectors[a], self.vectors[b]
        out = [_INF] * VECTOR_LEN
        for m1 in range(MAX_MELDS + 1):
            a0, a1 = va[m1], va[5 + m1]
            for m2 in range(MAX_MELDS + 1 - m1):
                b0, b1 = vb[m2], vb[5 + m2]
                m = m1 + m2
                s = a0 + b0
                if s < out[m]:
                    out[m] = s
                s = min(a1 + b0, a0 + b1)
                if s < out[5 + m]:
                    out[5 + m] = s
        vid = self.intern(tuple(min(v, 15) for v in out))
        self.merge_cache[a << MERGE_SHIFT | b] = vid
        self.merge_cache[b << MERGE_SHIFT | a] = vid
        return vid


@lru_cache(maxsize=1)
def tables() -> TableSet:
    """The process-wide :class:`TableSet`, built on first use."""
    return TableSet()
