"""On SQLite, ``actions`` is a ``WITHOUT ROWID`` table: its rows are stored in the
b-tree of its primary key ``(room, game_no, idx)`` itself, instead of in a rowid table
beside an index of that key. Appending an action then changes one b-tree page instead of
two, so each action's commit writes one WAL frame less (of three: the room's row, the
action). The rows, their order and every query are the same; PostgreSQL (whose tables
have no rowid) is unchanged.

Revision ID: 0011
Revises: 0010
"""

from __future__ import annotations

from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

COLUMNS = "room, game_no, idx, seat, action, version, stand_in"


def _rebuild(without_rowid: bool) -> None:
    """``actions`` made again, with or without its rowid, holding the same rows."""
    op.execute(
        "CREATE TABLE actions_rebuilt ("
        " room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,"
        " game_no INTEGER NOT NULL,"
        " idx INTEGER NOT NULL,"
        " seat INTEGER NOT NULL,"
        " action TEXT NOT NULL,"
        " version INTEGER,"
        " stand_in TEXT,"
        " PRIMARY KEY (room, game_no, idx))" + (" WITHOUT ROWID" if without_rowid else "")
    )
    op.execute(f"INSERT INTO actions_rebuilt ({COLUMNS}) SELECT {COLUMNS} FROM actions")
    op.execute("DROP TABLE actions")
    op.execute("ALTER TABLE actions_rebuilt RENAME TO actions")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild(without_rowid=True)


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _rebuild(without_rowid=False)
