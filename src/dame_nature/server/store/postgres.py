"""``PostgresStore``: PostgreSQL through psycopg 3 and its pool (``psycopg_pool``),
shared by every server node."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import select
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from ..settings import DB_WAIT_SECONDS
from .base import BaseStore
from .sql import NO_PARAMS, Conflict, Params, StoreUnavailable, Tx, compiled

T = TypeVar("T")

#: the compare-and-set of the room and the insert of its action, in one statement
APPEND_ACTION = (
    "WITH moved AS (UPDATE rooms SET version = :version, updated_at = :now"
    " WHERE code = :room AND version = :expected RETURNING code)"
    " INSERT INTO actions (room, game_no, idx, seat, action, version, stand_in)"
    " SELECT code, :game_no, :idx, :seat, :action, :version, :stand_in FROM moved"
)
TRY_LOCK = "SELECT pg_try_advisory_lock(:key) AS got"
UNLOCK = "SELECT pg_advisory_unlock(:key)"


def _statement(sql: str, params: Params) -> tuple[str, Any]:
    """The text and parameters of ``sql`` as psycopg takes them (``sql.py``)."""
    text, bind = compiled(sql, "postgresql")
    return text, bind(params)


def _check_connection(conn: Any) -> None:
    """The pool's check of a connection it hands out, without a round trip when the
    connection is quiet. An idle connection has nothing to read: PostgreSQL's goodbye
    as it stops (or ends the session), the end of the stream, or any other message
    waiting is the one case worth the pool's own check (an empty statement, a round
    trip), which raises for a broken connection and so has it replaced."""
    from psycopg_pool import ConnectionPool

    if conn.closed or conn.broken:
        ConnectionPool.check_connection(conn)  # raises
    poll = getattr(select, "poll", None)
    if poll is None:  # no poll (Windows): always the round trip
        ConnectionPool.check_connection(conn)
        return
    watch = poll()
    watch.register(conn.fileno(), select.POLLIN | select.POLLPRI)
    if watch.poll(0):
        ConnectionPool.check_connection(conn)


class PostgresStore(BaseStore):
    """PostgreSQL through psycopg 3, shared by every server node: a small pool of
    connections (``psycopg_pool``: a connection found broken when it comes back is
    replaced); each call runs on a worker thread, so the event loop never waits for a
    round trip. The schema is brought up to date before (``open_store``)."""

    shared = True

    def __init__(
        self,
        url: str,
        pool_size: int = 4,
        connect_timeout: float = 5.0,
        wait_seconds: float = DB_WAIT_SECONDS,
    ) -> None:
        from psycopg.rows import dict_row
        from psycopg_pool import ConnectionPool

        self.url = url
        self.connect_timeout = connect_timeout
        self._options: dict[str, Any] = {
            "autocommit": True,
            "row_factory": dict_row,
            "connect_timeout": max(1, int(connect_timeout)),
            "prepare_threshold": None,
        }
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs=self._options,
            timeout=wait_seconds,  # for a connection: all busy, or PostgreSQL away
            name="dame-nature",
            # a connection broken while PostgreSQL restarted is found (and replaced) when
            # it is taken, not by the request that uses it
            check=_check_connection,
            # reconnecting backs off exponentially while PostgreSQL is away; giving up
            # after a few seconds starts the next attempt afresh on the next request,
            # so a long outage is not followed by as long a wait once it is over
            reconnect_timeout=max(5.0, connect_timeout),
            open=True,
        )
        self._lead_lock = threading.Lock()
        self._lead_conn: Any = None
        self._leads: set[str] = set()

    def _connect(self) -> Any:
        """A connection of its own (outside the pool: the bots' leads)."""
        import psycopg

        try:
            return psycopg.connect(self.url, **self._options)
        except psycopg.OperationalError as err:
            raise StoreUnavailable(str(err)) from err

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of the pool for one transaction or statement; a unique key
        violated is a ``Conflict``, a connection lost is ``StoreUnavailable`` (the pool
        replaces it)."""
        import psycopg
        from psycopg_pool import PoolTimeout

        try:
            with self._pool.connection() as conn:
                yield conn
        except psycopg.errors.UniqueViolation as err:
            raise Conflict(str(err)) from err
        except (psycopg.OperationalError, psycopg.InterfaceError, PoolTimeout) as err:
            raise StoreUnavailable(str(err)) from err

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        with self._connection() as conn, conn.transaction():
            if snapshot:  # read only, so it never fails to serialise
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return work(Tx(conn, "postgresql"))

    async def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one of this store's methods on a worker thread."""
        return await asyncio.to_thread(method, *args, **kwargs)

    # Each round trip to the server counts (a transaction is BEGIN, the statements and
    # COMMIT): a read is one statement on its own, and the usual action (one that does
    # not end the game) one statement too, the compare-and-set and the insert together.
    def _query(self, sql: str, params: Params = NO_PARAMS) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self._single(sql, params, fetch=True)
        return rows

    def _single(self, sql: str, params: Params, fetch: bool) -> Any:
        with self._connection() as conn:
            cursor = conn.execute(*_statement(sql, params))
            return cursor.fetchall() if fetch else cursor.rowcount

    def _append_action(self, row: dict[str, Any], now: float, expected: int) -> None:
        # the compare-and-set and the insert in one statement (the end of a game is a
        # transaction of four: the base class's)
        inserted = self._single(APPEND_ACTION, {**row, "now": now, "expected": expected}, False)
        if inserted != 1:
            raise Conflict(f"room {row['room']} is no longer at version {expected}")

    # ---------------------------------------------------------------- leads
    # One node at a time drives the bots of a room: the one holding a PostgreSQL advisory
    # lock on the room, on a connection of its own. The lock goes with the connection,
    # so a node killed or cut off from the database lets another one take over.
    def _lead_key(self, code: str) -> int:
        digest = hashlib.sha256(b"dame-nature-bots:" + code.encode()).digest()
        return int.from_bytes(digest[:8], "big", signed=True)

    def try_lead(self, code: str) -> bool:
        with self._lead_lock:
            if code in self._leads and self._lead_conn is not None:
                return True
            try:
                if self._lead_conn is None or self._lead_conn.closed:
                    self._leads.clear()
                    self._lead_conn = self._connect()
                row = self._lead_conn.execute(
                    *_statement(TRY_LOCK, {"key": self._lead_key(code)})
                ).fetchone()
            except Exception:
                self._drop_leads()
                return False
            if row and row["got"]:
                self._leads.add(code)
                return True
            return False

    def release_lead(self, code: str) -> None:
        with self._lead_lock:
            if code not in self._leads:
                return
            self._leads.discard(code)
            try:
                assert self._lead_conn is not None
                self._lead_conn.execute(*_statement(UNLOCK, {"key": self._lead_key(code)}))
            except Exception:
                self._drop_leads()

    def check_leads(self) -> None:
        with self._lead_lock:
            if self._lead_conn is None:
                return
            try:
                self._lead_conn.execute("SELECT 1")
            except Exception:
                self._drop_leads()

    def _drop_leads(self) -> None:
        self._leads.clear()
        if self._lead_conn is not None:
            with contextlib.suppress(Exception):
                self._lead_conn.close()
        self._lead_conn = None

    def close(self) -> None:
        with self._lead_lock:
            self._drop_leads()
        self._pool.close()
