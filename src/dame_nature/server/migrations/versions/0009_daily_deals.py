"""The daily deal: ``daily_deals``, one deal a day per player count: its seed, drawn
once and shared by every node, and the solver's verdict on it once known. How each
table did is in ``results`` (its ``deal`` column holds the daily deal's key).

Revision ID: 0009
Revises: 0008
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "daily_deals",
        sa.Column("day", sa.Text, primary_key=True),  # YYYY-MM-DD (UTC)
        sa.Column("players", sa.Integer, primary_key=True),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("verdict", sa.Text),  # JSON: the solver's verdict, once known
    )


def downgrade() -> None:
    op.drop_table("daily_deals")
