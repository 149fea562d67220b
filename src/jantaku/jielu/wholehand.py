"""The whole-hand fans (suits, numbers, honors), the shape fans and the incidental fans.

Suits, numbers and honors look only at *which* tiles the hand holds - its content mask (see
:func:`jantaku.jielu.melds.tile_mask`), the pair and every meld included - so they are computed once per mask.

>>> from jantaku.jielu.melds import meld_code, sum_masks, tile_mask
>>> from jantaku.tiles import Tile
>>> t = default_fan_table()
>>> mask = lambda melds, pair: tile_mask(Tile(pair).kind) | sum_masks(meld_code(m) for m in melds.split())
>>> content_fans(mask("123m 456m 789m 555z", "9m"), t)   # one suit and honors; 1-9 and an honor
(('混一色', 6), ('九数齐', 6), ('单箭', 1))
>>> content_fans(mask("111m 333p 555s 111s", "3m"), t)    # numbers 1 3 5: equally spaced, no honor
(('清三数', 16),)
>>> content_fans(mask("111z 222z 333z 555z", "6z"), t)
(('字一色', 32), ('双箭', 3), ('三风', 8))
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

from .fantable import FanTable, default_fan_table
from .melds import is_chow, is_kong

__all__ = ["content_fans", "incidental_fans", "shape_fans"]

_NUMBER_FANS = {
    (5, False): "清五数",
    (4, True): "混四数",
    (4, False): "清四数",
    (3, True): "混三数",
    (3, False): "清三数",
    (2, True): "混二数",
    (2, False): "清二数",
    (1, True): "混一数",
}
"""(how many numbers, honors present) -> the number fan; three or more numbers must be equally spaced."""

_DRAGON_FANS = {1: "单箭", 2: "双箭", 3: "三元"}
_WIND_FANS = {2: "双风", 3: "三风", 4: "四喜"}
_KONG_FANS = {1: "一杠", 2: "二杠", 3: "三杠", 4: "四杠"}


@lru_cache(maxsize=1 << 14)
def content_fans(mask: int, table: FanTable | None = None) -> tuple[tuple[str, int], ...]:
    """The suit, number and honor fans of a hand with content mask ``mask``, as (name, points).

    - 字一色 only honors; 混一色 one suit and honors; 清一色 one suit only; 清二色 exactly two suits, no
      honor; 五门齐 all three suits, a wind and a dragon.
    - The numbers on the number tiles, n of them: 混一数 (n=1, honors), 混二数 / 清二数 (n=2), 混三数 / 清三数,
      混四数 / 清四数 (n=3, 4, equally spaced), 清五数 (n=5, equally spaced, no honor); 九数齐 all nine and an
      honor. 混 = with honors, 清 = without.
    - Honor kinds present: 单箭 / 双箭 / 三元 for one / two / three dragons, 双风 / 三风 / 四喜 for two / three
      / four winds (one wind alone scores nothing).
    """
    t = table or default_fan_table()
    return tuple((name, t.points[name]) for name in _content_names(mask))


@lru_cache(maxsize=1 << 16)
def _content_names(mask: int) -> tuple[str, ...]:
    """The names of :func:`content_fans` (they depend on the mask alone)."""
    suits = bin(mask & 0b111).count("1")
    numbers = [n for n in range(9) if mask >> (3 + n) & 1]
    winds = bin(mask >> 12 & 0b1111).count("1")
    dragons = bin(mask >> 16 & 0b111).count("1")
    honors = winds + dragons > 0
    names: list[str] = []
    if suits == 0:
        names.append("字一色")
    elif suits == 1:
        names.append("混一色" if honors else "清一色")
    elif suits == 2:
        if not honors:
            names.append("清二色")
    elif winds and dragons:
        names.append("五门齐")
    n = len(numbers)
    if n == 9 and honors:
        names.append("九数齐")
    elif (n, honors) in _NUMBER_FANS and (n < 3 or len({b - a for a, b in pairwise(numbers)}) == 1):
        names.append(_NUMBER_FANS[(n, honors)])
    if dragons:
        names.append(_DRAGON_FANS[dragons])
    if winds >= 2:
        names.append(_WIND_FANS[winds])
    return tuple(names)


def shape_fans(codes: Sequence[int], table: FanTable | None = None) -> tuple[tuple[str, int, tuple[int, ...]], ...]:
    """平和 (four chows), 对对和 (four pungs or kongs) and 一杠..四杠, with the melds they use.

    >>> from jantaku.jielu.melds import meld_code, meld_name
    >>> fans = shape_fans([meld_code(m) for m in "111m 2222p 777z 5555s".split()])
    >>> [(n, p, [meld_name(c) for c in used]) for n, p, used in fans]
    [('对对和', 4, ['111m', '777z', '2222p', '5555s']), ('二杠', 4, ['2222p', '5555s'])]
    """
    t = table or default_fan_table()
    out: list[tuple[str, int, tuple[int, ...]]] = []
    ordered = tuple(sorted(codes))
    if len(ordered) == 4 and all(is_chow(c) for c in ordered):
        out.append(("平和", t.points["平和"], ordered))
    if len(ordered) == 4 and not any(is_chow(c) for c in ordered):
        out.append(("对对和", t.points["对对和"], ordered))
    kongs = tuple(c for c in ordered if is_kong(c))
    if kongs:
        name = _KONG_FANS[len(kongs)]
        out.append((name, t.points[name], kongs))
    return tuple(out)


def incidental_fans(
    *,
    tsumo: bool = False,
    last_tile: bool = False,
    kong: bool = False,
    first_draw: bool = False,
    table: FanTable | None = None,
) -> tuple[tuple[str, int], ...]:
    """自摸和 (a self-drawn win), 海底和 (on the last tile or the last discard), 杠上和 (on a kong's replacement
    tile or robbing a kong), 天和 (with the dealt hand and the first draw).

    >>> incidental_fans(tsumo=True, kong=True)
    (('自摸和', 1), ('杠上和', 2))
    """
    t = table or default_fan_table()
    names = [n for n, on in (("自摸和", tsumo), ("海底和", last_tile), ("杠上和", kong), ("天和", first_draw)) if on]
    return tuple((n, t.points[n]) for n in names)
