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


def _check(counts: np.ndarray) -> np.ndarray:
    """Validate an (N, 34) count array of counts 0-4; return it as int8 (tile totals are checked per chunk)."""
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
    elif arr.size and arr.view(np.uint8).max() > 4:  # negative int8 views as >= 128
        row = int(np.argwhere(arr.view(np.uint8) > 4)[0, 0])
        raise HandError(f"row {row}: every count must be 0-4")
    return arr


# one float32 matrix product turns counts into the four block indices and the tile total (exact: all < 2**24)
_KEY_MATRIX = np.zeros((34, 5), np.float32)
for _j in range(9):
    _KEY_MATRIX[_j, 0] = _KEY_MATRIX[9 + _j, 1] = _KEY_MATRIX[18 + _j, 2] = 5.0**_j
for _j in range(7):
    _KEY_MATRIX[27 + _j, 3] = 5.0**_j
_KEY_MATRIX[:, 4] = 1.0


def _forms(arr: np.ndarray, first_row: int = 0) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Regular, seven-pairs and thirteen-orphans shanten of a chunk of rows (int16; 99 where a form does not
    apply); ``first_row`` numbers the chunk's rows in error messages."""
    t = tables()
    keys = (arr.astype(np.float32) @ _KEY_MATRIX).astype(np.int64).T
    n = keys[4]
    bad = (n % 3 == 0) | (n > 14)
    if bad.any():
        row = int(np.argmax(bad))
        raise HandError(
            f"row {first_row + row}: a hand has 3n+1 or 3n+2 closed tiles (1-14), this one has {int(n[row])}"
        )
    suit_local, honor_local = t.batch_local
    m = np.take(suit_local, keys[0])
    p = np.take(suit_local, keys[1])
    s = np.take(suit_local, keys[2])
    z = np.take(honor_local, keys[3])
    abc = t.mps_np[t.mp_np[m, p], s]
    regular = t.final_np[abc, z, n // 3].astype(np.int16) - 1
    suit_info, honor_info = t.batch_info
    info = (suit_info[keys[0]] + suit_info[keys[1]] + suit_info[keys[2]] + honor_info[keys[3]]).astype(np.int32)
    kinds = info & 15
    chiitoi = 6 - ((info >> 4) & 15) + np.maximum(0, 7 - kinds)
    kokushi = 13 - ((info >> 8) & 15) - (info >= 1 << 12)
    closed_full = n >= 13
    chiitoi = np.where(closed_full, chiitoi, _NOT_APPLICABLE).astype(np.int16)
    kokushi = np.where(closed_full, kokushi, _NOT_APPLICABLE).astype(np.int16)
    return regular, chiitoi, kokushi


CHUNK = 4096
"""Hands handled per pass: the intermediate arrays of a chunk stay in the CPU cache, so a call on any number of
hands keeps the per-hand rate of a small one (one pass over 50,000 hands was about 4x slower per hand)."""


def _chunks(n: int) -> range:
    return range(0, n, CHUNK)


def shanten_batch_forms(counts: np.ndarray) -> np.ndarray:
    """Shanten of each form for N hands: an ``int8`` array of shape (N, 3), columns regular, seven pairs,
    thirteen orphans; 99 where a form does not apply (fewer than 13 closed tiles)."""
    arr = _check(counts)
    out = np.empty((arr.shape[0], 3), np.int8)
    for i in _chunks(arr.shape[0]):
        j = i + CHUNK
        for col, form in enumerate(_forms(arr[i:j], i)):
            out[i:j, col] = form
    return out


def shanten_batch(counts: np.ndarray) -> np.ndarray:
    """Minimum shanten of N hands given as an integer array of shape (N, 34) of closed-tile counts.

    Each row may hold any legal number of tiles (3n+1 or 3n+2, up to 14); seven pairs and thirteen orphans
    count only for rows of 13 or 14 tiles. Returns an ``int8`` array of N values.
    """
    arr = _check(counts)
    out = np.empty(arr.shape[0], np.int8)
    for i in _chunks(arr.shape[0]):
        j = i + CHUNK
        regular, chiitoi, kokushi = _forms(arr[i:j], i)
        np.minimum(regular, np.minimum(chiitoi, kokushi), out=out[i:j], casting="unsafe")
    return out
