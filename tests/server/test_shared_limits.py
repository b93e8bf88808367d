"""The per-client limits hold across the nodes of a cluster: behind a round-robin load
balancer, a client whose requests alternate between two nodes gets the limit of one
node, not twice it (the limits live on the cluster's Redis)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from benchmarks._support.live_server import ServerProcess, start_all

BURST = 4


@pytest.fixture
def two_nodes(postgres: Any, redis: Any) -> Iterator[list[ServerProcess]]:
    db = postgres.create_database()
    env = {
        "DAME_NATURE_CREATE_RATE_PER_SECOND": "0.01",  # none comes back during the test
        "DAME_NATURE_CREATE_RATE_BURST": str(BURST),
    }
    args = ["--redis", redis.url]
    nodes = start_all([ServerProcess(db, env, args=[*args, "--node", f"n{i}"]) for i in range(2)])
    yield nodes
    for node in nodes:
        node.stop()


def test_room_creations_are_limited_across_two_nodes(two_nodes):
    answers = []
    for i in range(2 * BURST):
        node = two_nodes[i % 2]  # round robin, as nginx
        answers.append(httpx.post(node.url + "/api/rooms", json={}, timeout=20).status_code)
    assert answers.count(201) == BURST, answers
    assert answers[BURST:] == [429] * BURST, answers
