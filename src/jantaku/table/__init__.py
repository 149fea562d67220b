"""The table engine: wall, one hand as a state machine, whole games with settlement, and one seat's view of a
game built from the events it receives (:class:`SeatView`), which offers its actions by the engine's own rules.

>>> from jantaku.rules import load_rules
>>> from jantaku.table import Game
>>> Game(load_rules("mleague"), seed=1).kyoku.tiles_left   # after the dealer's first draw
69
"""

from .actions import Action
from .game import Game, GameResult, settle
from .kyoku import IllegalActionError, Kyoku
from .results import HandResult, WinRecord
from .seating import Seating, draw_seating
from .seatview import SeatView, SeatViewError, seat_facts
from .wall import Wall

__all__ = [
    "Action",
    "Game",
    "GameResult",
    "HandResult",
    "IllegalActionError",
    "Kyoku",
    "SeatView",
    "SeatViewError",
    "Seating",
    "Wall",
    "WinRecord",
    "draw_seating",
    "seat_facts",
    "settle",
]
