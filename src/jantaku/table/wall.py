"""The wall: 136 tiles in dealing order, the dead wall of 14, dora and ura indicators, replacement tiles.

A :class:`Wall` holds the 136 tile ids (Tenhou's 136-ids: kind*4 + copy; ids 16, 52, 88 are the red fives
when the rule set has them) in *dealing order*, the layout Tenhou and the mjx records use:

- ``wall[0:48]`` are dealt in blocks of four (dealer, south, west, north, three rounds), then ``wall[48:52]``
  one tile each; live draws go on from ``wall[52]``;
- the last 14 tiles are the dead wall: the first dora indicator is ``wall[130]`` with its ura at
  ``wall[131]``; kan dora indicators are ``wall[128]``, ``wall[126]``, ``wall[124]``, ``wall[122]`` (ura one
  above each); replacement (rinshan) tiles are taken from ``wall[134]``, ``wall[135]``, ``wall[132]``,
  ``wall[133]``;
- the dead wall stays at 14 tiles: each replacement tile taken shortens the live wall by one at its end.

How the physical wall becomes that order (000 Art 9, 14, 16; 001 3章4条): four sides of 17 stacks, the dice
thrown by the dealer pick the side (counting counter-clockwise from the dealer) and the stack where the wall
is broken; tiles are then taken clockwise. :meth:`Wall.from_seed` shuffles the physical wall and breaks it
where the dice say, so the dice are part of the record; the same seed always gives the same wall.

>>> w = Wall.from_seed(1)
>>> len(w.tiles), w.dice == Wall.from_seed(1).dice, w.tiles == Wall.from_seed(1).tiles
(136, True, True)
>>> w.dora_indicator_index(0), w.ura_indicator_index(0), [w.rinshan_index(i) for i in range(4)]
(130, 131, [134, 135, 132, 133])
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from jantaku.errors import JantakuError

from .fastrandom import shuffle

__all__ = ["DEAD_WALL", "LIVE_START", "Wall", "hand_positions"]

LIVE_START = 52
"""Index of the first live draw, after the 52 dealt tiles."""
DEAD_WALL = 14
_RINSHAN = (134, 135, 132, 133)
_SIDE = 34  # tiles on one side: 17 stacks of 2
_BREAK_ORDER: dict[int, list[int]] = {}
"""Per break position: the physical wall's index of each tile in dealing order (filled on first use)."""


class Wall:
    """136 tile ids in dealing order, with the dice that broke the wall."""

    __slots__ = ("dice", "tiles")

    def __init__(self, tiles: Sequence[int], dice: tuple[int, int] = (1, 1)) -> None:
        if len(tiles) != 136 or sorted(tiles) != list(range(136)):
            raise JantakuError("a wall is the 136 tile ids 0-135, each exactly once")
        self.tiles = list(tiles)
        self.dice = dice

    @classmethod
    def from_seed(cls, seed: int | str | bytes) -> Wall:
        """Shuffle and break a wall reproducibly from ``seed``.

        The physical wall is 136 tiles in four sides (side 0 in front of the dealer, then counter-clockwise);
        the dice total ``d`` picks side ``(d - 1) % 4`` counted counter-clockwise from the dealer, and the
        wall is broken ``d`` stacks from that side's right end; dealing takes tiles clockwise from the break.
        """
        rng = random.Random(seed)
        physical = list(range(136))
        shuffle(rng, physical)  # rng.shuffle(physical), the same draws
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        total = dice[0] + dice[1]
        side = (total - 1) % 4
        # position (in tiles, clockwise) of the break: the side's start plus `total` stacks
        start = (side * _SIDE + 2 * total) % 136
        order = _BREAK_ORDER.get(start)
        if order is None:
            order = _BREAK_ORDER[start] = [(start - 2 * (i // 2) - 2 + (i % 2)) % 136 for i in range(136)]
        wall = cls.__new__(cls)  # a permutation of 0-135 by construction: __init__'s check is not needed
        wall.tiles = list(map(physical.__getitem__, order))
        wall.dice = dice
        return wall

    def dora_indicator_index(self, k: int) -> int:
        """Wall index of the ``k``-th dora indicator (0 = the first, 1-4 = kan dora)."""
        return 130 - 2 * k

    def ura_indicator_index(self, k: int) -> int:
        """Wall index of the ura indicator under the ``k``-th dora indicator."""
        return 131 - 2 * k

    def rinshan_index(self, k: int) -> int:
        """Wall index of the ``k``-th replacement tile (0-3)."""
        return _RINSHAN[k]

    def haipai(self, dealer: int) -> list[list[int]]:
        """The 13 tiles dealt to each seat (seats counted from 0; ``dealer`` gets the first block)."""
        return [[self.tiles[i] for i in positions] for positions in hand_positions(dealer)]


def hand_positions(dealer: int) -> list[list[int]]:
    """For each seat, the wall indices its 13 starting tiles are dealt from, in the order dealt: three blocks of
    four (the dealer's first, then south, west, north), then one tile each. A wall built to deal given hands puts
    them there.

    >>> hand_positions(0)[0]
    [0, 1, 2, 3, 16, 17, 18, 19, 32, 33, 34, 35, 48]
    >>> hand_positions(1)[0]   # seat 0 is north when seat 1 deals
    [12, 13, 14, 15, 28, 29, 30, 31, 44, 45, 46, 47, 51]
    """
    positions: list[list[int]] = [[], [], [], []]
    for block in range(3):
        for i in range(4):
            positions[(dealer + i) % 4].extend(range(16 * block + 4 * i, 16 * block + 4 * i + 4))
    for i in range(4):
        positions[(dealer + i) % 4].append(48 + i)
    return positions
