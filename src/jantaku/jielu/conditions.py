"""The circumstances of a 洁律 win, read from :class:`~jantaku.riichi.conditions.WinConditions`.

洁律 has four incidental fans and nothing else that depends on how the hand was won: ``tsumo`` gives 自摸和,
``haitei`` or ``houtei`` 海底和, ``rinshan`` or ``chankan`` 杠上和, ``tenhou`` or ``chiihou`` 天和. Riichi-only
circumstances (riichi, ippatsu, renhou, dora, honba, riichi sticks, yakuman pao) are errors, not silently ignored.

>>> from jantaku.tiles import Tile
>>> incidental_flags(WinConditions(win=Tile("5p"), tsumo=True, rinshan=True))
{'tsumo': True, 'last_tile': False, 'kong': True, 'first_draw': False}
>>> check_conditions(Hand.parse("123m456p789s11z55z5z"), WinConditions(win=Tile("5z"), riichi=True))
Traceback (most recent call last):
...
jantaku.jielu.errors.JieluError: 洁律 has no riichi (and no double riichi or ippatsu)
"""

from __future__ import annotations

from jantaku.hand import Hand
from jantaku.riichi.conditions import WinConditions

from .errors import JieluError

__all__ = ["WinConditions", "check_conditions", "incidental_flags", "moment_flags"]


def incidental_flags(c: WinConditions) -> dict[str, bool]:
    """The keyword flags of :func:`jantaku.jielu.score_hand` for these circumstances."""
    return moment_flags(
        tsumo=c.tsumo,
        haitei=c.haitei,
        houtei=c.houtei,
        rinshan=c.rinshan,
        chankan=c.chankan,
        tenhou=c.tenhou,
        chiihou=c.chiihou,
    )


def moment_flags(
    *, tsumo: bool, haitei: bool, houtei: bool, rinshan: bool, chankan: bool, tenhou: bool, chiihou: bool, **_: bool
) -> dict[str, bool]:
    """:func:`incidental_flags` from the moment's flags themselves (as
    :func:`jantaku.table.circumstances.win_flags` gives them; other keys are ignored): for a table engine that
    asks on every discard and need not build the whole :class:`WinConditions`.

    >>> moment_flags(tsumo=False, haitei=False, houtei=True, rinshan=False, chankan=False, tenhou=False,
    ...              chiihou=False, renhou=False)
    {'tsumo': False, 'last_tile': True, 'kong': False, 'first_draw': False}
    """
    return {
        "tsumo": tsumo,
        "last_tile": haitei or houtei,
        "kong": rinshan or chankan,
        "first_draw": tenhou or chiihou,
    }


def check_conditions(hand: Hand, c: WinConditions) -> None:
    """Raise :class:`JieluError` for circumstances that cannot go with this 洁律 win."""
    if c.riichi or c.double_riichi or c.ippatsu:
        raise JieluError("洁律 has no riichi (and no double riichi or ippatsu)")
    if c.renhou:
        raise JieluError("洁律 has no renhou")
    if c.dora or c.ura:
        raise JieluError("洁律 has no dora")
    if c.honba or c.deposits:
        raise JieluError("洁律 has no honba or riichi sticks")
    if c.pao is not None:
        raise JieluError(
            "洁律's pao is per fan (the liable seat and the related melds of each): use "
            "jantaku.jielu.original_payments with PaoClaim"
        )
    if c.win not in hand.closed:
        raise JieluError(f"the winning tile {c.win} is not among the closed tiles of {hand}")
    if c.rinshan and not any(m.is_kan for m in hand.melds):
        raise JieluError("a win on a kong's replacement tile needs a kong in the winner's hand")
    if (c.tenhou or c.chiihou) and hand.melds:
        raise JieluError("天和 is a win with the dealt hand and the first draw, before any call or kong")
    if c.chankan and any(t.kind == c.win.kind for m in hand.melds for t in m.tiles):
        raise JieluError("a robbed kong's tile cannot also be in the winner's melds")
