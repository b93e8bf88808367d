"""The daily deal's tables: ``daily_deals`` (a day's deal per player count: the seed,
drawn by the first node that needs it and then read by all, and the solver's verdict)
and ``daily_tables`` (the rooms playing a daily deal, and each one's result once its
game of the deal is over). The rows of a table outlive its room."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .base import Tx

T = TypeVar("T")

#: at most this many tables' results in one answer (the first ones to finish)
RESULTS_MAX = 500


class DailyTables:
    """The daily deal's reads and writes, on the store's ``_transaction``."""

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        raise NotImplementedError

    def daily_deal(self, day: str, players: int, seed: int, now: float) -> dict[str, Any]:
        """The deal of ``day`` for ``players``: ``{seed, verdict}``. The first call of
        the day stores ``seed``; every later one (on any node) reads it back."""

        def work(tx: Tx) -> dict[str, Any]:
            tx.execute(
                "INSERT INTO daily_deals (day, players, seed, created_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (day, players, seed, now),
            )
            row = tx.query(
                "SELECT seed, verdict FROM daily_deals WHERE day = ? AND players = ?",
                (day, players),
            )[0]
            verdict = json.loads(row["verdict"]) if row["verdict"] is not None else None
            return {"seed": int(row["seed"]), "verdict": verdict}

        return self._transaction(work)

    def find_daily_deal(self, day: str, players: int) -> dict[str, Any] | None:
        """The deal of ``day`` for ``players`` if one was drawn, else None."""
        rows = self._transaction(
            lambda tx: tx.query(
                "SELECT seed, verdict FROM daily_deals WHERE day = ? AND players = ?",
                (day, players),
            )
        )
        if not rows:
            return None
        verdict = rows[0]["verdict"]
        return {"seed": int(rows[0]["seed"]), "verdict": json.loads(verdict) if verdict else None}

    def set_daily_verdict(self, day: str, players: int, verdict: dict[str, Any]) -> None:
        """The solver's verdict on the deal (kept once stored)."""
        self._transaction(
            lambda tx: tx.execute(
                "UPDATE daily_deals SET verdict = ? WHERE day = ? AND players = ?"
                " AND verdict IS NULL",
                (json.dumps(verdict), day, players),
            )
        )

    def add_daily_table(self, code: str, day: str, players: int, now: float) -> None:
        """Room ``code`` plays the deal of ``day`` for ``players``."""
        self._transaction(
            lambda tx: tx.execute(
                "INSERT INTO daily_tables (room, day, players, created_at) VALUES (?, ?, ?, ?)",
                (code, day, players, now),
            )
        )

    def finish_daily_table(self, code: str, result: dict[str, Any], now: float) -> None:
        """How room ``code``'s game of its daily deal ended (the first record kept)."""
        self._transaction(
            lambda tx: tx.execute(
                "UPDATE daily_tables SET result = ?, won = ?, finished_at = ?"
                " WHERE room = ? AND result IS NULL",
                (json.dumps(result), int(bool(result.get("won"))), now, code),
            )
        )

    def daily_results(self, day: str, players: int) -> list[dict[str, Any]]:
        """The results of the tables that finished the deal, first finished first:
        ``{room, finished_at, result}``."""
        rows = self._transaction(
            lambda tx: tx.query(
                "SELECT room, finished_at, result FROM daily_tables"
                " WHERE day = ? AND players = ? AND result IS NOT NULL"
                " ORDER BY finished_at, room LIMIT ?",
                (day, players, RESULTS_MAX),
            )
        )
        return [
            {"room": r["room"], "finished_at": r["finished_at"], "result": json.loads(r["result"])}
            for r in rows
        ]

    def daily_counts(self, day: str) -> dict[int, dict[str, int]]:
        """For each player count of ``day``: the tables created, finished and won."""
        rows = self._transaction(
            lambda tx: tx.query(
                "SELECT players, COUNT(*) AS tables, COUNT(result) AS finished,"
                " COALESCE(SUM(won), 0) AS won"
                " FROM daily_tables WHERE day = ? GROUP BY players",
                (day,),
            )
        )
        return {
            int(r["players"]): {
                "tables": int(r["tables"]),
                "finished": int(r["finished"]),
                "won": int(r["won"] or 0),
            }
            for r in rows
        }
