"""The league recorder's first tables.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Create the league tables."""
    op.create_table(
        "league_events",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(200), nullable=False, unique=True),
        sa.Column("rules", sa.String(200), nullable=False),
        sa.Column("rules_toml", sa.Text, nullable=True),
        sa.Column("admin_hash", sa.String(128), nullable=True),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_teams",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.UniqueConstraint("event_id", "name", name="uq_team_name"),
    )
    op.create_table(
        "league_players",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("name", sa.String(200), nullable=False),
        sa.Column("team_id", sa.Integer, sa.ForeignKey("league_teams.id"), nullable=True),
        sa.UniqueConstraint("event_id", "name", name="uq_player_name"),
    )
    op.create_table(
        "league_rounds",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("method", sa.String(20), nullable=False),
        sa.UniqueConstraint("event_id", "number", name="uq_round_number"),
    )
    op.create_table(
        "league_games",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("round_id", sa.Integer, sa.ForeignKey("league_rounds.id"), nullable=True),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("source", sa.String(20), nullable=False),  # hands, quick, import
        sa.Column("first_dealer", sa.Integer, nullable=False),
        sa.Column("draw", sa.JSON, nullable=True),  # the seat and first-dealer draw (procedure, throws)
        sa.Column("status", sa.String(20), nullable=False),  # playing, finished
        sa.Column("state", sa.JSON, nullable=True),  # running scores, honba, deposits, hand name
        sa.Column("result", sa.JSON, nullable=True),  # the settlement once finished
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_seats",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("league_games.id", ondelete="CASCADE"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("league_players.id"), nullable=False),
    )
    op.create_table(
        "league_entries",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("league_games.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(20), nullable=False),
        sa.Column("data", sa.JSON, nullable=False),
        sa.Column("outcome", sa.JSON, nullable=True),  # what the entry did: deltas, scores after, hand name
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_entry_seq"),
    )
    op.create_table(
        "league_penalties",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("league_players.id"), nullable=False),
        sa.Column("pt", sa.Float, nullable=False),
        sa.Column("reason", sa.Text, nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "league_audit",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("event_id", sa.Integer, nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("action", sa.String(50), nullable=False),
        sa.Column("detail", sa.JSON, nullable=False),
    )


def downgrade() -> None:
    """Drop the league tables."""
    op.drop_table("league_audit")
    op.drop_table("league_penalties")
    op.drop_table("league_entries")
    op.drop_table("league_seats")
    op.drop_table("league_games")
    op.drop_table("league_rounds")
    op.drop_table("league_players")
    op.drop_table("league_teams")
    op.drop_table("league_events")
