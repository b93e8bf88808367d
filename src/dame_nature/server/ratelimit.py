"""One rate limiter for every per-client limit (API requests and room creations per
address, websocket connects per address and per seat token, actions per seat), on the
``limits`` package: in memory on a single node, on the cluster's Redis when nodes share
a store, so that a limit holds across every node behind the load balancer (with N nodes
an in-memory limit would be N times looser).

Each limit is a sliding window of ``burst`` hits over ``burst / rate`` seconds (a
sustained ``rate`` a second, ``burst`` at once). When Redis cannot be reached the node
falls back to its own memory for that hit (each node then limits alone) and says so in
the log, once, until Redis answers again.

The messages of one websocket are limited by the socket itself (``connections.py``): a
socket lives on one node, and a round trip to Redis per message would cost more than
the message.

>>> import asyncio
>>> limiter = RateLimiter()
>>> rule = Rate("demo", per_second=1.0, burst=2)
>>> async def three(): return [await limiter.hit(rule, "a") for _ in range(3)]
>>> asyncio.run(three())
[True, True, False]
"""

from __future__ import annotations

import logging
import math
from dataclasses import dataclass, field

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

log = logging.getLogger("dame_nature.server")


@dataclass(frozen=True)
class Rate:
    """A limit: ``burst`` hits at once, ``per_second`` sustained, by ``name``."""

    name: str
    per_second: float
    burst: int
    item: RateLimitItem = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        window = max(1, math.ceil(self.burst / self.per_second))
        amount = max(1, round(self.per_second * window)) if window > 1 else self.burst
        object.__setattr__(self, "item", RateLimitItemPerSecond(max(amount, 1), window))


class RateLimiter:
    """``await hit(rate, key)``: whether one more hit of ``key`` (an address, a token)
    is within ``rate``."""

    def __init__(self, redis_url: str | None = None, prefix: str = "dame-nature") -> None:
        self.local = SlidingWindowCounterRateLimiter(MemoryStorage())
        self.shared: SlidingWindowCounterRateLimiter | None = None
        if redis_url:
            storage: Storage = RedisStorage(
                "async+" + redis_url if not redis_url.startswith("async+") else redis_url,
                implementation="redispy",
                key_prefix=prefix,
                wrap_exceptions=True,
            )
            self.shared = SlidingWindowCounterRateLimiter(storage)
        self._shared_down = False

    async def hit(self, rate: Rate, key: str) -> bool:
        if self.shared is not None:
            try:
                allowed = await self.shared.hit(rate.item, rate.name, key)
            except Exception as err:  # Redis down: this node limits alone meanwhile
                if not self._shared_down:
                    log.warning("rate limits: Redis unreachable (%s); limiting per node", err)
                    self._shared_down = True
            else:
                if self._shared_down:
                    log.info("rate limits: Redis reachable again; limits shared by the nodes")
                    self._shared_down = False
                return bool(allowed)
        return bool(await self.local.hit(rate.item, rate.name, key))
