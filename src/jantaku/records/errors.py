"""Errors raised while reading game records.

>>> from jantaku.errors import JantakuError
>>> issubclass(RecordError, JantakuError), issubclass(RecordError, ValueError)
(True, True)
"""

from __future__ import annotations

from jantaku.errors import JantakuError

__all__ = ["RecordError"]


class RecordError(JantakuError):
    """A game record (or one field of it) that cannot be read: a malformed code, an unsupported feature."""
