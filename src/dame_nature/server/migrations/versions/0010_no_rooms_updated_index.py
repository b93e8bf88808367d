"""No index on ``rooms.updated_at``: every stored change of a room writes its
``updated_at``, so the index was rewritten on each action (on SQLite, one page more in
each commit's WAL frames: a fifth of an action's commit at 200 rooms; on PostgreSQL, an
indexed column changed, so no update of a room's row could be a heap-only one), while the
one query that filters on it (``idle_rooms``, a sweep every few minutes) reads every row
of ``rooms`` anyway (its ``OR`` of the three time limits).

Revision ID: 0010
Revises: 0009
"""

from __future__ import annotations

from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("rooms_updated", table_name="rooms")


def downgrade() -> None:
    op.create_index("rooms_updated", "rooms", ["updated_at"])
