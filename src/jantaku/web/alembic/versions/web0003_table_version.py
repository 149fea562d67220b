"""The web table's third Alembic revision: ``tables.version``, how many times a table's row was written, which
every write names and advances, so that two server processes on one database never lose each other's change
(a closed result panel, an auto option) even when neither moved the game (:mod:`jantaku.web.storage`).

Revision ID: web0003
Revises: web0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web0003"
down_revision = "web0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    """Add ``tables.version`` (0 for the tables already there)."""
    op.add_column("tables", sa.Column("version", sa.Integer, nullable=False, server_default=sa.text("0")))


def downgrade() -> None:
    """Drop it."""
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("version")
