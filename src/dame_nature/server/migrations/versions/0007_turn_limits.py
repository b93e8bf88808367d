"""Paced rooms: ``rooms.turn_limit`` (the room rule ``turn_limit_seconds``; NULL: a live
room), ``rooms.waiting`` (JSON ``{seat: since}``: the moment the table started waiting
for each seat it waits for) and ``rooms.turn_due`` (the earliest deadline of those seats,
so that a restarted node finds the overdue rooms with one query).

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("turn_limit", sa.Float))
    op.add_column("rooms", sa.Column("waiting", sa.Text))
    op.add_column("rooms", sa.Column("turn_due", sa.Float))
    op.create_index("rooms_turn_due", "rooms", ["turn_due"])


def downgrade() -> None:
    op.drop_index("rooms_turn_due", "rooms")
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("turn_due")
        batch.drop_column("waiting")
        batch.drop_column("turn_limit")
