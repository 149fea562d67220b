"""Errors raised while reading game records.

>>> from pathlib import Path

from jantaku.errors import JantakuError
>>> issubclass(RecordError, JantakuError), issubclass(RecordError, ValueError)
(True, True)
"""

from __future__ import annotations

from pathlib import Path

from jantaku.errors import JantakuError

__all__ = ["RecordError", "read_text_file"]


class RecordError(JantakuError):
    """A game record (or one field of it) that cannot be read: a malformed code, an unsupported feature."""


def read_text_file(path: Path) -> str:
    """A record file's UTF-8 text; an unreadable or non-UTF-8 file is a :class:`RecordError` naming it."""
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not UTF-8 text") from None
