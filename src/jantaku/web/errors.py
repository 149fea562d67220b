"""The web server's errors: each :class:`WebError` names what is wrong and carries its HTTP status."""

from __future__ import annotations


class WebError(Exception):
    """An error a client caused, with its HTTP status."""

    status = 400

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class BadRequest(WebError):
    """Malformed or illegal input (400)."""

    status = 400


class Forbidden(WebError):
    """A token that is not this table's (403)."""

    status = 403


class NotFound(WebError):
    """An unknown table or game (404)."""

    status = 404


class Conflict(WebError):
    """A stale submission: the table has moved on since the client looked (409)."""

    status = 409


class TooManyRequests(WebError):
    """A client that created more tables in the last minute than the server allows (429)."""

    status = 429


class Unavailable(WebError):
    """The server cannot take the request now: its table limit is reached, or the store refused a write (503).
    Nothing changed."""

    status = 503


def cut_message(text: str, limit: int = 300) -> str:
    """An error message cut to ``limit`` characters (a message names the bad part, never a whole upload).

    >>> cut_message("x" * 10, 8)
    'xxxxx...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."
