"""Alembic's environment for the league recorder: migrations run on the connection jantaku passes in
(:func:`jantaku.league.migrations.upgrade`)."""

from __future__ import annotations

from alembic import context

from jantaku.league.schema import metadata


def run() -> None:
    """Run the migrations on the connection in the configuration's attributes."""
    connection = context.config.attributes["connection"]
    context.configure(connection=connection, target_metadata=metadata, version_table="league_alembic_version")
    with context.begin_transaction():
        context.run_migrations()


if getattr(context, "_proxy", None) is not None:  # imported by Alembic, not by a module scanner
    run()
