"""Readings of a winning hand: a decomposition plus where the winning tile sits, and whole-hand facts.

A :class:`Reading` is what yaku and fu are computed from: four blocks (called melds included), the pair,
and the wait the winning tile completed. One decomposition can give several readings (a tile that ends
either a run or a pung), and the scorer keeps the one that pays most.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from jantaku.meld import Meld, MeldKind
from jantaku.shapes.decompose import Decomposition
from jantaku.tiles import TERMINALS_AND_HONORS

__all__ = ["KAN", "PUNG", "RUN", "Block", "HandFacts", "Reading", "readings_of", "wait_of_run"]

RUN, PUNG, KAN = 0, 1, 2
_YAOCHU = frozenset(TERMINALS_AND_HONORS)


class Block(NamedTuple):
    """A meld of a reading: ``shape`` RUN/PUNG/KAN, ``kind`` (first tile of a run), ``concealed`` (closed
    and not completed by another player's tile), ``called`` (a declared open meld)."""

    shape: int
    kind: int
    concealed: bool
    called: bool

    @property
    def has_yaochu(self) -> bool:
        if self.shape == RUN:
            return self.kind % 9 in (0, 6)
        return self.kind in _YAOCHU

    @property
    def is_pung(self) -> bool:
        return self.shape != RUN


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a winning hand.

    ``form`` is regular / chiitoitsu / kokushi; ``wait`` is ryanmen, kanchan, penchan, tanki or shanpon
    (seven pairs: tanki; thirteen orphans: kokushi or kokushi13).
    """

    form: str
    blocks: tuple[Block, ...]
    pair: int
    wait: str
    pairs: tuple[int, ...] = ()
    pungs: tuple[int, ...] = ()
    """Kinds of the pungs and kans."""
    runs: tuple[int, ...] = ()
    """First kinds of the runs, sorted."""
    concealed_pungs: int = 0
    """Pungs and kans that count as concealed (a pung completed by ron does not)."""
    kans: int = 0


@dataclass(frozen=True, slots=True)
class HandFacts:
    """Facts about the whole hand shared by all its readings."""

    counts: tuple[int, ...]
    """Counts by kind of every tile: closed tiles (winning tile included) and melds."""
    closed_counts: tuple[int, ...]
    """Counts of the closed tiles only (winning tile included)."""
    menzen: bool
    """No open meld (closed kans keep the hand closed)."""
    win_kind: int
    tsumo: bool
    seat_wind: int
    round_wind: int
    kans: int
    red: int
    kinds: tuple[int, ...] = ()
    """Kinds present anywhere in the hand."""
    suits: frozenset[int] = frozenset()
    """Suits (0 m, 1 p, 2 s) present."""
    has_honor: bool = False
    all_yaochu: bool = False
    no_yaochu: bool = False

    @classmethod
    def build(cls, counts: tuple[int, ...], closed_counts: tuple[int, ...], **kw: int | bool) -> HandFacts:
        """Facts with the derived fields filled in from ``counts``."""
        kinds = tuple(k for k in range(34) if counts[k])
        return cls(
            counts=counts,
            closed_counts=closed_counts,
            kinds=kinds,
            suits=frozenset(k // 9 for k in kinds if k < 27),
            has_honor=kinds[-1] >= 27,
            all_yaochu=all(k in _YAOCHU for k in kinds),
            no_yaochu=not any(k in _YAOCHU for k in kinds),
            **kw,  # type: ignore[arg-type]
        )


def wait_of_run(start: int, win: int) -> str:
    """The wait that a winning tile ``win`` completed in the run starting at ``start``.

    >>> wait_of_run(0, 2), wait_of_run(6, 6), wait_of_run(3, 4), wait_of_run(3, 5)
    ('penchan', 'penchan', 'kanchan', 'ryanmen')
    """
    pos = win - start
    if pos == 1:
        return "kanchan"
    if pos == 0:
        return "penchan" if start % 9 == 6 else "ryanmen"
    return "penchan" if start % 9 == 0 else "ryanmen"


def _meld_block(m: Meld) -> Block:
    kind = m.kind
    if kind is MeldKind.CHI:
        return Block(RUN, m.kind34, False, True)
    if kind is MeldKind.PON:
        return Block(PUNG, m.kind34, False, True)
    if kind is MeldKind.ANKAN:
        return Block(KAN, m.kind34, True, False)
    return Block(KAN, m.kind34, False, True)


def readings_of(
    decompositions: Sequence[Decomposition], melds: tuple[Meld, ...], win: int, tsumo: bool
) -> list[Reading]:
    """Every reading of the hand: each decomposition, with the winning tile in each place it can sit."""
    meld_blocks = tuple(_meld_block(m) for m in melds)
    out: list[Reading] = []
    seen: set[tuple[object, ...]] = set()
    for d in decompositions:
        if d.form == "chiitoitsu":
            out.append(Reading("chiitoitsu", (), -1, "tanki", d.pairs))
            continue
        if d.form == "kokushi":
            out.append(Reading("kokushi", (), d.pair, "kokushi13" if d.pair == win else "kokushi"))
            continue
        runs = [Block(RUN, k, True, False) for k in d.runs]
        pungs = [Block(PUNG, k, True, False) for k in d.pungs]
        places: list[tuple[str, int, str]] = []  # (where, index, wait)
        if d.pair == win:
            places.append(("pair", -1, "tanki"))
        for i, b in enumerate(pungs):
            if b.kind == win:
                places.append(("pung", i, "shanpon"))
        for i, b in enumerate(runs):
            if b.kind <= win <= b.kind + 2:
                places.append(("run", i, wait_of_run(b.kind, win)))
        for where, index, wait in places:
            blocks_p = list(pungs)
            if where == "pung" and not tsumo:
                blocks_p[index] = blocks_p[index]._replace(concealed=False)
            key = (d.pair, tuple(sorted(runs)), tuple(sorted(blocks_p)), wait)
            if key in seen:
                continue
            seen.add(key)
            blocks = (*runs, *blocks_p, *meld_blocks)
            out.append(
                Reading(
                    "regular",
                    blocks,
                    d.pair,
                    wait,
                    pungs=tuple(b.kind for b in blocks if b.shape != RUN),
                    runs=tuple(sorted(b.kind for b in blocks if b.shape == RUN)),
                    concealed_pungs=sum(1 for b in blocks if b.shape != RUN and b.concealed),
                    kans=sum(1 for b in blocks if b.shape == KAN),
                )
            )
    return out
