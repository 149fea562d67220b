"""Text a person types or a record carries, checked once where it comes in: names of players, teams, events and
files, before they reach a database, a page or a file.

A name must be valid Unicode (no lone surrogate, which no database stores), hold no control character and no
bidirectional embedding, override or isolate (U+202E in a name reverses the text after it on every page that
shows it), and keep within a length. A name that becomes part of an address (a league event's) may not hold the
characters a URL path gives a meaning to.

>>> check_name("  Ann  ", "player name")
'Ann'
>>> check_name("East\\u202eWest", "player name")
Traceback (most recent call last):
...
jantaku.text.TextError: player name: U+202E (a bidirectional control) is not allowed in a name
>>> check_name("A/B", "event name", path=True)
Traceback (most recent call last):
...
jantaku.text.TextError: event name: '/' is not allowed (the name is part of the event's address)
>>> csv_cell("=HYPERLINK(1)")
"'=HYPERLINK(1)"
"""

from __future__ import annotations

import unicodedata

from jantaku.errors import JantakuError

__all__ = ["BIDI_CONTROLS", "PATH_CHARACTERS", "TextError", "check_name", "csv_cell"]

BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""Marks, embeddings, overrides and isolates of the Unicode bidirectional algorithm."""

PATH_CHARACTERS = frozenset("/\\?#%")
"""Characters a URL path gives a meaning to: not allowed in a name that is part of an address."""

FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r")
"""What makes a spreadsheet read a CSV cell as a formula (OWASP, "CSV injection")."""


class TextError(JantakuError, ValueError):
    """A name that cannot be stored or shown as it is; the message names the field and the character."""


def check_name(value: object, what: str, max_length: int = 40, *, path: bool = False) -> str:
    """``value`` stripped of surrounding spaces, or :class:`TextError` naming ``what`` and the problem: not a
    string, empty, longer than ``max_length``, a lone surrogate, a control or bidirectional-control character, or
    (with ``path``) a character of :data:`PATH_CHARACTERS`."""
    if not isinstance(value, str):
        raise TextError(f"{what}: a string, not {type(value).__name__}")
    text = value.strip()
    if not text:
        raise TextError(f"{what}: empty")
    if len(text) > max_length:
        raise TextError(f"{what}: {len(text)} characters, at most {max_length}")
    for ch in text:
        code = f"U+{ord(ch):04X}"
        if 0xD800 <= ord(ch) <= 0xDFFF:
            raise TextError(f"{what}: {code} (a lone surrogate) is not valid Unicode")
        if ch in BIDI_CONTROLS:
            raise TextError(f"{what}: {code} (a bidirectional control) is not allowed in a name")
        if unicodedata.category(ch) == "Cc":
            raise TextError(f"{what}: {code} (a control character) is not allowed in a name")
        if path and ch in PATH_CHARACTERS:
            raise TextError(f"{what}: {ch!r} is not allowed (the name is part of the event's address)")
    return text


def csv_cell(value: object) -> object:
    """A value for a CSV cell that no spreadsheet runs as a formula: text starting with one of
    :data:`FORMULA_PREFIXES` gets a leading apostrophe (numbers are left as they are)."""
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES):
        return "'" + value
    return value
