"""The store's statements, written once with named parameters, run the same on SQLite
and PostgreSQL (``store/sql.py``): a ``?`` or a ``%`` in the text is SQL, never taken
for a placeholder, and a parameter used twice is bound twice."""

from __future__ import annotations

import pytest

from dame_nature.server.store import Conflict, open_store
from dame_nature.server.store.sql import DIALECTS, compiled


def test_question_marks_and_percents_in_literals_stay_sql(store_url: str):
    store = open_store(store_url)
    try:
        store.create_room("abc", "tok", {"modes": [], "note": "100% sure?"}, now=1.0)
        rows = store._query(
            "SELECT code, '50%?' AS literal, :seat + :seat AS twice FROM rooms"
            " WHERE code = :code AND spec LIKE '%sure?%'",
            {"code": "abc", "seat": 2},
        )
        assert rows == [{"code": "abc", "literal": "50%?", "twice": 4}]
        assert store.room_versions(["abc", "gone"]) == {"abc": 0}
    finally:
        store.close()


def test_every_dialect_binds_what_its_compiled_statement_names():
    sql = "UPDATE rooms SET version = :version, updated_at = :now WHERE code = :code"
    params = {"code": "abc", "version": 3, "now": 2.0}
    text, bind = compiled(sql, "sqlite")
    assert (text.count("?"), bind(params)) == (3, (3, 2.0, "abc"))
    text, bind = compiled(sql, "postgresql")
    assert "%(version)s" in text and bind(params) == params
    assert set(DIALECTS) == {"sqlite", "postgresql"}


def test_an_action_from_a_stale_version_or_taken_index_changes_nothing(store_url: str):
    store = open_store(store_url)
    try:
        store.create_room("abc", "tok", {"modes": []}, now=1.0)
        store.add_player("abc", 0, "Ada", "t0", version=1, now=1.0)
        store.start_game("abc", 1, {"seed": 1}, campaign=None, version=2, now=1.0)
        move = {"type": "program", "card": "c12"}
        store.add_action("abc", 1, 0, 0, move, result=None, campaign=None, version=3, now=2.0)
        with pytest.raises(Conflict):  # version 3 is taken: the room is no longer at 2
            store.add_action("abc", 1, 1, 0, move, result=None, campaign=None, version=3, now=3.0)
        with pytest.raises(Conflict):  # action 0 is stored already
            store.add_action("abc", 1, 0, 0, move, result=None, campaign=None, version=4, now=3.0)
        room = store.load_room("abc")
        assert room is not None
        assert (room["version"], room["updated_at"], room["actions"]) == (
            3, 2.0, [{"seat": 0, "action": move}]
        )  # fmt: skip
        store.add_action("abc", 1, 1, 0, move, result=None, campaign=None, version=4, now=4.0)
        assert store.room_versions(["abc"]) == {"abc": 4}
    finally:
        store.close()


def test_sqlite_append_action_binds_in_the_compiled_statements_order():
    from dame_nature.server.store import sqlite

    names = {name: name for name in sqlite._WRITE_ORDER}
    assert compiled(sqlite.WRITE_ACTION, "sqlite")[1](names) == sqlite._WRITE_ORDER


def test_sqlite_append_action_writes_what_the_base_class_writes(tmp_path):
    """``Store.append_action`` (the values in order, at once) against the base class's
    (the row's dict through ``_change``): the same rows, the same ``Conflict``s."""
    from dame_nature.server.store import BaseStore

    def played(store, append):
        store.create_room("abc", "tok", {"modes": []}, now=1.0)
        store.add_player("abc", 0, "Ada", "t0", version=1, now=1.0)
        store.add_player("abc", 1, "Bo", "t1", version=2, now=1.0)
        store.start_game("abc", 1, {"seed": 1}, campaign=None, version=3, now=1.0)
        moves = [{"type": "program", "card": "c12"}, {"type": "give", "card": "é", "to": 1}]
        append(store, "abc", 1, 0, 0, moves[0], None, 2.0, 4, 3)
        append(store, "abc", 1, 1, 1, moves[1], {"level": "easy", "turn": 1}, 3.0, 5, 4)
        refusals = []
        for stale in ((2, 0, 6, 4), (1, 0, 6, 5)):  # a stale version; a taken index
            idx, seat, version, expected = stale
            with pytest.raises(Conflict) as refused:
                append(store, "abc", 1, idx, seat, moves[0], None, 4.0, version, expected)
            refusals.append(str(refused.value))
        return (
            refusals,
            store._query("SELECT * FROM actions ORDER BY idx"),
            store._query("SELECT version, updated_at FROM rooms"),
        )

    written = []
    for append in (type(open_store(":memory:")).append_action, BaseStore.append_action):
        store = open_store(str(tmp_path / f"{len(written)}.sqlite3"))
        try:
            written.append(played(store, append))
        finally:
            store.close()
    assert written[0] == written[1]
    assert written[0][0] == [
        "room abc is no longer at version 4",
        "UNIQUE constraint failed: actions.room, actions.game_no, actions.idx",
    ]
    assert [row["stand_in"] for row in written[0][1]] == [None, '{"level":"easy","turn":1}']


def test_action_writes_moves_the_room_and_inserts_the_action_or_writes_nothing(store_url: str):
    """The view ``action_writes`` (migration 0012) on both databases: an insert moves the
    room from ``expected`` and stores the action; from a stale ``expected``, nothing
    (SQLite refuses the statement, PostgreSQL skips the row)."""
    import sqlite3

    from dame_nature.server.migrate import is_postgres
    from dame_nature.server.store.sqlite import _STALE_VERSION, WRITE_ACTION

    store = open_store(store_url)
    try:
        store.create_room("abc", "tok", {"modes": []}, now=1.0)
        store.add_player("abc", 0, "Ada", "t0", version=1, now=1.0)
        store.start_game("abc", 1, {"seed": 1}, campaign=None, version=2, now=1.0)
        row = {
            "room": "abc", "game_no": 1, "idx": 0, "seat": 0, "action": '{"type":"pass"}',
            "version": 3, "stand_in": '{"level":"easy","turn":1}', "now": 2.5, "expected": 2,
        }  # fmt: skip
        store._write([(WRITE_ACTION, row)])
        stale = {**row, "idx": 1, "version": 4, "now": 3.5}  # the room is at 3, not 2
        if is_postgres(store_url):
            store._write([(WRITE_ACTION, stale)])
        else:
            with pytest.raises(sqlite3.IntegrityError) as refused:
                store._write([(WRITE_ACTION, stale)])
            assert refused.value.args == (_STALE_VERSION,)
        assert store._query("SELECT * FROM action_writes") == []
        assert store._query("SELECT version, updated_at FROM rooms") == [
            {"version": 3, "updated_at": 2.5}
        ]
        assert store._query("SELECT * FROM actions") == [
            {
                key: row[key]
                for key in ("room", "game_no", "idx", "seat", "action", "version", "stand_in")
            }
        ]
    finally:
        store.close()


def test_a_new_sqlite_file_takes_the_stores_page_size_and_an_old_one_keeps_its_own(tmp_path):
    """``PAGE_SIZE`` for a file the store makes; a file made with another page size (the
    default 4,096) keeps it, and takes the same writes."""
    import sqlite3

    from dame_nature.server.store import sqlite as sqlite_store

    old = tmp_path / "old.sqlite3"
    made = sqlite3.connect(old)
    made.execute("PRAGMA page_size=4096")
    made.execute("PRAGMA journal_mode=WAL")
    made.close()
    sizes = []
    for path in (tmp_path / "new.sqlite3", old):
        store = open_store(str(path))
        try:
            store.create_room("abc", "tok", {"modes": []}, now=1.0)
            store.add_player("abc", 0, "Ada", "t0", version=1, now=1.0)
            store.start_game("abc", 1, {"seed": 1}, campaign=None, version=2, now=1.0)
            store.append_action("abc", 1, 0, 0, {"type": "program"}, None, 2.0, 3, 2)
            sizes.append(store._query("PRAGMA page_size")[0]["page_size"])
            assert store.load_room("abc")["version"] == 3
        finally:
            store.close()
    assert sizes == [sqlite_store.PAGE_SIZE, 4096]
