"""Bringing a database up to the recorder's schema with Alembic (the migration scripts ship in the package).

:func:`upgrade` runs every migration not yet applied; a new database gets all of them, so SQLite needs
nothing set up beforehand and PostgreSQL only an empty database.
"""

from __future__ import annotations

from importlib import resources

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

__all__ = ["current_revision", "head_revision", "upgrade"]


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
    """Apply every migration the database lacks."""
    if current_revision(engine) == head_revision():
        return
    with engine.begin() as conn:
        command.upgrade(_config(conn), "head")
