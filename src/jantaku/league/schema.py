"""The league recorder's tables (SQLAlchemy Core), the same on SQLite and PostgreSQL.

An event (a league season or a tournament) has a rule set, players, optional teams, rounds and games. A game
seats four players and holds its entries in order (``seq``, unique per game: a hand, a chombo, a card, a
penalty, or a quick entry of final scores); ``version`` grows with every change, so two organisers entering at
once cannot both write the same entry. Every change is kept in ``audit``. An event, a player or a game an
organiser deleted keeps its row, with ``deleted`` set (and an event's or a player's name freed).
"""

from __future__ import annotations

import sqlalchemy as sa

__all__ = [
    "audit",
    "entries",
    "events",
    "games",
    "metadata",
    "penalties",
    "players",
    "rounds",
    "seats",
    "series",
    "teams",
]

metadata = sa.MetaData()

events = sa.Table(
    "league_events",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("rules", sa.String(200), nullable=False),
    sa.Column("rules_toml", sa.Text, nullable=True),
    sa.Column("admin_hash", sa.String(128), nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deleted", sa.DateTime(timezone=True), nullable=True),  # soft delete (migration 0002)
    sa.Column("schedule", sa.JSON, nullable=True),  # a prescripted event's rounds, made ahead (migration 0004)
)

teams = sa.Table(
    "league_teams",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.UniqueConstraint("event_id", "name", name="uq_team_name"),
)

players = sa.Table(
    "league_players",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("team_id", sa.Integer, sa.ForeignKey("league_teams.id"), nullable=True),
    sa.Column("deleted", sa.DateTime(timezone=True), nullable=True),
    sa.Column("pin_hash", sa.String(128), nullable=True),  # the player's code for the event (migration 0003)
    # plays only in someone's place: never seated by a draw (migration 0004)
    sa.Column("substitute", sa.Boolean, nullable=True),
    sa.UniqueConstraint("event_id", "name", name="uq_player_name"),
)

rounds = sa.Table(
    "league_rounds",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
    sa.Column("number", sa.Integer, nullable=False),
    sa.Column("method", sa.String(20), nullable=False),
    sa.Column("clock_start", sa.DateTime(timezone=True), nullable=True),  # the round's clock (migration 0003)
    sa.Column("clock_minutes", sa.Integer, nullable=True),
    sa.UniqueConstraint("event_id", "number", name="uq_round_number"),
)

games = sa.Table(
    "league_games",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
    sa.Column("round_id", sa.Integer, sa.ForeignKey("league_rounds.id"), nullable=True),
    sa.Column("table_no", sa.Integer, nullable=False, default=1),
    sa.Column("source", sa.String(20), nullable=False),  # hands, quick, import
    sa.Column("first_dealer", sa.Integer, nullable=False),
    sa.Column("draw", sa.JSON, nullable=True),  # the seat and first-dealer draw (procedure, throws)
    sa.Column("status", sa.String(20), nullable=False),  # playing, finished
    sa.Column("state", sa.JSON, nullable=True),  # running scores, honba, deposits, hand name
    sa.Column("result", sa.JSON, nullable=True),  # the settlement once finished
    sa.Column("version", sa.Integer, nullable=False, default=0),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    sa.Column("deleted", sa.DateTime(timezone=True), nullable=True),
)

seats = sa.Table(
    "league_seats",
    metadata,
    sa.Column("game_id", sa.Integer, sa.ForeignKey("league_games.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("league_players.id"), nullable=False),
)

entries = sa.Table(
    "league_entries",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("game_id", sa.Integer, sa.ForeignKey("league_games.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seq", sa.Integer, nullable=False),
    sa.Column("kind", sa.String(20), nullable=False),
    sa.Column("data", sa.JSON, nullable=False),
    sa.Column("outcome", sa.JSON, nullable=True),  # what the entry did: deltas, scores after, hand name
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    # who wrote it, the seats that confirmed a player's entry (None: the organiser's), the writer's request id
    # (migration 0003)
    sa.Column("entered_by", sa.String(200), nullable=True),
    sa.Column("confirmed", sa.JSON, nullable=True),
    sa.Column("request_id", sa.String(64), nullable=True),
    sa.UniqueConstraint("game_id", "seq", name="uq_entry_seq"),
    sa.UniqueConstraint("game_id", "request_id", name="uq_entry_request"),
)

penalties = sa.Table(
    "league_penalties",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, sa.ForeignKey("league_events.id", ondelete="CASCADE"), nullable=False),
    sa.Column("player_id", sa.Integer, sa.ForeignKey("league_players.id"), nullable=False),
    sa.Column("pt", sa.Float, nullable=False),
    sa.Column("reason", sa.Text, nullable=False),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

series = sa.Table(
    "league_series",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(200), nullable=False, unique=True),
    sa.Column("events", sa.JSON, nullable=False),  # the events' ids, in the order given (migration 0005)
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)

audit = sa.Table(
    "league_audit",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("event_id", sa.Integer, nullable=True),
    sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("actor", sa.String(200), nullable=False),
    sa.Column("action", sa.String(50), nullable=False),
    sa.Column("detail", sa.JSON, nullable=False),
)
