"""jantaku (雀卓): mahjong rule sets as data, exact scoring, whole games, records and bots.

>>> import jantaku
>>> jantaku.shanten("123m456p789s1122z")
0
>>> jantaku.Hand.parse("123m456p11z 777z+ 1111s*").melds
(Meld.parse('777z+'), Meld.parse('1111s*'))
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# Each name is imported from its module on first use (PEP 562), so that ``import jantaku.x`` and the
# ``jantaku`` command load only what they use: a process that plays games never imports numpy or the scorers
# it does not need.
_EXPORTS = {
    "HandError": "jantaku.errors",
    "JantakuError": "jantaku.errors",
    "TileError": "jantaku.errors",
    "Hand": "jantaku.hand",
    "Meld": "jantaku.meld",
    "MeldKind": "jantaku.meld",
    "ScoreResult": "jantaku.riichi",
    "WinConditions": "jantaku.riichi",
    "score_hand": "jantaku.riichi",
    "Ruleset": "jantaku.rules",
    "load_rules": "jantaku.rules",
    "Decomposition": "jantaku.shapes",
    "Shanten": "jantaku.shapes",
    "decompositions": "jantaku.shapes",
    "discard_options": "jantaku.shapes",
    "is_complete": "jantaku.shapes",
    "shanten": "jantaku.shapes",
    "shanten_batch": "jantaku.shapes",
    "shanten_batch_forms": "jantaku.shapes",
    "shanten_forms": "jantaku.shapes",
    "shanten_regular": "jantaku.shapes",
    "ukeire": "jantaku.shapes",
    "waits": "jantaku.shapes",
    "Tile": "jantaku.tiles",
    "format_tiles": "jantaku.tiles",
    "parse_tiles": "jantaku.tiles",
}


def __getattr__(name: str) -> Any:
    """The public names, each loaded from its module on first use; ``__version__`` from the package metadata."""
    if name == "__version__":
        from jantaku.extras import installed_version

        value = installed_version()
    elif name in _EXPORTS:
        import importlib

        value = getattr(importlib.import_module(_EXPORTS[name]), name)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


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
