"""Where the bots think: off the event loop, in worker processes (or one thread).

``BotPool.decide(...)`` hands a bot seat's view to its bot and awaits the action it
returns (``None``: nothing to do now). The bots themselves (``dame_nature.bots``) keep
their memory between calls, so each room always goes to the same worker (a shard chosen
from the room code); a worker holds the bots of its rooms until ``forget``.

With ``processes >= 1`` (the default) each shard is a process of its own: the bots'
pure-Python search never takes the GIL from the server's event loop, and a second core
helps. With ``processes = 0`` one thread of the server process thinks for every room
(simpler, but the search then shares the GIL with the loop; ``benchmarks/server_load.py
--bot-rooms`` measures both).

A shard thinks for one bot at a time, so the budget counts thinking, not queueing. The
decisions waiting for a shard take turns fairly (``Turns``): a room where a person waits
for the bots (a seated person connected, or a hint) before any room of bots only; then
client by client (the address that set the room's bots going, or asked for the hint),
the one served longest ago first, and room by room within a client, so one client's
many rooms, or one room's rematches, never starve the others. A decision that takes
longer than ``think_seconds`` is given up on (its late answer is dropped) and raises
``BotTimeout``; a worker that dies raises ``BotFailure`` and is replaced on the next
call. The caller then decides with the ``random`` level (``decide_fallback``), which
runs on a thread of the server process.

This module imports nothing heavy at load time: a spawned worker imports it first.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import threading
import time
import zlib
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger("dame_nature.server.bots")

#: (room code, game number, seat, level) -> the bot playing that seat
BotKey = tuple[str, int, int, str]
_BOTS: dict[BotKey, Any] = {}
_BOTS_LOCK = threading.Lock()
#: worker processes run at a lower priority than the server, which answers people
WORKER_NICENESS = 5
#: the reviews' workers, which nobody at a table waits for, run at the lowest priority
#: there is (and under ``SCHED_IDLE`` where Linux has it): only on what the server, its
#: bots and everything else on the machine leave idle
REVIEW_NICENESS = 19
#: the longest a worker may take to start (a process spawned, the bots imported)
START_SECONDS = 60.0


class BotFailure(Exception):
    """The bot could not decide (it raised, or its worker died)."""


class BotTimeout(BotFailure):
    """The bot took longer than its budget."""


# ---------------------------------------------------------------------- worker side
def _watch_parent(parent: int) -> None:
    """A worker exits when the server process is gone (even after a SIGKILL)."""
    while True:
        time.sleep(1.0)
        if os.getppid() != parent:
            os._exit(0)


def _worker_start(parent: int, niceness: int = WORKER_NICENESS, idle: bool = False) -> None:
    """A worker process's start: it watches the server, lowers its priority (``idle``:
    Linux's ``SCHED_IDLE`` besides, where it runs only on a core nothing else wants) and
    imports the bots."""
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    with contextlib.suppress(OSError):  # the people's event loop comes first
        os.nice(niceness)
    if idle and hasattr(os, "SCHED_IDLE"):
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
    import dame_nature.bots  # noqa: F401  (the first decision should not pay the import)


def _decide(key: BotKey, seed: int, view: dict[str, Any]) -> dict[str, Any] | None:
    """Run in a worker: the bot of ``key`` (made on first use) acts on ``view``."""
    from dame_nature.bots import make_bot

    with _BOTS_LOCK:
        bot = _BOTS.get(key)
        if bot is None:
            bot = _BOTS[key] = make_bot(key[3], key[2], seed=seed)
    action: dict[str, Any] | None = bot.act(view)
    return action


def _hint(
    seed: int, view: dict[str, Any], legal: list[dict[str, Any]], worlds: int
) -> dict[str, Any] | None:
    """Run in a worker: the expert's hint for the seat of ``view`` (a bot of its own,
    made for this hint only: the table's bots keep their memory)."""
    from dame_nature.bots.hint import hint

    return hint(view, legal, seed=seed, worlds=worlds)


def _ready() -> None:
    """Run in a worker: nothing (the worker has started and imported the bots)."""


def _forget(room: str) -> int:
    """Run in a worker: drop the bots of ``room``."""
    with _BOTS_LOCK:
        keys = [k for k in _BOTS if k[0] == room]
        for key in keys:
            del _BOTS[key]
    return len(keys)


# ---------------------------------------------------------------------- server side
def _nobody() -> bool:
    return False


def _somebody() -> bool:
    return True


@dataclass(frozen=True)
class Asker:
    """Whom a decision is for: its ``room``, the ``client`` address that set the room's
    bots going (the room's code when it is not known), and whether a person waits for it
    now (asked again each time a turn is given: people come and go)."""

    room: str
    client: str = ""
    person_waiting: Callable[[], bool] = field(default=_nobody, compare=False)

    @classmethod
    def person(cls, room: str, client: str) -> Asker:
        """A decision a person asked for (a hint), from the address ``client``."""
        return cls(room, client, _somebody)


@dataclass(eq=False)
class _Waiter:
    asker: Asker
    seq: int
    future: asyncio.Future[None]
    #: decisions given the shard while this one waited
    ahead: int = 0


class Turns:
    """The turns of one shard: one decision at a time; the next is the first of the
    waiting ones by (a person waits for it, first; its client's last turn, oldest
    first; its room's last turn, oldest first; arrival). Round robin between clients,
    then rooms, with the people's rooms ahead of all."""

    #: turns remembered per client and room before the oldest are forgotten (a forgotten
    #: one counts as served long ago); a room's is kept over its rematches, so that a
    #: room played again and again never jumps the queue
    MEMORY = 4096

    def __init__(self) -> None:
        self.busy = False
        self.waiting: list[_Waiter] = []
        self._served: dict[str, int] = {}  # "c:<client>" / "r:<room>" -> its last turn
        self._clock = 0

    async def take(self, asker: Asker) -> int:
        """Wait for the shard; the number of decisions given it meanwhile."""
        if not self.busy and not self.waiting:
            self.busy = True
            self._given(asker)
            return 0
        self._clock += 1
        waiter = _Waiter(asker, self._clock, asyncio.get_running_loop().create_future())
        self.waiting.append(waiter)
        try:
            await waiter.future
        except asyncio.CancelledError:
            if waiter.future.done() and not waiter.future.cancelled():
                self.give_back()  # given the turn just as it was cancelled: pass it on
            elif waiter in self.waiting:
                self.waiting.remove(waiter)
            raise
        return waiter.ahead

    def give_back(self) -> None:
        """The shard is free: the next decision's turn."""
        if not self.waiting:
            self.busy = False
            return
        served = self._served
        nxt = min(
            self.waiting,
            key=lambda w: (
                not w.asker.person_waiting(),
                served.get("c:" + w.asker.client, 0),
                served.get("r:" + w.asker.room, 0),
                w.seq,
            ),
        )
        self.waiting.remove(nxt)
        for waiter in self.waiting:
            waiter.ahead += 1
        self._given(nxt.asker)
        nxt.future.set_result(None)

    def _given(self, asker: Asker) -> None:
        self._clock += 1
        self._served["c:" + asker.client] = self._served["r:" + asker.room] = self._clock
        if len(self._served) > 2 * self.MEMORY:
            oldest = self._clock - self.MEMORY
            self._served = {k: v for k, v in self._served.items() if v > oldest}


class BotPool:
    """Shards of one worker each; a room always thinks on the same shard."""

    def __init__(
        self,
        processes: int,
        think_seconds: float,
        decided: Callable[[str, float], None] | None = None,
        queued: Callable[[bool, int], None] | None = None,
    ) -> None:
        self.processes = processes
        self.think_seconds = think_seconds
        #: told each decision's level and thinking time (the metrics)
        self.decided = decided
        #: told, for each decision, whether a person waited for it and how many other
        #: decisions were given the shard while it waited (the metrics)
        self.queued = queued
        self._shards: list[Executor | None] = [None] * max(1, processes)
        # one decision at a time per shard, so that the budget counts a bot's thinking,
        # not its wait behind other rooms' bots (waiting rooms take turns here, fairly)
        self._turns = [Turns() for _ in self._shards]
        self._closed = False

    def _shard(self, room: str) -> int:
        return zlib.crc32(room.encode()) % len(self._shards)

    def _executor(self, index: int) -> Executor:
        executor = self._shards[index]
        if executor is None:
            if self.processes:
                executor = ProcessPoolExecutor(
                    max_workers=1,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_start,
                    initargs=(os.getpid(),),
                )
            else:
                executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dame-nature-bot")
            self._shards[index] = executor
        return executor

    def _replace(self, index: int, broken: Executor) -> None:
        if self._shards[index] is broken:
            self._shards[index] = None
            broken.shutdown(wait=False, cancel_futures=True)

    async def decide(
        self, key: BotKey, seed: int, view: dict[str, Any], asker: Asker | None = None
    ) -> dict[str, Any] | None:
        """The action of the bot of ``key`` for ``view``, in its turn (``asker``: whom
        it is for; by default its room, of a client of its own); raises ``BotFailure``."""
        result: dict[str, Any] | None = await self._run(
            asker or Asker(key[0], key[0]),
            self.think_seconds,
            _decide,
            key,
            seed,
            view,
            level=key[3],
        )
        return result

    async def hint(
        self,
        room: str,
        seed: int,
        view: dict[str, Any],
        legal: list[dict[str, Any]],
        worlds: int,
        seconds: float,
        client: str,
    ) -> dict[str, Any] | None:
        """``bots.hint.hint`` on the room's shard (in turn with its bots' decisions, the
        hints of one ``client`` address as one client however many rooms it asks
        from); raises ``BotFailure`` (``BotTimeout`` past ``seconds`` of thinking: a
        shard not started yet first starts, which its budget does not count)."""
        asker = Asker.person(room, client)  # a person waits for a hint
        if self._shards[self._shard(room)] is None:
            await self._run(asker, START_SECONDS, _ready)
        result: dict[str, Any] | None = await self._run(
            asker, seconds, _hint, seed, view, legal, worlds
        )
        return result

    async def _run(
        self, asker: Asker, seconds: float, fn: Any, *args: Any, level: str | None = None
    ) -> Any:
        """``fn(*args)`` on the room's shard, in its turn; ``level``: a bot's decision,
        measured."""
        if self._closed:
            raise BotFailure("the bot pool is closed")
        index = self._shard(asker.room)
        turns = self._turns[index]
        ahead = await turns.take(asker)
        if level is not None and self.queued is not None:
            self.queued(asker.person_waiting(), ahead)
        try:
            executor = self._executor(index)
            started = time.perf_counter()
            future = asyncio.get_running_loop().run_in_executor(executor, fn, *args)
        except BaseException:
            turns.give_back()
            raise
        # the shard is free once the worker is done, even with a decision given up on
        future.add_done_callback(lambda _: turns.give_back())
        try:
            decision = await asyncio.wait_for(asyncio.shield(future), seconds)
            if level is not None and self.decided is not None:
                self.decided(level, time.perf_counter() - started)
            return decision
        except TimeoutError:
            raise BotTimeout(f"no decision within {seconds} s") from None
        except BrokenProcessPool as err:
            self._replace(index, executor)
            raise BotFailure("the bot worker died") from err
        except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
            raise
        except BaseException as err:  # the bot raised: its error, not the server's
            raise BotFailure(f"{type(err).__name__}: {err}") from err

    async def decide_fallback(
        self, key: BotKey, seed: int, view: dict[str, Any], level: str = "random"
    ) -> dict[str, Any] | None:
        """A quick decision (``random``, or ``greedy``: no search) on a thread of this
        process, never stuck behind a worker busy with a long search."""
        fallback = (key[0], key[1], key[2], level)
        return await asyncio.to_thread(_decide, fallback, seed, view)

    def warm(self, room: str) -> None:
        """Start the worker of ``room``'s shard now (a bot was seated), so that the bots'
        first move does not wait for a process to start and import the bots."""
        if not self._closed:
            with contextlib.suppress(BrokenProcessPool, RuntimeError):
                self._executor(self._shard(room)).submit(_ready)

    def forget(self, room: str) -> None:
        """Drop the bots of ``room`` everywhere (its game ended, or it left memory)."""
        _forget(room)  # fallback bots live in this process
        executor = self._shards[self._shard(room)]
        if executor is not None and not self._closed:
            with contextlib.suppress(BrokenProcessPool, RuntimeError):
                executor.submit(_forget, room)

    def close(self) -> None:
        """Stop the workers: queued decisions are cancelled, a running one is waited for
        (so the worker processes end cleanly). Blocking: call it from a thread."""
        self._closed = True
        for index, executor in enumerate(self._shards):
            if executor is not None:
                self._shards[index] = None
                executor.shutdown(wait=True, cancel_futures=True)
