"""Fu, han to points with each rule set's limits, and who pays what.

Sources: fu 000 Art 56, 001 6章3条, 002 3.1, 003 6章3条; points 000 Art 57-59, 001 6章4-6条, 002 3.2-3.3,
003 6章4-6条; pao 000 Art 67, 001 8章, 002 3.3, 003 8章. Basic points = fu x 2^(han+2); a non-dealer's ron
is 4x basic, a dealer's 6x; tsumo 1/1/2 or 2/2/2; every payment rounds up to 100 (a decision: docs/rules/sources.md).

>>> from jantaku.rules import load_rules
>>> basic_points(4, 30, 0, load_rules("standard")), basic_points(4, 30, 0, load_rules("mleague"))
((1920, None), (2000, 'mangan'))
>>> basic_points(13, 40, 0, load_rules("standard")), basic_points(13, 40, 0, load_rules("mu"))
((8000, 'kazoe_yakuman'), (6000, 'sanbaiman'))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .reading import KAN, RUN, HandFacts, Reading
from .yaku import yakuhai_kinds

if TYPE_CHECKING:
    from jantaku.rules import Ruleset

    from .conditions import WinConditions

__all__ = ["FuItem", "basic_points", "compute_fu", "han_fu_points", "limit_name", "payments", "round_up"]

FuItem = tuple[str, int]
_YAOCHU = frozenset((0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33))
_LIMITS = {2000: "mangan", 3000: "haneman", 4000: "baiman", 6000: "sanbaiman"}


def round_up(points: int, unit: int = 100) -> int:
    """Round up to a multiple of ``unit`` (payments are rounded up to 100)."""
    return -(-points // unit) * unit


def compute_fu(r: Reading, h: HandFacts, c: WinConditions, rules: Ruleset, pinfu: bool) -> tuple[int, list[FuItem]]:
    """The reading's fu (rounded) and the items that make it up."""
    if r.form == "chiitoitsu":
        return 25, [("seven pairs", 25)]
    if r.form == "kokushi":
        return 0, []  # a yakuman: fu play no part
    items: list[FuItem] = [("base", 20)]
    if h.menzen and not c.tsumo:
        items.append(("closed ron", 10))
    for b in r.blocks:
        if b.shape == RUN:
            continue
        fu = 2 if b.kind not in _YAOCHU else 4
        if b.concealed:
            fu *= 2
        if b.shape == KAN:
            fu *= 4
        what = ("closed " if b.concealed else "open ") + ("kan" if b.shape == KAN else "pung")
        items.append((f"{what} {_name(b.kind)}", fu))
    pair_fu = 0
    valued = yakuhai_kinds(h)
    if r.pair in (31, 32, 33):
        pair_fu = 2
    elif r.pair == 27 + h.seat_wind and r.pair == 27 + h.round_wind:
        pair_fu = rules.double_wind_pair_fu
    elif r.pair in valued:
        pair_fu = 2
    if pair_fu:
        items.append((f"pair {_name(r.pair)}", pair_fu))
    if r.wait in ("kanchan", "penchan", "tanki"):
        items.append((f"{r.wait} wait", 2))
    if c.tsumo and not pinfu:
        items.append(("tsumo", 2))
    raw = sum(f for _, f in items)
    if pinfu and c.tsumo:
        return 20, items
    fu = round_up(raw, 10)
    if fu == 20 and not c.tsumo:
        # an open hand with no fu at all: 30 fu (001 6章3条5; 000 Art 56(6))
        items.append(("open pinfu-shaped ron", 10))
        fu = 30
    return fu, items


def _name(kind: int) -> str:
    return f"{kind % 9 + 1}{'mpsz'[kind // 9]}"


def basic_points(han: int, fu: int, yakuman: int, rules: Ruleset) -> tuple[int, str | None]:
    """Basic points and the limit's name (``None`` below mangan)."""
    if yakuman:
        return 8000 * yakuman, "yakuman" if yakuman == 1 else f"{yakuman}x_yakuman"
    return han_fu_points(han, fu, rules.kazoe_yakuman, rules.kiriage)


def han_fu_points(han: int, fu: int, kazoe: bool, kiriage: bool) -> tuple[int, str | None]:
    """Basic points and the limit's name of ``han`` and ``fu`` without yakuman (the fast scorer calls it with the
    rule set's two switches: 13 han counted as a yakuman, 4 han 30 fu and 3 han 60 fu rounded up to mangan).

    >>> han_fu_points(4, 30, False, True), han_fu_points(13, 40, True, False), han_fu_points(13, 40, False, False)
    ((2000, 'mangan'), (8000, 'kazoe_yakuman'), (6000, 'sanbaiman'))
    """
    if han >= 5:
        if han >= 13 and kazoe:
            return 8000, "kazoe_yakuman"
        if han >= 11:
            return 6000, "sanbaiman"
        if han >= 8:
            return 4000, "baiman"
        if han >= 6:
            return 3000, "haneman"
        return 2000, "mangan"
    basic = fu << (han + 2)
    if basic > 2000 or (kiriage and basic >= 1920):
        return 2000, "mangan"
    return basic, None


def limit_name(basic: int) -> str | None:
    """The name of a limit by its basic points."""
    return _LIMITS.get(basic)


def payments(
    basic: int,
    c: WinConditions,
    rules: Ruleset,
    pao_basic: int = 0,
) -> tuple[list[int], int]:
    """Per-seat point changes of a win (honba and deposits included) and the points before them.

    ``pao_basic`` is the part of ``basic`` for which ``c.pao`` is liable (a yakuman's 8000 per unit, or all of
    ``basic`` under ``pao_scope = "hand"``).
    Tsumo: the liable player pays that part alone (a dealer's 6x, else 4x) and the rest is shared as usual;
    ron: the liable player and the discarder pay half each of that part. Honba: on tsumo the liable player
    pays them all; on ron as the rule set's ``pao_honba`` says.
    """
    deltas = [0, 0, 0, 0]
    winner = c.winner
    dealer = c.dealer
    unit = rules.payment_rounding
    honba = c.honba * rules.honba_points
    mult = 6 if c.is_dealer else 4
    liable = c.pao if pao_basic else None
    rest_basic = basic - pao_basic
    if c.tsumo:
        if liable is not None:
            pay = round_up(mult * pao_basic, unit)
            deltas[liable] -= pay
        for seat in range(4):
            if seat == winner:
                continue
            share = 2 * rest_basic if (c.is_dealer or seat == dealer) else rest_basic
            deltas[seat] -= round_up(share, unit) if share else 0
        if liable is not None:
            deltas[liable] -= honba
        else:
            for seat in range(4):
                if seat != winner:
                    deltas[seat] -= honba // 3
    else:
        discarder = c.discarder
        assert discarder is not None
        if liable is not None and liable != discarder:
            half = round_up(mult * pao_basic // 2, unit)
            deltas[liable] -= half
            deltas[discarder] -= round_up(mult * pao_basic, unit) - half
            if rules.pao_honba == "shared":  # 002 3.3 本場清算…由支付者均攤: the two payers halve it
                honba_paid = {liable: honba // 2, discarder: honba - honba // 2}
            else:
                honba_paid = {liable if rules.pao_honba == "liable" else discarder: honba}
        else:
            deltas[discarder] -= round_up(mult * pao_basic, unit) if pao_basic else 0
            honba_paid = {discarder: honba}
        if rest_basic:
            deltas[discarder] -= round_up(mult * rest_basic, unit)
        for seat, amount in honba_paid.items():
            deltas[seat] -= amount
    points = -sum(deltas) - honba
    deltas[winner] = points + honba + 1000 * c.deposits
    return deltas, points
