"""Shanten of many hands at once, over numpy arrays.

The same tables as the one-hand API: each row's four blocks are turned into table indices with one matrix
product, mapped to their row indices, and combined by indexing the precomputed combination tables; the
seven-pairs and thirteen-orphans counts come from per-block tables of additive fields.

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

from .tables import tables

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


def _forms(arr: np.ndarray, n: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Regular, seven-pairs and thirteen-orphans shanten (int16; 99 where a form does not apply)."""
    t = tables()
    keys = (arr.astype(np.float32) @ _KEY_MATRIX).astype(np.int64).T
    m = np.take(t.suit_local, keys[0])
    p = np.take(t.suit_local, keys[1])
    s = np.take(t.suit_local, keys[2])
    z = np.take(t.honor_local, keys[3])
    abc = t.mps_np[t.mp_np[m, p], s]
    regular = t.final_np[abc, z, n // 3].astype(np.int16) - 1
    suit_info, honor_info = t.batch_info
    info = suit_info[keys[0]] + suit_info[keys[1]] + suit_info[keys[2]] + honor_info[keys[3]]
    kinds = (info >> 8) & 0xFF
    chiitoi = 6 - ((info >> 16) & 0xFF) + np.maximum(0, 7 - kinds)
    kokushi = 13 - ((info >> 24) & 0xFF) - (((info >> 32) & 0xFF) > 0)
    closed_full = n >= 13
    chiitoi = np.where(closed_full, chiitoi, _NOT_APPLICABLE).astype(np.int16)
    kokushi = np.where(closed_full, kokushi, _NOT_APPLICABLE).astype(np.int16)
    return regular, chiitoi, kokushi


def shanten_batch_forms(counts: np.ndarray) -> np.ndarray:
    """Shanten of each form for N hands: an ``int8`` array of shape (N, 3), columns regular, seven pairs,
    thirteen orphans; 99 where a form does not apply (fewer than 13 closed tiles)."""
    arr, n = _check(counts)
    return np.stack(_forms(arr, n), axis=1).astype(np.int8)


def shanten_batch(counts: np.ndarray) -> np.ndarray:
    """Minimum shanten of N hands given as an integer array of shape (N, 34) of closed-tile counts.

    Each row may hold any legal number of tiles (3n+1 or 3n+2, up to 14); seven pairs and thirteen orphans
    count only for rows of 13 or 14 tiles. Returns an ``int8`` array of N values.
    """
    arr, n = _check(counts)
    regular, chiitoi, kokushi = _forms(arr, n)
    return np.minimum(regular, np.minimum(chiitoi, kokushi)).astype(np.int8)
