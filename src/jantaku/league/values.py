"""Values the league store checks or keeps: names (an event's, a team's, a player's, a series'), hashed
secrets (an organiser's password, a player's personal code) and the time it stamps on what it writes.

>>> stored = hash_secret("123456")
>>> secret_matches("123456", stored), secret_matches("654321", stored)
(True, False)
>>> checked_name("  Ann ", "player name")
'Ann'
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import hmac
import secrets

from jantaku.text import TextError, check_name

from .errors import LeagueError

__all__ = ["checked_name", "hash_secret", "secret_matches", "utc_now"]


def utc_now() -> _dt.datetime:
    """Now, in UTC (every time the league store writes)."""
    return _dt.datetime.now(_dt.UTC)


def hash_secret(secret: str, salt: bytes | None = None) -> str:
    """``salt$digest`` of ``secret`` (PBKDF2-HMAC-SHA256, 100,000 rounds; a fresh salt unless given)."""
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", secret.encode(), salt, 100_000)
    return f"{salt.hex()}${digest.hex()}"


def secret_matches(secret: str, stored: str) -> bool:
    """Whether ``secret`` is the one ``stored`` (:func:`hash_secret`) was made from (in constant time)."""
    salt, _ = stored.split("$", 1)
    return hmac.compare_digest(hash_secret(secret, bytes.fromhex(salt)), stored)


def checked_name(value: object, what: str) -> str:
    """A checked name (:func:`jantaku.text.check_name`: valid Unicode, no control or bidirectional characters,
    at most 200 characters; an event's name also none of the characters of a URL path), or :class:`LeagueError`."""
    try:
        return check_name(value, what, 200, path=what == "event name")
    except TextError as e:
        raise LeagueError(str(e)) from None
