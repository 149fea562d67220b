"""Shanten of many hands at once, over numpy arrays.

The same tables as the one-hand API: each row's four blocks are turned into table indices with one matrix
product, their distance rows gathered, and the min-plus combination done column by column for all rows.

>>> import numpy as np
>>> from jantaku.shapes.shanten import read_counts
>>> hands = np.array([read_counts(h) for h in ("123m456p789s1122z", "19m19p19s1234567z", "11m")])
>>> shanten_batch(hands)
array([ 0,  0, -1], dtype=int8)
>>> shanten_batch_forms(hands)[0]
array([0, 4, 8], dtype=int8)
"""

from __future__ import annotations

import numpy as np

from jantaku.errors import HandError
from jantaku.tiles import TERMINALS_AND_HONORS

from .tables import MAX_MELDS, tables

__all__ = ["shanten_batch", "shanten_batch_forms"]

_NOT_APPLICABLE = 99


def _check(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Validate an (N, 34) count array; return it as int8 with each row's tile count."""
    arr = np.asarray(counts)
    if arr.ndim != 2 or arr.shape[1] != 34:
        raise HandError(f"shanten_batch takes an integer array of shape (N, 34), got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise HandError(f"shanten_batch takes integer counts, got dtype {arr.dtype}")
    if arr.dtype != np.int8:
        if arr.size and (arr.min() < 0 or arr.max() > 4):
            row = int(np.argwhere((arr < 0) | (arr > 4))[0, 0])
            raise HandError(f"row {row}: every count must be 0-4")
        arr = arr.astype(np.int8)
    elif arr.size and not np.all(arr.view(np.uint8) <= 4):  # negative int8 views as >= 128
        row = int(np.argwhere(arr.view(np.uint8) > 4)[0, 0])
        raise HandError(f"row {row}: every count must be 0-4")
    n = arr.sum(axis=1, dtype=np.int16)
    bad = (n % 3 == 0) | (n > 14)
    if bad.any():
        row = int(np.argmax(bad))
        raise HandError(f"row {row}: a hand has 3n+1 or 3n+2 closed tiles (1-14), this one has {int(n[row])}")
    return arr, n


# one float32 matrix product turns counts into the four block indices (exact: all values < 2**24)
_KEY_MATRIX = np.zeros((34, 4), np.float32)
for _j in range(9):
    _KEY_MATRIX[_j, 0] = _KEY_MATRIX[9 + _j, 1] = _KEY_MATRIX[18 + _j, 2] = 5.0**_j
for _j in range(7):
    _KEY_MATRIX[27 + _j, 3] = 5.0**_j
_YAOCHU = np.array(TERMINALS_AND_HONORS)


def _merge(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus combination of two distance blocks laid out (10, N): row p*5+m, one column per hand."""
    out = a + b[0]  # m2 = 0 terms: out[j] = a[j] + b[m2=0, no pair]
    for m1 in range(MAX_MELDS + 1):
        for m2 in range(MAX_MELDS + 1 - m1):
            m = m1 + m2
            if m2:
                np.minimum(out[m], a[m1] + b[m2], out=out[m])
                np.minimum(out[5 + m], a[5 + m1] + b[m2], out=out[5 + m])
            np.minimum(out[5 + m], a[m1] + b[5 + m2], out=out[5 + m])
    return out


def _final(a: np.ndarray, h: np.ndarray, melds: np.ndarray) -> np.ndarray:
    """The (melds, pair) entry of the combination of ``a`` and the honor block ``h``, per column."""
    best = np.full(a.shape[1], 127, np.uint8)
    for m1 in range(MAX_MELDS + 1):
        for m2 in range(MAX_MELDS + 1 - m1):
            sel = melds == m1 + m2
            if not sel.any():
                continue
            v = np.minimum(a[5 + m1] + h[m2], a[m1] + h[5 + m2])
            np.minimum(best, np.where(sel, v, 127).astype(np.uint8), out=best)
    return best


def _regular(arr: np.ndarray, n: np.ndarray) -> np.ndarray:
    t = tables()
    st = t.suit_t
    keys = (arr.astype(np.float32) @ _KEY_MATRIX).astype(np.int64).T
    acc = _merge(np.take(st, keys[0], axis=1), np.take(st, keys[1], axis=1))
    acc = _merge(acc, np.take(st, keys[2], axis=1))
    honor = np.take(t.honor_t, keys[3], axis=1)
    return _final(acc, honor, n // 3).astype(np.int8) - 1


def _special(arr: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    kinds = np.count_nonzero(arr, axis=1)
    pairs = np.count_nonzero(arr > 1, axis=1)
    chiitoi = 6 - pairs + np.maximum(0, 7 - kinds)
    y = arr[:, _YAOCHU]
    kokushi = 13 - np.count_nonzero(y, axis=1) - (y > 1).any(axis=1)
    closed_full = n >= 13
    chiitoi = np.where(closed_full, chiitoi, _NOT_APPLICABLE).astype(np.int8)
    kokushi = np.where(closed_full, kokushi, _NOT_APPLICABLE).astype(np.int8)
    return chiitoi, kokushi


def shanten_batch_forms(counts: np.ndarray) -> np.ndarray:
    """Shanten of each form for N hands: an ``int8`` array of shape (N, 3), columns regular, seven pairs,
    thirteen orphans; 99 where a form does not apply (fewer than 13 closed tiles)."""
    arr, n = _check(counts)
    out = np.empty((arr.shape[0], 3), np.int8)
    out[:, 0] = _regular(arr, n)
    out[:, 1], out[:, 2] = _special(arr, n)
    return out


def shanten_batch(counts: np.ndarray) -> np.ndarray:
    """Minimum shanten of N hands given as an integer array of shape (N, 34) of closed-tile counts.

    Each row may hold any legal number of tiles (3n+1 or 3n+2, up to 14); seven pairs and thirteen orphans
    count only for rows of 13 or 14 tiles. Returns an ``int8`` array of N values.
    """
    arr, n = _check(counts)
    regular = _regular(arr, n)
    chiitoi, kokushi = _special(arr, n)
    return np.minimum(regular, np.minimum(chiitoi, kokushi))
