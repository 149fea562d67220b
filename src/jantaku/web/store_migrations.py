"""Bringing a games database up to the web table's schema with Alembic: the scripts ship in
``jantaku/web/alembic``, and the revision a database is at is kept in its ``web_alembic_version`` table, apart
from the league recorder's (``league_alembic_version``), so that both may share one database.

:func:`upgrade` runs every migration not yet applied; a new database gets all of them, so SQLite needs nothing
set up beforehand and PostgreSQL only an empty database (or schema) the user may create tables in.

**SQLite files from before Alembic.** The store used to migrate itself with hand-written steps
(:data:`LEGACY_STEPS`), keeping its version, 0 to :data:`LEGACY_VERSION`, in a ``schema_version`` table. Such a
file is brought up in place: the steps it lacks are run, the file is stamped at the first revision (which is
the schema of the last step) and upgraded from there, all in one transaction - its games and tables are kept,
and a failure leaves the file as it was. ``schema_version`` then holds :data:`LEGACY_FENCE`, so that a jantaku
from before Alembic refuses the file ("newer than this jantaku's") instead of writing into a schema it does not
know.

Several processes may open a database at the same moment (a server's workers, several servers): the migration
runs under a lock, PostgreSQL's advisory lock (``pg_advisory_xact_lock``, released at commit) or SQLite's write
lock (``BEGIN IMMEDIATE``), and looks at the database's revision again once it holds it, so one process
migrates and the others find it done. A database at a revision this jantaku does not know (written by a newer
one) is refused with :class:`NewerSchema`, unchanged.
"""

from __future__ import annotations

import functools
from importlib import resources

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from alembic.util.exc import CommandError

from .gamestore import StoreError
from .store_engine import shown, transaction

__all__ = [
    "BASE_REVISION",
    "LEGACY_FENCE",
    "LEGACY_STEPS",
    "LEGACY_VERSION",
    "LOCK_KEY",
    "VERSION_TABLE",
    "NewerSchema",
    "current_revision",
    "head_revision",
    "upgrade",
]

VERSION_TABLE = "web_alembic_version"
"""Where a database keeps the web table's Alembic revision."""

LOCK_KEY = 0x4A544B574542  # "JTKWEB": the PostgreSQL advisory lock key of these migrations (the league's differs)

BASE_REVISION = "web0001"
"""The first revision: the schema :data:`LEGACY_STEPS` end with."""

# The hand-written migrations of the store before Alembic, exactly as they were: each moves the schema from
# version i to i + 1. Only SQLite files have them (the store knew no other database then).
LEGACY_STEPS: tuple[str, ...] = (
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
LEGACY_VERSION = len(LEGACY_STEPS)
"""The last version of the hand-written schema (that of :data:`BASE_REVISION`)."""

LEGACY_FENCE = 1000
"""What ``schema_version`` holds in a SQLite file under Alembic: more than any hand-written version, so a jantaku
from before refuses the file."""


class NewerSchema(StoreError):
    """The database was written by a newer jantaku (a revision this one does not know): it is left unchanged."""


def _config(connection: sa.Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("jantaku.web") / "alembic"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@functools.cache
def _scripts() -> ScriptDirectory:
    return ScriptDirectory.from_config(_config())


def head_revision() -> str:
    """The newest migration shipped with jantaku.

    >>> head_revision().startswith("web")
    True
    """
    head = _scripts().get_current_head()
    assert head is not None
    return head


def _revision(conn: sa.Connection) -> str | None:
    return MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE}).get_current_revision()


def current_revision(engine: sa.Engine) -> str | None:
    """The migration a database is at (``None``: none applied, a new database or one from before Alembic)."""
    with transaction(engine) as conn:
        return _revision(conn)


def legacy_version(conn: sa.Connection) -> int | None:
    """The hand-written schema version of a SQLite file (its ``schema_version`` table), or ``None``."""
    if conn.dialect.name != "sqlite" or not sa.inspect(conn).has_table("schema_version"):
        return None
    row = conn.exec_driver_sql("SELECT version FROM schema_version").first()
    return int(row[0]) if row else 0


def upgrade(engine: sa.Engine) -> None:
    """Apply every migration the database lacks, under the migration lock (see the module's text); a SQLite
    file from before Alembic is brought up first. Raises :class:`NewerSchema` for a database written by a newer
    jantaku and SQLAlchemy's errors for one that cannot be opened or migrated (the
    migration is one transaction: the database is then unchanged)."""
    head = head_revision()
    if current_revision(engine) == head:
        return
    with transaction(engine, write=True) as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        # under the lock: another process may have migrated the database while this one waited
        now = _revision(conn)
        if now == head:
            return
        legacy = legacy_version(conn)
        if now is None and legacy is not None:
            if legacy > LEGACY_VERSION:
                raise _newer(engine, f"hand-written schema version {legacy}", f"{LEGACY_VERSION}")
            _adopt(conn, legacy)
        elif now is not None:
            try:
                _scripts().get_revision(now)
            except CommandError:
                raise _newer(engine, f"schema revision {now}", head) from None
        command.upgrade(_config(conn), "head")
        if conn.dialect.name == "sqlite":
            _fence(conn)


def _adopt(conn: sa.Connection, version: int) -> None:
    """Bring a SQLite file at hand-written ``version`` to the last one and stamp it at :data:`BASE_REVISION`."""
    for step in LEGACY_STEPS[version:]:
        for statement in step.split(";"):
            if statement.strip():
                conn.exec_driver_sql(statement)
    command.stamp(_config(conn), BASE_REVISION)


def _fence(conn: sa.Connection) -> None:
    conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)")
    conn.exec_driver_sql("DELETE FROM schema_version")
    conn.exec_driver_sql(f"INSERT INTO schema_version (version) VALUES ({LEGACY_FENCE})")


def _newer(engine: sa.Engine, found: str, known: str) -> NewerSchema:
    reason = f"written by a newer jantaku ({found}; this one knows up to {known}): upgrade jantaku to use it"
    return NewerSchema(f"the games database {shown(engine.url)} was {reason}; it is unchanged", reason)
