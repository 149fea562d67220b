"""Substitutes and a prescripted schedule.

- ``league_players.substitute``: a player who plays only in someone's place (never seated by a round's draw;
  ``NULL`` or false: a player like any other);
- ``league_events.schedule``: every round's tables, made ahead for a prescripted event.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (existing players are not substitutes; no event has a schedule)."""
    with op.batch_alter_table("league_players") as batch:
        # nullable (NULL: not a substitute): SQLite then adds the column in place; a NOT NULL column would make
        # Alembic copy the table, which the foreign keys of a league with games refuse
        batch.add_column(sa.Column("substitute", sa.Boolean, nullable=True))
    with op.batch_alter_table("league_events") as batch:
        batch.add_column(sa.Column("schedule", sa.JSON, nullable=True))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("league_events") as batch:
        batch.drop_column("schedule")
    with op.batch_alter_table("league_players") as batch:
        batch.drop_column("substitute")
