"""Per-suit distance tables, shipped with the package (or built with numpy), and the interned vectors behind them.

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

Row layout (``VECTOR_LEN == 10``): index ``p * 5 + m``.

There are only 126 distinct suit rows and 55 honor rows, and combining rows closes quickly (180 distinct
rows after two suits, 180 after three), so the whole combination is precomputed as small tables:
``mp[a][b]`` (man and pin rows -> a combined row), ``mps[ab][c]`` (plus sou), and ``final[abc][z]``, the
distance to ``m`` melds and a pair for ``m = 0..4``. A hand's regular shanten is then four block look-ups and
three table indexings, for one hand (lists) or many (numpy fancy indexing).

For the one-hand path each block's look-up returns one packed integer (see :data:`INFO_SHIFT`): the block's
row index in the high bits and, in additive 8-bit fields, its tile count, kinds present, kinds held twice
or more, terminal/honor kinds present and terminal/honor kinds held twice or more; the four blocks' values
are summed once to get the whole hand's counts for seven pairs and thirteen orphans.

Loading the shipped file needs no numpy (the one-hand path runs on bytes and lists, so a process that plays
games does not pay numpy's import); the numpy forms the batch API uses are built from them on first use.
"""

from __future__ import annotations

import itertools
import lzma
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jantaku.errors import HandError

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "INFO_SHIFT",
    "MAX_MELDS",
    "VECTOR_LEN",
    "TableSet",
    "block_distance_table",
    "distance_table",
    "tables",
]

MAX_MELDS = 4
VECTOR_LEN = 2 * (MAX_MELDS + 1)
_INF = 99
INFO_SHIFT = 40
"""A packed block value is ``(row index + 1) << INFO_SHIFT`` plus five 8-bit additive fields: tiles (bits 0-7),
kinds present (8-15), kinds with two or more (16-23), terminal/honor kinds present (24-31) and terminal/honor
kinds with two or more (32-39)."""


def _targets(n_pos: int, runs: bool, melds: int, pairs: int) -> np.ndarray:
    """Base-5 indices of every target block with ``melds`` melds and ``pairs`` pairs (counts <= 4)."""
    import numpy as np

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
    import numpy as np

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


@lru_cache(maxsize=2)
def block_distance_table(n_pos: int) -> np.ndarray:
    """:func:`distance_table` of a suit (``n_pos=9``) or of the honors (``n_pos=7``), read from the shipped
    tables (its 126 or 55 distinct rows and each block's row: milliseconds instead of the 0.2 s computation);
    computed when the shipped file is missing or unreadable. Built once per process and shared: do not write
    into it (it is not flagged read-only, since numba compiles separately for read-only arrays).

    >>> bool((block_distance_table(7) == distance_table(7, False)).all())
    True
    """
    if n_pos not in (7, 9):
        raise ValueError(f"a block has 9 (suit) or 7 (honor) kinds, not {n_pos}")
    shipped = _read_shipped()
    if shipped is None:
        table = distance_table(n_pos, n_pos == 9)
    else:
        suit_rows, suit_local, honor_rows, honor_local = shipped
        rows, local = (suit_rows, suit_local) if n_pos == 9 else (honor_rows, honor_local)
        table = _unpack(rows).astype("uint8")[local - 1]
    return table


def _pack(rows: np.ndarray) -> np.ndarray:
    """Pack rows of ten values < 16 into one int64 each (4 bits per value)."""
    import numpy as np

    packed = np.zeros(rows.shape[0], np.int64)
    for j in range(VECTOR_LEN):
        packed |= rows[:, j].astype(np.int64) << (4 * j)
    return packed


class TableSet:
    """The precomputed tables behind every shape function; one instance per process (see :func:`tables`).

    Attributes:
        suit_local, honor_local: block index (counts as base-5 digits) -> row index (from 1), numpy int16
            (built on first use; the one-hand path reads the same values from bytes).
        mp, mps, final: the combination tables as nested lists (one-hand path); ``mp_np``, ``mps_np``,
            ``final_np`` the same as numpy arrays (batch path, built on first use). ``final[abc][z][m]`` is the
            distance of the whole hand to ``m`` melds and a pair.
        block_values: cache of packed block values (see :data:`INFO_SHIFT`), filled by :meth:`block_value`.
    """

    def __init__(self, compute: bool = False) -> None:
        shipped = None if compute else _read_shipped_plain()
        if shipped is None:
            shipped = _plain(_compute_all())
        suit_local, honor_local, mp, mps, final, _ = shipped
        self._suit_bytes: bytes = suit_local
        self._honor_bytes: bytes = honor_local
        self.mp: list[list[int]] = mp
        self.mps: list[list[int]] = mps
        self.final: list[list[tuple[int, ...]]] = final
        self.block_values: dict[bytes, int] = {}
        self._powers = [5**i for i in range(9)]
        self._numpy: dict[str, Any] = {}

    def _np(self, name: str) -> Any:
        """The numpy form of one table, built on first use (the batch path)."""
        arr = self._numpy.get(name)
        if arr is None:
            import numpy as np

            if name == "suit_local":
                arr = np.frombuffer(self._suit_bytes, np.uint8).astype(np.int16)
            elif name == "honor_local":
                arr = np.frombuffer(self._honor_bytes, np.uint8).astype(np.int16)
            elif name == "batch_local":  # one byte per entry: half the cache footprint of int16
                arr = (np.frombuffer(self._suit_bytes, np.uint8), np.frombuffer(self._honor_bytes, np.uint8))
            elif name == "mp_np":
                arr = np.array(self.mp, np.int16)
            elif name == "mps_np":
                arr = np.array(self.mps, np.int16)
            elif name == "final_np":
                arr = np.array(self.final, np.int8)
            else:  # batch_info
                arr = (_info_table(9, yaochu=(0, 8)), _info_table(7, yaochu=tuple(range(7))))
            self._numpy[name] = arr
        return arr

    suit_local = property(lambda self: self._np("suit_local"), doc="Suit block index -> row (from 1), int16.")
    honor_local = property(lambda self: self._np("honor_local"), doc="Honor block index -> row (from 1), int16.")
    batch_local = property(
        lambda self: self._np("batch_local"), doc="(suit_local, honor_local) as uint8 arrays, for the batch path."
    )
    mp_np = property(lambda self: self._np("mp_np"), doc=":attr:`mp` as an int16 array.")
    mps_np = property(lambda self: self._np("mps_np"), doc=":attr:`mps` as an int16 array.")
    final_np = property(lambda self: self._np("final_np"), doc=":attr:`final` as an int8 array.")

    def block_value(self, counts: bytes) -> int:
        """The packed value of one block (9 count bytes for a suit, 7 for the honors); see :data:`INFO_SHIFT`."""
        value = self.block_values.get(counts)
        if value:
            return value
        size = len(counts)
        if size not in (7, 9) or max(counts) > 4:
            raise HandError(f"a block has nine (suit) or seven (honor) counts of 0-4, got {list(counts)}")
        index = 0
        for c, p in zip(counts, self._powers, strict=False):
            index += c * p
        local = self._suit_bytes[index] if size == 9 else self._honor_bytes[index]
        yaochu = counts if size == 7 else bytes((counts[0], counts[8]))
        fields = (
            sum(counts),
            size - counts.count(0),
            size - counts.count(0) - counts.count(1),
            len(yaochu) - yaochu.count(0),
            len(yaochu) - yaochu.count(0) - yaochu.count(1),
        )
        value = local << INFO_SHIFT
        for j, f in enumerate(fields):
            value |= f << (8 * j)
        self.block_values[bytes(counts)] = value
        return value

    @property
    def batch_info(self) -> tuple[np.ndarray, np.ndarray]:
        """Per block index, the additive fields of :data:`BATCH_INFO_BITS` packed in a ``uint16``: (suits,
        honors). Built on first use, for the batch API."""
        return self._np("batch_info")

    def distances(self, b: bytes) -> tuple[int, ...]:
        """For 34 count bytes: the distance to ``m`` melds and a pair, ``m = 0..4`` (shanten is this minus 1)."""
        bv = self.block_value
        return self.final[
            self.mps[self.mp[bv(b[0:9]) >> INFO_SHIFT][bv(b[9:18]) >> INFO_SHIFT]][bv(b[18:27]) >> INFO_SHIFT]
        ][bv(b[27:34]) >> INFO_SHIFT]


SHIPPED_TABLES = Path(__file__).with_name("blocks.xz")
"""The block tables of :func:`_compute_blocks` and the combination tables built from them, shipped with the
package (20 KB; built by ``python tools/build_shape_tables.py``), so a process starts without the 0.3 s
computation and without numpy. A test checks that the file equals a fresh computation."""

_SHIPPED_MAGIC = b"jantaku-blocks-2"


def _compute_blocks() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The distinct packed rows of the suit and honor distance tables, and per block index its row (from 1)."""
    import numpy as np

    suit_rows, suit_local = np.unique(_pack(distance_table(9, True)), return_inverse=True)
    honor_rows, honor_local = np.unique(_pack(distance_table(7, False)), return_inverse=True)
    return (
        suit_rows,
        (suit_local.reshape(-1) + 1).astype(np.int16),
        honor_rows,
        (honor_local.reshape(-1) + 1).astype(np.int16),
    )


def _compute_combinations(
    blocks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The combination tables ``mp``, ``mps`` (int16, with placeholder row and column 0) and ``final`` (int8)."""
    import numpy as np

    suit_rows, _, honor_rows, _ = blocks
    suit_vec = _unpack(suit_rows)
    honor_vec = _unpack(honor_rows)
    mp_rows, mp_index = _combine_all(suit_vec, suit_vec)
    mps_rows, mps_index = _combine_all(mp_rows, suit_vec)
    full = _combine_vectors(mps_rows[:, None, :], honor_vec[None, :, :])  # (K3, Kh, 10)
    final = np.full((len(mps_rows) + 1, len(honor_rows) + 1, MAX_MELDS + 1), _INF, np.int8)
    final[1:, 1:, :] = full[:, :, 5:]
    return _with_placeholder(mp_index), _with_placeholder(mps_index), final


_Tables = tuple[Any, Any, Any, Any, Any, Any, Any]


def _compute_all() -> _Tables:
    """Everything the shipped file holds: :func:`_compute_blocks`' four arrays and the combination tables."""
    blocks = _compute_blocks()
    return (*blocks, *_compute_combinations(blocks))


def encode_blocks(blocks: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]) -> bytes:
    """The shipped file's bytes for :func:`_compute_blocks`' result: the four arrays (row indices one byte
    each) and the combination tables built from them (one byte per entry)."""
    import numpy as np

    suit_rows, suit_local, honor_rows, honor_local = blocks
    mp, mps, final = _compute_combinations(blocks)
    header = np.array([len(suit_rows), len(honor_rows), *mp.shape, *mps.shape, *final.shape], np.uint32)
    body = b"".join(
        (
            _SHIPPED_MAGIC,
            header.astype("<u4").tobytes(),
            suit_rows.astype("<i8").tobytes(),
            honor_rows.astype("<i8").tobytes(),
            suit_local.astype(np.uint8).tobytes(),
            honor_local.astype(np.uint8).tobytes(),
            mp.astype(np.uint8).tobytes(),
            mps.astype(np.uint8).tobytes(),
            final.astype(np.uint8).tobytes(),
        )
    )
    return lzma.compress(body, preset=9)


_HEADER_WORDS = 9


def _split(data: bytes) -> tuple[list[int], list[bytes]]:
    """The header numbers and the nine sections of a shipped file; ValueError when it is not one."""
    body = lzma.decompress(data)
    magic = len(_SHIPPED_MAGIC)
    if body[:magic] != _SHIPPED_MAGIC or len(body) < magic + 4 * _HEADER_WORDS:
        raise ValueError("not a jantaku block table file")
    head = [int.from_bytes(body[magic + 4 * i : magic + 4 * i + 4], "little") for i in range(_HEADER_WORDS)]
    n_suit, n_honor, mp_r, mp_c, mps_r, mps_c, f_r, f_c, f_m = head
    sizes = (8 * n_suit, 8 * n_honor, 5**9, 5**7, mp_r * mp_c, mps_r * mps_c, f_r * f_c * f_m)
    at = magic + 4 * _HEADER_WORDS
    if at + sum(sizes) != len(body) or f_m != MAX_MELDS + 1:
        raise ValueError("a jantaku block table file of the wrong size")
    parts = []
    for size in sizes:
        parts.append(body[at : at + size])
        at += size
    return head, parts


def decode_blocks(data: bytes) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Inverse of :func:`encode_blocks` for :func:`_compute_blocks`' four arrays; raises ValueError on a file
    that is not one."""
    import numpy as np

    _, (suit_rows, honor_rows, suit_local, honor_local, *_) = _split(data)
    return (
        np.frombuffer(suit_rows, "<i8").astype(np.int64),
        np.frombuffer(suit_local, np.uint8).astype(np.int16),
        np.frombuffer(honor_rows, "<i8").astype(np.int64),
        np.frombuffer(honor_local, np.uint8).astype(np.int16),
    )


def _nested(head: list[int], suit_local: bytes, honor_local: bytes, mp: bytes, mps: bytes, final: bytes) -> Any:
    """The one-hand path's forms: local tables as bytes, combination tables as nested lists (no numpy)."""
    _, _, mp_r, mp_c, mps_r, mps_c, f_r, f_c, f_m = head
    row = f_c * f_m
    return (
        suit_local,
        honor_local,
        [list(mp[i * mp_c : (i + 1) * mp_c]) for i in range(mp_r)],
        [list(mps[i * mps_c : (i + 1) * mps_c]) for i in range(mps_r)],
        [[tuple(final[r * row + z * f_m : r * row + (z + 1) * f_m]) for z in range(f_c)] for r in range(f_r)],
        (mp_r, mps_r, f_c),
    )


def _plain(computed: _Tables) -> Any:
    """:func:`_nested` of freshly computed tables."""
    import numpy as np

    _, suit_local, _, honor_local, mp, mps, final = computed
    head = [0, 0, *mp.shape, *mps.shape, *final.shape]
    return _nested(
        head,
        suit_local.astype(np.uint8).tobytes(),
        honor_local.astype(np.uint8).tobytes(),
        mp.astype(np.uint8).tobytes(),
        mps.astype(np.uint8).tobytes(),
        final.astype(np.uint8).tobytes(),
    )


def _read_shipped() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The shipped block tables as numpy arrays, or None when the file is missing or unreadable."""
    try:
        return decode_blocks(SHIPPED_TABLES.read_bytes())
    except (OSError, ValueError, lzma.LZMAError):
        return None


def _read_shipped_plain() -> Any:
    """The shipped tables in the one-hand path's forms (no numpy), or None (then they are computed) when the
    file is missing or unreadable."""
    try:
        head, (_, _, suit_local, honor_local, mp, mps, final) = _split(SHIPPED_TABLES.read_bytes())
    except (OSError, ValueError, lzma.LZMAError):
        return None
    return _nested(head, suit_local, honor_local, mp, mps, final)


BATCH_INFO_BITS = 4
"""Width of each field of :attr:`TableSet.batch_info`: kinds present (bits 0-3), kinds held twice or more (4-7),
terminal/honor kinds present (8-11) and held twice or more (12-15). A hand of at most 14 tiles keeps each
field's sum over its four blocks below 16, so the four blocks' values add without carries."""


def _info_table(n_pos: int, yaochu: tuple[int, ...]) -> np.ndarray:
    """The additive fields of :data:`BATCH_INFO_BITS` of every block index, as ``uint16``."""
    import numpy as np

    idx = np.arange(5**n_pos, dtype=np.int64)
    fields = [np.zeros(5**n_pos, np.int64) for _ in range(4)]
    for i in range(n_pos):
        d = (idx // 5**i) % 5
        fields[0] += d > 0
        fields[1] += d > 1
        if i in yaochu:
            fields[2] += d > 0
            fields[3] += d > 1
    out = np.zeros(5**n_pos, np.int64)
    for j, f in enumerate(fields):
        out |= np.minimum(f, 15) << (BATCH_INFO_BITS * j)  # a block with more is not part of a legal hand
    return out.astype(np.uint16)


def _unpack(packed: np.ndarray) -> np.ndarray:
    """Inverse of :func:`_pack`: (K,) int64 -> (K, VECTOR_LEN) int16."""
    import numpy as np

    return np.stack([(packed >> (4 * j)) & 15 for j in range(VECTOR_LEN)], axis=1).astype(np.int16)


def _combine_vectors(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Min-plus combination of broadcastable arrays of rows (last axis VECTOR_LEN)."""
    import numpy as np

    shape = np.broadcast_shapes(a.shape, b.shape)
    out = np.full(shape, _INF, np.int16)
    for m1 in range(MAX_MELDS + 1):
        for m2 in range(MAX_MELDS + 1 - m1):
            m = m1 + m2
            np.minimum(out[..., m], a[..., m1] + b[..., m2], out=out[..., m])
            np.minimum(out[..., 5 + m], a[..., 5 + m1] + b[..., m2], out=out[..., 5 + m])
            np.minimum(out[..., 5 + m], a[..., m1] + b[..., 5 + m2], out=out[..., 5 + m])
    return np.minimum(out, 15)


def _combine_all(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every combination of a row of ``a`` with a row of ``b``: the distinct result rows and an index table."""
    import numpy as np

    combined = _combine_vectors(a[:, None, :], b[None, :, :]).reshape(-1, VECTOR_LEN)
    rows, index = np.unique(_pack(combined), return_inverse=True)
    return _unpack(rows), index.reshape(a.shape[0], b.shape[0]).astype(np.int16)


def _with_placeholder(index: np.ndarray) -> np.ndarray:
    """Shift a 2-D local-index table by one in both dimensions (row/column 0 unused), values shifted too."""
    import numpy as np

    out = np.zeros((index.shape[0] + 1, index.shape[1] + 1), np.int16)
    out[1:, 1:] = index + 1
    return out


@lru_cache(maxsize=1)
def tables() -> TableSet:
    """The process-wide :class:`TableSet`, built on first use."""
    return TableSet()
