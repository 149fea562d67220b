"""Who is liable for a big fan under 洁律's original payment mode (包付), from the hand's history.

The 洁律麻将 document (原版计分方式 and 包付规则细节解释; docs/rules/sources.md, 洁律 step 5) says:

- only fans of 8 points or more carry pao; with k (1-4) of the fan's related melds exposed, the liable player
  first pays k/4 of 3x(F-4) (:func:`~jantaku.jielu.payments.original_payments` does the arithmetic);
- suit and number fans (花色类, 数字类): the discarder made the fan complete;
- shape and combination fans (牌型类, 组合类): if the fan was complete before the win (all its melds exposed),
  the player who supplied the last of its melds; if not, the discarder when the winning tile belongs to the
  fan; otherwise nobody. For 双同顺, dealing into the pair of chows of which none is exposed carries none;
- a later kong or combination claim that contains an earlier one replaces it; several liable players pay in
  the order their liability arose.

Readings of this module where the seed is silent (documented choices):

- honor-collection fans (三风, 三元, 四喜) follow the suit and number rule (the discarder), their related melds
  being the melds of those honors;
- "exposed" means called from another player (chi, pon, open or added kong); a closed kong was supplied by
  nobody, so it neither counts in k nor makes anyone liable;
- a fan of the whole hand (suits, numbers) relates to all four melds;
- on a self-drawn win there is no discarder: only "complete before the win" claims remain.

>>> from jantaku import Hand, Tile
>>> from jantaku.jielu import score_hand
>>> hand = Hand.parse("111m 222m 44m 333m+ 555m+")       # 清一色 and 三连刻 (111m 222m 333m), two pungs called
>>> r = score_hand(hand)
>>> called = [(hand.melds[0], 2), (hand.melds[1], 3)]
>>> [(c.fan, c.liable, c.related) for c in pao_claims(r, called, 1, Tile("2m"))]   # seat 1 dealt the 2m
[('三连刻', 1, 1), ('清一色', 1, 2)]
>>> [(c.fan, c.liable, c.related) for c in pao_claims(r, called, 1, Tile("4m"))]   # the pair: not 三连刻's
[('清一色', 1, 2)]
"""

from __future__ import annotations

from collections.abc import Sequence

from jantaku.meld import Meld, MeldKind
from jantaku.tiles import Tile

from .melds import code_of_meld, meld_name
from .payments import PaoClaim
from .scoring import JieluResult

__all__ = ["pao_claims"]

_WHOLE_HAND = ("suits", "numbers")
_HONOR_KINDS = {"三风": range(27, 31), "四喜": range(27, 31), "三元": range(31, 34)}


def _related(fan_family: str, fan_name: str, fan_melds: tuple[str, ...], reading: tuple[str, ...]) -> list[str]:
    """The names (mpsz, no '+') of the melds a fan relates to."""
    plain = [m.rstrip("+") for m in reading]
    if fan_melds:
        return list(fan_melds)
    if fan_family in _WHOLE_HAND:
        return plain
    if fan_family == "honors":
        kinds = _HONOR_KINDS.get(fan_name)
        return [m for m in plain if m.endswith("z") and kinds is not None and int(m[0]) + 26 in kinds]
    if fan_family == "shape":
        if fan_name.endswith("杠"):
            return [m for m in plain if len(m) == 5]
        return plain  # 对对和, 平和: every meld
    return []


def pao_claims(
    result: JieluResult,
    called: Sequence[tuple[Meld, int | None]],
    discarder: int | None,
    win_tile: Tile | None = None,
    *,
    min_points: int = 8,
) -> list[PaoClaim]:
    """The pao claims of a won hand, in the order their liability arose.

    Args:
        result: the winner's score (its fans, each with the melds it uses, and its reading).
        called: the winner's declared melds in the order they were made, each with the seat that supplied the
            called tile (``None`` for a closed kong).
        discarder: the seat that dealt in, ``None`` for a self-drawn win.
        win_tile: the winning tile (on a discard win, a fan it belongs to makes the discarder liable).
        min_points: the smallest fan that carries pao (8).
    """
    names = [meld_name(code_of_meld(m)) for m, _ in called]
    # (when the liability arose, the claim, its declared melds, whether it is a kong or combination fan)
    timed: list[tuple[int, PaoClaim, frozenset[int], bool]] = []
    win_kind = win_tile.kind if win_tile is not None else None
    for fan in result.fans:
        if fan.points < min_points or fan.family == "incidental":
            continue
        related = _related(fan.family, fan.name, fan.melds, result.melds)
        used: list[int] = []  # indexes into ``called`` of the related melds that are declared
        for name in related:
            idx = next((i for i, n in enumerate(names) if n == name and i not in used), None)
            if idx is not None:
                used.append(idx)
        exposed = [i for i in used if called[i][1] is not None and called[i][0].kind is not MeldKind.ANKAN]
        if not exposed:
            continue
        k = min(len(exposed), 4)
        kong_or_combination = fan.family == "combinations" or (fan.family == "shape" and fan.name.endswith("杠"))
        if fan.family in (*_WHOLE_HAND, "honors"):
            if discarder is None:
                continue
            timed.append((len(called), PaoClaim(fan.name, fan.points, discarder, k), frozenset(used), False))
            continue
        if len(used) == len(related):  # complete before the win: the supplier of its last meld
            last = max(used)
            supplier = called[last][1]
            if supplier is None or called[last][0].kind is MeldKind.ANKAN:
                continue
            timed.append((last, PaoClaim(fan.name, fan.points, supplier, k), frozenset(used), kong_or_combination))
            continue
        if discarder is None or win_kind is None:
            continue
        closed = list(related)
        for i in used:
            closed.remove(names[i])
        hit = [m for m in closed if win_kind in _kinds(m)]
        if not hit:
            continue
        if fan.name == "双同顺" and all(m in closed and closed.count(m) == related.count(m) for m in hit):
            continue  # 004: 对于双同顺, 放铳未被副露的一组顺子不包付
        timed.append((len(called), PaoClaim(fan.name, fan.points, discarder, k), frozenset(used), kong_or_combination))
    timed.sort(key=lambda t: t[0])
    out: list[PaoClaim] = []
    for n, (_, claim, melds, replacing) in enumerate(timed):
        replaces = tuple(c.fan for _, c, m, _ in timed[:n] if replacing and m <= melds and c.fan != claim.fan)
        out.append(PaoClaim(claim.fan, claim.points, claim.liable, claim.related, replaces) if replaces else claim)
    return out


def _kinds(meld: str) -> set[int]:
    """The tile kinds of a meld written in mpsz (``123m``, ``555z``, ``7777p``)."""
    suit = "mpsz".index(meld[-1])
    return {suit * 9 + int(d) - 1 for d in meld[:-1]}
