"""Game results and the admin log.

``results``: one row per finished game, written in the transaction that stores the
game's end: its player count, rules, outcome, cards placed, discards, turns, the seats
bots played, the hints taken, its day (UTC) and the key of a shared deal (the daily
deal's), nothing personal (no name, no token, no address). Kept when the room is
deleted: the public statistics read it.

``admin_log``: every action taken with the admin token (who, what, on what, when).

Revision ID: 0008
Revises: 0007
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "results",
        sa.Column("room", sa.Text, nullable=False),
        sa.Column("game_no", sa.Integer, nullable=False),
        sa.Column("finished_at", sa.Float, nullable=False),
        sa.Column("day", sa.Text, nullable=False),  # YYYY-MM-DD, UTC
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("rules", sa.Text, nullable=False),  # JSON list of advanced rules, sorted
        sa.Column("won", sa.Integer, nullable=False),
        sa.Column("cards_placed", sa.Integer, nullable=False),
        sa.Column("discards", sa.Integer, nullable=False),
        sa.Column("turns", sa.Integer, nullable=False),
        sa.Column("people", sa.Integer, nullable=False),  # seats of persons
        sa.Column("bots", sa.Integer, nullable=False),  # seats added as bots
        sa.Column("stand_in_moves", sa.Integer, nullable=False),  # bot moves for absent persons
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("deal", sa.Text),  # a shared deal's key (the daily deal), else NULL
        sa.PrimaryKeyConstraint("room", "game_no"),
    )
    op.create_index("results_day", "results", ["day"])
    op.create_index("results_deal", "results", ["deal"])
    op.create_table(
        "admin_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("at", sa.Float, nullable=False),
        sa.Column("who", sa.Text, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
        sa.Column("target", sa.Text),
        sa.Column("detail", sa.Text),  # JSON object
    )


def downgrade() -> None:
    op.drop_table("admin_log")
    op.drop_index("results_deal", "results")
    op.drop_index("results_day", "results")
    op.drop_table("results")
