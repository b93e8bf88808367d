"""Bot seats: ``players.bot`` (the level of the bot playing the seat, or NULL) and
``players.human`` (0 for a seat added as a bot, whose token no one holds).

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
    op.add_column("players", sa.Column("bot", sa.Text))
    op.add_column("players", sa.Column("human", sa.Integer, nullable=False, server_default="1"))


def downgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.drop_column("human")
        batch.drop_column("bot")
