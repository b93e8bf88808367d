"""Each game records the engine and rules-data versions it was played with (and a digest
of its final state); replays that today's engine plays differently are reported; the
seats connected to each node (presence) and the nodes alive, for several server nodes
sharing one database.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # NULL in a game stored before this revision: the versions were not recorded then
    op.add_column("games", sa.Column("engine_version", sa.Text))
    op.add_column("games", sa.Column("rules_version", sa.Text))
    op.add_column("games", sa.Column("digest", sa.Text))
    # the room version each action made (a node catching up pushes every one in turn)
    op.add_column("actions", sa.Column("version", sa.Integer))
    op.create_table(
        "presence",
        sa.Column("room", sa.Text, sa.ForeignKey("rooms.code", ondelete="CASCADE"), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("node", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("room", "seat", "node"),
    )
    op.create_index("presence_node", "presence", ["node"])
    op.create_table(
        "nodes",
        sa.Column("node", sa.Text, primary_key=True),
        sa.Column("seen_at", sa.Float, nullable=False),
    )
    op.create_table(
        "replay_reports",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("room", sa.Text, nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("engine_version", sa.Text),
        sa.Column("rules_version", sa.Text),
        sa.Column("problem", sa.Text, nullable=False),
        sa.Column("found_at", sa.Float, nullable=False),
        sa.UniqueConstraint("room", "game_no", "problem"),
    )


def downgrade() -> None:
    op.drop_table("replay_reports")
    op.drop_table("nodes")
    op.drop_index("presence_node", "presence")
    op.drop_table("presence")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("version")
    with op.batch_alter_table("games") as batch:
        batch.drop_column("digest")
        batch.drop_column("rules_version")
        batch.drop_column("engine_version")
