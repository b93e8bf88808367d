"""Sockets joining and leaving a room: a seat's first socket on this node makes it
connected (a new version every seat sees), its last one leaving disconnects it, and a
player back on a seat a bot stood in for takes it back.

Which seat a socket plays is read from its token under the room's lock (seats move in
the lobby when one is removed), and read again from it whenever the room is reloaded
from the store (``Hub.reseat``: another node removed a seat).
"""

from __future__ import annotations

import logging

from ..connections import Connection
from .commit import Commit
from .lobby import seat_of_token, set_bot
from .model import Room

log = logging.getLogger("dame_nature.server")


async def connect(commit: Commit, room: Room, conn: Connection, token: str | None = None) -> None:
    """Attach a socket; it gets the current view at once (refused when the room's
    spectator places, or this seat's sockets, are all taken: ``Hub.admit``).
    ``token``: the seat token the socket came with."""
    hub = commit.hub
    async with room.lock:
        if token is not None:
            conn.seat = seat_of_token(room, token)
            conn.token = token
        hub.admit(room.code, conn.seat)
        await commit.coordination.before_first_view(room)  # the view it gets is as stored
        was = hub.local(room.code, conn.seat) if conn.seat is not None else True
        hub.add(room.code, conn)
        commit.coordination.watch(room.code)
        conn.start()
        await _attached(commit, room, conn, was)


async def take_seat(commit: Commit, room: Room, conn: Connection, token: str) -> None:
    """A socket that authenticated after connecting (``{"type": "auth"}``) moves from
    the spectators to its token's seat, and gets the seat's view."""
    hub = commit.hub
    async with room.lock:
        seat = seat_of_token(room, token)
        hub.admit(room.code, seat)
        was = hub.local(room.code, seat)
        hub.seat(room.code, conn, seat)
        conn.token = token
        if not conn.started:
            conn.start()
        await _attached(commit, room, conn, was)


async def disconnect(commit: Commit, room: Room, conn: Connection) -> None:
    await conn.stop()
    async with room.lock:
        last = commit.hub.remove(room.code, conn)
        if last is None:
            return
        if last and conn.seat is not None:
            await commit.presence(room, conn.seat, False)
        if not commit.hub.count(room.code):
            commit.coordination.unwatch(room.code)


async def _attached(commit: Commit, room: Room, conn: Connection, was_connected: bool) -> None:
    """Under the lock, a socket just attached: a player back on a seat a bot stood in
    for takes it back; else the socket gets its view (everyone a new version when a
    seat's ``connected`` flag changed)."""
    hub = commit.hub
    player = room.players[conn.seat] if conn.seat is not None else None
    if player is not None and player.stand_in:
        # connected and back on the seat: one view says both
        if not was_connected:
            was_connected = await commit.presence(room, player.seat, True, broadcast=False)
        try:
            await set_bot(commit, room, player, None)
            return
        except Exception:
            log.exception("room %s: seat %s not given back", room.code, conn.seat)
            if was_connected:
                hub.broadcast(room)
                return
    if was_connected or conn.seat is None or not await commit.presence(room, conn.seat, True):
        hub.send_view(room, conn)
