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

Messages quote the bad input only in part: :func:`excerpt` keeps a quoted value short, so a 200 KB line
gives a message of one line, not the line again.
"""

from __future__ import annotations

import reprlib

__all__ = ["HandError", "JantakuError", "TileError", "excerpt"]

EXCERPT_LIMIT = 60
"""How many characters of a bad value an error message quotes (see :func:`excerpt`)."""

_REPR = reprlib.Repr()
_REPR.maxlevel = 3
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6
_REPR.maxstring = _REPR.maxother = _REPR.maxlong = EXCERPT_LIMIT


def excerpt(value: object, limit: int = EXCERPT_LIMIT) -> str:
    """The ``repr`` of ``value`` for an error message, cut to about ``limit`` characters.

    A long string keeps its start and says how long it was; containers show their first items and levels.

    >>> excerpt("123m")
    "'123m'"
    >>> excerpt("1" * 500)
    "'11111111111111111111111111111111111111111111111111'... (500 characters)"
    >>> excerpt([[[[1]]]]), excerpt(list(range(100)))
    ('[[[[...]]]]', '[0, 1, 2, 3, 4, 5, ...]')
    """
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[: limit - 10]!r}... ({len(value)} characters)"
    if isinstance(value, int) and not isinstance(value, bool):
        digits = value.bit_length() * 0.30103
        if digits > limit:
            return f"an integer of about {int(digits) + 1} digits"
    text = _REPR.repr(value)
    return text if len(text) <= limit + 20 else text[:limit] + "..."


class JantakuError(ValueError):
    """Base class of every error caused by bad input to jantaku."""


class TileError(JantakuError):
    """A tile, a tile string or a tile code that cannot be read."""


class HandError(JantakuError):
    """A hand or meld that cannot exist: wrong tile count, a fifth copy, a malformed meld."""
