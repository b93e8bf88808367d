"""How this node shares its rooms with others, chosen once at start-up
(``make_coordination``): ``Local`` for the one process of a SQLite store, ``Clustered``
for nodes sharing a PostgreSQL store (with Redis fan-out when given).

What differs between the two, and only that, lives here:

- the versions a change stores (``versions``): one node reserves versions ahead of
  what clients saw; nodes sharing a store write exactly the next version, and a
  compare-and-set refuses it when another node wrote first;
- presence (``presence``): in memory on one node (a connection change is a new version
  pushed, not a commit); a stored row per seat and node in a cluster;
- freshness (``fresh``, ``before_first_view``): a cluster node catches a room up with
  the store before answering; one node is the store's only writer;
- fan-out (``publish``, ``watch``), the bots' lead (``may_drive_bots``, ``released``)
  and what memory keeps (``restores_all``, ``unloadable``).
"""

from __future__ import annotations

import contextlib
import logging
import time
from typing import TYPE_CHECKING, Any

from ..settings import Settings
from ..store import BaseStore, Conflict
from .model import Room

if TYPE_CHECKING:
    from ..cluster import Cluster
    from .catchup import CatchUp

log = logging.getLogger("dame_nature.server")

#: versions reserved by one stored write when only connections change (one node of a
#: SQLite store): a seat that connects and leaves in a loop costs one commit per this
#: many version bumps, and the stored version stays ahead of every version a client saw
VERSION_RESERVE = 100


class Coordination:
    """The interface; ``Local`` and ``Clustered`` implement it."""

    node = "local"
    #: other processes write the same database
    shared = False
    #: the only node of its database loads every unfinished room at start-up
    restores_all = True

    def __init__(self, store: BaseStore) -> None:
        self.store = store
        self.catch_up: CatchUp | None = None

    def bind(self, catch_up: CatchUp) -> None:
        self.catch_up = catch_up

    def versions(self, room: Room) -> tuple[int, int]:
        """The version a change of ``room`` stores, and the one it expects to find."""
        raise NotImplementedError

    async def presence(self, room: Room, seat: int, present: bool, here: set[int]) -> bool:
        """Under the room's lock: this node's first socket of ``seat`` opened (or its
        last closed; ``here``: the seats with a socket on this node now). Sets
        ``room.present`` and a new ``room.version``; False when it could not be stored;
        ``Conflict`` when another node changed the room first."""
        raise NotImplementedError

    async def bump(self, room: Room) -> bool:
        """Under the room's lock: a new version that stores nothing else (what the views
        say changed with time: a seat counts as absent). False when it was not made."""
        raise NotImplementedError

    async def fresh(self, room: Room) -> None:
        """Before a request is served: the room as stored (raises when the store cannot
        be reached)."""

    async def before_first_view(self, room: Room) -> None:
        """Under the lock, before a socket gets its first view."""

    def publish(self, room: Room, **extra: Any) -> None:
        """A change of ``room`` is stored: tell the other nodes (only a ``shared``
        coordination has any: ``Commit.changed`` calls this one only then)."""

    def publish_notice(self, code: str, **notice: Any) -> None:
        """Tell the other nodes' sockets of room ``code`` of an admin action (nothing
        to do with one node)."""

    def watch(self, code: str) -> None:
        """This node holds a socket of ``code``."""

    def unwatch(self, code: str) -> None:
        """This node holds no more socket of ``code``."""

    async def may_drive_bots(self, code: str) -> bool:
        return True

    def released(self, code: str) -> None:
        """Room ``code`` left this node's memory."""

    def unloadable(self, room: Room) -> bool:
        """Whether memory may drop ``room`` once no one watches it (a finished game)."""
        return room.status == "over"

    async def start(self, listener: Any) -> None:
        pass

    async def stop(self) -> None:
        pass


class Local(Coordination):
    """The one process of a SQLite store: presence in memory, versions reserved ahead."""

    def versions(self, room: Room) -> tuple[int, int]:
        return max(room.version + 1, room.stored), room.stored

    async def presence(self, room: Room, seat: int, present: bool, here: set[int]) -> bool:
        """A connection change is a new version pushed to every socket, not a commit;
        one write reserves ``VERSION_RESERVE`` versions, so the stored version stays
        ahead of any version a client saw (a restart goes on from there) while a seat
        that reconnects in a loop costs no commit per connect."""
        await self._reserve(room)
        room.set_present(here)
        room.version += 1  # not ``updated_at``: connections alone do not keep a room alive
        return True

    async def bump(self, room: Room) -> bool:
        await self._reserve(room)
        room.version += 1
        return True

    async def _reserve(self, room: Room) -> None:
        if room.version + 1 > room.stored:
            reserved = room.version + 1 + VERSION_RESERVE
            try:
                await self.store.call(
                    self.store.set_version, room.code, reserved, None, expected=room.stored
                )
                room.stored = reserved
            except Exception:
                log.exception("room %s: could not reserve versions", room.code)


class Clustered(Coordination):
    """Nodes sharing a PostgreSQL store: stored presence, catch-up from the store,
    Redis fan-out and the bots' lead (an advisory lock) through ``Cluster``."""

    shared = True
    restores_all = False

    def __init__(self, store: BaseStore, cluster: Cluster) -> None:
        super().__init__(store)
        self.cluster = cluster
        self.node = cluster.node

    def versions(self, room: Room) -> tuple[int, int]:
        return room.version + 1, room.version

    async def presence(self, room: Room, seat: int, present: bool, here: set[int]) -> bool:
        try:
            seats = await self.store.call(
                self.store.set_presence,
                room.code,
                seat,
                self.node,
                present,
                version=room.version + 1,
                now=time.time(),
            )
        except Conflict:
            raise
        except Exception:
            log.exception("room %s: could not store a connection change", room.code)
            return False
        room.set_present(seats)
        room.version += 1  # not ``updated_at``: connections alone do not keep a room alive
        self.publish(room, present=sorted(room.present))
        return True

    async def bump(self, room: Room) -> bool:
        if not await self.cluster.lead(room.code):
            return False  # the node leading the room makes it; this one catches up
        try:
            await self.store.call(
                self.store.set_version, room.code, room.version + 1, None, expected=room.version
            )
        except Exception:
            return False  # another node changed the room: its views say the same
        room.version += 1
        self.publish(room)
        return True

    async def fresh(self, room: Room) -> None:
        assert self.catch_up is not None
        await self.catch_up.refresh(room)

    async def before_first_view(self, room: Room) -> None:
        assert self.catch_up is not None
        with contextlib.suppress(Exception):
            await self.catch_up.catch_up(room)

    def publish(self, room: Room, **extra: Any) -> None:
        self.cluster.publish(room.code, room.version, **extra)

    def publish_notice(self, code: str, **notice: Any) -> None:
        self.cluster.publish(code, 0, **notice)

    def watch(self, code: str) -> None:
        self.cluster.watch(code)

    def unwatch(self, code: str) -> None:
        self.cluster.unwatch(code)

    async def may_drive_bots(self, code: str) -> bool:
        return await self.cluster.lead(code)

    def released(self, code: str) -> None:
        try:
            self.store.release_lead(code)
        except Exception:
            log.exception("room %s: its bots' lead not released", code)

    def unloadable(self, room: Room) -> bool:
        return True  # any room no one here watches: the store has it

    async def start(self, listener: Any) -> None:
        await self.cluster.start(listener)
        log.info("node %s serving rooms of a shared store", self.node)

    async def stop(self) -> None:
        await self.cluster.stop()


def make_coordination(settings: Settings, store: BaseStore) -> Coordination:
    """``Clustered`` when other nodes may serve the same rooms (a shared store), else
    ``Local``."""
    if not store.shared:
        if settings.redis:
            log.warning("--redis is for nodes sharing a postgresql:// store; ignored on SQLite")
        return Local(store)
    from ..cluster import Cluster, make_node_id

    cluster = Cluster(
        store,
        settings.node or make_node_id(),
        settings.redis,
        poll_seconds=settings.poll_seconds,
        node_timeout_seconds=settings.node_timeout_seconds,
    )
    return Clustered(store, cluster)
