"""The web table's second Alembic revision: ``leases``, which server process drives each table's timed steps
when several share one database (:mod:`jantaku.web.leases`).

Revision ID: web0002
Revises: web0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "web0002"
down_revision = "web0001"
branch_labels = None
depends_on = None

_KEY = sa.Text().with_variant(sa.Text(collation="C"), "postgresql")


def upgrade() -> None:
    """Create ``leases``: a table's id, the process holding it, when the hold ends and until when
    someone watches the table through any process (both in seconds on the database's clock)."""
    op.create_table(
        "leases",
        sa.Column("table_id", _KEY, primary_key=True),
        sa.Column("holder", sa.Text, nullable=False),
        sa.Column("expires", sa.Float, nullable=False),
        sa.Column("watched", sa.Float, nullable=False, server_default=sa.text("0")),
    )


def downgrade() -> None:
    """Drop it."""
    op.drop_table("leases")
