"""Where the web table keeps its games: one small interface (:class:`GameStore`) and SQLite behind it.

Two kinds of rows: *games* (finished games: the players, the complete mjai event log and a summary, and the
table they were played at, from which a seat's view of the final table is rebuilt on demand) and *tables*
(games in play: rules, seed, seats with their secret tokens and every action so far, from which the live game
is rebuilt after a restart). The schema carries its own version and is created or migrated when a store is
opened; every write is one transaction, so nothing is ever half-stored.

Several server processes may share one file: a write to a table in play names the step it extends
(``expected_step``), and a write from a process that missed another's move is refused with
:class:`StaleWrite` rather than overwriting it. A write the database cannot take (disk full, database
locked for longer than the busy timeout) raises :class:`sqlite3.Error` and leaves the file as it was.

>>> store = SqliteStore(":memory:")
>>> store.save_game(StoredGame("g1", "2026-01-01T00:00:00Z", "mleague", [{"name": "a"}], "finished", [], {}))
>>> [g.id for g in store.list_games()], store.get_game("nope")
(['g1'], None)
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

__all__ = ["SCHEMA_VERSION", "GameStore", "SqliteStore", "StaleWrite", "StoredGame", "StoredTable", "utc_now"]

# Each entry moves the schema from version i to i + 1; a database is brought up to date when opened.
_MIGRATIONS: tuple[str, ...] = (
    """
    CREATE TABLE games (
        id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        rules TEXT NOT NULL,
        players TEXT NOT NULL,
        status TEXT NOT NULL,
        events TEXT NOT NULL,
        summary TEXT NOT NULL
    );
    CREATE INDEX games_created ON games (created);
    """,
    """
    CREATE TABLE tables (
        id TEXT PRIMARY KEY,
        created TEXT NOT NULL,
        updated TEXT NOT NULL,
        rules TEXT NOT NULL,
        seed TEXT NOT NULL,
        seats TEXT NOT NULL,
        actions TEXT NOT NULL,
        status TEXT NOT NULL
    );
    """,
    """
    ALTER TABLE tables ADD COLUMN step INTEGER NOT NULL DEFAULT 0;
    UPDATE tables SET step = json_array_length(actions);
    ALTER TABLE games ADD COLUMN table_state TEXT;
    """,
    """
    ALTER TABLE tables ADD COLUMN owner TEXT;
    ALTER TABLE tables ADD COLUMN tokens INTEGER NOT NULL DEFAULT 0;
    """,
    """
    ALTER TABLE tables ADD COLUMN options TEXT NOT NULL DEFAULT '{}';
    """,
)
SCHEMA_VERSION = len(_MIGRATIONS)
"""The schema version this code writes."""


BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another process's transaction on the same file before it fails."""


class StaleWrite(Exception):
    """A write to a table in play that does not extend the stored step: another process moved it first."""


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


def _table_json(table: StoredTable) -> str:
    return json.dumps(
        {
            "id": table.id,
            "created": table.created,
            "updated": table.updated,
            "rules": table.rules,
            "seed": table.seed,
            "seats": table.seats,
            "actions": table.actions,
            "status": table.status,
            "owner": table.owner,
            "tokens": table.tokens,
            "options": table.options,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


class GameStore(Protocol):
    """What the web table needs from storage. Every method is atomic."""

    def save_game(self, game: StoredGame) -> None:
        """Insert or replace a finished game."""

    def get_game(self, game_id: str) -> StoredGame | None:
        """A stored game, or ``None``."""

    def list_games(self, limit: int = 100, offset: int = 0) -> list[StoredGame]:
        """Stored games, newest first, without their event logs (``events`` empty)."""

    def save_table(self, table: StoredTable, expected_step: int | None = None) -> None:
        """Insert or replace a game in play; with ``expected_step``, only if the stored table is at that step
        (else :class:`StaleWrite`, nothing written)."""

    def get_table(self, table_id: str) -> StoredTable | None:
        """A game in play, or ``None``."""

    def table_step(self, table_id: str) -> int | None:
        """The stored step of a game in play (how many actions it holds), or ``None``."""

    def table_stamp(self, table_id: str) -> tuple[int, int] | None:
        """The stored step of a game in play and how many times a seat's token was reissued, or ``None``."""

    def save_tokens(self, table: StoredTable, expected_step: int, expected_tokens: int) -> None:
        """Store a game in play's seats (a reissued token) with ``table.tokens``, only if the stored table is at
        ``expected_step`` with ``expected_tokens`` reissues (else :class:`StaleWrite`, nothing written)."""

    def finish_table(
        self, table_id: str, game: StoredGame, expected_step: int | None = None, state: StoredTable | None = None
    ) -> None:
        """Store the finished game (with ``state``, the table it was played at) and drop its table row, both or
        neither; with ``expected_step`` only if the stored table is at that step (else :class:`StaleWrite`)."""

    def get_finished_table(self, table_id: str) -> StoredTable | None:
        """The table a finished game was played at (its seats with their tokens and every action), or
        ``None``."""

    def delete_bot_games(self, before: str) -> int:
        """Delete the stored games created before ``before`` (ISO 8601 UTC text) in which no person sat; how
        many."""
        ...

    def close(self) -> None:
        """Release the store."""


class SqliteStore:
    """:class:`GameStore` on a SQLite file (stdlib :mod:`sqlite3`); ``":memory:"`` for a throwaway store.

    The schema is created or migrated to :data:`SCHEMA_VERSION` on opening (each step in one transaction);
    a database written by a newer jantaku is refused rather than damaged.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, timeout=BUSY_TIMEOUT, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA foreign_keys = ON")
        if self.path != ":memory:":
            # readers never wait for a writer; each commit is synced to disk (one fsync) before it returns
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = FULL")  # an acknowledged move survives a power cut too
        self._migrate()

    def check_writable(self) -> None:
        """Take the database's write lock and let it go: an :class:`sqlite3.Error` when the file (or its folder)
        cannot be written, so a server can say so at start instead of at the first move."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("ROLLBACK")

    # -- schema ----------------------------------------------------------------------------------------------

    @property
    def schema_version(self) -> int:
        """The schema version of the open database."""
        row = self._db.execute("SELECT version FROM schema_version").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        with self._lock:
            self._db.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
            version = self.schema_version
            if version > SCHEMA_VERSION:
                raise RuntimeError(
                    f"{self.path}: database schema version {version} is newer than this jantaku's ({SCHEMA_VERSION})"
                )
            for target in range(version + 1, SCHEMA_VERSION + 1):
                with self._transaction() as db:
                    for statement in _MIGRATIONS[target - 1].split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute("DELETE FROM schema_version")
                    db.execute("INSERT INTO schema_version (version) VALUES (?)", (target,))

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
                self._db.execute("COMMIT")  # a COMMIT that fails (disk full) is rolled back too
            except BaseException:
                if self._db.in_transaction:
                    with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back by itself
                        self._db.execute("ROLLBACK")
                raise

    # -- games -----------------------------------------------------------------------------------------------

    def save_game(self, game: StoredGame) -> None:
        with self._transaction() as db:
            self._insert_game(db, game)

    @staticmethod
    def _insert_game(db: sqlite3.Connection, game: StoredGame) -> None:
        db.execute(
            "INSERT OR REPLACE INTO games (id, created, rules, players, status, events, summary)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                game.id,
                game.created,
                game.rules,
                json.dumps(game.players, ensure_ascii=False),
                game.status,
                json.dumps(game.events, ensure_ascii=False, separators=(",", ":")),
                json.dumps(game.summary, ensure_ascii=False),
            ),
        )

    def get_game(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, rules, players, status, events, summary FROM games WHERE id = ?", (game_id,)
            ).fetchone()
        if row is None:
            return None
        return StoredGame(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]), json.loads(row[6]))

    def list_games(self, limit: int = 100, offset: int = 0) -> list[StoredGame]:
        with self._lock:
            rows = self._db.execute(
                "SELECT id, created, rules, players, status, summary FROM games"
                " ORDER BY created DESC, id LIMIT ? OFFSET ?",
                (limit, offset),
            ).fetchall()
        return [StoredGame(r[0], r[1], r[2], json.loads(r[3]), r[4], [], json.loads(r[5])) for r in rows]

    # -- tables in play --------------------------------------------------------------------------------------

    def save_table(self, table: StoredTable, expected_step: int | None = None) -> None:
        seats = json.dumps(table.seats, ensure_ascii=False)
        actions = json.dumps(table.actions, separators=(",", ":"))
        options = json.dumps(table.options, separators=(",", ":"))
        with self._transaction() as db:
            if expected_step is None:
                db.execute(
                    "INSERT OR REPLACE INTO tables"
                    " (id, created, updated, rules, seed, seats, actions, status, step, owner, tokens, options)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        table.id,
                        table.created,
                        table.updated,
                        table.rules,
                        table.seed,
                        seats,
                        actions,
                        table.status,
                        len(table.actions),
                        table.owner,
                        table.tokens,
                        options,
                    ),
                )
                return
            cursor = db.execute(
                "UPDATE tables SET updated = ?, seats = ?, actions = ?, status = ?, step = ?, options = ?"
                " WHERE id = ? AND step = ? AND tokens = ?",
                (
                    table.updated,
                    seats,
                    actions,
                    table.status,
                    len(table.actions),
                    options,
                    table.id,
                    expected_step,
                    table.tokens,
                ),
            )
            if cursor.rowcount != 1:
                raise StaleWrite(f"table {table.id} is no longer at step {expected_step}")

    def get_table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, updated, rules, seed, seats, actions, status, owner, tokens, options"
                " FROM tables WHERE id = ?",
                (table_id,),
            ).fetchone()
        if row is None:
            return None
        seats, actions, options = json.loads(row[5]), json.loads(row[6]), json.loads(row[10] or "{}")
        return StoredTable(row[0], row[1], row[2], row[3], row[4], seats, actions, row[7], row[8], int(row[9]), options)

    def table_step(self, table_id: str) -> int | None:
        with self._lock:
            row = self._db.execute("SELECT step FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else int(row[0])

    def table_stamp(self, table_id: str) -> tuple[int, int] | None:
        with self._lock:
            row = self._db.execute("SELECT step, tokens FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else (int(row[0]), int(row[1]))

    def save_tokens(self, table: StoredTable, expected_step: int, expected_tokens: int) -> None:
        seats = json.dumps(table.seats, ensure_ascii=False)
        with self._transaction() as db:
            cursor = db.execute(
                "UPDATE tables SET updated = ?, seats = ?, tokens = ? WHERE id = ? AND step = ? AND tokens = ?",
                (table.updated, seats, table.tokens, table.id, expected_step, expected_tokens),
            )
            if cursor.rowcount != 1:
                raise StaleWrite(f"table {table.id} is no longer at step {expected_step} with these links")

    def finish_table(
        self, table_id: str, game: StoredGame, expected_step: int | None = None, state: StoredTable | None = None
    ) -> None:
        with self._transaction() as db:
            if expected_step is not None:
                tokens = state.tokens if state is not None else 0
                cursor = db.execute(
                    "DELETE FROM tables WHERE id = ? AND step = ? AND tokens = ?", (table_id, expected_step, tokens)
                )
                if cursor.rowcount != 1:
                    raise StaleWrite(f"table {table_id} is no longer at step {expected_step}")
            else:
                db.execute("DELETE FROM tables WHERE id = ?", (table_id,))
            self._insert_game(db, game)
            if state is not None:
                db.execute("UPDATE games SET table_state = ? WHERE id = ?", (_table_json(state), game.id))

    def get_finished_table(self, table_id: str) -> StoredTable | None:
        with self._lock:
            row = self._db.execute("SELECT table_state FROM games WHERE id = ?", (table_id,)).fetchone()
        if row is None or row[0] is None:
            return None
        obj = json.loads(row[0])
        return StoredTable(**{k: v for k, v in obj.items() if k in StoredTable.__dataclass_fields__})

    def delete_bot_games(self, before: str) -> int:
        with self._transaction() as db:
            cur = db.execute(
                "DELETE FROM games WHERE created < ? AND table_state IS NULL AND NOT EXISTS"
                " (SELECT 1 FROM json_each(games.players) WHERE json_extract(value, '$.kind') = 'human')",
                (before,),
            )
            return cur.rowcount

    def close(self) -> None:
        with self._lock:
            self._db.close()
