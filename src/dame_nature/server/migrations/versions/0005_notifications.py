"""Turn notifications: ``server_keys`` (the server's own keys, such as the VAPID key of
Web Push, generated once and shared by every node) and ``notifications`` (a seat's
opt-in for one room: a push subscription or an email address, deleted with its room).

Revision ID: 0005
Revises: 0004
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "server_keys",
        sa.Column("name", sa.Text, primary_key=True),
        sa.Column("value", sa.Text, nullable=False),
    )
    op.create_table(
        "notifications",
        sa.Column("id", sa.Text, primary_key=True),  # also the unsubscribe secret
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("kind", sa.Text, nullable=False),  # push, email
        sa.Column("target", sa.Text, nullable=False),  # the subscription (JSON), the address
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("last_sent", sa.Text),  # the wait last told (game:turn:phase)
    )
    op.create_index("notifications_room", "notifications", ["room", "seat"])


def downgrade() -> None:
    op.drop_index("notifications_room", "notifications")
    op.drop_table("notifications")
    op.drop_table("server_keys")
