"""The table engine: wall, one hand as a state machine, whole games with settlement.

>>> from jantaku.rules import load_rules
>>> from jantaku.table import Game
>>> Game(load_rules("mleague"), seed=1).kyoku.tiles_left   # after the dealer's first draw
69
"""

from .actions import Action
from .game import Game, GameResult, settle
from .kyoku import HandResult, IllegalActionError, Kyoku, WinRecord
from .seating import Seating, draw_seating
from .wall import Wall

__all__ = [
    "Action",
    "Game",
    "GameResult",
    "HandResult",
    "IllegalActionError",
    "Kyoku",
    "Seating",
    "Wall",
    "WinRecord",
    "draw_seating",
    "settle",
]
