"""The single node's rate limiter in memory: the sliding-window counter of every ``Rate``
(a burst at once, a sustained rate, keys apart), and a key's memory released once its
window has passed. The clock is injected: no test waits."""

from __future__ import annotations

import asyncio
import math
import socket
from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from dame_nature.server.ratelimit import LocalLimiter, Rate, RateLimiter


class Clock:
    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


class Reference:
    """The sliding-window counter from every accepted hit's time: the hits of the current
    window plus the previous window's, weighted by the share of it still inside the
    sliding window (``limits``' formula, over the whole history)."""

    def __init__(self) -> None:
        self.accepted: dict[tuple[Rate, str], list[float]] = defaultdict(list)

    def hit(self, rate: Rate, key: str, now: float) -> bool:
        expiry, limit = rate.item.get_expiry(), rate.item.amount
        window = int(now / expiry)
        times = self.accepted[rate, key]
        current = sum(1 for t in times if int(t / expiry) == window)
        previous = sum(1 for t in times if int(t / expiry) == window - 1)
        previous_left = (1 - (((now - expiry) / expiry) % 1)) * expiry if previous else 0.0
        if math.floor(previous * previous_left / expiry + current) + 1 > limit:
            return False
        times.append(now)
        return True

    def live(self, now: float) -> int:
        """The keys with an accepted hit in their current or previous window."""
        live = 0
        for (rate, _), times in self.accepted.items():
            expiry = rate.item.get_expiry()
            live += bool(times) and int(times[-1] / expiry) >= int(now / expiry) - 1
        return live


RATES = [
    Rate("connect", per_second=1.0, burst=15),
    Rate("create", per_second=0.2, burst=10),
    Rate("action", per_second=10.0, burst=40),
    Rate("tiny", per_second=1.0, burst=1),
    Rate("fast", per_second=50.0, burst=5),
]


def test_a_burst_at_once_then_refused() -> None:
    limiter = LocalLimiter(clock=Clock())
    rate = Rate("create", per_second=0.2, burst=10)
    assert [limiter.hit(rate, "203.0.113.7") for _ in range(12)] == [True] * 10 + [False] * 2


def test_keys_and_rates_are_apart() -> None:
    limiter = LocalLimiter(clock=Clock())
    rate, other = Rate("a", per_second=1.0, burst=2), Rate("b", per_second=1.0, burst=2)
    assert [limiter.hit(rate, "x") for _ in range(3)] == [True, True, False]
    assert [limiter.hit(rate, "y") for _ in range(3)] == [True, True, False]
    assert [limiter.hit(other, "x") for _ in range(3)] == [True, True, False]
    assert len(limiter) == 3


def test_under_the_sustained_rate_all_pass_and_twice_it_half() -> None:
    clock = Clock()
    limiter = LocalLimiter(clock=clock)
    rate = Rate("connect", per_second=1.0, burst=15)
    for _ in range(15):  # the burst spent first
        assert limiter.hit(rate, "a")
    clock.now += rate.item.get_expiry() * 2  # the burst's windows passed
    at_rate = []
    for _ in range(600):  # eleven minutes at 0.9 of the sustained rate
        clock.now += 1.1
        at_rate.append(limiter.hit(rate, "a"))
    assert all(at_rate)
    twice = []
    for _ in range(1200):  # ten minutes at twice the rate: about half let through
        clock.now += 0.5
        twice.append(limiter.hit(rate, "b"))
    assert 0.45 < twice.count(True) / len(twice) <= 0.55


def test_a_keys_memory_is_released_after_its_window() -> None:
    clock = Clock()
    limiter = LocalLimiter(clock=clock)
    rate = Rate("connect", per_second=1.0, burst=15)  # a window of 15 s
    for i in range(1000):
        assert limiter.hit(rate, f"203.0.113.{i}")
    assert len(limiter) == 1000
    clock.now += 15.0  # the next window: the previous window's hits still count
    assert limiter.hit(rate, "late")
    assert len(limiter) == 1001
    clock.now += 15.0  # two windows on: nothing of the first 1,000 counts any more
    assert limiter.hit(rate, "late")
    assert len(limiter) == 1


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0.0, 0.0, 0.01, 0.1, 0.5, 1.0, 2.7, 7.5, 15.0, 40.0]),
            st.integers(0, len(RATES) - 1),
            st.sampled_from(["a", "b", "c"]),
        ),
        max_size=300,
    )
)
def test_the_counter_of_every_rate_matches_the_reference(hits) -> None:
    clock = Clock()
    limiter, reference = LocalLimiter(clock=clock), Reference()
    for step, rate_index, key in hits:
        clock.now += step
        rate = RATES[rate_index]
        assert limiter.hit(rate, key) == reference.hit(rate, key, clock.now)
        assert len(limiter) == reference.live(clock.now)


def test_with_redis_unreachable_each_node_limits_alone_in_memory() -> None:
    with socket.socket() as probe:  # a loopback port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    clock = Clock()
    limiter = RateLimiter(f"redis://127.0.0.1:{port}/0", clock=clock)
    rate = Rate("create", per_second=0.2, burst=3)

    async def hits() -> list[bool]:
        return [await limiter.hit(rate, "203.0.113.9") for _ in range(4)]

    assert asyncio.run(hits()) == [True, True, True, False]
    assert len(limiter.local) == 1
