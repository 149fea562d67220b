"""What the web table needs from a game store (:class:`GameStore`), the records it keeps and the ways a write
can fail; :mod:`jantaku.web.storage` is the store itself, on SQLite or PostgreSQL.

Two kinds of rows: *games* (finished games: the players, the complete mjai event log and a summary, and the
table they were played at, from which a seat's view of the final table is rebuilt on demand) and *tables*
(games in play: rules, seed, seats with their secret tokens and every action so far, from which the live game
is rebuilt after a restart). Every write is one transaction, so nothing is ever half-stored.

Several server processes may share one database: a write to a table in play names the step it extends
(``expected_step``), and a write from a process that missed another's move is refused with
:class:`StaleWrite` rather than overwriting it. A write the database cannot take (disk full, database locked
for longer than the busy timeout, a lost connection) raises :class:`StoreError` and changes nothing.

>>> table = StoredTable("t1", utc_now(), utc_now(), "mleague", "seed", [{"kind": "human"}] * 4, [])
>>> table.status, table.tokens, table.options
('playing', 0, {})
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

__all__ = ["GameStore", "StaleWrite", "StoreClosed", "StoreError", "StoredGame", "StoredTable", "utc_now"]


class StaleWrite(Exception):
    """A write to a table in play that does not extend the stored step: another process moved it first."""


class StoreError(Exception):
    """The database refused a request or could not be reached (a full disk, a lock held past the busy timeout,
    a lost connection, a file or server that cannot be opened): nothing was changed, and the same request may
    work later. The message names the database's own reason (never a password)."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason if reason is not None else message
        """The database's own words (the message may add which database it was)."""


class StoreClosed(StoreError):
    """The store was closed (the server is stopping): nothing more is read or written."""


def utc_now() -> str:
    """The current time as ISO 8601 UTC text (seconds)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class StoredGame:
    """A finished game as stored: ``players`` are ``{"name", "kind", "bot"}`` objects by seat, ``events`` the
    complete mjai log, ``summary`` the final scores, ranks and rank points."""

    id: str
    created: str
    rules: str
    players: list[dict[str, Any]]
    status: str
    events: list[dict[str, Any]] = field(default_factory=list)
    summary: dict[str, Any] = field(default_factory=dict)


@dataclass
class StoredTable:
    """A game in play as stored: enough to rebuild it (rules, seed, seats and every action applied)."""

    id: str
    created: str
    updated: str
    rules: str
    seed: str
    seats: list[dict[str, Any]]
    actions: list[dict[str, Any]]
    status: str = "playing"
    owner: str | None = None
    """The table creator's secret (it may replace the invitation of a seat nobody holds); ``None`` for tables from
    before it."""
    tokens: int = 0
    """How many times a seat's token or invitation changed (claimed, reissued, left): a write from a process that
    missed one is refused."""
    options: dict[str, Any] = field(default_factory=dict)
    """The table's pace and time options, each seat's auto options and how many finished hands were let go
    (see :class:`~jantaku.web.tables.TableOptions`); empty for tables from before them."""
    version: int | None = field(default=None, compare=False)
    """How many times the table's row had been written when this state was read from it: a write of a table in
    play that names it is made only if the row is still at it (else :class:`StaleWrite`), and every write
    advances the row's version by one. ``None``: not compared (a state made by hand). Not part of the
    state: two states that differ only in it are equal."""


class GameStore(Protocol):
    """What the web table needs from storage. Every method is atomic: it is done whole, or it raises
    (:class:`StaleWrite` for a lost compare-and-swap, :class:`StoreError` for a refusal) and changes nothing."""

    def save_game(self, game: StoredGame) -> None:
        """Insert or replace a finished game."""

    def get_game(self, game_id: str) -> StoredGame | None:
        """A stored game, or ``None``."""

    def list_games(self, limit: int = 100, offset: int = 0) -> list[StoredGame]:
        """Stored games, newest first, without their event logs (``events`` empty)."""

    def save_table(self, table: StoredTable, expected_step: int | None = None) -> None:
        """Insert or replace a game in play; with ``expected_step``, only if the stored table is at that step,
        with ``table.tokens`` token changes and at ``table.version`` when it is not ``None`` (else
        :class:`StaleWrite`, nothing written)."""

    def get_table(self, table_id: str) -> StoredTable | None:
        """A game in play, or ``None``."""

    def table_step(self, table_id: str) -> int | None:
        """The stored step of a game in play (how many actions it holds), or ``None``."""

    def table_stamp(self, table_id: str) -> tuple[int, int, int] | None:
        """The stored step of a game in play, how many times a seat's token was reissued and how many times its
        row was written (its version), or ``None``."""

    def save_tokens(self, table: StoredTable, expected_step: int, expected_tokens: int) -> None:
        """Store a game in play's seats (a reissued token) with ``table.tokens``, only if the stored table is at
        ``expected_step`` with ``expected_tokens`` reissues and at ``table.version`` when it is not ``None`` (else
        :class:`StaleWrite`, nothing written)."""

    def finish_table(
        self, table_id: str, game: StoredGame, expected_step: int | None = None, state: StoredTable | None = None
    ) -> None:
        """Store the finished game (with ``state``, the table it was played at) and drop its table row, both or
        neither; with ``expected_step`` only if the stored table is at that step (and at ``state.version``, when
        given; else :class:`StaleWrite`)."""

    def get_finished_table(self, table_id: str) -> StoredTable | None:
        """The table a finished game was played at (its seats with their tokens and every action), or
        ``None``."""

    def delete_bot_games(self, before: str) -> int:
        """Delete the stored games created before ``before`` (ISO 8601 UTC text) in which no person sat; how
        many."""
        ...

    def close(self) -> None:
        """Release the store."""
