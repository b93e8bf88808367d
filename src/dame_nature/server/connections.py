"""Websocket connections: ``Connection`` (one socket, its outbox and sender) and
``TokenBucket`` (the rate limit of a socket or a client)."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import deque
from collections.abc import Callable
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

    def is_full(self, now: float | None = None) -> bool:
        """Whether the client kept within the rate long enough to have its whole burst back.

        >>> bucket = TokenBucket(rate=1.0, burst=2)
        >>> bucket.take(now=0.0), bucket.is_full(now=0.5), bucket.is_full(now=1.0)
        (True, False, True)
        """
        if self.stamp is None:
            return True
        now = time.monotonic() if now is None else now
        return self.tokens + (now - self.stamp) * self.rate >= self.burst


class Socket(Protocol):
    """What a ``Connection`` writes to; it also uses a ``send_now(data) -> bool`` when
    the socket has one: ``data`` written at once, or False, nothing written, when
    ``send_text`` would have to wait."""

    async def send_text(self, data: str) -> None: ...

    async def close(self, code: int = 1000, reason: str | None = None) -> None: ...


#: close code of a socket that broke a limit (its outbox overflowed, it flooded)
POLICY_VIOLATION = 1008


class Connection:
    """One websocket of a seat (``seat=None``: a spectator), with its own outbox.

    A message pushed while nothing waits before it is written at once when the socket
    can take it without waiting (its ``send_now``: no task, no ``await``, about half
    the CPU of a message written by a task). Otherwise it waits in the outbox: a
    sender task writes the outbox in order, started when something is pushed and
    ending once the outbox is empty (an idle socket keeps no task, event or timer, so
    few objects for the cyclic collector to walk); a newer view replaces an older one
    not yet sent, so a slow client costs at most one pending view. The outbox is
    bounded in messages and bytes: a client that does not read what it asked for
    (errors, pongs) is closed with 1008 once it is full, and everything queued for it
    is dropped.

    Incoming messages go through ``admit()`` before anything else looks at them: the
    first one over the rate gets a single ``rate_limited`` notice, the next ones are
    dropped unread, and a client that keeps going is closed (1008). One notice for a whole
    flood: a message admitted in between (the bucket refills while a busy server reads
    slowly) does not end it; only a client that kept within the rate until its whole
    burst came back starts afresh.
    """

    def __init__(
        self,
        socket: Socket,
        seat: int | None,
        settings: Settings,
        overflowed: Callable[[], None] | None = None,
    ) -> None:
        #: told when the outbox overflows and the socket is closed (the metrics)
        self.overflowed = overflowed
        self.socket = socket
        #: the socket has a ``send_now`` (a flag, not the bound method: one object less)
        self._direct = callable(getattr(socket, "send_now", None))
        self.seat = seat
        #: the seat token it plays with (set under the room's lock): its seat is found
        #: again from it whenever the room's seats may have moved
        self.token: str | None = None
        self.bucket = TokenBucket(settings.ws_rate_per_second, settings.ws_rate_burst)
        self.max_messages = settings.ws_outbox_max_messages
        self.max_bytes = settings.ws_outbox_max_bytes
        self.flood_close_after = settings.ws_flood_close_after
        self.dropped = 0  # messages dropped since the client went over the rate
        self.over_rate = False  # notified, until the client kept within the rate again
        self.close_code: int | None = None  # set once the server decided to close it
        self._outbox: deque[tuple[str, str]] = deque()
        self._bytes = 0
        self._started = False  # pushed messages wait until ``start()``
        self._task: asyncio.Task[None] | None = None  # the sender, while it has work
        self._closer: asyncio.Task[None] | None = None
        self.closed = False
        #: close with this code once the outbox is sent (``close_after_sent``)
        self._close_when_sent: int | None = None
        #: a message pushed now is offered to the socket's ``send_now`` first
        #: (``_update_writes_now``)
        self._writes_now = False

    def _update_writes_now(self) -> None:
        """Bring ``_writes_now`` to what holds now: the socket has a ``send_now``, the
        connection started, no sender task writes (nor waits to: then the outbox is
        empty), no close waits for the outbox and the connection is open. Called after
        each change of these, so that a push checks one flag rather than five fields."""
        self._writes_now = (
            self._direct
            and self._started
            and self._task is None
            and not self._outbox
            and self._close_when_sent is None
            and not self.closed
        )

    @property
    def started(self) -> bool:
        return self._started

    def start(self) -> None:
        """Messages pushed so far, and from now on, go out."""
        self._started = True
        self._wake()
        self._update_writes_now()

    def _wake(self) -> None:
        if self._started and self._task is None and not self.closed:
            self._task = asyncio.get_running_loop().create_task(self._run())
            self._writes_now = False

    @property
    def queued(self) -> tuple[int, int]:
        """Messages and bytes waiting in the outbox."""
        return len(self._outbox), self._bytes

    def push(self, text: str, kind: str = "other") -> None:
        if self._writes_now:  # (nothing waits before it: ``_update_writes_now``)
            try:
                if self.socket.send_now(text):  # type: ignore[attr-defined]
                    return
            except Exception:  # the peer went away, as in ``_run``
                self.closed = True
                self._writes_now = False
                return
        if self.closed:
            return
        if kind == "state" and self._outbox:
            kept = deque(item for item in self._outbox if item[0] != "state")
            if len(kept) != len(self._outbox):
                self._outbox = kept
                self._bytes = sum(len(item[1]) for item in kept)
        if len(self._outbox) >= self.max_messages or self._bytes + len(text) > self.max_bytes:
            if self.overflowed is not None:
                self.overflowed()
            self.abort(POLICY_VIOLATION)
            return
        self._outbox.append((kind, text))
        self._bytes += len(text)
        self._wake()

    def admit(self) -> str:
        """Whether the next incoming message may be read: ``"ok"``; ``"notice"`` (the
        first over the rate: tell the client once); ``"drop"``; ``"close"`` (a flood:
        more than ``flood_close_after`` dropped since the notice)."""
        now = time.monotonic()
        if self.over_rate and self.bucket.is_full(now):  # calm again: a fresh start
            self.over_rate = False
            self.dropped = 0
        if self.bucket.take(now):
            return "ok"
        self.dropped += 1
        if not self.over_rate:
            self.over_rate = True
            return "notice"
        if self.dropped > self.flood_close_after:
            return "close"
        return "drop"

    def abort(self, code: int) -> None:
        """Close the socket with ``code`` at once, dropping what was not sent yet."""
        if self.close_code is None:
            self.close_code = code
        self.closed = True
        self._writes_now = False
        self._outbox.clear()
        self._bytes = 0
        if self._task is not None:
            self._task.cancel()
            self._task = None
        self._closer = asyncio.get_running_loop().create_task(self._close(code))

    def close_after_sent(self, code: int) -> None:
        """Close the socket with ``code`` once what was pushed so far is sent."""
        if self.closed or self._close_when_sent is not None:
            return
        self._close_when_sent = code
        self._writes_now = False
        if self.close_code is None:
            self.close_code = code
        self._wake()

    async def _close(self, code: int) -> None:
        # a client that does not read never lets the close frame out: give up after a
        # while (the receive loop ends the connection then)
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.socket.close(code), timeout=5)

    async def flush(self) -> None:
        """Wait until everything pushed so far is written (or the socket died)."""
        while self._outbox and not self.closed and self._task is not None:
            await asyncio.wait((self._task,))  # never cancels the sender

    async def _run(self) -> None:
        try:
            while self._outbox and not self.closed:
                _, text = self._outbox.popleft()
                self._bytes -= len(text)
                await self.socket.send_text(text)
            if self._close_when_sent is not None and not self.closed:
                self.closed = True
                await self._close(self._close_when_sent)
        except Exception:  # the peer went away: the receive loop will notice
            self.closed = True
        finally:
            if self._task is asyncio.current_task():
                self._task = None
                self._update_writes_now()

    async def stop(self) -> None:
        self.closed = True
        self._writes_now = False
        self._outbox.clear()
        self._bytes = 0
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
