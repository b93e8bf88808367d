"""The daily deal: ``daily_deals`` (one deal a day per player count: its seed, drawn
once and shared by every node, and the solver's verdict on it once known) and
``daily_tables`` (each room created with a daily deal, and how its game of that deal
ended). A table's row outlives its room, so that later tables still see how it did.

Revision ID: 0009
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0006"
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
    op.create_table(
        "daily_tables",
        sa.Column("room", sa.Text, primary_key=True),
        sa.Column("day", sa.Text, nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("finished_at", sa.Float),
        sa.Column("won", sa.Integer),  # 1 won, 0 lost, null: not finished
        sa.Column("result", sa.Text),  # JSON: how the table's game of the deal ended
    )
    op.create_index("daily_tables_deal", "daily_tables", ["day", "players"])


def downgrade() -> None:
    op.drop_index("daily_tables_deal", "daily_tables")
    op.drop_table("daily_tables")
    op.drop_table("daily_deals")
