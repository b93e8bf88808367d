"""Catching a room up with the store when another node changed it (nodes sharing a
store), or when a write found the room changed (``Conflict``): apply the actions stored
beyond this node's version one by one, pushing each socket every new action's view in
turn, or reload the room whole when it changed in another way.

``remote_change`` applies what another node's message carries when this node is exactly
one version behind (no database read); ``resync`` checks the stored versions of the
rooms held after missed messages.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from ...engine import MAX_PLAYERS, EngineError
from ..store import BaseStore
from .hub import Hub
from .model import Room
from .registry import Registry

log = logging.getLogger("dame_nature.server")


class CatchUp:
    def __init__(
        self, store: BaseStore, registry: Registry, hub: Hub, changed: Callable[[Room], None]
    ) -> None:
        self.store = store
        self.registry = registry
        self.hub = hub
        #: a room changed without this node writing it (wakes its bots)
        self.changed = changed

    async def refresh(self, room: Room) -> None:
        """Catch ``room`` up with the store when another node changed it (one query)."""
        versions = await self.store.call(self.store.room_versions, [room.code])
        if versions.get(room.code, room.version) > room.version:
            async with room.lock:
                await self.catch_up(room)

    async def catch_up(self, room: Room) -> None:
        """Under the room's lock: apply what the store holds beyond this node's version
        (a whole reload when the room changed in another way than by actions of the
        same game)."""
        state = room.state
        game_no, known = room.game_no, len(state.history) if state is not None else 0
        data = await self.store.call(self.store.load_room, room.code, game_no, known)
        if data is None:  # deleted meanwhile
            self.registry.rooms.pop(room.code, None)
            return
        if data["version"] <= room.version:
            return
        incremental = (
            state is not None
            and data["game_no"] == game_no
            and data["from_idx"] == known
            and len(data["players"]) == len(room.players)
            and data["spec"] == room.spec
        )
        if not incremental:
            if data["from_idx"]:  # every action of the game, to replay it whole
                data = await self.store.call(self.store.load_room, room.code) or data
            self.registry.refill(room, data)
            self.hub.reseat(room)  # the seats may have moved: each socket's token says
            self.hub.broadcast(room)
            self.changed(room)
            return
        assert state is not None
        room.set_present(data["present"])
        room.add_stand_ins(data["actions"], data["stand_ins"])
        for entry, version in zip(data["actions"], data["versions"], strict=True):
            state.apply(entry["seat"], entry["action"])
            if version is not None and room.version < version < data["version"]:
                room.version = version
                self.hub.broadcast(room)
        room.status = data["status"]
        room.campaign = data["campaign"]
        room.waiting = dict(data.get("waiting") or {})
        room.version = data["version"]
        room.updated_at = data["updated_at"]
        self.hub.broadcast(room)
        self.changed(room)

    async def remote_change(self, message: dict[str, Any]) -> None:
        """Another node changed room ``message["room"]`` to ``message["version"]``: apply
        what the message carries when this node is one version behind, else catch up
        from the store."""
        room = self.registry.rooms.get(message.get("room", ""))
        if room is None:
            return
        async with room.lock:
            version = int(message.get("version", 0))
            if version <= room.version:
                return
            state = room.state
            if version == room.version + 1:
                if (
                    "action" in message
                    and not message.get("ends")
                    and state is not None
                    and message.get("game") == room.game_no
                    and message.get("idx") == len(state.history)
                ):
                    try:
                        state.apply(message["seat"], message["action"])
                    except EngineError:  # refused, so nothing changed: ask the store
                        pass
                    else:
                        acted = message.get("acted")
                        at = float(message.get("at") or room.updated_at)
                        clocks = room.clocks_after(at, acted if isinstance(acted, int) else None)
                        if clocks is not None:  # as the writer stored them
                            room.waiting = clocks[0]
                        stand_in = message.get("stand_in")
                        if isinstance(stand_in, dict):
                            room.add_stand_ins([message], [stand_in])
                        room.version = version
                        room.updated_at = message.get("at", room.updated_at)
                        self.hub.broadcast(room)
                        self.changed(room)
                        return
                elif "present" in message and len(message.get("present", ())) <= MAX_PLAYERS:
                    room.set_present(message["present"])
                    room.version = version
                    self.hub.broadcast(room)
                    self.changed(room)
                    return
            try:
                await self.catch_up(room)
            except Exception:
                log.exception("room %s could not catch up", room.code)

    async def resync(self, only_watched: bool = False) -> None:
        """Catch up every room held (or only those with sockets here) whose stored version
        moved on: after missed messages (Redis down or restarting)."""
        rooms = self.registry.rooms
        codes = [code for code in rooms if not only_watched or self.hub.count(code)]
        if not codes:
            return
        versions = await self.store.call(self.store.room_versions, codes)
        for code in codes:
            room = rooms.get(code)
            if room is None:
                continue
            if code not in versions:  # deleted by another node
                if not self.hub.count(code):
                    rooms.pop(code, None)
                elif not room.lock.locked():
                    # a room is swept only once no seat is connected anywhere: one
                    # deleted with sockets here was closed by the admin (the message
                    # telling this node was missed)
                    self.registry.forget(code)
                    self.hub.close_room(code)
                continue
            if versions[code] > room.version:
                async with room.lock:
                    try:
                        await self.catch_up(room)
                    except Exception:
                        log.exception("room %s could not catch up", code)
