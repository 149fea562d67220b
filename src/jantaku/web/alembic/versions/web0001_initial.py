"""The web table's first Alembic revision: the games database as the hand-written migrations left it at their
version 5 (a SQLite file at that version is stamped at this revision without a change).

Revision ID: web0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web0001"
down_revision = None
branch_labels = None
depends_on = None

_KEY = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    """Create ``games`` and ``tables``."""
    op.create_table(
        "games",
        sa.Column("id", _KEY, primary_key=True),
        sa.Column("created", _KEY, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("players", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("events", sa.Text, nullable=False),
        sa.Column("summary", sa.Text, nullable=False),
        sa.Column("table_state", sa.Text, nullable=True),
    )
    op.create_index("games_created", "games", ["created"])
    op.create_table(
        "tables",
        sa.Column("id", _KEY, primary_key=True),
        sa.Column("created", sa.Text, nullable=False),
        sa.Column("updated", sa.Text, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),
        sa.Column("seed", sa.Text, nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("actions", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("step", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("owner", sa.Text, nullable=True),
        sa.Column("tokens", sa.Integer, nullable=False, server_default=sa.text("0")),
        sa.Column("options", sa.Text, nullable=False, server_default="{}"),
    )


def downgrade() -> None:
    """Drop them."""
    op.drop_table("tables")
    op.drop_index("games_created", table_name="games")
    op.drop_table("games")
