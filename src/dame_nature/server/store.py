"""SQLite persistence (stdlib ``sqlite3``, WAL): rooms, players, tokens, games and every
accepted action. Each write commits before the server acknowledges the change, so a
server killed at any moment restarts where it was (``synchronous=NORMAL`` in WAL mode
survives a killed process; only a power cut may lose the last commits).

>>> store = Store(":memory:")
>>> store.create_room("abc", "tok", {"modes": []}, now=1.0)
>>> store.add_player("abc", 0, "Ada", "t0", version=1, now=2.0)
>>> store.add_player("abc", 1, "Darwin", "t1", version=2, now=3.0, bot="expert", human=False)
>>> [(p["name"], p["bot"], p["human"]) for p in store.load_room("abc")["players"]]
[('Ada', None, True), ('Darwin', 'expert', False)]
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    host_token TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'lobby',
    game_no INTEGER NOT NULL DEFAULT 0,
    campaign TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated_at);
CREATE TABLE IF NOT EXISTS players (
    room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    bot TEXT,
    human INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS games (
    room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no INTEGER NOT NULL,
    setup TEXT NOT NULL,
    result TEXT,
    PRIMARY KEY (room, game_no)
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, game_no, idx)
);
"""


def _dumps(data: Any) -> str:
    return json.dumps(data, separators=(",", ":"))


class Store:
    """One SQLite connection shared by the server; every method is one transaction."""

    def __init__(self, path: str, checkpoint_seconds: float = 1.0) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute("PRAGMA foreign_keys=ON")
        self._conn.executescript(SCHEMA)
        self._upgrade()
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if path != ":memory:":
            self._conn.execute("PRAGMA journal_mode=WAL")
            # A commit in WAL mode with synchronous=NORMAL appends to the WAL without an
            # fsync (it survives a killed process, not a power cut); only checkpoints
            # fsync. They run on their own thread and connection, so a commit on the
            # event loop takes a fraction of a millisecond and never waits for the disk.
            self._conn.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoints,
                args=(checkpoint_seconds,),
                name="dame-nature-checkpoint",
                daemon=True,
            )
            self._checkpointer.start()

    def _upgrade(self) -> None:
        """Bring a database written by an older version up to ``SCHEMA``: bot seats
        (``players.bot``: the level playing the seat, or NULL; ``players.human``: 0 for a
        seat added as a bot, whose token no one holds)."""
        columns = {row["name"] for row in self._conn.execute("PRAGMA table_info(players)")}
        if "bot" not in columns:
            self._conn.execute("ALTER TABLE players ADD COLUMN bot TEXT")
        if "human" not in columns:
            self._conn.execute("ALTER TABLE players ADD COLUMN human INTEGER NOT NULL DEFAULT 1")

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
        """Run one of this store's writes from a coroutine (inline: a commit is quick)."""
        return method(*args, **kwargs)

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(10)
        with self._lock:
            self._conn.close()

    def _write(self, statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._lock:
            conn = self._conn
            conn.execute("BEGIN IMMEDIATE")
            try:
                for sql, params in statements:
                    conn.execute(sql, params)
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            conn.execute("COMMIT")

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
    ) -> None:
        """The host changed the rules in the lobby."""
        self._write(
            [
                (
                    "UPDATE rooms SET spec = ?, campaign = ? WHERE code = ?",
                    (_dumps(spec), _dumps_or_null(campaign), code),
                ),
                _touch(code, version, now),
            ]
        )

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
    ) -> None:
        self._write(
            [
                (
                    "INSERT INTO players (room, seat, name, token, bot, human)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (code, seat, name, token, bot, int(human)),
                ),
                _touch(code, version, now),
            ]
        )

    def remove_player(self, code: str, seat: int, *, version: int, now: float) -> None:
        """A seat leaves the lobby; the seats after it move down one (seats stay 0..n-1)."""
        self._write(
            [
                ("DELETE FROM players WHERE room = ? AND seat = ?", (code, seat)),
                # two steps, so that no two rows ever share a seat (the primary key)
                (
                    "UPDATE players SET seat = -seat WHERE room = ? AND seat > ?",
                    (code, seat),
                ),
                (
                    "UPDATE players SET seat = -seat - 1 WHERE room = ? AND seat < 0",
                    (code,),
                ),
                _touch(code, version, now),
            ]
        )

    def set_bot(self, code: str, seat: int, bot: str | None, *, version: int, now: float) -> None:
        """A bot takes over a seat (``bot``: its level), or leaves it (``None``)."""
        self._write(
            [
                ("UPDATE players SET bot = ? WHERE room = ? AND seat = ?", (bot, code, seat)),
                _touch(code, version, now),
            ]
        )

    def start_game(
        self,
        code: str,
        game_no: int,
        setup: dict[str, Any],
        *,
        campaign: dict[str, Any] | None,
        version: int,
        now: float,
    ) -> None:
        self._write(
            [
                (
                    "INSERT INTO games (room, game_no, setup) VALUES (?, ?, ?)",
                    (code, game_no, _dumps(setup)),
                ),
                (
                    "UPDATE rooms SET status = 'playing', game_no = ?, campaign = ? WHERE code = ?",
                    (game_no, _dumps(campaign) if campaign else None, code),
                ),
                _touch(code, version, now),
            ]
        )

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
    ) -> None:
        statements = [
            (
                "INSERT INTO actions (room, game_no, idx, seat, action) VALUES (?, ?, ?, ?, ?)",
                (code, game_no, idx, seat, _dumps(action)),
            ),
            _touch(code, version, now),
        ]
        if result is not None:
            statements += [
                (
                    "UPDATE games SET result = ? WHERE room = ? AND game_no = ?",
                    (_dumps(result), code, game_no),
                ),
                (
                    "UPDATE rooms SET status = 'over', campaign = ? WHERE code = ?",
                    (_dumps(campaign) if campaign else None, code),
                ),
            ]
        self._write(statements)

    def set_version(self, code: str, version: int, now: float) -> None:
        self._write([_touch(code, version, now)])

    def delete_rooms(self, codes: list[str]) -> None:
        if codes:
            self._write([("DELETE FROM rooms WHERE code = ?", (code,)) for code in codes])

    # ---------------------------------------------------------------- reads
    def room_codes(self, statuses: tuple[str, ...] = ("lobby", "playing", "over")) -> list[str]:
        marks = ", ".join("?" * len(statuses))
        with self._lock:
            rows = self._conn.execute(
                f"SELECT code FROM rooms WHERE status IN ({marks}) ORDER BY created_at", statuses
            ).fetchall()
        return [row["code"] for row in rows]

    def idle_rooms(self, before: float, lobby_before: float | None = None) -> list[str]:
        """Rooms with no change since ``before`` (lobbies: since ``lobby_before``)."""
        lobby_before = before if lobby_before is None else lobby_before
        with self._lock:
            rows = self._conn.execute(
                "SELECT code FROM rooms WHERE updated_at < ?"
                " OR (status = 'lobby' AND updated_at < ?)",
                (before, lobby_before),
            ).fetchall()
        return [row["code"] for row in rows]

    def load_room(self, code: str) -> dict[str, Any] | None:
        """Everything needed to rebuild a room: its row, players, current game and actions."""
        with self._lock:
            conn = self._conn
            row = conn.execute("SELECT * FROM rooms WHERE code = ?", (code,)).fetchone()
            if row is None:
                return None
            players = conn.execute(
                "SELECT seat, name, token, bot, human FROM players WHERE room = ? ORDER BY seat",
                (code,),
            ).fetchall()
            game = conn.execute(
                "SELECT setup, result FROM games WHERE room = ? AND game_no = ?",
                (code, row["game_no"]),
            ).fetchone()
            actions = conn.execute(
                "SELECT seat, action FROM actions WHERE room = ? AND game_no = ? ORDER BY idx",
                (code, row["game_no"]),
            ).fetchall()
        return {
            "code": row["code"],
            "host_token": row["host_token"],
            "spec": json.loads(row["spec"]),
            "status": row["status"],
            "game_no": row["game_no"],
            "campaign": json.loads(row["campaign"]) if row["campaign"] else None,
            "version": row["version"],
            "created_at": row["created_at"],
            "updated_at": row["updated_at"],
            "players": [{**dict(p), "human": bool(p["human"])} for p in players],
            "setup": json.loads(game["setup"]) if game else None,
            "actions": [{"seat": a["seat"], "action": json.loads(a["action"])} for a in actions],
        }


def _dumps_or_null(data: dict[str, Any] | None) -> str | None:
    return None if data is None else _dumps(data)


def _touch(code: str, version: int, now: float) -> tuple[str, tuple[Any, ...]]:
    # the stored version never goes down: a write may carry a version below one reserved
    # earlier for connection changes
    return (
        "UPDATE rooms SET version = MAX(version, ?), updated_at = ? WHERE code = ?",
        (version, now, code),
    )
