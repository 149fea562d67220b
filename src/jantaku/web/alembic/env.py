"""Alembic's environment for the web table's games database: migrations run on the connection jantaku passes in
(:func:`jantaku.web.store_migrations.upgrade`), their revision kept in ``web_alembic_version``."""

from __future__ import annotations

from alembic import context

from jantaku.web.store_migrations import VERSION_TABLE
from jantaku.web.store_schema import metadata


def run() -> None:
    """Run the migrations on the connection in the configuration's attributes."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, version_table=VERSION_TABLE)
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "_proxy", None) is not None:  # imported by Alembic, not by a module scanner
    run()
