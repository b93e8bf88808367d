"""``action_writes``: a view to insert the usual action through, in one statement. An
insert of a row (the action's columns, the time ``now`` of the room's change and the
version ``expected`` it moves from) runs its ``INSTEAD OF`` trigger: the room's
compare-and-set (its version from ``expected`` to the action's, its ``updated_at`` to
``now``), then the insert of the action into ``actions``. A room no longer at
``expected`` is refused: on SQLite the statement fails with ``STALE_VERSION`` and writes
nothing; on PostgreSQL the row is skipped (no row inserted). Reading the view gives no
rows. SQLite's store writes an action so in one statement, its own transaction, instead
of four (``BEGIN IMMEDIATE``, the compare-and-set, the insert, ``COMMIT``).

Revision ID: 0012
Revises: 0011
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

#: the message of the SQLite trigger's refusal (``store/sqlite.py`` turns it into
#: ``Conflict``)
STALE_VERSION = "action_writes: the room is no longer at the expected version"

VIEW = (
    "CREATE VIEW action_writes AS"
    " SELECT room, game_no, idx, seat, action, version, stand_in,"
    " CAST(NULL AS DOUBLE PRECISION) AS now, CAST(NULL AS INTEGER) AS expected"
    " FROM actions WHERE 1 = 0"
)
COMPARE_AND_SET = (
    "UPDATE rooms SET version = NEW.version, updated_at = NEW.now"
    " WHERE code = NEW.room AND version = NEW.expected;"
)
INSERT = (
    "INSERT INTO actions (room, game_no, idx, seat, action, version, stand_in)"
    " VALUES (NEW.room, NEW.game_no, NEW.idx, NEW.seat, NEW.action, NEW.version,"
    " NEW.stand_in);"
)


def upgrade() -> None:
    op.execute(VIEW)
    if op.get_bind().dialect.name == "sqlite":
        op.execute(
            "CREATE TRIGGER action_writes_insert INSTEAD OF INSERT ON action_writes BEGIN "
            + COMPARE_AND_SET
            + f" SELECT RAISE(ABORT, '{STALE_VERSION}') WHERE changes() = 0; "
            + INSERT
            + " END"
        )
    else:
        op.execute(
            "CREATE FUNCTION action_writes_insert() RETURNS trigger LANGUAGE plpgsql AS $$"
            " BEGIN "
            + COMPARE_AND_SET
            + " IF NOT FOUND THEN RETURN NULL; END IF; "
            + INSERT
            + " RETURN NEW; END $$"
        )
        op.execute(
            "CREATE TRIGGER action_writes_insert INSTEAD OF INSERT ON action_writes"
            " FOR EACH ROW EXECUTE FUNCTION action_writes_insert()"
        )


def downgrade() -> None:
    op.execute("DROP VIEW action_writes")  # its trigger with it
    if op.get_bind().dialect.name != "sqlite":
        op.execute("DROP FUNCTION action_writes_insert()")
