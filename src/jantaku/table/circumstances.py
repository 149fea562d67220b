"""The circumstances of a win that follow from the moment it happens: one rule for the engine and for a bot
that only sees the event stream (``jantaku bot``).

>>> win_flags(tsumo=True, first_turn=True, dealer=True, last_tile=False, rinshan=False, chankan=False)["tenhou"]
True
>>> win_flags(tsumo=False, first_turn=False, dealer=False, last_tile=True, rinshan=False, chankan=True)["houtei"]
False
"""

from __future__ import annotations

__all__ = ["win_flags"]


def win_flags(
    *, tsumo: bool, first_turn: bool, dealer: bool, last_tile: bool, rinshan: bool, chankan: bool, renhou: bool = False
) -> dict[str, bool]:
    """The flags of :class:`~jantaku.riichi.conditions.WinConditions` set by the moment of a win.

    Args:
        tsumo: a self-drawn win (else a win on a discard or a robbed kan).
        first_turn: the winner's first turn, uninterrupted by any call (tenhou, chiihou, renhou).
        dealer: the winner deals.
        last_tile: the live wall is empty (haitei on a draw, houtei on a discard).
        rinshan: the drawn tile was a kan's replacement.
        chankan: the win robs a kan.
        renhou: the rule set has renhou (a non-dealer's win on a discard before its first draw).
    """
    return {
        "tsumo": tsumo,
        "haitei": tsumo and last_tile and not rinshan,
        "houtei": (not tsumo) and last_tile and not chankan,
        "rinshan": tsumo and rinshan,
        "chankan": chankan,
        "tenhou": tsumo and first_turn and dealer,
        "chiihou": tsumo and first_turn and not dealer,
        "renhou": (not tsumo) and first_turn and not dealer and renhou,
    }
