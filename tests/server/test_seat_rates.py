"""The action rate of each seat (``rooms/play.py``'s ``SeatRates``)."""

from __future__ import annotations

import gc
import random
from types import SimpleNamespace
from typing import Any

import pytest

from dame_nature.server.connections import TokenBucket
from dame_nature.server.errors import Refused
from dame_nature.server.rooms.play import SeatRates
from dame_nature.server.settings import Settings


def room(code: str) -> Any:
    return SimpleNamespace(code=code)


@pytest.mark.parametrize(("rate", "burst"), [(10.0, 40), (1.0, 2), (3.0, 1), (0.5, 5)])
def test_a_seat_is_held_to_a_token_bucket(rate: float, burst: int) -> None:
    rng = random.Random(f"{rate} {burst}")
    rates = SeatRates(Settings(action_rate_per_second=rate, action_rate_burst=burst))
    buckets = {(code, seat): TokenBucket(rate, burst) for code in "AB" for seat in range(5)}
    now = 0.0
    for _ in range(3_000):
        now += rng.expovariate(rate * rng.choice((0.3, 1.0, 3.0, 30.0)))
        code, seat = rng.choice(list(buckets))
        assert rates.take(room(code), seat, now=now) == buckets[code, seat].take(now=now), (
            rate, burst, now, code, seat,
        )  # fmt: skip


def test_the_rates_are_refused_past_the_burst_and_forgotten_with_the_room() -> None:
    rates = SeatRates(Settings(action_rate_per_second=0.001, action_rate_burst=3))
    for _ in range(3):
        rates.allow(room("ROOM"), 2)
    with pytest.raises(Refused) as refused:
        rates.allow(room("ROOM"), 2)
    assert refused.value.code == "rate_limited"
    rates.allow(room("ROOM"), 1)  # another seat, another room: their own buckets
    rates.allow(room("MOOR"), 2)
    rates.forget("ROOM")
    rates.allow(room("ROOM"), 2)


def test_the_collector_does_not_walk_the_seats_rates() -> None:
    """What each seat's rate keeps is made at its first action, after the server froze
    what it made at start-up: none of it may be an object the collector tracks."""
    rates = SeatRates(Settings())
    for code in ("ROOM", "MOOR"):
        for seat in range(5):
            rates.allow(room(code), seat)
    per_room = list(rates._buckets.values())
    assert len(per_room) == 2
    assert not any(map(gc.is_tracked, per_room))
    assert not any(map(gc.is_tracked, gc.get_referents(*per_room)))
