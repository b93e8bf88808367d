"""The one path every change of a room takes: under the room's lock, check, write to
the store with a compare-and-set on the room's version, change memory, push every
socket its new view, tell the other nodes, wake the room's bots.

A command is a ``change()`` coroutine run by ``attempt``: it checks the room as it is
now (under the lock), then calls ``save`` (the write; nothing in memory has changed
yet) and, once stored, changes the room and calls ``changed``. When another node wrote
the room first the write raises ``Conflict`` and changes nothing: the room catches up
from the store and ``change()`` runs again on the room as it now is (a normal success,
or a normal refusal). A write that fails otherwise is refused (``not_saved``) and
leaves the room exactly as stored.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from ..errors import Refused
from ..metrics import Metrics
from ..store import BaseStore, Conflict
from .catchup import CatchUp
from .coordination import Coordination
from .hub import Hub
from .model import Room

log = logging.getLogger("dame_nature.server")

T = TypeVar("T")

#: a change refused by a concurrent writer is checked again this many times at most
MAX_ATTEMPTS = 5
NOT_SAVED = "The change could not be saved; please send it again."


def _not_saved(method: Callable[..., Any]) -> Refused:
    """A write that failed otherwise than by ``Conflict``: logged (with the exception
    being handled), and refused as ``not_saved``."""
    log.exception("could not store a change (%s)", getattr(method, "__name__", "?"))
    return Refused("not_saved", NOT_SAVED)


class Commit:
    def __init__(
        self,
        store: BaseStore,
        coordination: Coordination,
        hub: Hub,
        catch_up: CatchUp,
        changed: Callable[[Room], None],
        metrics: Metrics,
    ) -> None:
        self.store = store
        self.metrics = metrics
        self.coordination = coordination
        self.hub = hub
        self.catch_up = catch_up
        #: after every change of a room (wakes its bots)
        self.on_change = changed
        #: after a seat's presence changed (``RoomManager``: the host role, absence)
        self.on_presence: Callable[[Room, bool], Awaitable[None]] | None = None

    async def attempt(self, room: Room, change: Callable[[], Awaitable[T]]) -> T:
        """Run ``change()`` (checks, the write, then memory) under the room's lock; when
        another node wrote the room first, catch up and run it again on the room as it
        now is."""
        lock = room.lock
        # ``async with room.lock`` spelled out: no ``__aenter__`` and ``__aexit__``
        # coroutines for every change (a free lock's ``acquire`` awaits nothing)
        await lock.acquire()
        try:
            try:  # the first attempt inline (``attempt_locked``'s, with no coroutine)
                return await change()
            except Conflict:
                await self._catch_up(room)
            return await self.attempt_locked(room, change, MAX_ATTEMPTS - 1)
        finally:
            lock.release()

    async def attempt_locked(
        self, room: Room, change: Callable[[], Awaitable[T]], attempts: int = MAX_ATTEMPTS
    ) -> T:
        """``attempt`` for a caller that holds the room's lock already (``attempts``:
        how many times ``change()`` may run yet)."""
        for _ in range(attempts):
            try:
                return await change()
            except Conflict:
                await self._catch_up(room)
        raise Refused("not_saved", "The room is changing too fast; please send it again.")

    async def _catch_up(self, room: Room) -> None:
        """Another node wrote ``room`` first: read it again (``not_saved`` if it cannot)."""
        try:
            await self.catch_up.catch_up(room)
        except Exception:
            log.exception("room %s could not catch up", room.code)
            raise Refused("not_saved", NOT_SAVED) from None

    async def save(self, room: Room, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """The compare-and-set write of a change of ``room``: ``method(*args, **kwargs)``
        of the store with the version it stores and the one it expects to find.
        ``Conflict`` passes through (``attempt`` catches up and checks again); any other
        failure is refused as ``not_saved``."""
        version, expected = self.coordination.versions(room)
        return await self.write(method, *args, **kwargs, version=version, expected=expected)

    def save_now(self, room: Room, method: Callable[..., Any], *args: Any) -> Any:
        """``save`` on a store whose methods run inline (``store.inline``: SQLite), called
        rather than awaited: the same write, the same errors, no coroutine. ``method``
        takes the two versions as its last arguments, after ``args`` (``append_action``):
        no dict of keywords made for them."""
        return self.write_now(method, *args, *self.coordination.versions(room))

    async def write(self, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """One write of the store (``save`` without the versions: a new room)."""
        store = self.store
        if store.inline:  # SQLite: the write itself, without ``call``'s coroutine
            return self.write_now(method, *args, **kwargs)
        started = time.perf_counter()
        try:
            stored = await store.call(method, *args, **kwargs)
        except Conflict:
            raise
        except Exception:
            raise _not_saved(method) from None
        self.metrics.store_write.observe(time.perf_counter() - started)
        return stored

    def write_now(self, method: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``write`` on a store whose methods run inline, called rather than awaited."""
        started = time.perf_counter()
        try:
            stored = method(*args, **kwargs)
        except Conflict:
            raise
        except Exception:
            raise _not_saved(method) from None
        self.metrics.store_write.observe(time.perf_counter() - started)
        return stored

    def changed(
        self,
        room: Room,
        now: float,
        ends: bool = False,
        published: dict[str, Any] | None = None,
    ) -> None:
        """A change stored as ``save`` said: a new version, every socket its new view,
        the room's bots woken, the other nodes told (``ends``: an action that ended the
        game; ``published``: what lets the other nodes apply it without reading the
        store, which a caller makes only when ``coordination.shared``)."""
        room.version += 1
        room.stored = max(room.stored, room.version)
        if ends and room.state is not None and room.state.result is not None:
            won = room.state.result["outcome"] == "won"
            self.metrics.game_over(len(room.players), won)
        room.updated_at = now
        self.hub.broadcast(room)
        self.on_change(room)
        coordination = self.coordination
        if coordination.shared:  # other nodes to tell (one node alone publishes nothing)
            coordination.publish(room, **(published or {}))

    async def presence(self, room: Room, seat: int, present: bool, broadcast: bool = True) -> bool:
        """Under the room's lock: this node's first socket of ``seat`` opened (or its last
        closed): a new version, pushed. False when it could not be stored (the room stays
        as stored; the socket is served all the same)."""
        for _ in range(MAX_ATTEMPTS):
            try:
                stored = await self.coordination.presence(
                    room, seat, present, self.hub.seats(room.code)
                )
            except Conflict:
                try:
                    await self.catch_up.catch_up(room)
                except Exception:
                    return False
                continue
            if stored and broadcast:
                self.hub.broadcast(room)
            if stored and self.on_presence is not None:
                await self.on_presence(room, present)
            return stored
        return False

    async def reassert_presence(self, rooms: list[Room]) -> None:
        """Store again the presence of every seat with a socket on this node."""
        for room in rooms:
            seats = self.hub.seats(room.code)
            if not seats:
                continue
            async with room.lock:
                for seat in seats:
                    await self.presence(room, seat, True)
