"""A seat's opt-ins of one room, stored in ``notifications`` (deleted with the room): a
push subscription (``{"endpoint", "keys": {"p256dh", "auth"}}``) or an email address
(``{"address"}``; its mails link to ``DAME_NATURE_PUBLIC_URL``).
Each row's ``id`` is a random secret: the one-click unsubscribe link of a mail names it.
An address is never part of a view, a log line or an API answer."""

from __future__ import annotations

import json
import secrets
import time
from typing import Any

#: opt-ins one seat may hold in a room (its devices' push subscriptions, one address)
MAX_PUSH_PER_SEAT = 5

DELETE_ONE = "DELETE FROM notifications WHERE id = :id"


def add(store: Any, room: str, seat: int, kind: str, target: dict[str, Any]) -> str:
    """Opt seat ``seat`` in (an address replaces the seat's previous one; the same
    push endpoint is not stored twice; the oldest push subscription goes past
    ``MAX_PUSH_PER_SEAT``). The row's id."""
    value = json.dumps(target, separators=(",", ":"))
    ident = secrets.token_urlsafe(24)

    def work(tx: Any) -> str:
        rows = tx.query(
            "SELECT id, target FROM notifications"
            " WHERE room = :room AND seat = :seat AND kind = :kind ORDER BY created_at",
            {"room": room, "seat": seat, "kind": kind},
        )
        for row in rows:
            if kind == "email" or row["target"] == value:
                tx.execute(DELETE_ONE, {"id": row["id"]})
        kept = [r for r in rows if kind != "email" and r["target"] != value]
        for row in kept[: max(0, len(kept) - MAX_PUSH_PER_SEAT + 1)]:
            tx.execute(DELETE_ONE, {"id": row["id"]})
        tx.execute(
            "INSERT INTO notifications (id, room, seat, kind, target, created_at)"
            " VALUES (:id, :room, :seat, :kind, :target, :now)",
            {"id": ident, "room": room, "seat": seat, "kind": kind, "target": value,
             "now": time.time()},
        )  # fmt: skip
        return ident

    result: str = store._transaction(work)
    return result


def remove_seat(store: Any, room: str, seat: int, kind: str | None = None) -> int:
    """Opt seat ``seat`` out (of ``kind`` only, when given); how many were removed."""

    key = {"room": room, "seat": seat, "kind": kind}

    def work(tx: Any) -> int:
        if kind is None:
            return int(
                tx.execute("DELETE FROM notifications WHERE room = :room AND seat = :seat", key)
            )
        return int(
            tx.execute(
                "DELETE FROM notifications WHERE room = :room AND seat = :seat AND kind = :kind",
                key,
            )
        )

    result: int = store._transaction(work)
    return result


def remove(store: Any, ident: str) -> bool:
    """The one-click unsubscribe: the row ``ident`` goes (False: there was none)."""
    result: bool = store._transaction(lambda tx: tx.execute(DELETE_ONE, {"id": ident}) == 1)
    return result


def of_room(store: Any, room: str) -> list[dict[str, Any]]:
    """Every opt-in of ``room``: ``{id, seat, kind, target, last_sent}``; ``target`` is
    a push subscription, or ``{address, base}`` (``base``: the site's address the mail's
    links start with)."""
    rows = store._transaction(
        lambda tx: tx.query(
            "SELECT id, seat, kind, target, last_sent FROM notifications WHERE room = :room",
            {"room": room},
        )
    )
    return [{**row, "target": json.loads(row["target"])} for row in rows]


def mark_sent(store: Any, ident: str, key: str) -> bool:
    """Claim the notice ``key`` of row ``ident`` (False: already sent, by this node or
    another): at most one per wait."""
    result: bool = store._transaction(
        lambda tx: (
            tx.execute(
                "UPDATE notifications SET last_sent = :key WHERE id = :id"
                " AND (last_sent IS NULL OR last_sent <> :key)",
                {"key": key, "id": ident},
            )
            == 1
        )
    )
    return result
