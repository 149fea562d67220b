"""Players entering their own tables, and the round clock.

- ``league_players.pin_hash``: the player's personal code for the event (hashed; ``NULL``: none issued);
- ``league_entries.entered_by`` (who wrote the entry: the organiser, a player, the clock),
  ``league_entries.confirmed`` (the seats that confirmed a player's entry; ``NULL``: the organiser's, needing no
  confirmation) and ``league_entries.request_id`` (the writer's own id for the write, unique in a game: a write
  sent again after a lost answer is recognised, not stored twice);
- ``league_rounds.clock_start`` and ``league_rounds.clock_minutes``: the round's clock, once the organiser
  starts it.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add the columns (all nullable: existing rows are the organiser's, confirmed, with no clock)."""
    with op.batch_alter_table("league_players") as batch:
        batch.add_column(sa.Column("pin_hash", sa.String(128), nullable=True))
    with op.batch_alter_table("league_entries") as batch:
        batch.add_column(sa.Column("entered_by", sa.String(200), nullable=True))
        batch.add_column(sa.Column("confirmed", sa.JSON, nullable=True))
        batch.add_column(sa.Column("request_id", sa.String(64), nullable=True))
        batch.create_unique_constraint("uq_entry_request", ["game_id", "request_id"])
    with op.batch_alter_table("league_rounds") as batch:
        batch.add_column(sa.Column("clock_start", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("clock_minutes", sa.Integer, nullable=True))


def downgrade() -> None:
    """Drop them again."""
    with op.batch_alter_table("league_rounds") as batch:
        batch.drop_column("clock_minutes")
        batch.drop_column("clock_start")
    with op.batch_alter_table("league_entries") as batch:
        batch.drop_constraint("uq_entry_request", type_="unique")
        batch.drop_column("request_id")
        batch.drop_column("confirmed")
        batch.drop_column("entered_by")
    with op.batch_alter_table("league_players") as batch:
        batch.drop_column("pin_hash")
