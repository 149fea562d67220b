"""Bringing a database up to the recorder's schema with Alembic (the migration scripts ship in the package).

:func:`upgrade` runs every migration not yet applied; a new database gets all of them, so SQLite needs
nothing set up beforehand and PostgreSQL only an empty database.

Several processes may open a brand-new database at the same moment (a web server's workers, a command run
beside it): the migration runs under a lock and looks at the database's revision again once it holds it, so
one process creates the tables and the others find them made. On PostgreSQL the lock is a transaction-level
advisory lock (``pg_advisory_xact_lock``, released at commit); on SQLite it is the write lock that
``BEGIN IMMEDIATE`` takes (the league store begins every transaction so, see
:class:`~jantaku.league.store.LeagueStore`).
"""

from __future__ import annotations

from importlib import resources

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

__all__ = ["LOCK_KEY", "current_revision", "head_revision", "upgrade"]

LOCK_KEY = 0x4A414E54414B55  # "JANTAKU": the PostgreSQL advisory lock key of the league's migrations


def _config(connection: sa.Connection | None = None) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(resources.files("jantaku.league") / "alembic"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


def head_revision() -> str:
    """The newest migration shipped with jantaku."""
    head = ScriptDirectory.from_config(_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: sa.Engine) -> str | None:
    """The migration a database is at (``None``: none applied)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn, opts={"version_table": "league_alembic_version"}).get_current_revision()


def upgrade(engine: sa.Engine) -> None:
    """Apply every migration the database lacks, under the migration lock (see the module's text)."""
    head = head_revision()
    if current_revision(engine) == head:
        return
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})
        # under the lock: another process may have migrated the database while this one waited
        now = MigrationContext.configure(conn, opts={"version_table": "league_alembic_version"}).get_current_revision()
        if now != head:
            command.upgrade(_config(conn), "head")
