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

>>> from dame_nature.server.store import open_store
>>> store = open_store(":memory:")
>>> store.create_room("abc", "tok", {"modes": []}, now=1.0)
>>> store.add_player("abc", 0, "Ada", "t0", version=1, now=2.0)
>>> store.add_player("abc", 1, "Darwin", "t1", version=2, now=3.0, bot="expert", human=False)
>>> [(p["name"], p["bot"], p["human"]) for p in store.load_room("abc")["players"]]
[('Ada', None, True), ('Darwin', 'expert', False)]
>>> store.add_player("abc", 2, "Bo", "t2", version=2, now=4.0)  # version 2 is taken
Traceback (most recent call last):
...
dame_nature.server.store.sql.Conflict: room abc is no longer at version 1
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import orjson

from ..provenance import ENGINE_VERSION, RULES_VERSION
from .clocks import ClockTables, Waiting, loads_waiting, waiting_statements
from .daily import DailyTables
from .games import GameTables
from .nodes import NodeTables
from .records import INSERT_RESULT, RecordTables, admin_log_row, result_row
from .sql import NO_PARAMS, Params, Tx, in_list

T = TypeVar("T")

INSERT_ACTION = (
    "INSERT INTO actions (room, game_no, idx, seat, action, version, stand_in)"
    " VALUES (:room, :game_no, :idx, :seat, :action, :version, :stand_in)"
)
#: a list of statements of one transaction, each with its parameters
Statements = list[tuple[str, Params]]


#: ``json.dumps(data, separators=(",", ":"))`` without building an encoder per call
_dumps = json.JSONEncoder(separators=(",", ":")).encode


def _action_text(action: dict[str, Any]) -> str:
    r"""``_dumps(action)``, by ``orjson`` when it writes the same text: an action whose
    values are strings, integers and nulls, written in ASCII without DEL (``json``
    escapes every character outside ``' '`` to ``'~'``; its floats and booleans are left
    to ``json``).

    >>> _action_text({"type": "give", "card": "cond-blue-1", "to": 2, "x": None})
    '{"type":"give","card":"cond-blue-1","to":2,"x":null}'
    >>> _action_text({"type": "program", "card": "été"})
    '{"type":"program","card":"\\u00e9t\\u00e9"}'
    """
    for value in action.values():
        kind = type(value)
        if kind is not str and kind is not int and value is not None:
            return _dumps(action)
    try:
        text = orjson.dumps(action)
    except orjson.JSONEncodeError:  # an integer past 64 bits
        return _dumps(action)
    if text.isascii() and 0x7F not in text:  # an int: no TypeError made and cleared
        return text.decode()
    return _dumps(action)


def _dumps_or_null(data: dict[str, Any] | None) -> str | None:
    return None if data is None else _dumps(data)


def _action_row(
    code: str,
    game_no: int,
    idx: int,
    seat: int,
    action: dict[str, Any],
    version: int,
    stand_in: dict[str, Any] | None,
) -> dict[str, Any]:
    """The parameters of ``INSERT_ACTION``."""
    return {
        "room": code, "game_no": game_no, "idx": idx, "seat": seat,
        "action": _action_text(action),
        "version": version, "stand_in": _dumps_or_null(stand_in),
    }  # fmt: skip


def _loads_or_none(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class BaseStore(NodeTables, ClockTables, RecordTables, DailyTables, GameTables):
    """The SQL of every read and write; subclasses provide ``_transaction`` and ``call``."""

    #: several server processes may write this database at once
    shared = False
    #: ``call`` runs the method at once on the event loop, awaiting nothing (a caller
    #: may then call the method itself)
    inline = False

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        """Run ``work`` in one transaction (``snapshot``: every read of it sees the same
        moment, for reads of several statements)."""
        raise NotImplementedError

    async def call(self, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def _write(self, statements: Statements) -> None:
        def work(tx: Tx) -> None:
            for sql, params in statements:
                tx.execute(sql, params)

        self._transaction(work)

    def _change(
        self,
        code: str,
        statements: Statements,
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
        limit = spec.get("turn_limit_seconds")  # a paced room's (``clocks.py``)
        row = {
            "code": code, "host_token": host_token, "spec": _dumps(spec),
            "campaign": _dumps_or_null(campaign), "now": now, "turn_limit": limit,
        }  # fmt: skip
        self._write(
            [
                (
                    "INSERT INTO rooms"
                    " (code, host_token, spec, campaign, created_at, updated_at, turn_limit)"
                    " VALUES (:code, :host_token, :spec, :campaign, :now, :now, :turn_limit)",
                    row,
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
            "UPDATE rooms SET spec = :spec, campaign = :campaign, turn_limit = :turn_limit"
            " WHERE code = :code",
            {
                "spec": _dumps(spec), "campaign": _dumps_or_null(campaign),
                "turn_limit": spec.get("turn_limit_seconds"), "code": code,
            },
        )  # fmt: skip
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
        host: bool = False,
        expected: int | None = None,
    ) -> None:
        """A seat joins: a person, or a bot of level ``bot`` (``human=False``: added as a
        bot, its token held by no one); ``host``: taken with the host token."""
        insert = (
            "INSERT INTO players (room, seat, name, token, bot, human, host)"
            " VALUES (:code, :seat, :name, :token, :bot, :human, :host)",
            {
                "code": code, "seat": seat, "name": name, "token": token, "bot": bot,
                "human": int(human), "host": int(host),
            },
        )  # fmt: skip
        self._change(code, [insert], version, now, expected)

    def remove_player(
        self,
        code: str,
        seat: int,
        *,
        version: int,
        now: float,
        expected: int | None = None,
        admin_log: dict[str, Any] | None = None,
    ) -> None:
        """A seat leaves the lobby; the seats after it move down one (seats stay 0..n-1).
        ``admin_log``: the admin removed it (``records.admin_log_row``), logged with it."""
        key = {"code": code, "seat": seat}
        statements: Statements = [
            ("DELETE FROM players WHERE room = :code AND seat = :seat", key),
            # two steps, so that no two rows ever share a seat (the primary key)
            ("UPDATE players SET seat = -seat WHERE room = :code AND seat > :seat", key),
            ("UPDATE players SET seat = -seat - 1 WHERE room = :code AND seat < 0", key),
            # the seats connected through each node move with them
            ("DELETE FROM presence WHERE room = :code AND seat = :seat", key),
            ("UPDATE presence SET seat = -seat WHERE room = :code AND seat > :seat", key),
            ("UPDATE presence SET seat = -seat - 1 WHERE room = :code AND seat < 0", key),
            *([admin_log_row(admin_log, now)] if admin_log is not None else []),
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
        waiting: Waiting | None = None,
    ) -> None:
        """A bot takes over a seat (``bot``: its level), or leaves it (``None``);
        ``waiting``: a paced room's turn clocks after it."""
        update = (
            "UPDATE players SET bot = :bot WHERE room = :code AND seat = :seat",
            {"bot": bot, "code": code, "seat": seat},
        )
        self._change(code, [update, *waiting_statements(code, waiting)], version, now, expected)

    def set_host(
        self, code: str, seat: int, *, version: int, now: float, expected: int | None = None
    ) -> None:
        """The host role passes to seat ``seat``; the host token no longer acts as host."""
        key = {"code": code, "seat": seat}
        statements: Statements = [
            ("UPDATE players SET host = CASE WHEN seat = :seat THEN 1 ELSE 0 END"
             " WHERE room = :code", key),
            ("UPDATE rooms SET host_passed = 1 WHERE code = :code", key),
        ]  # fmt: skip
        self._change(code, statements, version, now, expected)

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
        actions: list[dict[str, Any]] | None = None,
        waiting: Waiting | None = None,
    ) -> None:
        """A new game; ``actions``: the ones it starts with (a game played from a step
        of another one's replay), stored as its first actions; ``waiting``: a paced
        room's turn clocks (``clocks.py``)."""
        statements: Statements = [
            (
                "INSERT INTO games (room, game_no, setup, engine_version, rules_version)"
                " VALUES (:code, :game_no, :setup, :engine_version, :rules_version)",
                {
                    "code": code,
                    "game_no": game_no,
                    "setup": _dumps(setup),
                    "engine_version": ENGINE_VERSION,
                    "rules_version": RULES_VERSION,
                },
            ),
            *(
                (
                    INSERT_ACTION,
                    {
                        "room": code,
                        "game_no": game_no,
                        "idx": i,
                        "seat": a["seat"],
                        "action": _dumps(a["action"]),
                        "version": version,
                        "stand_in": None,
                    },
                )
                for i, a in enumerate(actions or [])
            ),
            (
                "UPDATE rooms SET status = 'playing', game_no = :game_no, campaign = :campaign"
                " WHERE code = :code",
                {"game_no": game_no, "campaign": _dumps_or_null(campaign or None), "code": code},
            ),
            *waiting_statements(code, waiting),
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
        stand_in: dict[str, Any] | None = None,
        waiting: Waiting | None = None,
        record: dict[str, Any] | None = None,
    ) -> None:
        """Append action ``idx`` of the game (and its end: result, final digest, and
        ``record``, the row of ``results``); ``stand_in``: the bot that played it for an
        absent person (``{level, turn}``); ``waiting``: a paced room's turn clocks after
        it (``clocks.py``)."""
        expected = version - 1 if expected is None else expected
        if result is None and waiting is None:
            self.append_action(code, game_no, idx, seat, action, stand_in, now, version, expected)
            return
        row = _action_row(code, game_no, idx, seat, action, version, stand_in)
        if result is None:
            statements = [(INSERT_ACTION, row), *waiting_statements(code, waiting)]
            self._change(code, statements, version, now, expected)
            return
        end: Statements = [
            *waiting_statements(code, waiting),
            (
                "UPDATE games SET result = :result, digest = :digest"
                " WHERE room = :code AND game_no = :game_no",
                {"result": _dumps(result), "digest": digest, "code": code, "game_no": game_no},
            ),
            (
                "UPDATE rooms SET status = 'over', campaign = :campaign WHERE code = :code",
                {"campaign": _dumps_or_null(campaign or None), "code": code},
            ),
            *([(INSERT_RESULT, result_row(record))] if record is not None else []),
        ]
        self._change(code, [(INSERT_ACTION, row), *end], version, now, expected)

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
        """``add_action`` of an action that neither ends its game nor moves a paced
        room's clocks (``result`` and ``waiting`` None): the usual action, its arguments
        by position (a call of few keywords through the layers that hand it over)."""
        row = _action_row(code, game_no, idx, seat, action, version, stand_in)
        self._append_action(row, now, expected)

    def _append_action(self, row: dict[str, Any], now: float, expected: int) -> None:
        """An action that does not end its game (``row``: the parameters of
        ``INSERT_ACTION``): the room's compare-and-set and the insert, in one transaction."""
        self._change(row["room"], [(INSERT_ACTION, row)], row["version"], now, expected)

    def set_version(
        self, code: str, version: int, now: float | None, expected: int | None = None
    ) -> None:
        """A change of the room that is not stored otherwise (a new version only)."""
        self._transaction(lambda tx: tx.touch(code, version, now, expected))

    def delete_rooms(self, codes: list[str]) -> None:
        if codes:
            delete = "DELETE FROM rooms WHERE code = :code"
            self._write([(delete, {"code": code}) for code in codes])

    # ---------------------------------------------------------------- reads
    def _query(self, sql: str, params: Params = NO_PARAMS) -> list[dict[str, Any]]:
        return self._transaction(lambda tx: tx.query(sql, params))

    def room_codes(self, statuses: tuple[str, ...] = ("lobby", "playing", "over")) -> list[str]:
        if not statuses:
            return []
        marks, params = in_list("status", statuses)
        rows = self._query(
            f"SELECT code FROM rooms WHERE status IN {marks} ORDER BY created_at", params
        )
        return [row["code"] for row in rows]

    def idle_rooms(
        self, before: float, lobby_before: float | None = None, paced_before: float | None = None
    ) -> list[str]:
        """Rooms with no change since ``before`` (lobbies: since ``lobby_before``; paced
        rooms, whatever their status: since ``paced_before``) and no seat connected to
        any node."""
        lobby_before = before if lobby_before is None else lobby_before
        paced_before = before if paced_before is None else paced_before
        rows = self._query(
            "SELECT code FROM rooms WHERE"
            " ((turn_limit IS NULL AND (updated_at < :before"
            " OR (status = 'lobby' AND updated_at < :lobby_before)))"
            " OR (turn_limit IS NOT NULL AND updated_at < :paced_before))"
            " AND NOT EXISTS (SELECT 1 FROM presence WHERE presence.room = rooms.code)",
            {"before": before, "lobby_before": lobby_before, "paced_before": paced_before},
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
            marks, params = in_list("code", codes[start : start + 500])
            rows = self._query(f"SELECT code, version FROM rooms WHERE code IN {marks}", params)
            found.update((row["code"], row["version"]) for row in rows)
        return found

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
            rows = tx.query("SELECT * FROM rooms WHERE code = :code", {"code": code})
            if not rows:
                return None
            row = rows[0]
            players = tx.query(
                "SELECT seat, name, token, bot, human, host FROM players"
                " WHERE room = :code ORDER BY seat",
                {"code": code},
            )
            start = from_idx if row["game_no"] == game_no else 0
            game = _game(tx, code, row["game_no"]) if row["game_no"] else None
            actions, versions, stand_ins = _actions(tx, code, row["game_no"], start)
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
                "players": [
                    {**p, "human": bool(p["human"]), "host": bool(p["host"])} for p in players
                ],
                "host_passed": bool(row.get("host_passed")),
                "waiting": loads_waiting(row.get("waiting")),
                "present": tx.present(code),
                "game": game,
                "setup": game["setup"] if game else None,
                "from_idx": start,
                "actions": actions,
                "versions": versions,
                "stand_ins": stand_ins,
            }

        # one snapshot: the room's version and its actions agree
        return self._transaction(work, snapshot=True)


def _game(tx: Tx, code: str, game_no: int) -> dict[str, Any] | None:
    """Game ``game_no`` of room ``code`` (without its actions), or None."""
    rows = tx.query(
        "SELECT * FROM games WHERE room = :code AND game_no = :game_no",
        {"code": code, "game_no": game_no},
    )
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
        "hints": _loads_or_none(row.get("hints")),
        "review": _loads_or_none(row.get("review")),
    }


def _actions(
    tx: Tx, code: str, game_no: int, start: int = 0
) -> tuple[list[dict[str, Any]], list[int | None], list[dict[str, Any] | None]]:
    """The actions of a game from index ``start`` on (``{seat, action}``), the version
    each of them made (None: stored before versions were), and the stand-in bot that
    played each one for an absent person (``{level, turn}``; None: the seat's own)."""
    rows = tx.query(
        "SELECT seat, action, version, stand_in FROM actions"
        " WHERE room = :code AND game_no = :game_no AND idx >= :start ORDER BY idx",
        {"code": code, "game_no": game_no, "start": start},
    )
    actions = [{"seat": row["seat"], "action": json.loads(row["action"])} for row in rows]
    stand_ins = [_loads_or_none(row["stand_in"]) for row in rows]
    return actions, [row["version"] for row in rows], stand_ins
