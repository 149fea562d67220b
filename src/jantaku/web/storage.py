"""Where the web table keeps its games: :class:`SqlStore`, the :class:`~jantaku.web.gamestore.GameStore` on
SQLAlchemy Core, in a SQLite file (the default, nothing to set up) or a PostgreSQL database (several server
processes on one database); :class:`SqliteStore` is its name for a SQLite file.

The schema is created or migrated with Alembic when a store is opened (:mod:`jantaku.web.store_migrations`;
a SQLite file of the hand-written schema from before is migrated in place); every write is one transaction, so
nothing is ever half-stored.

Several server processes may share one database: a write to a table in play names the step it extends
(``expected_step``) and the row's version it read (:attr:`StoredTable.version`: how many times the row was
written), and the write is an ``UPDATE ... SET version = version + 1 WHERE id = :id AND step = :expected_step AND
tokens = :tokens AND version = :version`` whose count of rows decides, inside the transaction: a write from a
process that missed another's change (a move, or one that does not move the game: a closed result panel, an auto
option) matches no row and is refused with :class:`StaleWrite` rather than overwriting it (PostgreSQL makes the
second of two concurrent writers wait for the first and then look at the row it left; SQLite lets one writer at a
time in). A write the database cannot take (disk full, a lock held past the busy timeout, a lost connection) raises
:class:`StoreError` and changes nothing.

>>> store = SqliteStore(":memory:")
>>> store.save_game(StoredGame("g1", "2026-01-01T00:00:00Z", "mleague", [{"name": "a"}], "finished", [], {}))
>>> [g.id for g in store.list_games()], store.get_game("nope")
(['g1'], None)
>>> store.save_table(StoredTable("t1", "2026-01-01T00:00:00Z", "2026-01-01T00:00:00Z", "tenhou", "s", [], []))
>>> store.save_table(StoredTable("t1", "2026-01-01T00:00:00Z", "2026-01-01T00:00:09Z", "tenhou", "s", [], []), 3)
Traceback (most recent call last):
...
jantaku.web.gamestore.StaleWrite: table t1 is no longer at step 3
"""

from __future__ import annotations

import contextlib
import functools
import json
import secrets
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.exc import DBAPIError

from jantaku.errors import JantakuError

from . import store_schema as t
from .gamestore import GameStore, StaleWrite, StoreClosed, StoredGame, StoredTable, StoreError, utc_now
from .notices import CHANNEL, notice
from .store_engine import BUSY_TIMEOUT, database_url, is_memory, make_engine, mask, shown, transaction
from .store_migrations import current_revision, head_revision, upgrade

__all__ = [
    "BUSY_TIMEOUT",
    "GameStore",
    "SqlStore",
    "SqliteStore",
    "StaleWrite",
    "StoreClosed",
    "StoreError",
    "StoredGame",
    "StoredTable",
    "utc_now",
]


def _reason(e: BaseException) -> str:
    """The database's own words for a failure: the first line of the driver's message (passwords masked)."""
    orig = getattr(e, "orig", None) or e
    lines = str(orig).strip().splitlines()
    return mask(lines[0].strip()) if lines else type(orig).__name__


class SqlStore:
    """:class:`~jantaku.web.gamestore.GameStore` on SQLAlchemy Core. ``db`` is a SQLite file (a path, its folder
    made if missing, or ``sqlite:///PATH``; ``":memory:"``: a throwaway store) or a PostgreSQL URL
    (``postgresql://USER@HOST/DB``, psycopg 3; see :func:`~jantaku.web.store_engine.database_url`).

    The schema is brought up to date on opening (:func:`~jantaku.web.store_migrations.upgrade`); a database
    that cannot be opened or written by a newer jantaku raises :class:`StoreError` (a bad ``db``:
    :class:`~jantaku.errors.JantakuError`), naming the database with its password masked (:attr:`shown`).
    """

    def __init__(self, db: str | Path) -> None:
        self.url = database_url(db)
        """The database's SQLAlchemy URL (its ``str`` masks the password)."""
        self.shown = shown(self.url)
        """The database as it may be printed: the URL with its password masked, or the SQLite file's path."""
        self.is_sqlite = self.url.get_backend_name() == "sqlite"
        self.path: str | None = None
        """The SQLite file (``":memory:"`` for a throwaway store); ``None`` for PostgreSQL."""
        if self.is_sqlite:
            self.path = self.url.database or ":memory:"
            self.shown = self.path
            if self.path != ":memory:":
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self.shared = not self.is_sqlite
        """Whether several server processes may share the database (PostgreSQL): every write to a table in play
        then sends a notice (:mod:`jantaku.web.notices`) when it is committed."""
        self.node = secrets.token_hex(6)
        """This store's id (one per server process): the sender of its notices, the holder of its leases."""
        self.engine = make_engine(self.url)
        # SQLite: writers of this process queue here rather than on the file's lock (the busy timeout polls);
        # a store in memory is one connection, so its readers queue too
        self._lock = threading.RLock()
        self._shared = is_memory(self.url)
        self._closed = False
        try:
            upgrade(self.engine)
        except DBAPIError as e:
            self.engine.dispose()
            reason = _reason(e)
            raise StoreError(f"cannot open the games database {self.shown}: {reason}", reason) from e
        except BaseException:
            self.engine.dispose()
            raise

    def check_writable(self) -> None:
        """Take the database's write lock and let it go: a :class:`StoreError` when the file (or its folder), or
        the PostgreSQL tables, cannot be written, so a server can say so at start instead of at the first move."""
        with self._transaction(write=True) as conn:
            if not self.is_sqlite:  # needs the right to change the rows, and a server that is not read-only
                conn.exec_driver_sql("LOCK TABLE tables IN ROW EXCLUSIVE MODE")

    @property
    def schema_revision(self) -> str | None:
        """The Alembic revision of the open database."""
        with self._lock if self._shared else contextlib.nullcontext():
            return current_revision(self.engine)

    @property
    def head_revision(self) -> str:
        """The revision this jantaku writes."""
        return head_revision()

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[sa.Connection]:
        """A transaction (see :func:`~jantaku.web.store_engine.transaction`); the database's refusals become
        :class:`StoreError`, which changes nothing (the transaction is rolled back)."""
        serial = self._shared or (write and self.is_sqlite)
        with self._lock if serial else contextlib.nullcontext():
            if self._closed:
                raise StoreClosed(f"the games database {self.shown} is closed")
            try:
                with transaction(self.engine, write) as conn:
                    yield conn
            except (DBAPIError, sa.exc.TimeoutError) as e:  # (TimeoutError: no free connection in the pool)
                reason = _reason(e)
                raise StoreError(reason, reason) from e

    # -- games -----------------------------------------------------------------------------------------------

    def save_game(self, game: StoredGame) -> None:
        with self._transaction(write=True) as conn:
            self._insert_game(conn, game)

    @staticmethod
    def _insert_game(conn: sa.Connection, game: StoredGame, state: StoredTable | None = None) -> None:
        """Insert or replace ``game`` (the whole row: ``state`` is the table it was played at, or none)."""
        row = {
            "id": game.id,
            "created": game.created,
            "rules": game.rules,
            "players": json.dumps(game.players, ensure_ascii=False),
            "status": game.status,
            "events": json.dumps(game.events, ensure_ascii=False, separators=(",", ":")),
            "summary": json.dumps(game.summary, ensure_ascii=False),
            "table_state": _table_json(state) if state is not None else None,
        }
        conn.execute(_upsert(conn.dialect.name, "games"), row)

    def get_game(self, game_id: str) -> StoredGame | None:
        with self._transaction() as conn:
            row = conn.execute(_GET_GAME, {"key": game_id}).first()
        if row is None:
            return None
        return StoredGame(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]), json.loads(row[6]))

    def list_games(self, limit: int = 100, offset: int = 0) -> list[StoredGame]:
        with self._transaction() as conn:
            rows = conn.execute(_LIST_GAMES, {"limit": limit, "offset": offset}).all()
        return [StoredGame(r[0], r[1], r[2], json.loads(r[3]), r[4], [], json.loads(r[5])) for r in rows]

    # -- tables in play --------------------------------------------------------------------------------------

    def save_table(self, table: StoredTable, expected_step: int | None = None) -> None:
        changes = {
            "updated": table.updated,
            "seats": json.dumps(table.seats, ensure_ascii=False),
            "actions": json.dumps(table.actions, separators=(",", ":")),
            "status": table.status,
            "step": len(table.actions),
            "options": json.dumps(table.options, separators=(",", ":")),
        }
        with self._transaction(write=True) as conn:
            if expected_step is None:
                row = {"id": table.id, "created": table.created, "rules": table.rules, "seed": table.seed}
                row.update(changes, owner=table.owner, tokens=table.tokens, version=table.version or 0)
                conn.execute(_upsert(conn.dialect.name, "tables"), row)
                return
            where = _where(table.id, expected_step, table.tokens, table.version)
            if conn.execute(_MOVE[table.version is not None], {**where, **changes}).rowcount != 1:
                raise StaleWrite(f"table {table.id} is no longer at step {expected_step}{_at(table.version)}")
            self._notify(conn, table.id)

    def get_table(self, table_id: str) -> StoredTable | None:
        with self._transaction() as conn:
            row = conn.execute(_GET_TABLE, {"key": table_id}).first()
        if row is None:
            return None
        seats, actions, options = json.loads(row[5]), json.loads(row[6]), json.loads(row[10] or "{}")
        return StoredTable(
            row[0], row[1], row[2], row[3], row[4], seats, actions, row[7], row[8], int(row[9]), options, int(row[11])
        )

    def table_step(self, table_id: str) -> int | None:
        stamp = self.table_stamp(table_id)
        return None if stamp is None else stamp[0]

    def table_stamp(self, table_id: str) -> tuple[int, int, int] | None:
        with self._transaction() as conn:
            row = conn.execute(_STAMP, {"key": table_id}).first()
        return None if row is None else (int(row[0]), int(row[1]), int(row[2]))

    def save_tokens(self, table: StoredTable, expected_step: int, expected_tokens: int) -> None:
        changes = {"updated": table.updated, "seats": json.dumps(table.seats, ensure_ascii=False)}
        where = _where(table.id, expected_step, expected_tokens, table.version)
        with self._transaction(write=True) as conn:
            relink = _RELINK[table.version is not None]
            if conn.execute(relink, {**where, **changes, "tokens": table.tokens}).rowcount != 1:
                raise StaleWrite(
                    f"table {table.id} is no longer at step {expected_step}{_at(table.version)} with these links"
                )
            self._notify(conn, table.id)

    def finish_table(
        self, table_id: str, game: StoredGame, expected_step: int | None = None, state: StoredTable | None = None
    ) -> None:
        with self._transaction(write=True) as conn:
            if expected_step is not None:
                tokens, version = (state.tokens, state.version) if state is not None else (0, None)
                where = _where(table_id, expected_step, tokens, version)
                if conn.execute(_FINISH[version is not None], where).rowcount != 1:
                    raise StaleWrite(f"table {table_id} is no longer at step {expected_step}{_at(version)}")
            else:
                conn.execute(_DROP, {"key": table_id})
            self._insert_game(conn, game, state)
            if expected_step is not None:
                self._notify(conn, table_id)

    def _notify(self, conn: sa.Connection, table_id: str) -> None:
        """Tell the other processes on the database that this one changed ``table_id``: sent at commit, never
        for a write rolled back (nothing on SQLite)."""
        if self.shared:
            conn.execute(_NOTIFY, {"channel": CHANNEL, "text": notice(self.node, table_id)})

    def get_finished_table(self, table_id: str) -> StoredTable | None:
        with self._transaction() as conn:
            text = conn.execute(_FINISHED_TABLE, {"key": table_id}).scalar()
        if text is None:
            return None
        obj = json.loads(text)
        return StoredTable(**{k: v for k, v in obj.items() if k in StoredTable.__dataclass_fields__})

    def delete_bot_games(self, before: str) -> int:
        with self._transaction(write=True) as conn:
            return int(conn.execute(_BOT_GAMES[conn.dialect.name], {"before": before}).rowcount)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self.engine.dispose()


class SqliteStore(SqlStore):
    """The store in a SQLite file (``path``; ``":memory:"``: a throwaway store): :class:`SqlStore`, under the name
    it had before it knew PostgreSQL. A database URL of another kind is refused."""

    def __init__(self, path: str | Path) -> None:
        if database_url(path).get_backend_name() != "sqlite":
            raise JantakuError(f"SqliteStore keeps games in SQLite, not in {mask(str(path))!r}: use SqlStore")
        super().__init__(path)


# The statements, built once (SQLAlchemy compiles each once per database kind and keeps it). A write to a table
# in play names the row and the step and token count it extends; its count of rows decides.
_g, _t = t.games.c, t.tables.c
_KEY = sa.bindparam("key")
_EXTENDS = sa.and_(
    _t.id == _KEY, _t.step == sa.bindparam("expected_step"), _t.tokens == sa.bindparam("expected_tokens")
)
_EXTENDS_VERSION = sa.and_(_EXTENDS, _t.version == sa.bindparam("expected_version"))
_NEXT = {"version": _t.version + 1}  # every write of a table's row advances its version
_GET_GAME = sa.select(_g.id, _g.created, _g.rules, _g.players, _g.status, _g.events, _g.summary).where(_g.id == _KEY)
_LIST_GAMES = (
    sa.select(_g.id, _g.created, _g.rules, _g.players, _g.status, _g.summary)
    .order_by(_g.created.desc(), _g.id)
    .limit(sa.bindparam("limit", type_=sa.Integer))
    .offset(sa.bindparam("offset", type_=sa.Integer))
)
_FINISHED_TABLE = sa.select(_g.table_state).where(_g.id == _KEY)
_GET_TABLE = sa.select(
    _t.id,
    _t.created,
    _t.updated,
    _t.rules,
    _t.seed,
    _t.seats,
    _t.actions,
    _t.status,
    _t.owner,
    _t.tokens,
    _t.options,
    _t.version,
).where(_t.id == _KEY)
_STAMP = sa.select(_t.step, _t.tokens, _t.version).where(_t.id == _KEY)
# each by whether the row's version is compared too (a state that names the version it read)
# SET: updated, seats, actions, status, step, options (the parameters), version + 1
_MOVE = {v: t.tables.update().where(_EXTENDS_VERSION if v else _EXTENDS).values(_NEXT) for v in (False, True)}
# SET: updated, seats, tokens, version + 1
_RELINK = {v: t.tables.update().where(_EXTENDS_VERSION if v else _EXTENDS).values(_NEXT) for v in (False, True)}
_FINISH = {v: t.tables.delete().where(_EXTENDS_VERSION if v else _EXTENDS) for v in (False, True)}
_DROP = t.tables.delete().where(_t.id == _KEY)
_NOTIFY = sa.text("SELECT pg_notify(:channel, :text)")


@functools.cache
def _upsert(dialect: str, table: str) -> sa.Executable:
    """Insert a whole row into ``table`` or, when its id is there, replace every other column (the row is the
    statement's parameters)."""
    if dialect == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    target = t.metadata.tables[table]
    statement = insert(target)
    others: dict[str, Any] = {c.name: statement.excluded[c.name] for c in target.columns if c.name != "id"}
    if "version" in others:  # a table's row replaced whole is written once more: a writer that read it before loses
        others["version"] = target.c.version + 1
    return statement.on_conflict_do_update(index_elements=[target.c.id], set_=others)


def _at(version: int | None) -> str:
    """How a refused write names the version it expected (nothing when it named none)."""
    return "" if version is None else f" (version {version})"


def _where(table_id: str, step: int, tokens: int, version: int | None) -> dict[str, Any]:
    """The parameters naming the row a write extends: its id, step, token changes and (unless ``None``) version."""
    where: dict[str, Any] = {"key": table_id, "expected_step": step, "expected_tokens": tokens}
    if version is not None:
        where["expected_version"] = version
    return where


# the stored games of bots alone before a time: no seat of a person, no table kept (a person's game keeps one)
_BOT_GAMES = {
    "sqlite": sa.text(
        "DELETE FROM games WHERE created < :before AND table_state IS NULL AND NOT EXISTS"
        " (SELECT 1 FROM json_each(games.players) WHERE json_extract(value, '$.kind') = 'human')"
    ),
    "postgresql": sa.text(
        "DELETE FROM games WHERE created < :before AND table_state IS NULL AND NOT EXISTS"
        " (SELECT 1 FROM json_array_elements(CAST(games.players AS json)) AS seat WHERE seat ->> 'kind' = 'human')"
    ),
}


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
