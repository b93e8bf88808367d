"""Several server nodes on one shared store: who changed which room, and who is alive.

With a PostgreSQL store, any number of nodes serve the same rooms; the action log in the
database is the single source of truth and each node keeps the rooms it serves in memory
as a cache of it. After each commit a node publishes "room R is at version v" on the
room's Redis channel (``dame-nature:room:R``), with the action itself when that is the
whole change, so that the nodes holding sockets of R (the only ones subscribed to it)
catch up without a database read and push each socket its own view. Redis carries no
state: a node that missed messages (Redis restarting, a network blip) catches up from the
database, through a periodic version poll of the rooms it holds sockets of and a full
check whenever it (re)connects to Redis, so nothing is lost while Redis is down, only
delayed by up to ``poll_seconds``.

Each node also writes a heartbeat; the seats connected through a node that stopped
beating (``kill -9``, a lost machine) are marked disconnected by the survivors after
``node_timeout_seconds``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
import time
from typing import Any, Protocol

import orjson

from .store import BaseStore

log = logging.getLogger("dame_nature.server")

CHANNEL = "dame-nature:room:"


class Listener(Protocol):
    """What the cluster tells this node's rooms (``rooms.RoomManager``)."""

    async def remote_change(self, message: dict[str, Any]) -> None: ...

    async def resync(self, only_watched: bool = False) -> None: ...

    async def reassert_presence(self) -> None: ...


def make_node_id() -> str:
    """A node name unique in the cluster: host, process and a random suffix."""
    return f"{socket.gethostname()}-{os.getpid()}-{secrets.token_hex(3)}"


class Cluster:
    """The node's link to the others: Redis fan-out (optional), version polling, heartbeats."""

    def __init__(
        self,
        store: BaseStore,
        node: str,
        redis_url: str | None,
        poll_seconds: float = 2.0,
        node_timeout_seconds: float = 20.0,
        outbox_limit: int = 10_000,
    ) -> None:
        self.store = store
        self.node = node
        self.redis_url = redis_url
        self.poll_seconds = poll_seconds
        self.node_timeout_seconds = node_timeout_seconds
        self.manager: Listener | None = None
        self.redis_up = False
        self.watched: set[str] = set()
        self._outbox: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(outbox_limit)
        self._pubsub: Any = None
        self._tasks: list[asyncio.Task[None]] = []
        self.received = 0  # messages from other nodes (for tests and the health check)

    # ---------------------------------------------------------------- lifecycle
    async def start(self, manager: Listener) -> None:
        self.manager = manager
        await self.store.call(self.store.heartbeat, self.node, time.time())
        self._tasks = [asyncio.create_task(self._heartbeats()), asyncio.create_task(self._poll())]
        if self.redis_url:
            self._tasks += [
                asyncio.create_task(self._listen()),
                asyncio.create_task(self._publish()),
            ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        # leaving in good order: this node's seats are disconnected now, not after a timeout
        with contextlib.suppress(Exception):
            changed = await self.store.call(
                self.store.expire_nodes, 0.0, time.time(), only=self.node
            )
            if self.redis_url and changed:
                await self._publish_now([(code, {"version": v}) for code, v in changed])

    # ---------------------------------------------------------------- publishing
    def publish(self, code: str, version: int, **extra: Any) -> None:
        """Tell the other nodes that room ``code`` is at ``version`` (after the commit).
        Never waits: when Redis is slow or down the message is dropped and the other
        nodes find the change by polling."""
        if not self.redis_url:
            return
        data = orjson.dumps({"node": self.node, "room": code, "version": version, **extra})
        with contextlib.suppress(asyncio.QueueFull):
            self._outbox.put_nowait((CHANNEL + code, data))

    async def _publish(self) -> None:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(
            self.redis_url or "", socket_connect_timeout=1, socket_timeout=2
        )
        try:
            while True:
                channel, data = await self._outbox.get()
                try:
                    await client.publish(channel, data)
                except Exception:
                    # Redis is down: drop what waits (the pollers catch up), try again later
                    while not self._outbox.empty():
                        self._outbox.get_nowait()
                    await asyncio.sleep(0.5)
        finally:
            with contextlib.suppress(Exception):
                await client.aclose()

    async def _publish_now(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(self.redis_url or "", socket_connect_timeout=1)
        try:
            for code, extra in items:
                data = orjson.dumps({"node": self.node, "room": code, **extra})
                await client.publish(CHANNEL + code, data)
        finally:
            await client.aclose()

    # ---------------------------------------------------------------- listening
    def watch(self, code: str) -> None:
        """This node holds sockets of ``code``: hear its changes."""
        if code in self.watched:
            return
        self.watched.add(code)
        if self._pubsub is not None:
            self._spawn(self._pubsub.subscribe(CHANNEL + code))

    def unwatch(self, code: str) -> None:
        if code not in self.watched:
            return
        self.watched.discard(code)
        if self._pubsub is not None:
            self._spawn(self._pubsub.unsubscribe(CHANNEL + code))

    def _spawn(self, coro: Any) -> None:
        async def run() -> None:
            with contextlib.suppress(Exception):  # the listener resubscribes on reconnect
                await coro

        task = asyncio.create_task(run())
        self._tasks.append(task)
        task.add_done_callback(lambda t: self._tasks.remove(t) if t in self._tasks else None)

    async def _listen(self) -> None:
        import redis.asyncio as aioredis

        assert self.manager is not None
        pause = 0.2
        while True:
            client = aioredis.Redis.from_url(
                self.redis_url or "", socket_connect_timeout=2, health_check_interval=5
            )
            pubsub = client.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe("dame-nature:nodes")  # opens the connection
                if self.watched:
                    await pubsub.subscribe(*(CHANNEL + code for code in self.watched))
                self._pubsub = pubsub
                if not self.redis_up:
                    log.info("node %s: Redis fan-out connected", self.node)
                self.redis_up = True
                pause = 0.2
                # whatever was published while this node was not listening: from the store
                await self.manager.resync()
                while True:
                    message = await pubsub.get_message(timeout=5.0)
                    if message is not None and message.get("type") == "message":
                        self._heard(message["data"])
            except asyncio.CancelledError:
                raise
            except Exception as err:
                if self.redis_up:
                    log.warning("node %s: Redis fan-out lost (%s); polling", self.node, err)
                self.redis_up = False
                self._pubsub = None
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)
            finally:
                self._pubsub = None
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                with contextlib.suppress(Exception):
                    await client.aclose()

    def _heard(self, data: bytes) -> None:
        assert self.manager is not None
        try:
            message = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        if message.get("node") == self.node:
            return
        self.received += 1
        # one task per message: each takes the room's lock first, in arrival order
        self._spawn(self.manager.remote_change(message))

    # ---------------------------------------------------------------- bots
    async def lead(self, code: str) -> bool:
        """Whether this node drives room ``code``'s bots now: one node at a time (a
        PostgreSQL advisory lock, released when this node dies or lets the room go)."""
        return await self.store.call(self.store.try_lead, code)

    async def release(self, code: str) -> None:
        await self.store.call(self.store.release_lead, code)

    # ---------------------------------------------------------------- safety nets
    async def _poll(self) -> None:
        """Catch up every room this node holds sockets of whose stored version moved on
        without a message (Redis down, a message lost)."""
        assert self.manager is not None
        while True:
            await asyncio.sleep(self.poll_seconds)
            try:
                await self.manager.resync(only_watched=True)
            except Exception:
                log.exception("node %s: version poll failed", self.node)

    async def _heartbeats(self) -> None:
        assert self.manager is not None
        every = self.node_timeout_seconds / 4
        while True:
            await asyncio.sleep(every)
            try:
                now = time.time()
                await self.store.call(self.store.check_leads)
                if not await self.store.call(self.store.heartbeat, self.node, now):
                    # the others took this node for lost (it was too slow to beat) and
                    # dropped its seats' presence: connected they are, say so again
                    log.warning("node %s was taken for lost; its seats connect again", self.node)
                    await self.manager.reassert_presence()
                changed = await self.store.call(
                    self.store.expire_nodes, now - self.node_timeout_seconds, now
                )
                for code, version in changed:
                    log.info("room %s: seats of a lost node disconnected", code)
                    self.publish(code, version)
                    await self.manager.remote_change({"room": code, "version": version})
            except Exception:
                log.exception("node %s: heartbeat failed", self.node)
