"""``Store``: SQLite (stdlib ``sqlite3``, WAL), the embedded default of one server
process."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any, NoReturn, TypeVar

from ..migrate import migrate_sqlite
from .base import INSERT_ACTION, BaseStore
from .sql import TOUCH, Conflict, Tx, compiled

T = TypeVar("T")

#: the WAL file is cut back to this size each time it starts again (bytes)
WAL_SIZE_LIMIT = 16 * 1024 * 1024
#: the database file's ``application_id`` ("DNOL"), written by the health probe
APPLICATION_ID = 0x444E4F4C


def _dict_row(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Any]:
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


def _duplicate_key(err: BaseException) -> bool:
    """Whether ``err`` is a row whose key is taken (another writer's, for ``Conflict``)."""
    return isinstance(err, sqlite3.IntegrityError) and (
        "UNIQUE" in str(err) or "PRIMARY KEY" in str(err)
    )


class Store(BaseStore):
    """SQLite (stdlib ``sqlite3``, WAL), the embedded default: one connection shared by
    the one server process; a commit takes a fraction of a millisecond, so writes run
    inline on the event loop.

    A commit in WAL mode with ``synchronous=NORMAL`` appends to the WAL without an fsync
    (it survives a killed process, not a power cut); only checkpoints fsync, on a thread
    and connection of their own, so a commit never waits for the disk."""

    inline = True

    def __init__(self, path: str, checkpoint_seconds: float = 1.0) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if path != ":memory:":
            self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.row_factory = _dict_row  # rows as dicts, as psycopg's dict_row
        # every transaction's statements run on this one cursor (one at a time)
        self._cursor = self._conn.cursor()
        self._checked_at = -1e9  # the last write probe of ``ping`` and what it found
        self._check_error: Exception | None = None
        if path != ":memory:":
            # once a checkpoint has copied the whole WAL back, the next commit starts it
            # again and cuts the file down to this size (a long write flood leaves no
            # huge WAL behind)
            self._conn.execute(f"PRAGMA journal_size_limit={WAL_SIZE_LIMIT}")
            self._conn.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoints,
                args=(checkpoint_seconds,),
                name="dame-nature-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def upgrade(self) -> tuple[str | None, str]:
        """Bring the schema to ``HEAD`` on this store's own connection (so that
        ``:memory:`` works too): ``open_store`` does it at start-up."""
        with self._lock:
            self._conn.row_factory = None
            try:
                return migrate_sqlite(self._conn)
            finally:
                self._conn.row_factory = _dict_row

    def _checkpoints(self, every: float) -> None:
        conn = sqlite3.connect(self.path, isolation_level=None)
        try:
            while not self._stop.wait(every):
                with contextlib.suppress(sqlite3.Error):
                    conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            with contextlib.suppress(sqlite3.Error):
                conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()

    def ping(self) -> None:
        """Raises when the database cannot be written: a write of the file's header
        (its ``application_id``), committed, at most once a second (``/healthz``)."""
        now = time.monotonic()
        if now - self._checked_at >= 1.0:
            self._checked_at = now
            try:
                with self._lock:
                    self._conn.execute("BEGIN IMMEDIATE")
                    try:
                        self._conn.execute(f"PRAGMA application_id={APPLICATION_ID}")
                        self._conn.execute("COMMIT")
                    except BaseException:
                        with contextlib.suppress(sqlite3.Error):
                            self._conn.execute("ROLLBACK")
                        raise
                self._check_error = None
            except sqlite3.Error as err:
                self._check_error = err
        if self._check_error is not None:
            raise self._check_error

    async def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one of this store's methods from a coroutine (inline: a commit is quick)."""
        return method(*args, **kwargs)

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
        with self._lock:
            self._conn.close()

    @contextlib.contextmanager
    def _writing(self) -> Iterator[sqlite3.Cursor]:
        """One write transaction on the kept cursor: committed when the block ends,
        rolled back when it raises (a duplicate key raised as ``Conflict``)."""
        with self._lock:
            cursor = self._cursor
            cursor.execute("BEGIN IMMEDIATE")
            try:
                yield cursor
            except BaseException as err:
                _roll_back(cursor, err)
            cursor.execute("COMMIT")

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        # one connection, one writer at a time: every transaction is a snapshot already
        with self._writing() as cursor:
            return work(Tx(self._conn, "sqlite", cursor))

    def _append_action(self, row: dict[str, Any], now: float, expected: int) -> None:
        """The room's compare-and-set and the insert of the action, in one transaction:
        the write of every accepted action that does not end its game, run straight on
        the kept cursor (the base class's ``_change`` without its closure and ``Tx``)."""
        touch_sql, touch_values = _TOUCH
        # a person's action (no stand-in): its NULL written in the statement, not bound
        # (``sqlite3`` looks for an adapter of every bound value that is not an int,
        # float, str or bytearray, ``None`` too)
        insert_sql, insert_values = _INSERT_ACTION if row["stand_in"] else _INSERT_PERSONS
        touch = {"version": row["version"], "now": now, "code": row["room"],
                 "expected": expected}  # fmt: skip
        # ``_writing`` spelled out: no generator and context object for every action
        with self._lock:
            cursor = self._cursor
            cursor.execute("BEGIN IMMEDIATE")
            try:
                if cursor.execute(touch_sql, touch_values(touch)).rowcount != 1:
                    raise Conflict(f"room {row['room']} is no longer at version {expected}")
                cursor.execute(insert_sql, insert_values(row))
            except BaseException as err:
                _roll_back(cursor, err)
            cursor.execute("COMMIT")


def _roll_back(cursor: sqlite3.Cursor, err: BaseException) -> NoReturn:
    """A write transaction that raised ``err``: rolled back, and ``err`` raised again
    (a duplicate key as ``Conflict``)."""
    cursor.execute("ROLLBACK")
    if _duplicate_key(err):
        raise Conflict(str(err)) from err
    raise err


#: the two statements of ``Store._append_action``, as ``sqlite3`` takes them
_TOUCH = compiled(TOUCH, "sqlite")
_INSERT_ACTION = compiled(INSERT_ACTION, "sqlite")
_INSERT_PERSONS = compiled(INSERT_ACTION.replace(":stand_in", "NULL"), "sqlite")
