"""The errors of 洁律 scoring: every one is a :class:`~jantaku.errors.JantakuError` (and a ``ValueError``). A fan
table's error, :class:`FanTableError`, is a rule file's (:class:`~jantaku.rules.RulesError`), defined with the
fan table in :mod:`jantaku.rules.fantable`.

>>> issubclass(WildcardError, JieluError) and issubclass(JieluError, JantakuError)
True
"""

from __future__ import annotations

from jantaku.errors import JantakuError
from jantaku.rules.fantable import FanTableError

__all__ = ["FanTableError", "JieluError", "WildcardError"]


class JieluError(JantakuError):
    """A 洁律 request that cannot be scored: a wrong tile count, impossible circumstances, a bad payment input."""


class WildcardError(JieluError):
    """A wildcard request that the rules do not allow: a called (fixed) tile, a tile the hand does not hold."""
