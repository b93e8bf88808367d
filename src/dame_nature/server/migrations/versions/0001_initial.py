"""The first schema: rooms, players, games, actions (the store before migrations existed).

A database made by that store has these tables and no ``alembic_version``: ``migrate``
stamps it at this revision, then upgrades it like any other.

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
    op.create_table(
        "rooms",
        sa.Column("code", sa.Text, primary_key=True),
        sa.Column("host_token", sa.Text, nullable=False),
        sa.Column("spec", sa.Text, nullable=False),
        sa.Column("status", sa.Text, nullable=False, server_default="lobby"),
        sa.Column("game_no", sa.Integer, nullable=False, server_default="0"),
        sa.Column("campaign", sa.Text),
        sa.Column("version", sa.Integer, nullable=False, server_default="0"),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("rooms_updated", "rooms", ["updated_at"])
    op.create_table(
        "players",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("token", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("room", "seat"),
    )
    op.create_table(
        "games",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("setup", sa.Text, nullable=False),
        sa.Column("result", sa.Text),
        sa.PrimaryKeyConstraint("room", "game_no"),
    )
    op.create_table(
        "actions",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("idx", sa.Integer, nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        # action k of a game is appended once: two nodes racing on a room cannot fork it
        sa.PrimaryKeyConstraint("room", "game_no", "idx"),
    )


def downgrade() -> None:
    for table in ("actions", "games", "players", "rooms"):
        op.drop_table(table)
