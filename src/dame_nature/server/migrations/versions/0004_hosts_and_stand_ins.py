"""The host's seat and stand-in moves: ``players.host`` (1 on the seat that holds the
host role), ``rooms.host_passed`` (1 once the role passed from its first holder: the host
token then no longer acts as host) and ``actions.stand_in`` (the bot that played the
action for an absent person, as JSON ``{"level", "turn"}``; NULL for the seat's own).

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
    op.add_column("players", sa.Column("host", sa.Integer, nullable=False, server_default="0"))
    op.add_column("rooms", sa.Column("host_passed", sa.Integer, nullable=False, server_default="0"))
    op.add_column("actions", sa.Column("stand_in", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("stand_in")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("host_passed")
    with op.batch_alter_table("players") as batch:
        batch.drop_column("host")
