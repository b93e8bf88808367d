"""The records kept beside the rooms: each finished game's result (``results``, written
in the transaction that stores the game's end, kept when its room is deleted) and every
action taken with the admin token (``admin_log``).

>>> from dame_nature.server.store import open_store
>>> store = open_store(":memory:")
>>> store.create_room("abc", "tok", {"modes": []}, now=1.0)
>>> record = {"room": "abc", "game_no": 1, "finished_at": 86400.0, "players": 2,
...           "rules": ["cats"], "won": True, "cards_placed": 30, "discards": 2,
...           "turns": 15, "people": 1, "bots": 1, "stand_in_moves": 0, "hints": 3}
>>> store.add_result(record)
>>> row = store.results()[0]
>>> row["day"], row["rules"], row["won"], row["deal"]
('1970-01-02', ['cats'], True, None)
>>> store.result_summary()
[{'players': 2, 'rules': ['cats'], 'with_people': True, 'won': True, 'games': 1}]
>>> entry = {"who": "ops", "action": "close_room", "target": "abc", "detail": {"reason": "spam"}}
>>> store.close_room("abc", entry, now=5.0)
>>> [(e["who"], e["action"], e["target"], e["detail"]) for e in store.admin_log()]
[('ops', 'close_room', 'abc', {'reason': 'spam'})]
>>> store.load_room("abc") is None, len(store.results())
(True, 1)
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .sql import NO_PARAMS, Params, in_list

if TYPE_CHECKING:
    from .sql import Tx

T = TypeVar("T")

#: the columns of a result (``INSERT_RESULT``'s parameters are named after them)
RESULT_COLUMNS = (
    "room", "game_no", "finished_at", "day", "players", "rules", "won", "cards_placed",
    "discards", "turns", "people", "bots", "stand_in_moves", "hints", "deal",
)  # fmt: skip
INSERT_RESULT = (
    f"INSERT INTO results ({', '.join(RESULT_COLUMNS)})"
    f" VALUES ({', '.join(':' + column for column in RESULT_COLUMNS)}) ON CONFLICT DO NOTHING"
)
#: the most rows one read of the results or of the admin log answers
MAX_ROWS = 500


def result_row(record: dict[str, Any]) -> dict[str, Any]:
    """The parameters of ``INSERT_RESULT`` for a game's result (``results.game_result``):
    its day is the UTC date it finished; its rules, sorted."""
    day = time.strftime("%Y-%m-%d", time.gmtime(record["finished_at"]))
    values = {
        **record,
        "day": day,
        "rules": json.dumps(sorted(record["rules"])),
        "won": int(bool(record["won"])),
        "deal": record.get("deal"),
    }
    return {column: values[column] for column in RESULT_COLUMNS}


def admin_log_row(entry: dict[str, Any], now: float) -> tuple[str, Params]:
    """The insert of an admin action into ``admin_log`` (``entry``: ``who``, ``action``,
    ``target``, ``detail``), to run in the transaction of the action itself."""
    detail = entry.get("detail")
    return (
        "INSERT INTO admin_log (at, who, action, target, detail)"
        " VALUES (:now, :who, :action, :target, :detail)",
        {"now": now, "who": entry["who"], "action": entry["action"],
         "target": entry.get("target"),
         "detail": None if detail is None else json.dumps(detail, sort_keys=True)},
    )  # fmt: skip


def _result(row: dict[str, Any]) -> dict[str, Any]:
    return {**row, "rules": json.loads(row["rules"]), "won": bool(row["won"])}


class RecordTables:
    """Results and the admin log, on the store's ``_transaction``."""

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        raise NotImplementedError

    def _query(self, sql: str, params: Params = NO_PARAMS) -> list[dict[str, Any]]:
        raise NotImplementedError

    # ---------------------------------------------------------------- results
    def add_result(self, record: dict[str, Any]) -> None:
        """Store a finished game's result alone (the server writes it with the game's
        end, in ``add_action``); a game's second result is ignored."""
        self._transaction(lambda tx: tx.execute(INSERT_RESULT, result_row(record)))

    def results(
        self,
        *,
        deal: str | None = None,
        room: str | None = None,
        since: float | None = None,
        limit: int = MAX_ROWS,
    ) -> list[dict[str, Any]]:
        """The results stored, oldest first (at most ``limit``, the newest ones): of one
        shared ``deal``, of one ``room``, or finished at ``since`` or later."""
        params = {"deal": deal, "room": room, "since": since, "limit": max(0, min(limit, MAX_ROWS))}
        where = ["1 = 1"]
        where += [f"{key} = :{key}" for key in ("deal", "room") if params[key] is not None]
        where += ["finished_at >= :since"] if since is not None else []
        rows = self._query(
            f"SELECT * FROM results WHERE {' AND '.join(where)}"
            " ORDER BY finished_at DESC, room, game_no LIMIT :limit",
            params,
        )
        return [_result(row) for row in reversed(rows)]

    def result_summary(self) -> list[dict[str, Any]]:
        """Games counted by player count, rules, whether a person sat at the table, and
        outcome (the statistics' figures are sums of these)."""
        with_people = "CASE WHEN people > 0 THEN 1 ELSE 0 END"
        rows = self._query(
            f"SELECT players, rules, {with_people} AS with_people, won, COUNT(*) AS games"
            f" FROM results GROUP BY players, rules, {with_people}, won"
            " ORDER BY players, rules, with_people, won"
        )
        return [{**_result(row), "with_people": bool(row["with_people"])} for row in rows]

    def games_per_day(self, since_day: str) -> list[dict[str, Any]]:
        """Games finished and won each UTC day from ``since_day`` (``YYYY-MM-DD``) on."""
        rows = self._query(
            "SELECT day, COUNT(*) AS games, SUM(won) AS won FROM results"
            " WHERE day >= :since_day GROUP BY day ORDER BY day",
            {"since_day": since_day},
        )
        return [{"day": r["day"], "games": int(r["games"]), "won": int(r["won"])} for r in rows]

    # ---------------------------------------------------------------- admin
    def admin_rooms(self, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """The stored rooms, newest first (at most ``limit``): code, status, game, times,
        seats (name, bot, person) and the nodes their seats are connected to."""

        def work(tx: Tx) -> list[dict[str, Any]]:
            rooms = tx.query(
                "SELECT code, status, game_no, created_at, updated_at FROM rooms"
                " ORDER BY created_at DESC LIMIT :limit",
                {"limit": max(0, min(limit, MAX_ROWS))},
            )
            if not rooms:
                return []
            marks, codes = in_list("code", [room["code"] for room in rooms])
            seats: dict[str, list[dict[str, Any]]] = {}
            for row in tx.query(
                f"SELECT room, seat, name, bot, human FROM players WHERE room IN {marks}"
                " ORDER BY room, seat",
                codes,
            ):
                seats.setdefault(row["room"], []).append(
                    {"seat": row["seat"], "name": row["name"], "bot": row["bot"],
                     "human": bool(row["human"])}
                )  # fmt: skip
            nodes: dict[str, set[str]] = {}
            for row in tx.query(
                f"SELECT DISTINCT room, node FROM presence WHERE room IN {marks}", codes
            ):
                nodes.setdefault(row["room"], set()).add(row["node"])
            return [
                {**room, "players": seats.get(room["code"], []),
                 "nodes": sorted(nodes.get(room["code"], ()))}
                for room in rooms
            ]  # fmt: skip

        return self._transaction(work, snapshot=True)

    def connected_rooms(self) -> list[str]:
        """The rooms with a seat connected to some node (nodes sharing a store)."""
        return [row["room"] for row in self._query("SELECT DISTINCT room FROM presence")]

    def revoke_seat(
        self,
        code: str,
        seat: int,
        token: str,
        bot: str,
        *,
        version: int,
        now: float,
        expected: int | None = None,
        admin_log: dict[str, Any] | None = None,
    ) -> None:
        """During a game, the admin takes seat ``seat`` from its player: a bot of level
        ``bot`` plays it, under a new ``token`` that no one holds (and the action is
        logged, ``admin_log``, in the same transaction)."""

        def work(tx: Tx) -> None:
            tx.touch(code, version, now, expected)
            tx.execute(
                "UPDATE players SET token = :token, bot = :bot, human = 0, host = 0"
                " WHERE room = :code AND seat = :seat",
                {"token": token, "bot": bot, "code": code, "seat": seat},
            )
            if admin_log is not None:
                tx.execute(*admin_log_row(admin_log, now))

        self._transaction(work)

    # ---------------------------------------------------------------- admin log
    def add_admin_log(self, entry: dict[str, Any], *, now: float) -> None:
        """An action taken with the admin token (``entry``: ``who``, the admin's label or
        the token's fingerprint; ``action``; its ``target``, a room; ``detail``)."""
        sql, params = admin_log_row(entry, now)
        self._transaction(lambda tx: tx.execute(sql, params))

    def close_room(self, code: str, admin_log: dict[str, Any], *, now: float) -> None:
        """The admin closes room ``code``: it is deleted (with its seats, games and
        actions; its results stay), and the action logged, in one transaction."""
        sql, params = admin_log_row(admin_log, now)

        def work(tx: Tx) -> None:
            tx.execute("DELETE FROM rooms WHERE code = :code", {"code": code})
            tx.execute(sql, params)

        self._transaction(work)

    def admin_log(self, limit: int = MAX_ROWS) -> list[dict[str, Any]]:
        """The admin actions, newest first (at most ``limit``)."""
        rows = self._query(
            "SELECT id, at, who, action, target, detail FROM admin_log"
            " ORDER BY id DESC LIMIT :limit",
            {"limit": max(0, min(limit, MAX_ROWS))},
        )
        return [
            {**r, "detail": None if r["detail"] is None else json.loads(r["detail"])} for r in rows
        ]
