"""The single-node rate limiter's cost per hit as its keys grow: N distinct keys (an
address, a seat token each) hit in turn, one hit per turn of the event loop as in the
server (each hit is its own request or websocket connect, so the loop runs whatever the
limiter scheduled between two hits).

Two limiters, in alternating rounds on the same machine: ``limits``' sliding-window
counter on its ``MemoryStorage`` (``limits``) and the server's own in-memory limiter
(``local``, ``ratelimit.LocalLimiter``). The N keys are first hit once each (untimed,
without yielding), then H hits cycle over them, timed (CPU time of the process, the
loop's turns included). ``loop`` is the event loop's turn alone (no limiter), the floor.

    python benchmarks/ratelimit.py --keys 100 1000 10000 --hits 2000 --rounds 3

Last line: ``ratelimit_local_us_per_hit: N`` (the most keys, the median round).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time
from collections.abc import Awaitable, Callable

from limits.aio.storage import MemoryStorage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from dame_nature.server.ratelimit import LocalLimiter, Rate

# The websocket connect limit per address (settings' default order of magnitude): a
# window of several seconds, so that every key stays live during the run.
RATE = Rate("bench", per_second=2.0, burst=20)

Hit = Callable[[str], Awaitable[bool]]


def make(kind: str) -> Hit:
    if kind == "limits":
        strategy = SlidingWindowCounterRateLimiter(MemoryStorage())

        async def hit_limits(key: str) -> bool:
            return await strategy.hit(RATE.item, RATE.name, key)

        return hit_limits
    if kind == "local":
        local = LocalLimiter()

        async def hit_local(key: str) -> bool:
            return local.hit(RATE, key)

        return hit_local

    async def hit_nothing(key: str) -> bool:
        return True

    return hit_nothing


async def one_round(kind: str, keys: int, hits: int) -> float:
    """Microseconds of CPU per hit, the loop's turn included."""
    hit = make(kind)
    names = [f"203.0.113.{i}" for i in range(keys)]
    for name in names:  # the keys exist before the timed hits
        await hit(name)
    await asyncio.sleep(0)
    start = time.process_time()
    for i in range(hits):
        await hit(names[i % keys])
        await asyncio.sleep(0)  # the next hit is another request: the loop turns
    await asyncio.sleep(0)  # a pass the last hit started is counted too
    return (time.process_time() - start) / hits * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, nargs="+", default=[100, 1000, 10000])
    parser.add_argument("--hits", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--kinds", nargs="+", default=["loop", "limits", "local"])
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    last: dict[str, float] = {}
    for keys in args.keys:
        figures: dict[str, list[float]] = {kind: [] for kind in args.kinds}
        for _ in range(args.rounds):  # alternating: a busy moment weighs on each alike
            for kind in args.kinds:
                figures[kind].append(asyncio.run(one_round(kind, keys, args.hits)))
        for kind in args.kinds:
            median = statistics.median(figures[kind])
            last[kind] = median
            rounds = " ".join(f"{f:.1f}" for f in figures[kind])
            print(f"{keys:>7} keys  {kind:<7} {median:9.1f} us/hit  (rounds: {rounds})")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")
    if "local" in last:
        print(f"ratelimit_local_us_per_hit: {last['local']:.1f}")


if __name__ == "__main__":
    main()
