"""The cluster's tables: which seats are connected through which node (``presence``),
which nodes are alive (``nodes``, a heartbeat each), and which node drives a room's
bots (a lead: a PostgreSQL advisory lock; the one process of a SQLite store always
leads). The one node of a SQLite store uses only ``reset_presence``, at start-up.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from .sql import Tx

T = TypeVar("T")


class NodeTables:
    """Presence, heartbeats and leads, on the store's ``_transaction``."""

    def _transaction(self, work: Callable[[Tx], T], snapshot: bool = False) -> T:
        raise NotImplementedError

    def try_lead(self, code: str) -> bool:
        """Whether this process may drive room ``code``'s bots (the one process of a
        SQLite store always may)."""
        return True

    def release_lead(self, code: str) -> None:
        """This process stops driving room ``code``'s bots."""

    def check_leads(self) -> None:
        """Forget the leads held when the database connection holding them was lost."""

    def set_presence(
        self, code: str, seat: int, node: str, present: bool, *, version: int, now: float
    ) -> list[int]:
        """A seat's first socket on ``node`` opened (``present``) or its last one closed:
        a new version; the seats connected anywhere afterwards."""

        key = {"code": code, "seat": seat, "node": node}

        def work(tx: Tx) -> list[int]:
            tx.touch(code, version, None)  # connections alone do not keep a room alive
            if present:
                tx.execute(
                    "INSERT INTO presence (room, seat, node) VALUES (:code, :seat, :node)"
                    " ON CONFLICT DO NOTHING",
                    key,
                )
            else:
                tx.execute(
                    "DELETE FROM presence WHERE room = :code AND seat = :seat AND node = :node",
                    key,
                )
            return tx.present(code)

        return self._transaction(work)

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
            key = {"node": node, "now": now}
            if tx.execute("UPDATE nodes SET seen_at = :now WHERE node = :node", key):
                return True
            tx.execute(
                "INSERT INTO nodes (node, seen_at) VALUES (:node, :now) ON CONFLICT DO NOTHING",
                key,
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
                rows = tx.query(
                    "SELECT node FROM nodes WHERE seen_at < :before", {"before": before}
                )
                dead = [row["node"] for row in rows]
            changed: list[tuple[str, int]] = []
            for node in dead:
                key = {"node": node}
                rooms = tx.query(
                    "SELECT DISTINCT room FROM presence WHERE node = :node ORDER BY room", key
                )
                tx.execute("DELETE FROM presence WHERE node = :node", key)
                for row in rooms:
                    found = tx.query(
                        "UPDATE rooms SET version = version + 1, updated_at = :now"
                        " WHERE code = :code RETURNING code, version",
                        {"now": now, "code": row["room"]},
                    )
                    changed += [(r["code"], r["version"]) for r in found]
                tx.execute("DELETE FROM nodes WHERE node = :node", key)
            return changed

        return self._transaction(work)
