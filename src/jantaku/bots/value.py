"""Rough hand values for the ``strong`` bot: how many han a hand is heading for and what that pays.

These are estimates from what a hand already shows (value-honour sets and pairs, all simples, one suit,
seven pairs, dora and red fives, riichi with its ura and ippatsu where the rule set has them), not scores:
the bot needs them many times per decision, so they cost a few microseconds, never a call to the scorer.

>>> from jantaku.rules import load_rules
>>> basic_points(4, 30, load_rules("mleague"))   # kiriage mangan (M-League rules 2023, 6章4条2)
2000
>>> basic_points(4, 30, load_rules("tenhou"))
1920
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from jantaku.tiles import dora_from_indicator

if TYPE_CHECKING:
    from jantaku.meld import Meld
    from jantaku.rules import Ruleset
    from jantaku.tiles import Tile

__all__ = ["HandValue", "basic_points", "estimate_value", "win_points"]

YAOCHU = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))


class HandValue(NamedTuple):
    """An estimate: ``yaku_han`` from yaku the hand shows (0.0 when it has none in sight), ``dora`` (dora, red
    fives), ``has_yaku`` whether the hand can win without riichi or menzen tsumo."""

    yaku_han: float
    dora: float
    has_yaku: bool


def basic_points(han: float, fu: int, rules: Ruleset) -> int:
    """Basic points of ``han`` (rounded down) and ``fu``, with the limits and the rule set's kiriage."""
    h = int(han)
    if h >= 13:
        return 8000
    if h >= 11:
        return 6000
    if h >= 8:
        return 4000
    if h >= 6:
        return 3000
    if h >= 5:
        return 2000
    if h <= 0:
        return 0
    base = fu * 2 ** (h + 2)
    if rules.kiriage and base >= 1920:
        return 2000
    return min(base, 2000)


def win_points(han: float, dealer: bool, rules: Ruleset, fu: int = 30) -> float:
    """What a win of ``han`` is worth to the winner (ron payment; a fraction of a han interpolates)."""
    lo = int(han)
    frac = han - lo
    mult = 6 if dealer else 4
    p_lo = basic_points(lo, fu, rules) * mult
    if frac <= 0:
        return float(p_lo)
    p_hi = basic_points(lo + 1, fu, rules) * mult
    return p_lo + frac * (p_hi - p_lo)


def dora_kinds(indicators: Sequence[Tile]) -> list[int]:
    """How many times each kind is dora (34 counts) for the given indicators."""
    out = [0] * 34
    for t in indicators:
        out[dora_from_indicator(t.kind)] += 1
    return out


def estimate_value(
    counts: Sequence[int],
    melds: Sequence[Meld],
    dora: Sequence[int],
    reds: int,
    seat_wind: int,
    round_wind: int,
    open_tanyao: bool,
    chiitoi: bool = False,
    unseen: Sequence[int] | None = None,
) -> HandValue:
    """Han a hand is heading for, from its closed ``counts`` (13 or 14 tiles' worth), its melds, ``dora`` (34
    counts from :func:`dora_kinds`) and its red fives. ``chiitoi``: the hand is going for seven pairs.
    ``unseen``: copies of each kind not yet seen (a lone value honour counts only while two are left)."""
    closed = all(not m.is_open for m in melds)
    han = 0.0
    yaku = False
    value_winds = (27 + seat_wind, 27 + round_wind)
    n_dora = float(reds)
    for k in range(34):
        if counts[k] and dora[k]:
            n_dora += counts[k] * dora[k]
    for m in melds:
        k = m.kind34
        for t in m.tiles:
            n_dora += dora[t.kind]
        if m.kind.value != "chi":
            mult = (k in (31, 32, 33)) + value_winds.count(k)
            if mult:
                han += mult
                yaku = True
    for k in (31, 32, 33, *set(value_winds)):
        mult = (k in (31, 32, 33)) + value_winds.count(k)
        if counts[k] >= 3:
            han += mult
            yaku = True
        elif counts[k] == 2 and not chiitoi:
            han += 0.45 * mult  # a pair that may become the set (or stays the pair)
            yaku = yaku or mult > 0
        elif counts[k] == 1 and (unseen is None or unseen[k] >= 2):
            han += 0.12 * mult  # a single that may still pair up and be ponned
    han, yaku = _honour_sets(counts, melds, han, yaku)
    yaochu = sum(counts[k] for k in YAOCHU)
    meld_yaochu = any(t.kind in YAOCHU for m in melds for t in m.tiles)
    if (closed or open_tanyao) and not meld_yaochu:
        if yaochu == 0:
            han += 1
            yaku = True
        elif yaochu <= 2 and closed:
            han += 0.4
    suits = [sum(counts[0:9]), sum(counts[9:18]), sum(counts[18:27])]
    honors = sum(counts[27:34])
    for m in melds:
        for t in m.tiles[:3]:
            if t.kind < 27:
                suits[t.kind // 9] += 1
            else:
                honors += 1
    total = sum(suits) + honors
    top = max(suits)
    if total and top + honors >= total - 1 and top >= 6:
        off = total - top - honors
        full = 0.0 if off else 1.0
        one_suit = (3 if closed else 2) if honors else (6 if closed else 5)
        han += one_suit * (full + (1 - full) * 0.5)
        yaku = yaku or off == 0
    if chiitoi:
        han += 2
        yaku = True
    if closed and not yaku:
        han += 0.25  # pinfu, iipeikou, a closed tsumo now and then
    return HandValue(han, n_dora, yaku)


DRAGONS = (31, 32, 33)
"""The dragon kinds (white, green, red)."""
WINDS = (27, 28, 29, 30)
"""The wind kinds (east, south, west, north)."""
YAKUMAN_HAN = 13.0


def _honour_sets(counts: Sequence[int], melds: Sequence[Meld], han: float, yaku: bool) -> tuple[float, bool]:
    """The honour hands a set of honour pungs heads for: three dragon sets make daisangen and four wind sets
    daisuushii (yakuman), two dragon sets and a dragon pair shousangen (two han on top of the two sets), three
    wind sets and a wind pair shousuushii (yakuman); the third dragon or fourth wind still to come counts for
    half when its pair is held. These are the hands whose last set makes its feeder liable (pao) where the rule
    set says so, so the bot calls that set when it is offered (General online rules 3.3; M-League rules 2023,
    8章1条)."""
    sets = {m.kind34 for m in melds if m.kind.value != "chi" and m.kind34 >= 27}
    sets.update(k for k in range(27, 34) if counts[k] >= 3)
    dragon_sets = sum(1 for k in DRAGONS if k in sets)
    dragon_pairs = sum(1 for k in DRAGONS if k not in sets and counts[k] == 2)
    wind_sets = sum(1 for k in WINDS if k in sets)
    wind_pairs = sum(1 for k in WINDS if k not in sets and counts[k] == 2)
    if dragon_sets == 3 or wind_sets == 4 or (wind_sets == 3 and wind_pairs):
        return max(han, YAKUMAN_HAN), True
    if dragon_sets == 2 and dragon_pairs:
        return han + max(2.0, 0.5 * (YAKUMAN_HAN - han)), True
    return han, yaku
