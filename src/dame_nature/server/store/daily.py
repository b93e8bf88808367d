"""The daily deal's table, ``daily_deals``: a day's deal per player count (the seed,
drawn by the first node that needs it and then read by all, and the solver's verdict).
How each table did is in ``results`` (``records.py``), under the deal's key."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from .sql import in_list

if TYPE_CHECKING:
    from .sql import Tx

T = TypeVar("T")

SELECT_DEAL = "SELECT seed, verdict FROM daily_deals WHERE day = :day AND players = :players"


class DailyTables:
    """The daily deal's reads and writes, on the store's ``_transaction``."""

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        raise NotImplementedError

    def daily_deal(self, day: str, players: int, seed: int, now: float) -> dict[str, Any]:
        """The deal of ``day`` for ``players``: ``{seed, verdict}``. The first call of
        the day stores ``seed``; every later one (on any node) reads it back."""

        key = {"day": day, "players": players, "seed": seed, "now": now}

        def work(tx: Tx) -> dict[str, Any]:
            tx.execute(
                "INSERT INTO daily_deals (day, players, seed, created_at)"
                " VALUES (:day, :players, :seed, :now) ON CONFLICT DO NOTHING",
                key,
            )
            row = tx.query(SELECT_DEAL, key)[0]
            verdict = json.loads(row["verdict"]) if row["verdict"] is not None else None
            return {"seed": int(row["seed"]), "verdict": verdict}

        return self._transaction(work)

    def find_daily_deal(self, day: str, players: int) -> dict[str, Any] | None:
        """The deal of ``day`` for ``players`` if one was drawn, else None."""
        rows = self._transaction(lambda tx: tx.query(SELECT_DEAL, {"day": day, "players": players}))
        if not rows:
            return None
        verdict = rows[0]["verdict"]
        return {"seed": int(rows[0]["seed"]), "verdict": json.loads(verdict) if verdict else None}

    def set_daily_verdict(self, day: str, players: int, verdict: dict[str, Any]) -> None:
        """The solver's verdict on the deal (kept once stored)."""
        self._transaction(
            lambda tx: tx.execute(
                "UPDATE daily_deals SET verdict = :verdict WHERE day = :day AND players = :players"
                " AND verdict IS NULL",
                {"verdict": json.dumps(verdict), "day": day, "players": players},
            )
        )

    def daily_counts(self, keys: list[str]) -> dict[str, dict[str, int]]:
        """For each daily deal's key of ``keys`` (in ``results.deal``): the tables that
        finished it and those that won it."""
        if not keys:
            return {}
        marks, params = in_list("deal", keys)
        rows = self._transaction(
            lambda tx: tx.query(
                "SELECT deal, COUNT(*) AS finished, COALESCE(SUM(won), 0) AS won"
                f" FROM results WHERE deal IN {marks} GROUP BY deal",
                params,
            )
        )
        return {r["deal"]: {"finished": int(r["finished"]), "won": int(r["won"])} for r in rows}
