"""Complete hands and every way to read them: melds and a pair, seven pairs, thirteen orphans.

A decomposition covers the *closed* tiles only; declared melds are fixed and are not repeated in it. Each
block's decompositions are enumerated once and cached (a block is one suit's 9 counts or the 7 honors), and
a hand's decompositions are the product of its blocks' ones with exactly one pair in all.

>>> for d in decompositions("111222333m456p77z"):
...     print(d)
pair 7z, pungs 1m 2m 3m, runs 456p
pair 7z, runs 123m 123m 123m 456p
>>> is_complete("19m19p19s1234567z7z"), is_complete("19m19p19s1234567z8m")
(True, False)
>>> [d.form for d in decompositions("22334455667788p")]
['regular', 'regular', 'regular', 'chiitoitsu']
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product
from typing import Literal, NamedTuple

from jantaku.tiles import KIND_NAMES, TERMINALS_AND_HONORS

from .shanten import HandLike, read_counts
from .tables import tables

__all__ = ["Decomposition", "decompositions", "decompositions_of_bytes", "is_complete"]

Form = Literal["regular", "chiitoitsu", "kokushi"]


class Decomposition(NamedTuple):
    """One reading of a complete hand's closed tiles.

    Attributes:
        form: ``"regular"`` (melds and a pair), ``"chiitoitsu"`` or ``"kokushi"``.
        pair: kind of the pair (regular), of the doubled tile (kokushi), or -1 (chiitoitsu).
        runs: first kind of each run, sorted (regular only).
        pungs: kind of each pung, sorted (regular only; a closed pung, before any win-tile reasoning).
        pairs: the seven pair kinds (chiitoitsu only).
    """

    form: Form
    pair: int
    runs: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    pairs: tuple[int, ...] = ()

    def __str__(self) -> str:
        if self.form == "chiitoitsu":
            return "seven pairs " + " ".join(KIND_NAMES[k] for k in self.pairs)
        if self.form == "kokushi":
            return f"thirteen orphans, pair {KIND_NAMES[self.pair]}"
        parts = [f"pair {KIND_NAMES[self.pair]}"] if self.pair >= 0 else []
        if self.pungs:
            parts.append("pungs " + " ".join(KIND_NAMES[k] for k in self.pungs))
        if self.runs:
            parts.append("runs " + " ".join(_run_name(k) for k in self.runs))
        return ", ".join(parts)


def _run_name(k: int) -> str:
    n = k % 9 + 1
    return f"{n}{n + 1}{n + 2}{'mps'[k // 9]}"


BlockReading = tuple[tuple[int, ...], tuple[int, ...], int]
"""(run starts, pung positions, pair position or -1) inside one block."""


@lru_cache(maxsize=65536)
def _block_readings(counts: bytes, runs_allowed: bool) -> tuple[BlockReading, ...]:
    """Every way to split one block into runs, pungs and at most one pair (positions within the block)."""
    out: list[BlockReading] = []
    c = bytearray(counts)
    size = len(c)
    runs: list[int] = []
    pungs: list[int] = []

    def walk(i: int, pair: int) -> None:
        while i < size and c[i] == 0:
            i += 1
        if i == size:
            out.append((tuple(runs), tuple(pungs), pair))
            return
        if c[i] >= 3:
            c[i] -= 3
            pungs.append(i)
            walk(i, pair)
            pungs.pop()
            c[i] += 3
        if pair < 0 and c[i] >= 2:
            c[i] -= 2
            walk(i, i)
            c[i] += 2
        if runs_allowed and i + 2 < size and c[i + 1] and c[i + 2]:
            c[i] -= 1
            c[i + 1] -= 1
            c[i + 2] -= 1
            runs.append(i)
            walk(i, pair)
            runs.pop()
            c[i] += 1
            c[i + 1] += 1
            c[i + 2] += 1

    walk(0, -1)
    # the same reading can be reached in more than one order only through identical choices; dedupe anyway
    return tuple(sorted(set(out)))


_BLOCKS = ((0, 9, True), (9, 18, True), (18, 27, True), (27, 34, False))


def _regular_complete(b: bytes, n: int) -> bool:
    return tables().distances(b)[n // 3] == 0


def _regular_readings(b: bytes) -> list[Decomposition]:
    per_block: list[list[tuple[tuple[int, ...], tuple[int, ...], int]]] = []
    for start, stop, runs_allowed in _BLOCKS:
        readings = []
        for runs, pungs, pair in _block_readings(b[start:stop], runs_allowed):
            readings.append(
                (
                    tuple(start + r for r in runs),
                    tuple(start + p for p in pungs),
                    start + pair if pair >= 0 else -1,
                )
            )
        if not readings:
            return []
        per_block.append(readings)
    out: list[Decomposition] = []
    for combo in product(*per_block):
        pairs = [p for _, _, p in combo if p >= 0]
        if len(pairs) != 1:
            continue
        runs = tuple(sorted(r for rs, _, _ in combo for r in rs))
        pungs = tuple(sorted(p for _, ps, _ in combo for p in ps))
        out.append(Decomposition("regular", pairs[0], runs, pungs))
    return out


@lru_cache(maxsize=4096)
def decompositions_of_bytes(b: bytes) -> tuple[Decomposition, ...]:
    """Every reading of 34 validated count bytes (the cached core of :func:`decompositions`)."""
    n = sum(b)
    if n % 3 != 2:
        return ()
    out: list[Decomposition] = []
    if _regular_complete(b, n):
        out = _regular_readings(b)
        out.sort(key=lambda d: (d.pair, -len(d.pungs), d.pungs, d.runs))
    if n == 14:
        if b.count(2) == 7:
            out.append(Decomposition("chiitoitsu", -1, pairs=tuple(k for k in range(34) if b[k] == 2)))
        yaochu = [b[k] for k in TERMINALS_AND_HONORS]
        if min(yaochu) >= 1 and sum(yaochu) == 14:
            out.append(Decomposition("kokushi", next(k for k in TERMINALS_AND_HONORS if b[k] == 2)))
    return tuple(out)


def decompositions(hand: HandLike) -> list[Decomposition]:
    """Every reading of a complete hand's closed tiles; an empty list when the hand is not complete.

    Regular readings come first (by pair, then pungs before runs), then seven pairs, then thirteen orphans.
    Seven pairs needs seven *different* pairs; both special forms need a closed 14-tile hand.

    >>> decompositions("123456789m11999p")[0]
    Decomposition(form='regular', pair=9, runs=(0, 3, 6), pungs=(17,), pairs=())
    >>> decompositions("123m")
    Traceback (most recent call last):
    ...
    jantaku.errors.HandError: a hand has 3n+1 or 3n+2 closed tiles (1-14), this one has 3
    """
    return list(decompositions_of_bytes(bytes(read_counts(hand))))


def is_complete(hand: HandLike) -> bool:
    """True when the closed tiles form a complete hand (3n+2 tiles: melds and a pair, or a special form).

    >>> is_complete("123m 11z 777z+ 456p+ 789s+"), is_complete("1112345678999m5p")
    (True, False)
    """
    counts = read_counts(hand)
    b = bytes(counts)
    n = sum(b)
    if n % 3 != 2:
        return False
    if _regular_complete(b, n):
        return True
    if n == 14:
        if b.count(2) == 7:
            return True
        yaochu = [b[k] for k in TERMINALS_AND_HONORS]
        return min(yaochu) >= 1 and sum(yaochu) == 14
    return False
