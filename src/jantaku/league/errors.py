"""The league recorder's errors: each names what is wrong (and, for a rule, the rule document's article)."""

from __future__ import annotations

from jantaku.errors import JantakuError

__all__ = ["ConflictError", "EntryError", "LeagueError", "NotFoundError"]


class LeagueError(JantakuError):
    """Bad input to the league recorder: an unknown player, a game that is over, a bad value."""


class EntryError(LeagueError):
    """A hand entry the event's rule set does not allow (the message cites the rule document's article)."""


class NotFoundError(LeagueError):
    """No such event, player, team, round or game."""


class ConflictError(LeagueError):
    """Someone else changed the game since this entry was prepared (two organisers entering at once)."""
