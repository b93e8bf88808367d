"""Hints and reviews, stored with each game: ``games.hints`` (a JSON list, the hints
each seat took) and ``games.review`` (a JSON object, the solver's review once done).

Revision ID: 0006
Revises: 0005
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("hints", sa.Text))
    op.add_column("games", sa.Column("review", sa.Text))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("review")
        batch.drop_column("hints")
