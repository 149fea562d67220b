"""Events, players and games an organiser deleted: kept (with the audit rows), marked when deleted.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_TABLES = ("league_events", "league_players", "league_games")


def upgrade() -> None:
    """Add ``deleted`` (when an organiser deleted the row; ``NULL``: not deleted)."""
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column("deleted", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    """Drop ``deleted`` again."""
    for table in _TABLES:
        with op.batch_alter_table(table) as batch:
            batch.drop_column("deleted")
