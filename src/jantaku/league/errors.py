"""The league recorder's errors: each names what is wrong (and, for a rule, the rule document's article)."""

from __future__ import annotations

from jantaku.errors import JantakuError

__all__ = ["ConflictError", "DuplicateImportError", "EntryError", "LeagueError", "NotFoundError", "StoreUnavailable"]


class LeagueError(JantakuError):
    """Bad input to the league recorder: an unknown player, a game that is over, a bad value."""


class EntryError(LeagueError):
    """A hand entry the event's rule set does not allow (the message cites the rule document's article)."""


class NotFoundError(LeagueError):
    """No such event, player, team, round or game."""


class ConflictError(LeagueError):
    """Someone else changed the game since this entry was prepared (two organisers entering at once)."""


class DuplicateImportError(ConflictError):
    """A record's game is in the event already (imported before); importing it again needs ``force``."""


class StoreUnavailable(LeagueError):
    """The database refused a write it would take another time (a full disk, a lock held too long, a lost
    connection): nothing was changed, and trying again later may work (the web answers 503)."""
