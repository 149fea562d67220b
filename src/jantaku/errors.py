"""The exceptions jantaku raises for bad input.

Every error a user can cause (a bad tile string, a fifth copy of a tile, an illegal action, a malformed
log line) is a :class:`JantakuError`. Each subclass is also a :class:`ValueError`, so code that already
catches ``ValueError`` keeps working. The message always names what is wrong.

>>> from jantaku import parse_tiles
>>> try:
...     parse_tiles("123x")
... except JantakuError as e:
...     print(e)
unknown character 'x' at position 3 in '123x'
"""

from __future__ import annotations

__all__ = ["HandError", "JantakuError", "TileError"]


class JantakuError(ValueError):
    """Base class of every error caused by bad input to jantaku."""


class TileError(JantakuError):
    """A tile, a tile string or a tile code that cannot be read."""


class HandError(JantakuError):
    """A hand or meld that cannot exist: wrong tile count, a fifth copy, a malformed meld."""
