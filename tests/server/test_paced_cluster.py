"""Paced tables in a cluster: two nodes on one PostgreSQL and one Redis both hold a paced
room nobody plays; each overdue decision is played once (by the node leading the room),
and when a node is killed with SIGKILL the other goes on playing them."""

from __future__ import annotations

import json
from collections import Counter

import psycopg
import pytest

from benchmarks._support.live_server import ServerProcess, start_all
from tests.server.conftest import Api
from tests.server.test_cluster import FAST_CLUSTER
from tests.server.test_paced_tables import PACED, wait_for

pytestmark = pytest.mark.timeout(300)


def stored_moves(db: str, room: str, version: int) -> list[tuple[int, str, int | None, str | None]]:
    """Each stored action of the room's game up to the room's ``version``: (seat, type,
    turn of its stand-in, reason)."""
    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT seat, action, stand_in FROM actions WHERE room = %s AND version <= %s"
            " ORDER BY idx",
            (room, version),
        ).fetchall()
    moves = []
    for seat, action, stand_in in rows:
        played_for = json.loads(stand_in) if stand_in else {}
        moves.append(
            (seat, json.loads(action)["type"], played_for.get("turn"), played_for.get("reason"))
        )
    return moves


def test_two_nodes_play_each_overdue_decision_once(postgres, redis, make_api):
    db = postgres.create_database()
    env = {**FAST_CLUSTER, **PACED}
    nodes = [
        ServerProcess(db, env=env, args=["--redis", redis.url, "--node", f"p{i}"]) for i in range(2)
    ]
    try:
        apis = [make_api(node) for node in start_all(nodes)]
        table = apis[0].table(players=3, seed=45, turn_limit_seconds=1)
        room = table["room"]
        for api in apis:  # both nodes hold the room
            assert api.info(room).json()["turn_limit_seconds"] == 1

        def turn(api: Api) -> int:
            return int(api.state(room).json()["turn"])

        wait_for(lambda: turn(apis[1]) >= 3, 120, "the stand-ins did not play two turns")
        nodes[0].kill()
        reached = turn(apis[1])
        wait_for(lambda: turn(apis[1]) >= reached + 1, 120, "the other node did not go on")

        # the stand-ins play on meanwhile: the view, then what was stored up to its version
        view = apis[1].state(room).json()
        moves = stored_moves(db, room, view["version"])
        assert moves and all(reason == "turn_limit" for _, _, _, reason in moves)
        # once each: one program and one ready per seat and turn, however many nodes
        counts = Counter((seat, kind, played) for seat, kind, played, _ in moves)
        doubled = {k: n for k, n in counts.items() if k[1] in ("program", "ready") and n > 1}
        assert not doubled, doubled
        assert len(view["stand_in_moves"]) == len(moves)
    finally:
        for node in nodes:
            node.stop()
