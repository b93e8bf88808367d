"""Persistence of rooms, players, tokens, games and every accepted action, on SQLite
(``Store``, the embedded default) or PostgreSQL (``PostgresStore``, shared by several
server nodes): the same schema (Alembic migrations, ``migrate.py``), the same SQL and
the same behaviour behind one interface. ``open_store(url)`` picks by the URL.

Each write is one transaction, committed before the server acknowledges the change, so a
server killed at any moment restarts where it was. Every change of a room moves its
``version`` on by one, only from the version the writer last saw (a compare-and-set on
the room's row, which also locks it): when another node changed the room first, the
write raises ``Conflict`` and changes nothing, and the writer reloads and checks again.
Action ``k`` of a game is appended once at most (the primary key ``(room, game_no,
idx)``).

>>> store = Store(":memory:")
>>> store.create_room("abc", "tok", {"modes": []}, now=1.0)
>>> store.add_player("abc", 0, "Ada", "t0", version=1, now=2.0)
>>> store.add_player("abc", 1, "Darwin", "t1", version=2, now=3.0, bot="expert", human=False)
>>> [(p["name"], p["bot"], p["human"]) for p in store.load_room("abc")["players"]]
[('Ada', None, True), ('Darwin', 'expert', False)]
>>> store.add_player("abc", 2, "Bo", "t2", version=2, now=4.0)  # version 2 is taken
Traceback (most recent call last):
...
dame_nature.server.store.Conflict: room abc is no longer at version 1
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .migrate import migrate_postgres, migrate_sqlite
from .provenance import ENGINE_VERSION, RULES_VERSION

T = TypeVar("T")
log = logging.getLogger("dame_nature.server")

INSERT_ACTION = (
    "INSERT INTO actions (room, game_no, idx, seat, action, version) VALUES (?, ?, ?, ?, ?, ?)"
)


class Conflict(Exception):
    """Another writer changed the room first; nothing was written."""


class StoreUnavailable(Exception):
    """The database cannot be reached right now; nothing was written."""


#: ``json.dumps(data, separators=(",", ":"))`` without building an encoder per call
_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _dumps_or_null(data: dict[str, Any] | None) -> str | None:
    return None if data is None else _dumps(data)


def _loads_or_none(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Tx:
    """One open transaction on a DB-API connection whose rows are dicts: ``execute`` (a
    row count) and ``query`` (the rows). Statements are written with ``?`` placeholders;
    ``sql`` turns them into the driver's (PostgreSQL: ``_pg``)."""

    __slots__ = ("conn", "sql")

    def __init__(self, conn: Any, sql: Callable[[str], str] = str) -> None:
        self.conn = conn
        self.sql = sql

    def execute(self, sql: str, params: tuple[Any, ...] = ()) -> int:
        rowcount: int = self.conn.execute(self.sql(sql), params).rowcount
        return rowcount

    def query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.conn.execute(self.sql(sql), params).fetchall()
        return rows

    def touch(
        self, code: str, version: int, now: float | None, expected: int | None = None
    ) -> None:
        """Move room ``code`` from version ``expected`` (default ``version - 1``) to
        ``version``, or raise ``Conflict``; the time of its last change becomes ``now``
        (None: unchanged)."""
        expected = version - 1 if expected is None else expected
        if now is None:
            changed = self.execute(
                "UPDATE rooms SET version = ? WHERE code = ? AND version = ?",
                (version, code, expected),
            )
        else:
            changed = self.execute(
                "UPDATE rooms SET version = ?, updated_at = ? WHERE code = ? AND version = ?",
                (version, now, code, expected),
            )
        if changed != 1:
            raise Conflict(f"room {code} is no longer at version {expected}")

    def present(self, code: str) -> list[int]:
        rows = self.query(
            "SELECT DISTINCT seat FROM presence WHERE room = ? ORDER BY seat", (code,)
        )
        return [row["seat"] for row in rows]


class BaseStore:
    """The SQL of every read and write; subclasses provide ``_transaction`` and ``call``."""

    #: several server processes may write this database at once
    shared = False

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        """Run ``work`` in one transaction (``snapshot``: every read of it sees the same
        moment, for reads of several statements)."""
        raise NotImplementedError

    async def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def try_lead(self, code: str) -> bool:
        """Whether this process may drive room ``code``'s bots (the one process of a
        SQLite store always may)."""
        return True

    def release_lead(self, code: str) -> None:
        """This process stops driving room ``code``'s bots."""

    def check_leads(self) -> None:
        """Forget the leads held when the database connection holding them was lost."""

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        def work(tx: Tx) -> None:
            for sql, params in statements:
                tx.execute(sql, params)

        self._transaction(work)

    def _change(
        self,
        code: str,
        statements: list[tuple[str, tuple[Any, ...]]],
        version: int,
        now: float,
        expected: int | None,
    ) -> None:
        """One change of room ``code`` in one transaction: the compare-and-set of its
        version (``Tx.touch``), then ``statements``."""

        def work(tx: Tx) -> None:
            tx.touch(code, version, now, expected)
            for sql, params in statements:
                tx.execute(sql, params)

        self._transaction(work)

    # ---------------------------------------------------------------- writes
    def create_room(
        self,
        code: str,
        host_token: str,
        spec: dict[str, Any],
        now: float,
        campaign: dict[str, Any] | None = None,
    ) -> None:
        self._write(
            [
                (
                    "INSERT INTO rooms (code, host_token, spec, campaign, created_at, updated_at)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (code, host_token, _dumps(spec), _dumps_or_null(campaign), now, now),
                )
            ]
        )

    def set_rules(
        self,
        code: str,
        spec: dict[str, Any],
        campaign: dict[str, Any] | None,
        *,
        version: int,
        now: float,
        expected: int | None = None,
    ) -> None:
        """The host changed the rules in the lobby."""
        update = (
            "UPDATE rooms SET spec = ?, campaign = ? WHERE code = ?",
            (_dumps(spec), _dumps_or_null(campaign), code),
        )
        self._change(code, [update], version, now, expected)

    def add_player(
        self,
        code: str,
        seat: int,
        name: str,
        token: str,
        *,
        version: int,
        now: float,
        bot: str | None = None,
        human: bool = True,
        expected: int | None = None,
    ) -> None:
        """A seat joins: a person, or a bot of level ``bot`` (``human=False``: added as a
        bot, its token held by no one)."""
        insert = (
            "INSERT INTO players (room, seat, name, token, bot, human) VALUES (?, ?, ?, ?, ?, ?)",
            (code, seat, name, token, bot, int(human)),
        )
        self._change(code, [insert], version, now, expected)

    def remove_player(
        self, code: str, seat: int, *, version: int, now: float, expected: int | None = None
    ) -> None:
        """A seat leaves the lobby; the seats after it move down one (seats stay 0..n-1)."""
        statements = [
            ("DELETE FROM players WHERE room = ? AND seat = ?", (code, seat)),
            # two steps, so that no two rows ever share a seat (the primary key)
            ("UPDATE players SET seat = -seat WHERE room = ? AND seat > ?", (code, seat)),
            ("UPDATE players SET seat = -seat - 1 WHERE room = ? AND seat < 0", (code,)),
        ]
        self._change(code, statements, version, now, expected)

    def set_bot(
        self,
        code: str,
        seat: int,
        bot: str | None,
        *,
        version: int,
        now: float,
        expected: int | None = None,
    ) -> None:
        """A bot takes over a seat (``bot``: its level), or leaves it (``None``)."""
        update = ("UPDATE players SET bot = ? WHERE room = ? AND seat = ?", (bot, code, seat))
        self._change(code, [update], version, now, expected)

    def start_game(
        self,
        code: str,
        game_no: int,
        setup: dict[str, Any],
        *,
        campaign: dict[str, Any] | None,
        version: int,
        now: float,
        expected: int | None = None,
    ) -> None:
        statements = [
            (
                "INSERT INTO games (room, game_no, setup, engine_version, rules_version)"
                " VALUES (?, ?, ?, ?, ?)",
                (code, game_no, _dumps(setup), ENGINE_VERSION, RULES_VERSION),
            ),
            (
                "UPDATE rooms SET status = 'playing', game_no = ?, campaign = ? WHERE code = ?",
                (game_no, _dumps_or_null(campaign or None), code),
            ),
        ]
        self._change(code, statements, version, now, expected)

    def add_action(
        self,
        code: str,
        game_no: int,
        idx: int,
        seat: int,
        action: dict[str, Any],
        *,
        result: dict[str, Any] | None,
        campaign: dict[str, Any] | None,
        version: int,
        now: float,
        digest: str | None = None,
        expected: int | None = None,
    ) -> None:
        """Append action ``idx`` of the game (and its end: result, final digest)."""
        row = (code, game_no, idx, seat, _dumps(action), version)
        expected = version - 1 if expected is None else expected
        if result is None:
            self._append_action(row, now, expected)
            return
        end = [
            (
                "UPDATE games SET result = ?, digest = ? WHERE room = ? AND game_no = ?",
                (_dumps(result), digest, code, game_no),
            ),
            (
                "UPDATE rooms SET status = 'over', campaign = ? WHERE code = ?",
                (_dumps_or_null(campaign or None), code),
            ),
        ]
        self._change(code, [(INSERT_ACTION, row), *end], version, now, expected)

    def _append_action(self, row: tuple[Any, ...], now: float, expected: int) -> None:
        """An action that does not end its game (``row``: the values of ``INSERT_ACTION``):
        the room's compare-and-set and the insert, in one transaction."""
        self._change(row[0], [(INSERT_ACTION, row)], row[-1], now, expected)

    def set_presence(
        self, code: str, seat: int, node: str, present: bool, *, version: int, now: float
    ) -> list[int]:
        """A seat's first socket on ``node`` opened (``present``) or its last one closed:
        a new version; the seats connected anywhere afterwards."""

        def work(tx: Tx) -> list[int]:
            tx.touch(code, version, None)  # connections alone do not keep a room alive
            if present:
                tx.execute(
                    "INSERT INTO presence (room, seat, node) VALUES (?, ?, ?)"
                    " ON CONFLICT DO NOTHING",
                    (code, seat, node),
                )
            else:
                tx.execute(
                    "DELETE FROM presence WHERE room = ? AND seat = ? AND node = ?",
                    (code, seat, node),
                )
            return tx.present(code)

        return self._transaction(work)

    def set_version(
        self, code: str, version: int, now: float | None, expected: int | None = None
    ) -> None:
        """A change of the room that is not stored otherwise (a new version only)."""
        self._transaction(lambda tx: tx.touch(code, version, now, expected))

    def reset_presence(self) -> int:
        """Start-up of the only node of a database: every connection was lost with the
        previous process; a new version for every room, so it never goes back."""

        def work(tx: Tx) -> int:
            tx.execute("DELETE FROM presence")
            return tx.execute("UPDATE rooms SET version = version + 1")

        return self._transaction(work)

    def heartbeat(self, node: str, now: float) -> bool:
        """``node`` is alive; False when it was not known (new, or taken for lost by the
        others, who then dropped its seats' presence)."""

        def work(tx: Tx) -> bool:
            if tx.execute("UPDATE nodes SET seen_at = ? WHERE node = ?", (now, node)):
                return True
            tx.execute(
                "INSERT INTO nodes (node, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (node, now),
            )
            return False

        return self._transaction(work)

    def expire_nodes(
        self, before: float, now: float, only: str | None = None
    ) -> list[tuple[str, int]]:
        """Forget the nodes not seen since ``before`` (or exactly node ``only``, leaving):
        their seats are no longer connected; the rooms changed, with their new versions."""

        def work(tx: Tx) -> list[tuple[str, int]]:
            if only is not None:
                dead = [only]
            else:
                rows = tx.query("SELECT node FROM nodes WHERE seen_at < ?", (before,))
                dead = [row["node"] for row in rows]
            changed: list[tuple[str, int]] = []
            for node in dead:
                rooms = tx.query(
                    "SELECT DISTINCT room FROM presence WHERE node = ? ORDER BY room", (node,)
                )
                tx.execute("DELETE FROM presence WHERE node = ?", (node,))
                for row in rooms:
                    found = tx.query(
                        "UPDATE rooms SET version = version + 1, updated_at = ? WHERE code = ?"
                        " RETURNING code, version",
                        (now, row["room"]),
                    )
                    changed += [(r["code"], r["version"]) for r in found]
                tx.execute("DELETE FROM nodes WHERE node = ?", (node,))
            return changed

        return self._transaction(work)

    def report_replay(
        self, code: str, game_no: int, game: dict[str, Any], problem: str, now: float
    ) -> None:
        """Record that today's engine replays a stored game differently (once a problem)."""
        self._write(
            [
                (
                    "INSERT INTO replay_reports"
                    " (room, game_no, engine_version, rules_version, problem, found_at)"
                    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (
                        code,
                        game_no,
                        game.get("engine_version"),
                        game.get("rules_version"),
                        problem,
                        now,
                    ),
                )  # fmt: skip
            ]
        )

    def delete_rooms(self, codes: list[str]) -> None:
        if codes:
            self._write([("DELETE FROM rooms WHERE code = ?", (code,)) for code in codes])

    # ---------------------------------------------------------------- reads
    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        return self._transaction(lambda tx: tx.query(sql, params))

    def room_codes(self, statuses: tuple[str, ...] = ("lobby", "playing", "over")) -> list[str]:
        marks = ", ".join("?" * len(statuses))
        rows = self._query(
            f"SELECT code FROM rooms WHERE status IN ({marks}) ORDER BY created_at", statuses
        )
        return [row["code"] for row in rows]

    def idle_rooms(self, before: float, lobby_before: float | None = None) -> list[str]:
        """Rooms with no change since ``before`` (lobbies: since ``lobby_before``) and
        no seat connected to any node."""
        lobby_before = before if lobby_before is None else lobby_before
        rows = self._query(
            "SELECT code FROM rooms WHERE (updated_at < ? OR (status = 'lobby' AND updated_at < ?))"
            " AND NOT EXISTS (SELECT 1 FROM presence WHERE presence.room = rooms.code)",
            (before, lobby_before),
        )
        return [row["code"] for row in rows]

    def ping(self) -> None:
        """Raises when the database cannot be reached."""
        self._query("SELECT 1 AS one")

    def room_versions(self, codes: Iterable[str]) -> dict[str, int]:
        """The stored version of each of ``codes`` (a deleted room is missing)."""
        codes = list(codes)
        found: dict[str, int] = {}
        for start in range(0, len(codes), 500):
            chunk = tuple(codes[start : start + 500])
            marks = ", ".join("?" * len(chunk))
            rows = self._query(f"SELECT code, version FROM rooms WHERE code IN ({marks})", chunk)
            found.update((row["code"], row["version"]) for row in rows)
        return found

    def replay_reports(self) -> list[dict[str, Any]]:
        return self._query("SELECT * FROM replay_reports ORDER BY id")

    def games(self) -> list[dict[str, Any]]:
        """Every stored game's room, number and recorded versions (for ``migrate``)."""
        return self._query(
            "SELECT room, game_no, engine_version, rules_version FROM games ORDER BY room, game_no"
        )

    def load_game(self, code: str, game_no: int) -> dict[str, Any] | None:
        def work(tx: Tx) -> dict[str, Any] | None:
            game = _game(tx, code, game_no)
            if game is not None:
                game["actions"] = _actions(tx, code, game_no)[0]
            return game

        return self._transaction(work)

    def load_room(self, code: str, game_no: int = 0, from_idx: int = 0) -> dict[str, Any] | None:
        """Everything needed to rebuild a room: its row, players, the seats connected, its
        current game and actions. With the ``game_no`` already held and ``from_idx``, only
        the actions from ``from_idx`` on when that game is still the current one (then
        ``from_idx`` in the answer says so; else it is 0 and every action is there)."""

        def work(tx: Tx) -> dict[str, Any] | None:
            rows = tx.query("SELECT * FROM rooms WHERE code = ?", (code,))
            if not rows:
                return None
            row = rows[0]
            players = tx.query(
                "SELECT seat, name, token, bot, human FROM players WHERE room = ? ORDER BY seat",
                (code,),
            )
            start = from_idx if row["game_no"] == game_no else 0
            game = _game(tx, code, row["game_no"]) if row["game_no"] else None
            actions, versions = _actions(tx, code, row["game_no"], start)
            return {
                "code": row["code"],
                "host_token": row["host_token"],
                "spec": json.loads(row["spec"]),
                "status": row["status"],
                "game_no": row["game_no"],
                "campaign": _loads_or_none(row["campaign"]),
                "version": row["version"],
                "created_at": row["created_at"],
                "updated_at": row["updated_at"],
                "players": [{**p, "human": bool(p["human"])} for p in players],
                "present": tx.present(code),
                "game": game,
                "setup": game["setup"] if game else None,
                "from_idx": start,
                "actions": actions,
                "versions": versions,
            }

        # one snapshot: the room's version and its actions agree
        return self._transaction(work, snapshot=True)


def _game(tx: Tx, code: str, game_no: int) -> dict[str, Any] | None:
    """Game ``game_no`` of room ``code`` (without its actions), or None."""
    rows = tx.query("SELECT * FROM games WHERE room = ? AND game_no = ?", (code, game_no))
    if not rows:
        return None
    row = rows[0]
    return {
        "game_no": row["game_no"],
        "setup": json.loads(row["setup"]),
        "result": _loads_or_none(row["result"]),
        "engine_version": row.get("engine_version"),
        "rules_version": row.get("rules_version"),
        "digest": row.get("digest"),
    }


def _actions(
    tx: Tx, code: str, game_no: int, start: int = 0
) -> tuple[list[dict[str, Any]], list[int | None]]:
    """The actions of a game from index ``start`` on (``{seat, action}``), and the
    version each of them made (None: stored before versions were)."""
    rows = tx.query(
        "SELECT seat, action, version FROM actions"
        " WHERE room = ? AND game_no = ? AND idx >= ? ORDER BY idx",
        (code, game_no, start),
    )
    actions = [{"seat": row["seat"], "action": json.loads(row["action"])} for row in rows]
    return actions, [row["version"] for row in rows]


# -------------------------------------------------------------------- SQLite
def _dict_row(cursor: sqlite3.Cursor, row: tuple[Any, ...]) -> dict[str, Any]:
    return {column[0]: value for column, value in zip(cursor.description, row, strict=True)}


class Store(BaseStore):
    """SQLite (stdlib ``sqlite3``, WAL), the embedded default: one connection shared by
    the one server process; a commit takes a fraction of a millisecond, so writes run
    inline on the event loop.

    A commit in WAL mode with ``synchronous=NORMAL`` appends to the WAL without an fsync
    (it survives a killed process, not a power cut); only checkpoints fsync, on a thread
    and connection of their own, so a commit never waits for the disk."""

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
        migrate_sqlite(self._conn)
        self._conn.row_factory = _dict_row  # rows as dicts, as psycopg's dict_row
        if path != ":memory:":
            self._conn.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoints,
                args=(checkpoint_seconds,),
                name="dame-nature-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

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

    async def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one of this store's methods from a coroutine (inline: a commit is quick)."""
        return method(*args, **kwargs)

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
        with self._lock:
            self._conn.close()

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        # one connection, one writer at a time: every transaction is a snapshot already
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = work(Tx(conn))
            except sqlite3.IntegrityError as err:
                conn.execute("ROLLBACK")
                if "UNIQUE" in str(err) or "PRIMARY KEY" in str(err):
                    raise Conflict(str(err)) from err
                raise
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")
            return result


# -------------------------------------------------------------------- PostgreSQL
_PG_SQL: dict[str, str] = {}


def _pg(sql: str) -> str:
    """The statement with psycopg's ``%s`` placeholders (no statement holds a literal
    ``?`` or ``%``)."""
    text = _PG_SQL.get(sql)
    if text is None:
        text = _PG_SQL[sql] = sql.replace("?", "%s")
    return text


class PostgresStore(BaseStore):
    """PostgreSQL through psycopg 3, shared by every server node: a small pool of
    connections; each call runs on a worker thread, so the event loop never waits for a
    round trip. A broken connection is replaced on the next call."""

    shared = True

    def __init__(self, url: str, pool_size: int = 4, connect_timeout: float = 5.0) -> None:
        self.url = url
        self.connect_timeout = connect_timeout
        migrate_postgres(url)
        self._pool: queue.LifoQueue[Any] = queue.LifoQueue()
        self._size = pool_size
        self._made = 0
        self._made_lock = threading.Lock()
        self._closed = False
        self._lead_lock = threading.Lock()
        self._lead_conn: Any = None
        self._leads: set[str] = set()

    def _connect(self) -> Any:
        import psycopg
        from psycopg.rows import dict_row

        try:
            return psycopg.connect(
                self.url,
                autocommit=True,
                row_factory=dict_row,
                connect_timeout=max(1, int(self.connect_timeout)),
                prepare_threshold=None,
            )
        except psycopg.OperationalError as err:
            raise StoreUnavailable(str(err)) from err

    def _acquire(self) -> Any:
        with self._made_lock:
            if self._pool.empty() and self._made < self._size:
                self._made += 1
                try:
                    return self._connect()
                except BaseException:
                    self._made -= 1
                    raise
        try:
            return self._pool.get(timeout=30)
        except queue.Empty as err:
            raise StoreUnavailable("no database connection free for 30 s") from err

    def _release(self, conn: Any, broken: bool) -> None:
        if broken or self._closed:
            with contextlib.suppress(Exception):
                conn.close()
            with self._made_lock:
                self._made -= 1
        else:
            self._pool.put(conn)

    @contextlib.contextmanager
    def _connection(self) -> Iterator[Any]:
        """A connection of the pool for one transaction or statement; a unique key
        violated is a ``Conflict``, a connection lost is ``StoreUnavailable`` (and the
        connection is replaced)."""
        import psycopg

        conn = self._acquire()
        broken = False
        try:
            yield conn
        except psycopg.errors.UniqueViolation as err:
            raise Conflict(str(err)) from err
        except (psycopg.OperationalError, psycopg.InterfaceError) as err:
            broken = True
            raise StoreUnavailable(str(err)) from err
        finally:
            self._release(conn, broken or conn.closed)

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        with self._connection() as conn, conn.transaction():
            if snapshot:  # read only, so it never fails to serialise
                conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            return work(Tx(conn, _pg))

    async def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """Run one of this store's methods on a worker thread."""
        return await asyncio.to_thread(method, *args, **kwargs)

    # Each round trip to the server counts (a transaction is BEGIN, the statements and
    # COMMIT): a read is one statement on its own, and the usual action (one that does
    # not end the game) one statement too, the compare-and-set and the insert together.
    def _query(self, sql: str, params: tuple[Any, ...] = ()) -> list[dict[str, Any]]:
        return self._single(sql, params, fetch=True)  # type: ignore[no-any-return]

    def _single(self, sql: str, params: tuple[Any, ...], fetch: bool) -> Any:
        with self._connection() as conn:
            cursor = conn.execute(_pg(sql), params)
            return cursor.fetchall() if fetch else cursor.rowcount

    def _append_action(self, row: tuple[Any, ...], now: float, expected: int) -> None:
        # the compare-and-set and the insert in one statement (the end of a game is a
        # transaction of four: the base class's)
        code, game_no, idx, seat, action, version = row
        inserted = self._single(
            "WITH moved AS (UPDATE rooms SET version = ?, updated_at = ?"
            " WHERE code = ? AND version = ? RETURNING code)"
            " INSERT INTO actions (room, game_no, idx, seat, action, version)"
            " SELECT code, ?, ?, ?, ?, ? FROM moved",
            (version, now, code, expected, game_no, idx, seat, action, version),
            fetch=False,
        )
        if inserted != 1:
            raise Conflict(f"room {code} is no longer at version {expected}")

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
                    "SELECT pg_try_advisory_lock(%s) AS got", (self._lead_key(code),)
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
                self._lead_conn.execute("SELECT pg_advisory_unlock(%s)", (self._lead_key(code),))
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
        self._closed = True
        while not self._pool.empty():
            with contextlib.suppress(Exception):
                self._pool.get_nowait().close()


def open_store(url: str) -> BaseStore:
    """The store at ``url``: a ``postgresql://`` URL, else a SQLite file (or ``:memory:``).
    Its schema is brought up to date first."""
    from .migrate import is_postgres

    if is_postgres(url):
        return PostgresStore(url)
    return Store(url)
