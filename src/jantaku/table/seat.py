"""One seat's state during a hand, updated incrementally by the hand engine."""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field

from jantaku.meld import Meld
from jantaku.shapes.shanten import BLOCK_OF_KIND, BLOCK_WEIGHT, block_codes, shanten_of_codes
from jantaku.shapes.waits import wait_kinds

__all__ = ["RiverTile", "SeatState"]


@dataclass(slots=True)
class RiverTile:
    """A discard: its tile id, whether it was the drawn tile, whether it declared riichi, who called it."""

    tile: int
    tsumogiri: bool
    riichi: bool = False
    called_by: int | None = None


@dataclass(slots=True)
class SeatState:
    """A player's hand and flags. ``counts`` (34 kinds) always mirrors ``tiles`` (136-ids, closed part)."""

    tiles: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[Meld] = field(default_factory=list)
    meld_ids: list[tuple[int, ...]] = field(default_factory=list)
    suppliers: list[int | None] = field(default_factory=list)
    """Per meld, the seat whose discard was called (``None`` for a closed kan)."""
    river: list[RiverTile] = field(default_factory=list)
    discarded_kinds: list[bool] = field(default_factory=lambda: [False] * 34)
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    riichi_pending: bool = False
    furiten_temp: bool = False
    furiten_riichi: bool = False
    kans: int = 0
    pao: dict[str, int] = field(default_factory=dict)
    dead: bool = False
    """A dead hand (停和, 000 Art 70; 和了放弃, 003 7章2条): no calls, kans, riichi or wins until the hand ends."""
    shanten13: int = 8
    """Shanten of the closed part when its waits were last computed (3n+1 tiles), or a lower bound of it when
    :attr:`shanten_floor` showed the hand could not be tenpai (then the waits are empty without a computation)."""
    shanten_floor: int = -1
    """A lower bound of the closed part's shanten that the hand engine sets after an exchange (a draw and a
    discard lower shanten by one at most); -1 (no bound) after any other change. While it is 1 or more the
    hand is not tenpai and :meth:`waits` skips the computation."""
    _waits: list[int] | None = None
    _codes: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    """The closed part's :func:`~jantaku.shapes.shanten.block_codes`, kept up to date like ``counts``. Whatever
    changes ``counts`` other than :meth:`add` and :meth:`remove` must call :meth:`hand_changed`."""

    key_table: list[int] | None = None
    """Each tile id's discard key (the hand engine's, by its red-five setting), or ``None``: then
    :attr:`key_counts` and :attr:`keys` are not kept."""
    key_counts: list[int] = field(default_factory=lambda: [0] * 272)
    """Per discard key, the closed tiles that have it (kept while :attr:`key_table` is set)."""
    keys: list[int] = field(default_factory=list)
    """The distinct discard keys of the closed tiles, sorted (kept while :attr:`key_table` is set)."""

    def add(self, tile: int) -> None:
        self.tiles.append(tile)
        k = tile >> 2
        self.counts[k] += 1
        self._waits = None
        self.shanten_floor = -1
        self._codes[BLOCK_OF_KIND[k]] += BLOCK_WEIGHT[k]
        table = self.key_table
        if table is not None:
            key = table[tile]
            kc = self.key_counts
            kc[key] += 1
            if kc[key] == 1:
                insort(self.keys, key)

    def remove(self, tile: int) -> None:
        self.tiles.remove(tile)
        k = tile >> 2
        self.counts[k] -= 1
        self._waits = None
        self.shanten_floor = -1
        self._codes[BLOCK_OF_KIND[k]] -= BLOCK_WEIGHT[k]
        table = self.key_table
        if table is not None:
            key = table[tile]
            kc = self.key_counts
            kc[key] -= 1
            if not kc[key]:
                self.keys.remove(key)

    def hand_changed(self) -> None:
        """Forget what was computed from the closed part (after ``tiles`` and ``counts`` were changed directly)."""
        self._waits = None
        self.shanten_floor = -1
        self._codes = block_codes(self.counts)
        table = self.key_table
        if table is not None:
            kc = [0] * 272
            for i in self.tiles:
                kc[table[i]] += 1
            self.key_counts = kc
            self.keys = [key for key in range(272) if kc[key]]

    @property
    def is_closed(self) -> bool:
        return all(not m.is_open for m in self.melds)

    def waits(self) -> list[int]:
        """Wait kinds of the closed part (3n+1 tiles), cached until the hand changes."""
        if self._waits is None:
            s = self.shanten_floor
            if s >= 1:  # not tenpai, known without a computation
                self.shanten13 = s
                self._waits = []
                return self._waits
            s = shanten_of_codes(self.counts, self._codes)
            self.shanten13 = s
            self._waits = wait_kinds(self.counts) if s == 0 else []
        return self._waits

    def miss_winning_tile(self) -> None:
        """A winning tile went by unclaimed: furiten until the seat's own next discard, for good once in riichi
        (000 Art 64; 001 5章5条3-4)."""
        self.furiten_temp = True
        if self.riichi:
            self.furiten_riichi = True

    @property
    def furiten_discard(self) -> bool:
        dk = self.discarded_kinds
        return any(dk[k] for k in self.waits())

    @property
    def furiten(self) -> bool:
        return self.furiten_temp or self.furiten_riichi or self.furiten_discard

    def copy(self) -> SeatState:
        return SeatState(
            tiles=list(self.tiles),
            counts=list(self.counts),
            melds=list(self.melds),
            meld_ids=list(self.meld_ids),
            suppliers=list(self.suppliers),
            river=[RiverTile(r.tile, r.tsumogiri, r.riichi, r.called_by) for r in self.river],
            discarded_kinds=list(self.discarded_kinds),
            riichi=self.riichi,
            double_riichi=self.double_riichi,
            ippatsu=self.ippatsu,
            riichi_pending=self.riichi_pending,
            furiten_temp=self.furiten_temp,
            furiten_riichi=self.furiten_riichi,
            kans=self.kans,
            pao=dict(self.pao),
            shanten13=self.shanten13,
            shanten_floor=self.shanten_floor,
            dead=self.dead,
            _waits=list(self._waits) if self._waits is not None else None,
            _codes=list(self._codes),
            key_table=self.key_table,
            key_counts=list(self.key_counts),
            keys=list(self.keys),
        )
