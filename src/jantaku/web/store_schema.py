"""The web table's tables (SQLAlchemy Core), the same on SQLite and PostgreSQL: ``games`` (finished games) and
``tables`` (games in play), as :mod:`jantaku.web.gamestore` describes them, and ``leases`` (which server process
drives a table's timed steps, :mod:`jantaku.web.leases`). Lists, objects and logs are JSON
text, written as the store has always written them. A game's or a table's id and a game's time are compared
byte by byte on both databases (PostgreSQL's ``"C"`` collation), so lists come out in the same order.

The migrations (``jantaku/web/alembic/versions``) make these tables; this module is what the store's queries
name. None of these names collides with the league recorder's tables (``league_*``), so both may share one database.
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = ["KEY", "games", "leases", "metadata", "tables"]

metadata = sa.MetaData()

KEY = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")
"""Text compared byte by byte: ids and ISO 8601 times."""

games = sa.Table(
    "games",
    metadata,
    sa.Column("id", KEY, primary_key=True),
    sa.Column("created", KEY, nullable=False),  # ISO 8601 UTC text
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("players", sa.Text, nullable=False),  # JSON: {"name", "kind", "bot"} by seat
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("events", sa.Text, nullable=False),  # JSON: the complete mjai log
    sa.Column("summary", sa.Text, nullable=False),  # JSON: final scores, ranks, rank points
    sa.Column("table_state", sa.Text, nullable=True),  # JSON: the table it was played at (a person's game)
    sa.Index("games_created", "created"),
)

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", KEY, primary_key=True),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("updated", sa.Text, nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("seats", sa.Text, nullable=False),  # JSON: each seat's kind, name, token, invitation
    sa.Column("actions", sa.Text, nullable=False),  # JSON: every action applied
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("step", sa.Integer, nullable=False, server_default=sa.text("0")),  # how many actions (compared)
    sa.Column("owner", sa.Text, nullable=True),
    sa.Column("tokens", sa.Integer, nullable=False, server_default=sa.text("0")),  # seat token changes: compared too
    sa.Column("options", sa.Text, nullable=False, server_default="{}"),  # JSON: pace, timers, auto options
    sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")),  # writes of the row: compared
)

leases = sa.Table(
    "leases",
    metadata,
    sa.Column("table_id", KEY, primary_key=True),
    sa.Column("holder", sa.Text, nullable=False),  # the holding process's id (:attr:`SqlStore.node`)
    sa.Column("expires", sa.Float, nullable=False),  # seconds since 1970 on the database's clock
    sa.Column("watched", sa.Float, nullable=False, server_default=sa.text("0")),  # someone watches it until then
)
"""Which server process drives each table's timed steps, until when (see :mod:`jantaku.web.leases`)."""
