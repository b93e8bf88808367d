"""Reviews: once a game is over, the solver looks at its deal with every hand open and
says whether a team seeing every hand could have won it, with a winning line, and the
turning point (the first turn from whose start the game could no longer be won).

``review_game`` is the one function that asks the solver. It runs in a worker process of
its own pool (``review_processes`` workers, each at the lowest priority: ``SCHED_IDLE``
where Linux has it, so a review thinks only on a core the tables leave idle),
never on the event loop nor on the bots' shards, so that reviews never slow the tables:
at most ``review_processes`` reviews think at once on a node, the others wait their turn,
and at most ``review_queue`` wait (past it a review is asked again on the next request).
At most one review runs per game; once done it is stored with the game
(``games.review``) and kept in memory, so it survives a restart. A review that was
running when the server stopped starts again on the next request.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
from collections import OrderedDict
from collections.abc import Iterable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any

from .bot_pool import REVIEW_NICENESS, _worker_start
from .settings import Settings
from .store import BaseStore

log = logging.getLogger("dame_nature.server.reviews")

#: reviews kept in memory, the latest (the store keeps them all, and ``get`` reads one
#: from it when it is not here): about 13 KiB each, so under 1 MiB when full
MEMORY = 64
PENDING: dict[str, Any] = {
    "status": "pending",
    "verdict": "unknown",
    "line": [],
    "sides": None,
    "turning_point": None,
}


def review_game(
    setup: dict[str, Any], actions: list[dict[str, Any]], time_budget: float, node_budget: int
) -> dict[str, Any]:
    """Run in a worker: the solver's review of ``(setup, actions)``:
    ``{"verdict", "line", "sides", "turning_point", ...}``."""
    from dame_nature.bots.solver import review

    return review(setup, actions, time_budget=time_budget, node_budget=node_budget)


def deal_verdict(setup: dict[str, Any], time_budget: float, node_budget: int) -> dict[str, Any]:
    """Run in a worker: the solver's verdict on a deal from its first state (every hand
    open): ``{"verdict": "won" | "lost" | "unknown", "turns": N | None}``, ``turns``
    the length of the winning line found."""
    from dame_nature.bots.solver import solve
    from dame_nature.engine.game import get_game
    from dame_nature.engine.state import State

    state = State.new(get_game(setup["num_players"], tuple(setup["modes"])), setup)
    found = solve(state, node_budget=node_budget, time_budget=time_budget)
    turns = len({step.get("turn") for step in found.line}) if found.status == "won" else None
    return {"verdict": found.status, "turns": turns}


def public(review: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``GET /review`` for a finished review."""
    turning = review.get("turning_point")
    return {
        "status": "done",
        "verdict": review.get("verdict", "unknown"),
        "line": list(review.get("line") or []),
        "sides": review.get("sides"),
        "turning_point": {"turn": int(turning["turn"])} if turning else None,
    }


def stop_workers(executor: Executor) -> None:
    """End the worker processes of ``executor`` now (SIGTERM), the review they think
    about with them: a stopping server does not wait up to ``review_seconds`` for it (it
    starts again on the next request)."""
    terminate = getattr(executor, "terminate_workers", None)  # Python 3.14
    if terminate is not None:
        terminate()
        return
    for process in list((getattr(executor, "_processes", None) or {}).values()):
        with contextlib.suppress(OSError, ValueError):
            process.terminate()


class Reviews:
    """This node's reviews: those done (in memory, as stored) and those under way."""

    def __init__(self, settings: Settings, store: BaseStore) -> None:
        self.settings = settings
        self.store = store
        self._done: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
        self._running: dict[tuple[str, int], asyncio.Task[None]] = {}
        self._gate = asyncio.Semaphore(max(1, settings.review_processes))
        self._executor: Executor | None = None
        self._closed = False

    def _pool(self) -> Executor:
        if self._executor is None:
            if self.settings.review_processes:
                self._executor = ProcessPoolExecutor(
                    max_workers=self.settings.review_processes,
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_start,
                    initargs=(os.getpid(), REVIEW_NICENESS, True),
                )
            else:
                self._executor = ThreadPoolExecutor(1, thread_name_prefix="dame-nature-review")
        return self._executor

    async def get(
        self, code: str, game_no: int, setup: dict[str, Any], actions: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The review of game ``game_no`` of ``code`` (a finished game), or ``pending``
        while the solver thinks (it starts now if it is not under way)."""
        key = (code, game_no)
        done = self._done.get(key)
        if done is None:
            stored = await self.store.call(self.store.load_review, code, game_no)
            if stored is not None:
                done = self._remember(key, stored)
        if done is not None:
            return public(done)
        self.request(code, game_no, setup, actions)
        return dict(PENDING)

    async def solve_deal(self, setup: dict[str, Any]) -> dict[str, Any]:
        """The solver's verdict on a deal (``deal_verdict``), in the reviews' pool and
        gate, within the reviews' budget; raises when the solver failed."""
        budget = self.settings.review_seconds
        async with self._gate:
            if self._closed:
                raise RuntimeError("the server is stopping")
            loop = asyncio.get_running_loop()
            future = loop.run_in_executor(
                self._pool(), deal_verdict, setup, budget, self.settings.review_node_budget
            )
            try:
                return await asyncio.wait_for(future, budget * 2 + 30)
            except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
                raise
            except BaseException:
                self._broken()
                raise

    def request(
        self, code: str, game_no: int, setup: dict[str, Any], actions: Iterable[dict[str, Any]]
    ) -> None:
        """Start the review of a finished game unless it is done or under way."""
        key = (code, game_no)
        if self._closed or key in self._done or key in self._running:
            return
        if len(self._running) >= self.settings.review_queue:
            return  # asked again on the next request
        task = asyncio.get_running_loop().create_task(self._run(key, setup, list(actions)))
        self._running[key] = task
        task.add_done_callback(lambda _: self._running.pop(key, None))

    def _remember(self, key: tuple[str, int], review: dict[str, Any]) -> dict[str, Any]:
        self._done[key] = review
        self._done.move_to_end(key)
        while len(self._done) > MEMORY:
            self._done.popitem(last=False)
        return review

    async def _run(
        self, key: tuple[str, int], setup: dict[str, Any], actions: list[dict[str, Any]]
    ) -> None:
        if await self.store.call(self.store.load_review, *key) is not None:
            return  # done meanwhile (by another node, or before a restart)
        budget = self.settings.review_seconds
        async with self._gate:
            if self._closed:
                return
            loop = asyncio.get_running_loop()
            try:
                future = loop.run_in_executor(
                    self._pool(),
                    review_game,
                    {k: v for k, v in setup.items() if k != "deal_chosen_by_host"},
                    actions,
                    budget,
                    self.settings.review_node_budget,
                )
                # the solver keeps to its budget; past twice that, the worker is stuck
                review = await asyncio.wait_for(future, budget * 2 + 30)
            except (asyncio.CancelledError, KeyboardInterrupt, SystemExit):
                raise
            except BaseException as err:  # the solver's trouble: said, never stored
                log.warning("review of %s game %s failed: %r", key[0], key[1], err)
                self._broken()
                return
        try:
            await self.store.call(self.store.set_review, key[0], key[1], review)
        except Exception as err:  # kept in memory; stored again on a later review
            log.warning("review of %s game %s not stored: %r", key[0], key[1], err)
            return
        self._remember(key, review)

    def _broken(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    async def close(self) -> None:
        self._closed = True
        for task in list(self._running.values()):
            task.cancel()
        for task in list(self._running.values()):
            with contextlib.suppress(BaseException):
                await task
        executor, self._executor = self._executor, None
        if executor is not None:
            stop_workers(executor)
            await asyncio.to_thread(executor.shutdown, True, cancel_futures=True)
