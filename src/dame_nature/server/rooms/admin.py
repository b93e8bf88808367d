"""What the admin token may do to the rooms (``routes/admin.py``): close a room (its
sockets are told, then closed; the room is deleted, its games' results stay), take a
seat from its player (in the lobby the seat is removed; during a game a bot plays it
under a token no one holds), and send a message to every table.

Each command goes through the room's lock and the commit path like a player's, so a
change is stored before anyone is told. With nodes sharing a store, the other nodes are
told on the room's channel and tell their own sockets (``notice_from_node``).
"""

from __future__ import annotations

import secrets
import time
from typing import Any

from ...bots import DEFAULT_LEVEL
from ..errors import Refused
from ..jsonio import dumps
from .commit import Commit
from .hub import Hub
from .lobby import _remove
from .model import TOKEN_BYTES, Room
from .registry import Registry

#: the longest admin message
MAX_MESSAGE = 280


def announcement(message: str, at: float) -> str:
    return dumps({"type": "announcement", "message": message, "at": at})


async def close_room(
    commit: Commit, registry: Registry, room: Room, message: str, entry: dict[str, Any]
) -> int:
    """Delete ``room`` from the store (logging ``entry`` in the same write), tell and
    close its sockets (every node's); the sockets told on this node."""
    async with room.lock:
        entry["detail"]["sockets"] = commit.hub.count(room.code)
        await commit.write(commit.store.close_room, room.code, entry, now=time.time())
        registry.forget(room.code)
        commit.coordination.publish_notice(room.code, closed=message)
        return commit.hub.close_room(room.code, message)


async def remove_seat(commit: Commit, room: Room, seat: int, entry: dict[str, Any]) -> str:
    """Take seat ``seat`` from its player: ``"removed"`` (the lobby: as the host removes
    a seat) or ``"bot"`` (a game: a bot plays it; the player's token stops working and
    their sockets watch). ``entry`` (its ``detail`` told the seat's name and what was
    done) is logged in the same write."""

    async def change() -> str:
        player = room.player(seat)
        entry["detail"] = {**entry.get("detail", {}), "seat": seat, "name": player.name}
        if room.status == "lobby":
            entry["detail"]["outcome"] = "removed"
            await _remove(commit, room, seat, entry)
            return "removed"
        if not player.human and player.bot is not None:
            raise Refused("already_a_bot", "A bot plays this seat already.")
        entry["detail"]["outcome"] = "bot"
        token = secrets.token_urlsafe(TOKEN_BYTES)
        level = player.bot or DEFAULT_LEVEL
        now = time.time()
        await commit.save(
            room, commit.store.revoke_seat, room.code, seat, token, level, now=now, admin_log=entry
        )
        player.token, player.bot, player.human, player.host = token, level, False, False
        commit.hub.seat_revoked(room.code, seat)
        commit.changed(room, now)
        return "bot"

    return await commit.attempt(room, change)


async def announce(commit: Commit, codes: list[str], message: str, entry: dict[str, Any]) -> int:
    """Send ``message`` to every table once ``entry`` is logged: this node's sockets at
    once, the other nodes' through the channels of ``codes``; the sockets told here."""
    at = time.time()
    await commit.write(commit.store.add_admin_log, entry, now=at)
    text = announcement(message, at)
    told = 0
    for conns_by_seat in commit.hub.all_sockets():
        for conns in conns_by_seat.values():
            for conn in conns:
                conn.push(text)
                told += 1
    for code in codes:
        commit.coordination.publish_notice(code, announcement=message, at=at)
    return told


def notice_from_node(hub: Hub, registry: Registry, message: dict[str, Any]) -> bool:
    """A message of another node about an admin action: whether it was one (an
    announcement, or a room closed: this node forgets it and its sockets are told)."""
    code = str(message.get("room", ""))
    if "closed" in message:
        registry.forget(code)
        hub.close_room(code, str(message["closed"]))
        return True
    if "announcement" in message:
        text = announcement(str(message["announcement"]), float(message.get("at") or 0))
        for conns in hub.sockets(code).values():
            for conn in conns:
                conn.push(text)
        return True
    return False
