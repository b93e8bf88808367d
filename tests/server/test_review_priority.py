"""A review's worker thinks at the lowest priority there is: nobody at a table waits for
a review, so the solver runs only on what the server, its bots and everything else on the
machine leave idle (``SCHED_IDLE`` on Linux), where the bots' workers are only niced."""

from __future__ import annotations

import os
from typing import Any

import pytest

from dame_nature.server.bot_pool import REVIEW_NICENESS, WORKER_NICENESS
from dame_nature.server.reviews import Reviews, stop_workers
from dame_nature.server.settings import Settings
from dame_nature.server.store import open_store


def _priority() -> tuple[int, int]:
    """Run in a worker: its scheduling policy and niceness."""
    return os.sched_getscheduler(0), os.getpriority(os.PRIO_PROCESS, 0)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux's scheduling policies")
def test_a_reviews_worker_runs_under_sched_idle_at_the_lowest_niceness(tmp_path: Any) -> None:
    db = str(tmp_path / "reviews.sqlite3")
    store = open_store(db)
    reviews = Reviews(Settings(db=db), store)
    executor = reviews._pool()
    try:
        policy, niceness = executor.submit(_priority).result(timeout=120)
    finally:
        stop_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)
        store.close()
    assert policy == os.SCHED_IDLE
    # (a server started niced keeps its own niceness in the sum, up to 19)
    assert niceness == min(19, os.getpriority(os.PRIO_PROCESS, 0) + REVIEW_NICENESS)
    assert REVIEW_NICENESS > WORKER_NICENESS
