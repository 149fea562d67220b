"""The errors of 洁律 scoring: every one is a :class:`~jantaku.errors.JantakuError` (and a ``ValueError``).

>>> issubclass(WildcardError, JieluError) and issubclass(JieluError, JantakuError)
True
"""

from __future__ import annotations

from jantaku.errors import JantakuError

__all__ = ["FanTableError", "JieluError", "WildcardError"]


class JieluError(JantakuError):
    """A 洁律 request that cannot be scored: a wrong tile count, impossible circumstances, a bad payment input."""


class WildcardError(JieluError):
    """A wildcard request that the rules do not allow: a called (fixed) tile, a tile the hand does not hold."""


class FanTableError(JieluError):
    """A fan table file that cannot be read: a missing or unknown fan, a bad value or combination field."""
