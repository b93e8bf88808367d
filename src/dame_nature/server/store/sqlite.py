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
from .base import BaseStore, _action_text, _dumps
from .sql import Conflict, Tx, compiled

T = TypeVar("T")

#: the WAL file is cut back to this size each time it starts again (bytes)
WAL_SIZE_LIMIT = 16 * 1024 * 1024
#: the database file's ``application_id`` ("DNOL"), written by the health probe
APPLICATION_ID = 0x444E4F4C
#: the page size of a new file (bytes; a file keeps the size it was made with): an
#: action's commit appends each page it changed to the WAL (the room's row, the action's
#: leaf, a split's pages), checksummed and copied byte by byte, so small pages cost a
#: commit fewer instructions than SQLite's default of 4,096 (docs/benchmarks.md, "The
#: store's write of an action: its pages")
PAGE_SIZE = 1024


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
            # only a file with no table yet takes it (before WAL mode, which fixes it)
            self._conn.execute(f"PRAGMA page_size={PAGE_SIZE}")
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

    def append_action(
        self,
        code: str,
        game_no: int,
        idx: int,
        seat: int,
        action: dict[str, Any],
        stand_in: dict[str, Any] | None,
        now: float,
        version: int,
        expected: int,
    ) -> None:
        """The room's compare-and-set and the insert of the action, in one statement (its
        own transaction): an insert into the view ``action_writes``, whose trigger does
        both (migration 0012) and refuses a room no longer at ``expected`` with
        ``_STALE_VERSION``, writing nothing; the write of every accepted action that
        does not end its game, run straight on the kept cursor, its values given in the
        statement's order at once (``_WRITE_ORDER``)."""
        text = _action_text(action)
        values: tuple[Any, ...]
        if stand_in is None:
            # a person's action: its NULL written in the statement, not bound
            # (``sqlite3`` looks for an adapter of every bound value that is not an int,
            # float, str or bytearray, ``None`` too)
            write_sql = _WRITE_PERSONS_SQL
            values = (code, game_no, idx, seat, text, version, now, expected)
        else:
            write_sql = _WRITE_ACTION_SQL
            values = (code, game_no, idx, seat, text, version, _dumps(stand_in), now, expected)
        with self._lock:
            try:
                self._cursor.execute(write_sql, values)
            except sqlite3.IntegrityError as err:
                if err.args == (_STALE_VERSION,):
                    raise Conflict(f"room {code} is no longer at version {expected}") from None
                if _duplicate_key(err):
                    raise Conflict(str(err)) from err
                raise


def _roll_back(cursor: sqlite3.Cursor, err: BaseException) -> NoReturn:
    """A write transaction that raised ``err``: rolled back, and ``err`` raised again
    (a duplicate key as ``Conflict``)."""
    cursor.execute("ROLLBACK")
    if _duplicate_key(err):
        raise Conflict(str(err)) from err
    raise err


#: the statement of ``Store.append_action`` as ``sqlite3`` takes it, and the order of its
#: values (``tests/server/test_store_statements.py`` checks it against the compiled
#: statement)
WRITE_ACTION = (
    "INSERT INTO action_writes (room, game_no, idx, seat, action, version, stand_in, now, expected)"
    " VALUES (:room, :game_no, :idx, :seat, :action, :version, :stand_in, :now, :expected)"
)
_WRITE_ACTION_SQL = compiled(WRITE_ACTION, "sqlite")[0]
_WRITE_PERSONS_SQL = compiled(WRITE_ACTION.replace(":stand_in", "NULL"), "sqlite")[0]
_WRITE_ORDER = (
    "room",
    "game_no",
    "idx",
    "seat",
    "action",
    "version",
    "stand_in",
    "now",
    "expected",
)
#: the refusal of ``action_writes``'s trigger: the room is not at the expected version
#: (the text migration 0012 gives its ``RAISE``)
_STALE_VERSION = "action_writes: the room is no longer at the expected version"
