"""Who a client is, for the limits: its address (the real one behind a trusted reverse
proxy), and token buckets keyed by address or seat token.

>>> from ipaddress import ip_network
>>> scope = {"client": ("10.0.0.2", 5000), "headers": [(b"x-forwarded-for", b"1.2.3.4, 10.0.0.9")]}
>>> client_address(scope, [ip_network("10.0.0.0/8")])
'1.2.3.4'
>>> client_address(scope, [])  # not a trusted proxy: its headers are not believed
'10.0.0.2'
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from ipaddress import IPv4Network, IPv6Network, ip_address
from typing import Any

from .connections import TokenBucket

Networks = Sequence[IPv4Network | IPv6Network]


def is_trusted(address: str, trusted: Networks) -> bool:
    if not trusted:
        return False
    try:
        ip = ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def client_address(scope: Any, trusted: Networks) -> str:
    """The address a request or websocket comes from. Behind a trusted proxy, the last
    address of ``X-Forwarded-For`` that is not itself a trusted proxy (else
    ``X-Real-IP``); headers of any other peer are ignored (a client could forge them)."""
    client = scope.get("client")
    peer = str(client[0]) if client else "unknown"
    if not is_trusted(peer, trusted):
        return peer
    forwarded: list[str] = []
    real_ip = None
    for name, value in scope.get("headers", ()):
        if name == b"x-forwarded-for":
            forwarded += [p.strip() for p in value.decode("latin-1").split(",") if p.strip()]
        elif name == b"x-real-ip":
            real_ip = value.decode("latin-1").strip()
    for address in reversed(forwarded):
        if not is_trusted(address, trusted):
            return _valid(address) or peer
    if real_ip:
        return _valid(real_ip) or peer
    return peer


def _valid(address: str) -> str | None:
    try:
        return str(ip_address(address))
    except ValueError:
        return None


class Limiter:
    """Token buckets by key (a client address, a seat token). Buckets that have had
    time to fill up again are forgotten, so the table stays as small as the clients
    active lately.

    >>> limit = Limiter(rate=1.0, burst=2)
    >>> [limit.allow("a", now=0.0) for _ in range(3)], limit.allow("b", now=0.0)
    ([True, True, False], True)
    """

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = burst
        self.buckets: dict[str, TokenBucket] = {}
        self._prune_at = 1024

    def allow(self, key: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self._prune_at:
                self._prune(now)
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket.take(now)

    def _prune(self, now: float) -> None:
        horizon = self.burst / self.rate  # an untouched bucket is full again after this
        self.buckets = {
            key: bucket
            for key, bucket in self.buckets.items()
            if bucket.stamp is not None and now - bucket.stamp < horizon
        }
        self._prune_at = max(1024, 2 * len(self.buckets))
