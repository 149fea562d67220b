"""The table's tile ids (0-135, four per kind, the red fives among them by the rule set's red-five setting): per
setting, each id's :class:`~jantaku.tiles.Tile`, mjai name and sort key, built once and shared by the engine and
the seats' views.

>>> tiles, names, keys = tile_tables((1, 1, 1))
>>> tiles[16], names[16], names[17]  # the first 5m is the red one
(Tile('0m'), '5mr', '5m')
"""

from __future__ import annotations

from jantaku.tiles import RED_IDS136, Tile

__all__ = ["tile_tables"]

_TABLES: dict[tuple[int, int, int], tuple[list[Tile], list[str], list[int]]] = {}


def tile_tables(red: tuple[int, int, int]) -> tuple[list[Tile], list[str], list[int]]:
    """Per red-five setting: the Tile, the mjai name and twice the sort key of every tile id (built once)."""
    cached = _TABLES.get(red)
    if cached is None:
        tiles = []
        for i in range(136):
            k = i >> 2
            tiles.append(Tile.from_kind(k, red=True) if (i in RED_IDS136 and red[k // 9]) else Tile.from_kind(k))
        cached = (tiles, _mjai_names(red), [t.sort_key * 2 for t in tiles])
        _TABLES[red] = cached
    return cached


def _mjai_names(red: tuple[int, int, int]) -> list[str]:
    names = []
    honors = ("E", "S", "W", "N", "P", "F", "C")
    for i in range(136):
        k = i >> 2
        if k >= 27:
            names.append(honors[k - 27])
            continue
        name = f"{k % 9 + 1}{'mps'[k // 9]}"
        if i in RED_IDS136 and red[k // 9]:
            name += "r"
        names.append(name)
    return names
