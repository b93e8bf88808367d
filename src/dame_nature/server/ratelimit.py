"""One rate limiter for every per-client limit (API requests and room creations per
address, websocket connects per address and per seat token, actions per seat): in the
node's memory on a single node (``LocalLimiter``), on the cluster's Redis through the
``limits`` package when nodes share a store, so that a limit holds across every node
behind the load balancer (with N nodes an in-memory limit would be N times looser).

Each limit is a sliding window of ``burst`` hits over ``burst / rate`` seconds (a
sustained ``rate`` a second, ``burst`` at once), counted as ``limits``' sliding-window
counter counts it: the hits of the current window plus those of the previous window
weighted by the share of it still inside the sliding window. In memory a hit costs the
same however many keys are held, and a key's counters are dropped once its hits no
longer count (at the next hit of any key), so that memory follows the clients of the
last two windows only. When Redis cannot be reached the node falls back to its own
memory for that hit (each node then limits alone) and says so in the log, once, until
Redis answers again.

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
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import RedisStorage, Storage
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

    @property
    def retry_after(self) -> int:
        """Whole seconds until a client past the limit may hit again (its sustained rate
        frees one hit in ``1 / per_second``): the ``Retry-After`` of a 429.

        >>> Rate("creates", per_second=0.2, burst=10).retry_after
        5
        """
        return max(1, math.ceil(1 / self.per_second))


class LocalLimiter:
    """The sliding-window counter of every ``Rate`` in this process's memory.

    Per key: the index of its current window, that window's hits and the previous
    window's. The keys of one window length are kept in the order their window began
    (a key moves to the end when its window rolls over), so the keys whose hits no
    longer count are at the front, where each hit drops them: each key is dropped once,
    and no hit walks over the live ones.

    >>> now = [0.0]
    >>> limiter = LocalLimiter(clock=lambda: now[0])
    >>> rule = Rate("demo", per_second=1.0, burst=2)
    >>> [limiter.hit(rule, "a") for _ in range(3)], len(limiter)
    ([True, True, False], 1)
    >>> now[0] = 10.0
    >>> limiter.hit(rule, "b"), len(limiter)
    (True, 1)
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        # window length (s) -> (name, amount, key) -> [window index, hits, previous hits]
        self._keys: dict[int, OrderedDict[tuple[str, int, str], list[int]]] = {}

    def __len__(self) -> int:
        """The keys held."""
        return sum(len(keys) for keys in self._keys.values())

    def hit(self, rate: Rate, key: str) -> bool:
        now = self.clock()
        expiry = rate.item.get_expiry()
        limit = rate.item.amount
        self._drop_passed(now)
        keys = self._keys.get(expiry)
        if keys is None:
            keys = self._keys[expiry] = OrderedDict()
        window = int(now / expiry)
        name = (rate.name, limit, key)
        counters = keys.get(name)
        if counters is None:
            current = previous = 0
        elif counters[0] >= window:
            current, previous = counters[1], counters[2]
        elif counters[0] == window - 1:
            current, previous = 0, counters[1]
        else:
            current = previous = 0
        if previous:
            previous_left = (1 - (((now - expiry) / expiry) % 1)) * expiry
            weighted = previous * previous_left / expiry + current
        else:
            weighted = current
        if math.floor(weighted) + 1 > limit:
            return False
        if counters is not None and counters[0] >= window:
            counters[1] += 1
        else:  # a new key, or its window rolled over: to the end of the order
            keys.pop(name, None)
            keys[name] = [window, 1, previous]
        return True

    def _drop_passed(self, now: float) -> None:
        """Drop the keys whose current window is older than the previous one."""
        for expiry, keys in self._keys.items():
            oldest = int(now / expiry) - 1
            while keys:
                name = next(iter(keys))
                if keys[name][0] >= oldest:
                    break
                del keys[name]


class RateLimiter:
    """``await hit(rate, key)``: whether one more hit of ``key`` (an address, a token)
    is within ``rate``."""

    def __init__(
        self,
        redis_url: str | None = None,
        prefix: str = "dame-nature",
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.local = LocalLimiter(clock)
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
        return self.local.hit(rate, key)
