"""Websocket connections: ``Connection`` (one socket, its outbox and sender task) and
``TokenBucket`` (the rate limit of a socket or a client)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from typing import Protocol

from .settings import Settings


class TokenBucket:
    """A token bucket: ``take()`` is False once the client goes faster than allowed.

    >>> bucket = TokenBucket(rate=1.0, burst=2)
    >>> bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=1.0)
    (True, True, False, True)
    """

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp: float | None = None

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Connection:
    """One websocket of a seat (``seat=None``: a spectator), with its own outbox.

    A sender task writes the outbox in order; a newer view replaces an older one not yet
    sent, so a slow client costs at most one pending view.
    """

    def __init__(self, socket: Socket, seat: int | None, settings: Settings) -> None:
        self.socket = socket
        self.seat = seat
        self.bucket = TokenBucket(settings.rate_limit_per_second, settings.rate_limit_burst)
        self._outbox: deque[tuple[str, str]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def push(self, text: str, kind: str = "other") -> None:
        if self.closed:
            return
        if kind == "state" and self._outbox:
            self._outbox = deque(item for item in self._outbox if item[0] != "state")
        self._outbox.append((kind, text))
        self._wake.set()

    async def flush(self) -> None:
        """Wait until everything pushed so far is written (or the socket died)."""
        while self._outbox and not self.closed:
            await asyncio.sleep(0.001)

    async def _run(self) -> None:
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._outbox:
                    _, text = self._outbox.popleft()
                    await self.socket.send_text(text)
        except Exception:  # the peer went away: the receive loop will notice
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        self._outbox.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
