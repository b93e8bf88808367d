"""Paced rooms' turn clocks in the store: ``rooms.waiting`` (JSON ``{seat: since}``, the
moment the table started waiting for each seat it waits for) and ``rooms.turn_due`` (the
earliest deadline), written in the transaction of the change that set them, and the
query that finds the overdue rooms (a restarted node, a room no node holds).
"""

from __future__ import annotations

import json
from typing import Any

from .sql import NO_PARAMS, Params

#: a paced room's turn clocks: ``({seat: since}, earliest deadline or None)``
Waiting = tuple[dict[int, float], float | None]


class ClockTables:
    """The overdue paced rooms, on the store's ``_query``."""

    def _query(self, sql: str, params: Params = NO_PARAMS) -> list[dict[str, Any]]:
        raise NotImplementedError

    def due_rooms(self, now: float) -> list[str]:
        """The paced games with a seat's turn clock past its limit at ``now``."""
        rows = self._query(
            "SELECT code FROM rooms WHERE status = 'playing' AND turn_due <= :now"
            " ORDER BY turn_due",
            {"now": now},
        )
        return [row["code"] for row in rows]


def waiting_statements(code: str, waiting: Waiting | None) -> list[tuple[str, Params]]:
    """The statement storing a paced room's turn clocks: ``waiting`` maps each seat the
    table waits for to the moment it started waiting (its limit runs from there), and
    ``turn_due`` is the earliest deadline (None: the table waits for no one). None: a
    live room, nothing stored."""
    if waiting is None:
        return []
    clocks, due = waiting
    return [
        (
            "UPDATE rooms SET waiting = :waiting, turn_due = :due WHERE code = :code",
            {
                "waiting": json.dumps({str(seat): since for seat, since in clocks.items()}),
                "due": due,
                "code": code,
            },
        )
    ]


def loads_waiting(text: str | None) -> dict[int, float]:
    """The stored ``rooms.waiting`` as ``{seat: since}`` (NULL: none)."""
    return {int(seat): float(since) for seat, since in json.loads(text or "{}").items()}
