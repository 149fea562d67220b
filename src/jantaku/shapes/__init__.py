"""Rule-free hand shapes: shanten, waits and ukeire, decompositions, complete hands.

Everything here works on the closed part of a hand and knows no rule set. See
:mod:`jantaku.shapes.shanten` for the inputs every function accepts.
"""

from .batch import shanten_batch, shanten_batch_forms
from .shanten import HandLike, Shanten, read_counts, shanten, shanten_forms, shanten_regular

__all__ = [
    "HandLike",
    "Shanten",
    "read_counts",
    "shanten",
    "shanten_batch",
    "shanten_batch_forms",
    "shanten_forms",
    "shanten_regular",
]
