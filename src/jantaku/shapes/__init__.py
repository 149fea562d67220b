"""Rule-free hand shapes: shanten, waits and ukeire, decompositions, complete hands.

Everything here works on the closed part of a hand and knows no rule set. See
:mod:`jantaku.shapes.shanten` for the inputs every function accepts.
"""

from typing import Any

from .decompose import Decomposition, decompositions, is_complete
from .shanten import HandLike, Shanten, read_counts, shanten, shanten_forms, shanten_regular
from .waits import DiscardOption, Ukeire, discard_options, ukeire, wait_kinds, waits

__all__ = [
    "Decomposition",
    "DiscardOption",
    "HandLike",
    "Shanten",
    "Ukeire",
    "decompositions",
    "discard_options",
    "is_complete",
    "read_counts",
    "shanten",
    "shanten_batch",
    "shanten_batch_forms",
    "shanten_forms",
    "shanten_regular",
    "ukeire",
    "wait_kinds",
    "waits",
]


def __getattr__(name: str) -> Any:
    """The batch functions (numpy) load on first use, so that the one-hand functions never import numpy."""
    if name in ("shanten_batch", "shanten_batch_forms"):
        from . import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
