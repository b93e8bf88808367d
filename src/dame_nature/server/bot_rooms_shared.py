"""The cap of games with bots per client address, held across the nodes of a cluster on
their Redis (``bot_rooms.make_bot_rooms`` chooses it once, at start-up).

Each address has a sorted set of the rooms it has bots in play in, each scored by the
time its lease ends; a key per room names the set it is in. The address is kept only as
a hash, and the keys of one store (``namespace``: its database's name) never mix with
another's.

- A claim is one Lua script, so two nodes racing for an address's last slot never both
  get it: leases past their end are dropped, then the room is added if the address has
  fewer than ``cap`` others (a room already counted for it is only renewed).
- While a room is in play, every node holding it renews its lease every third of
  ``lease_seconds`` (``DAME_NATURE_BOT_ROOM_LEASE_SECONDS``, 60 s); a node that dies
  stops renewing, so its rooms count no more ``lease_seconds`` later.
- A room leaves its set as soon as a node sees its game out of play (over, its bots given
  back, closed): every change of a room, made here or caught up from another node, goes
  through ``changed``.

When Redis cannot be reached the node counts in its own memory meanwhile (each node then
caps alone) and says so in the log, once, until Redis answers again.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

from .bot_rooms import BotRooms, Going, in_play

log = logging.getLogger("dame_nature.server")

# KEYS: the address's set, the room's key; ARGV: the room, the lease (ms), the cap, the
# member it replaces (a new room's placeholder) or "". 0: refused; 1: added; 2: renewed.
CLAIM = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local old = redis.call('GET', KEYS[2])
if old == KEYS[1] and redis.call('ZSCORE', KEYS[1], ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
  redis.call('PEXPIRE', KEYS[2], lease)
  redis.call('PEXPIRE', KEYS[1], lease)
  return 2
end
local count = redis.call('ZCARD', KEYS[1])
if ARGV[4] ~= '' and redis.call('ZSCORE', KEYS[1], ARGV[4]) then count = count - 1 end
if count >= tonumber(ARGV[3]) then return 0 end
if old and old ~= KEYS[1] then redis.call('ZREM', old, ARGV[1]) end
if ARGV[4] ~= '' then redis.call('ZREM', KEYS[1], ARGV[4]) end
redis.call('ZADD', KEYS[1], now + lease, ARGV[1])
redis.call('SET', KEYS[2], KEYS[1], 'PX', lease)
redis.call('PEXPIRE', KEYS[1], lease)
return 1
"""

# KEYS: the room's key; ARGV: the room. Takes the room out of its address's set.
RELEASE = """
local set = redis.call('GET', KEYS[1])
if set then redis.call('ZREM', set, ARGV[1]) end
redis.call('DEL', KEYS[1])
return set and 1 or 0
"""

# KEYS: rooms' keys; ARGV: the lease (ms), then the rooms. Renews the rooms still counted.
RENEW = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local set = redis.call('GET', key)
  if set then
    redis.call('ZADD', set, 'XX', now + lease, ARGV[i + 1])
    redis.call('PEXPIRE', key, lease)
    redis.call('PEXPIRE', set, lease)
  end
end
return 0
"""

# KEYS: the address's set. How many rooms it counts whose lease has not ended.
COUNT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
"""


def digest(text: str) -> str:
    return hashlib.blake2b(text.encode(), digest_size=16).hexdigest()


class SharedBotRooms(BotRooms):
    """``BotRooms`` whose cap holds across the nodes sharing ``redis_url``. The local
    bookkeeping stays (whose room a room is, for the bots' fair share of thinking)."""

    def __init__(
        self,
        cap: int,
        rooms: Mapping[str, Any],
        redis_url: str,
        *,
        namespace: str,
        lease_seconds: float = 60.0,
    ) -> None:
        super().__init__(cap, rooms)
        #: how long a room counts once no node renews it (a node that died)
        self.lease_seconds = lease_seconds
        import redis.asyncio as aioredis

        self.redis = aioredis.Redis.from_url(redis_url, socket_connect_timeout=1, socket_timeout=2)
        self.prefix = f"dame-nature:bot-rooms:{digest(namespace)[:16]}"
        self._claim = self.redis.register_script(CLAIM)
        self._release = self.redis.register_script(RELEASE)
        self._renew = self.redis.register_script(RENEW)
        self._count = self.redis.register_script(COUNT)
        self._live: set[str] = set()  # rooms this node saw in play
        self._released: set[str] = set()  # rooms this node took out of play since
        self._tasks: set[asyncio.Task[None]] = set()
        self._releasing: dict[str, asyncio.Task[None]] = {}  # by room, under way
        self._renewer: asyncio.Task[None] | None = None
        self._down = False

    def _set(self, address: str) -> str:
        return f"{self.prefix}:a:{digest(address)}"

    def _room(self, code: str) -> str:
        return f"{self.prefix}:r:{code}"

    def _failed(self, err: Exception) -> None:
        if not self._down:
            log.warning("bot rooms: Redis unreachable (%s); capping per node", err)
            self._down = True

    def _up(self) -> None:
        if self._down:
            log.info("bot rooms: Redis reachable again; the cap holds across the nodes")
            self._down = False

    async def _claim_in(self, address: str, code: str, replacing: str = "") -> int:
        lease = int(self.lease_seconds * 1000)
        keys = [self._set(address), self._room(code)]
        added = int(await self._claim(keys=keys, args=[code, lease, self.cap, replacing]))
        self._up()
        return added

    async def _release_in(self, code: str) -> None:
        try:
            await self._release(keys=[self._room(code)], args=[code])
            self._up()
        except Exception as err:  # its lease runs out instead
            self._failed(err)

    async def games_in_play(self, address: str) -> int:
        try:
            count = int(await self._count(keys=[self._set(address)]))
        except Exception as err:  # Redis down: this node counts alone meanwhile
            self._failed(err)
            return await super().games_in_play(address)
        self._up()
        return count

    @contextlib.asynccontextmanager
    async def setting_going(
        self, room: Any | None, address: str | None, *, bot: bool = False
    ) -> AsyncIterator[Going]:
        bots = bot or (room is not None and any(p.bot is not None for p in room.players))
        if address is None or not bots:
            yield Going(room)
            return
        member = room.code if room is not None else f"new:{uuid.uuid4().hex}"
        releasing = self._releasing.get(member)
        if releasing is not None:  # the room's last game left play: that goes first
            with contextlib.suppress(Exception):
                await asyncio.shield(releasing)
        try:
            added = await self._claim_in(address, member)
        except Exception as err:  # Redis down: this node counts alone meanwhile
            self._failed(err)
            async with super().setting_going(room, address, bot=bot) as local:
                yield local
            return
        if not added:
            raise self.refused()
        going = Going(room)
        done = False
        try:
            yield going
            done = True
        finally:
            made = going.room
            if made is not None and made is not room:  # a new room: it takes the slot
                if done and in_play(made):
                    with contextlib.suppress(Exception):
                        await self._claim_in(address, made.code, replacing=member)
                await self._release_in(member)
            elif added == 1 and not (done and made is not None and in_play(made)):
                await self._release_in(member)  # not set going: the slot is free again
        if made is not None:
            self.claim(made, address)
            if in_play(made):
                self._live.add(made.code)
                self._released.discard(made.code)

    def changed(self, room: Any) -> None:
        """A room out of play (over, its bots given back, closed) leaves its address's
        set at once, on whichever node sees it first; at most one call a node until the
        room is seen in play again."""
        code = room.code
        if in_play(room):
            self._live.add(code)
            self._released.discard(code)
            return
        if code in self._released:
            return
        if code not in self._live and room.status not in ("playing", "over"):
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # no event loop (a change made outside the server)
            return
        self._live.discard(code)
        self._released.add(code)
        task = loop.create_task(self._release_in(code))
        self._tasks.add(task)
        self._releasing[code] = task

        def done(task: asyncio.Task[None]) -> None:
            self._tasks.discard(task)
            if self._releasing.get(code) is task:
                del self._releasing[code]

        task.add_done_callback(done)

    def forget(self, code: str) -> None:
        """Room ``code`` left this node's memory (another node may still play it: its
        lease, renewed there, says so)."""
        super().forget(code)
        self._live.discard(code)
        self._released.discard(code)

    async def renew(self) -> None:
        """Renew the leases of the rooms in play this node holds."""
        codes = [code for code, room in list(self.rooms.items()) if in_play(room)]
        lease = int(self.lease_seconds * 1000)
        for start in range(0, len(codes), 500):
            part = codes[start : start + 500]
            try:
                await self._renew(keys=[self._room(c) for c in part], args=[lease, *part])
                self._up()
            except Exception as err:
                self._failed(err)
                return

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self.lease_seconds / 3)
            await self.renew()

    async def start(self) -> None:
        self._renewer = asyncio.get_running_loop().create_task(self._renewing())

    async def close(self) -> None:
        tasks = [*self._tasks, *([self._renewer] if self._renewer else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()
