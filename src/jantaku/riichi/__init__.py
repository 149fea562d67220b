"""Riichi scoring: yaku, fu, han, limits and payments under any riichi rule set.

>>> from jantaku import Tile
>>> from jantaku.riichi import WinConditions, score_hand
>>> score_hand("123m456p789s11z 777z+", WinConditions(win=Tile("1z"), seat_wind="E")).points
1500
"""

from .conditions import ConditionError, ScoringError, WinConditions, parse_wind
from .scoring import NotWinningError, NoYakuError, ScoreResult, score_hand
from .yaku import YAKU, YAKU_BY_NAME, YAKUMAN, Yaku

__all__ = [
    "YAKU",
    "YAKUMAN",
    "YAKU_BY_NAME",
    "ConditionError",
    "NoYakuError",
    "NotWinningError",
    "ScoreResult",
    "ScoringError",
    "WinConditions",
    "Yaku",
    "parse_wind",
    "score_hand",
]
