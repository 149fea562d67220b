"""jantaku (雀卓): mahjong rule sets as data, exact scoring, whole games, records and bots.

>>> import jantaku
>>> jantaku.shanten("123m456p789s1122z")
0
>>> jantaku.Hand.parse("123m456p11z 777z+ 1111s*").melds
(Meld.parse('777z+'), Meld.parse('1111s*'))
"""

from importlib.metadata import PackageNotFoundError, version

from jantaku.errors import HandError, JantakuError, TileError
from jantaku.hand import Hand
from jantaku.meld import Meld, MeldKind
from jantaku.riichi import ScoreResult, WinConditions, score_hand
from jantaku.rules import Ruleset, load_rules
from jantaku.shapes import (
    Decomposition,
    Shanten,
    decompositions,
    discard_options,
    is_complete,
    shanten,
    shanten_batch,
    shanten_batch_forms,
    shanten_forms,
    shanten_regular,
    ukeire,
    waits,
)
from jantaku.tiles import Tile, format_tiles, parse_tiles

try:
    __version__ = version("jantaku")
    """The installed package's version (its metadata, set from ``pyproject.toml``: the one place it is written)."""
except PackageNotFoundError:  # pragma: no cover - running from a source tree that was never installed
    __version__ = "0+unknown"

__all__ = [
    "Decomposition",
    "Hand",
    "HandError",
    "JantakuError",
    "Meld",
    "MeldKind",
    "Ruleset",
    "ScoreResult",
    "Shanten",
    "Tile",
    "TileError",
    "WinConditions",
    "__version__",
    "decompositions",
    "discard_options",
    "format_tiles",
    "is_complete",
    "load_rules",
    "parse_tiles",
    "score_hand",
    "shanten",
    "shanten_batch",
    "shanten_batch_forms",
    "shanten_forms",
    "shanten_regular",
    "ukeire",
    "waits",
]
