"""JSON from untrusted text, with limits: nesting depth, digits of an integer, size, and strict UTF-8.

Python's :func:`json.loads` raises ``RecursionError`` on an array nested a few thousand levels deep and
``ValueError`` on an integer of more than 4,300 digits; it also accepts ``NaN`` and ``Infinity``, which are
not JSON. :func:`loads` checks all of these first and raises one named error, :class:`JSONLimitError` (a
:class:`~jantaku.errors.JantakuError`), whose message says what is wrong and where without repeating the
input. Every part of jantaku that reads JSON it did not write (``jantaku score --jsonl``, the record
readers) goes through it.

>>> loads('{"honba": 1, "dora": ["3m"]}')
{'honba': 1, 'dora': ['3m']}
>>> loads("[" * 200 + "]" * 200)
Traceback (most recent call last):
...
jantaku.safejson.JSONLimitError: JSON nested deeper than 100 levels
>>> loads('{"honba": ' + "9" * 5000 + "}")
Traceback (most recent call last):
...
jantaku.safejson.JSONLimitError: an integer of 5000 digits (at most 100 are read)
>>> loads(b'{"a": "\\xff"}')
Traceback (most recent call last):
...
jantaku.safejson.JSONLimitError: not UTF-8 text (byte 0xff at position 7)
>>> loads('{"a": NaN}')
Traceback (most recent call last):
...
jantaku.safejson.JSONLimitError: NaN is not JSON
>>> loads('{"a": 1,}')
Traceback (most recent call last):
...
jantaku.safejson.JSONLimitError: not JSON: Expecting property name enclosed in double quotes at line 1 column 9
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

from jantaku.errors import JantakuError

__all__ = ["DEFAULT_MAX_DEPTH", "DEFAULT_MAX_INT_DIGITS", "JSONLimitError", "decode_utf8", "loads"]

DEFAULT_MAX_DEPTH = 100
"""Deepest nesting of arrays and objects :func:`loads` reads by default (jantaku's formats need under 10)."""
DEFAULT_MAX_INT_DIGITS = 100
"""Most digits of one integer :func:`loads` reads by default (every number jantaku reads is far shorter)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


class JSONLimitError(JantakuError):
    """Text that is not JSON, or JSON beyond a limit (depth, integer digits, size)."""


def decode_utf8(data: bytes, what: str = "") -> str:
    """``data`` decoded as UTF-8 (a leading byte-order mark dropped); other bytes are a :class:`JSONLimitError`.

    >>> decode_utf8("東".encode())
    '東'
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        where = f"{what}: " if what else ""
        raise JSONLimitError(f"{where}not UTF-8 text (byte 0x{data[e.start]:02x} at position {e.start})") from None


def _depth(text: str) -> int:
    brackets = _NOT_BRACKETS.sub("", _STRING.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest


def loads(
    text: str | bytes,
    max_depth: int = DEFAULT_MAX_DEPTH,
    max_int_digits: int = DEFAULT_MAX_INT_DIGITS,
    max_length: int | None = None,
) -> Any:
    """Parse JSON ``text`` (str, or bytes in UTF-8) like :func:`json.loads`, within limits.

    Raises :class:`JSONLimitError` for text that is not JSON, is not UTF-8, is longer than ``max_length``
    characters, nests arrays and objects deeper than ``max_depth``, holds an integer of more than
    ``max_int_digits`` digits, or a ``NaN``/``Infinity`` (or a float literal too large for a float).
    """
    if isinstance(text, bytes | bytearray):
        text = decode_utf8(bytes(text))
    if not isinstance(text, str):
        raise JSONLimitError(f"JSON is text, not {type(text).__name__}")
    if max_length is not None and len(text) > max_length:
        raise JSONLimitError(f"JSON text of {len(text)} characters (at most {max_length} are read)")
    if ("[" in text or "{" in text) and _depth(text) > max_depth:
        raise JSONLimitError(f"JSON nested deeper than {max_depth} levels")

    def parse_int(s: str) -> int:
        digits = len(s) - (s[0] == "-")
        if digits > max_int_digits:
            raise JSONLimitError(f"an integer of {digits} digits (at most {max_int_digits} are read)")
        return int(s)

    def parse_float(s: str) -> float:
        if len(s) > max_int_digits + 30:
            raise JSONLimitError(f"a number of {len(s)} characters (at most {max_int_digits + 30} are read)")
        value = float(s)
        if not math.isfinite(value):
            raise JSONLimitError(f"the number {s[:30]} is too large")
        return value

    def parse_constant(s: str) -> Any:
        raise JSONLimitError(f"{s} is not JSON")

    try:
        return json.loads(text, parse_int=parse_int, parse_float=parse_float, parse_constant=parse_constant)
    except json.JSONDecodeError as e:
        raise JSONLimitError(f"not JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
    except RecursionError:  # pragma: no cover - the depth check comes first
        raise JSONLimitError(f"JSON nested deeper than {max_depth} levels") from None
