"""The rooms this node holds in memory: loading (once, however many ask at once),
building a ``Room`` from what the store holds, and expiry (idle rooms deleted, finished
games no one watches dropped from memory).

The store is the truth and memory a cache of it: ``get`` answers a room as stored
(catching up first when other nodes share the store), loading it on demand.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from ...engine import EngineError, State
from ..errors import Refused
from ..provenance import replay_problem, same_versions
from ..settings import Settings
from ..store import BaseStore
from .coordination import Coordination
from .hub import Hub
from .model import CODE_RE, Player, Room

log = logging.getLogger("dame_nature.server")

STORE_UNAVAILABLE = "The game's database cannot be reached; try again."


class RoomUnavailable(Exception):
    """A stored game that today's engine cannot replay as it was played."""


class Registry:
    """Every room this node holds, by code."""

    def __init__(
        self,
        settings: Settings,
        store: BaseStore,
        coordination: Coordination,
        hub: Hub,
        loaded: Callable[[Room], None],
        forgotten: Callable[[str, Room | None], None],
    ) -> None:
        self.settings = settings
        self.store = store
        self.coordination = coordination
        self.hub = hub
        #: a room came into memory (its bots play on)
        self.loaded = loaded
        #: a room left memory (its bots and per-seat limits go)
        self.forgotten = forgotten
        self.rooms: dict[str, Room] = {}
        #: the codes of the rooms created from each client address (pruned of the rooms
        #: that left memory when counted)
        self._created: dict[str, set[str]] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    # ---------------------------------------------------------------- loading
    def count_by_status(self) -> dict[str, int]:
        """Rooms in memory by status (``lobby``, ``playing``, ``over``)."""
        return dict(Counter(room.status for room in self.rooms.values()))

    def restore(self) -> int:
        """The only node of its database loads every unfinished room (finished ones load
        on demand); its previous process lost every connection, a new version for every
        room. Nodes sharing a database load rooms on demand."""
        if not self.coordination.restores_all:
            return 0
        self.store.reset_presence()
        for code in self.store.room_codes(("lobby", "playing")):
            try:
                data = self.store.load_room(code)
                if data is not None:
                    self.rooms[code] = room = self.build(data)
                    self.loaded(room)
            except Exception:  # one room the engine cannot replay must not stop the rest
                log.exception("room %s could not be restored", code)
        return len(self.rooms)

    def build(self, data: dict[str, Any]) -> Room:
        room = Room(
            code=data["code"],
            host_token=data["host_token"],
            spec=data["spec"],
            created_at=data["created_at"],
            updated_at=data["updated_at"],
            absent_limit=self.settings.absent_seconds,
        )
        self.refill(room, data)
        return room

    def refill(self, room: Room, data: dict[str, Any]) -> None:
        """Make ``room`` exactly what the store holds (``data``: a whole ``load_room``)."""
        state = self._replay(data) if data["setup"] is not None else None
        room.spec = data["spec"]
        room.status = data["status"]
        room.game_no = data["game_no"]
        room.campaign = data["campaign"]
        room.version = room.stored = data["version"]
        room.updated_at = data["updated_at"]
        room.players = [
            Player(p["seat"], p["name"], p["token"], bot=p["bot"], human=p["human"], host=p["host"])
            for p in data["players"]
        ]
        room.host_passed = data["host_passed"]
        room.present = set(data["present"])
        room.presence.update(len(room.players), room.present)
        room.state = state
        game = data.get("game") or {}
        room.hints, room.hints_game = list(game.get("hints") or []), room.game_no
        room.stand_in_moves = []
        room.add_stand_ins(data["actions"], data["stand_ins"])
        room.waiting = dict(data.get("waiting") or {})

    def _replay(self, data: dict[str, Any]) -> State:
        game = data["game"]
        if same_versions(game):
            return State.replay(data["setup"], data["actions"])
        # played with another engine or rules data: replayed and compared, never changed
        state, problem = replay_problem(game, data["actions"])
        if problem is None:
            assert state is not None
            return state
        log.error("room %s game %s: %s", data["code"], data["game_no"], problem)
        with contextlib.suppress(Exception):
            self.store.report_replay(data["code"], data["game_no"], game, problem, time.time())
        raise RoomUnavailable(problem)

    async def get(self, code: str) -> Room:
        """The room ``code``, up to date with the store (``room_not_found``)."""
        room = self.rooms.get(code)
        if room is None and CODE_RE.match(code):
            room = await self._load(code)
        if room is None:
            raise Refused("room_not_found", "There is no room with this code.")
        try:
            await self.coordination.fresh(room)
        except Exception:
            log.exception("room %s: the store cannot be reached", code)
            raise Refused("store_unavailable", STORE_UNAVAILABLE) from None
        return room

    async def _load(self, code: str) -> Room | None:
        """Load a room into memory once, however many requests ask for it at once."""
        pending = self._loading.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            data = await self.store.call(self.store.load_room, code)
            room = None
            if data is not None:
                room = self.rooms.get(code) or self.build(data)
                self.rooms[code] = room
                self.loaded(room)
            future.set_result(room)
            return room
        except Exception as err:
            log.exception("room %s could not be loaded", code)
            if isinstance(err, RoomUnavailable | EngineError):
                failure = Refused("room_unavailable", "This room's game cannot be loaded any more.")
                if isinstance(err, RoomUnavailable):
                    failure.message += f" ({err})"
            else:  # the store: down, or failing
                failure = Refused("store_unavailable", STORE_UNAVAILABLE)
            future.set_exception(failure)
            future.exception()  # seen: nobody else may be waiting
            raise failure from None
        finally:
            del self._loading[code]

    # ---------------------------------------------------------------- expiry
    def sweep(self, now: float | None = None, finished_now: bool = False) -> tuple[int, int]:
        """Delete rooms idle for the TTL (lobbies nobody starts: the lobby TTL); drop
        finished games no one watches from memory (all of them with ``finished_now``; with
        a shared store, any room no one here watches). Returns (deleted, unloaded)."""
        now = time.time() if now is None else now
        settings = self.settings
        expired = [
            code
            for code in self.store.idle_rooms(
                now - settings.room_ttl_seconds,
                lobby_before=now - settings.lobby_ttl_seconds,
                paced_before=now - settings.paced_room_ttl_seconds,
            )
            if code not in self.rooms or self.hub.count(code) == 0
        ]
        self.store.delete_rooms(expired)
        for code in expired:
            self.forget(code)
        unloaded = 0
        for code, room in list(self.rooms.items()):
            if (
                self.coordination.unloadable(room)
                and self.hub.count(code) == 0
                and not room.lock.locked()
                and (finished_now or now - room.updated_at >= settings.finished_room_memory_seconds)
            ):
                self.forget(code)
                unloaded += 1
        for address in list(self._created):
            self.created_from(address)  # drops the codes of rooms no longer held
        return len(expired), unloaded

    def forget(self, code: str) -> None:
        """Room ``code`` leaves this node's memory: its bots stop here, and another node
        may lead them."""
        room = self.rooms.pop(code, None)
        if room is not None and room.absent_timer is not None:
            room.absent_timer.cancel()
        self.forgotten(code, room)
        self.coordination.released(code)

    def add_created(self, room: Room, address: str | None) -> None:
        """A new room, created from client ``address``, comes into memory."""
        self.rooms[room.code] = room
        if address is not None:
            self._created.setdefault(address, set()).add(room.code)

    def created_from(self, address: str) -> int:
        """Rooms in memory created from client ``address``."""
        codes = self._created.get(address)
        if codes is None:
            return 0
        codes.intersection_update(self.rooms)
        if not codes:
            del self._created[address]
        return len(codes)

    async def evict_idle(self, now: float) -> None:
        """Make room for a new one: delete the lobbies nobody has touched or watched for
        ``lobby_evict_idle_seconds``, drop from memory the started games no one has
        played or watched for ``idle_game_evict_seconds`` (they stay stored and load
        again on demand), oldest first (a tenth of the cap at most at once), and unload
        finished games no one watches."""
        self.sweep(now, finished_now=True)
        settings = self.settings
        unwatched = [
            room
            for room in self.rooms.values()
            if self.hub.count(room.code) == 0 and not room.lock.locked()
        ]
        most = max(1, settings.max_rooms // 10)

        def oldest(status: str, idle_seconds: float) -> list[Room]:
            idle = (
                r for r in unwatched if r.status == status and now - r.updated_at >= idle_seconds
            )
            return sorted(idle, key=lambda room: room.updated_at)[:most]

        batch = [room.code for room in oldest("lobby", settings.lobby_evict_idle_seconds)]
        if batch:
            await self.store.call(self.store.delete_rooms, batch)
            for code in batch:
                self.rooms.pop(code, None)
            log.info("evicted %d idle lobbies to make room", len(batch))
        games = oldest("playing", settings.idle_game_evict_seconds)
        for room in games:
            if self.rooms.get(room.code) is room and self.hub.count(room.code) == 0:
                self.forget(room.code)
        if games:
            log.info("unloaded %d idle games to make room", len(games))

    async def run_sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval_seconds)
            try:
                self.sweep()
            except Exception:  # never let the sweeper die
                log.exception("room sweep failed")
