"""The cap of games with bots per client address holds across the nodes of a cluster
(two real server nodes on a real PostgreSQL and Redis): one address starting games with
bots alternately on node A and node B is refused at the cap overall, not at the cap on
each node; a game taken out of play on the other node frees its slot at once; two nodes
racing for the last slot never both get it; the games of a node that died count until
their lease ends."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from benchmarks._support.live_server import ServerProcess, start_all
from benchmarks._support.services import Postgres, Redis
from tests.server.conftest import Api
from tests.server.test_bot_room_caps import bot_room

pytestmark = pytest.mark.timeout(300)

CAP = 3
#: the lease of the test of a node that died: renewed every third of it by the living
#: node, so a renewal may come 2/3 of it late before the game stops counting
LEASE = 8


@pytest.fixture
def two_nodes(postgres: Postgres, redis: Redis, make_api: Any) -> Iterator[tuple[Api, Api]]:
    """Nodes A and B on a fresh database and the session's Redis, with the cap of bot
    games per address at ``CAP``."""
    db = postgres.create_database()
    env = {"DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": str(CAP), "DAME_NATURE_POLL_SECONDS": "0.5"}
    nodes = [
        ServerProcess(db, env=env, args=["--redis", redis.url, "--node", name])
        for name in ("a", "b")
    ]
    try:
        start_all(nodes)
        yield make_api(nodes[0]), make_api(nodes[1])
    finally:
        for node in nodes:
            node.stop()


def refused(answer: httpx.Response) -> bool:
    assert answer.status_code in (200, 201, 429), answer.text
    if answer.status_code != 429:
        return False
    assert answer.json()["error"]["code"] == "too_many_bot_rooms", answer.text
    return True


def test_the_cap_of_bot_games_holds_across_nodes(two_nodes: tuple[Api, Api]) -> None:
    a, b = two_nodes
    # game 1 on A: people at a table, one seat handed to a bot (never over: no one plays)
    handed = a.table(players=3)
    assert not refused(a.add_bot(handed["room"], handed["host"], "random", seat=1))
    # games 2 and 3 alternately on B and A: a person waits for two bots
    tables: list[dict[str, Any]] = []
    for api in (b, a):
        table = bot_room(api, 2, person=True)
        assert not refused(api.start(table["room"], table["host"]))
        tables.append(table)

    for api in (a, b):  # each node reads the games of the address on every node
        assert api.http.get("/api/bot_rooms").json() == {"in_play": 3, "max": CAP}
    fourth = bot_room(b, 2, person=True)
    assert refused(b.start(fourth["room"], fourth["host"]))  # 2 on A, 1 on B: 3 overall
    assert b.info(fourth["room"]).json()["status"] == "lobby"  # nothing changed
    assert refused(a.start(fourth["room"], fourth["host"]))
    assert a.info(fourth["room"]).json()["status"] == "lobby"

    # game 1's bot gives its seat back, on the other node: its slot is free at once
    assert b.remove_bot(handed["room"], handed["host"], 1).status_code == 200
    assert not refused(b.start(fourth["room"], fourth["host"]))
    assert b.info(fourth["room"]).json()["status"] == "playing"
    assert a.http.get("/api/bot_rooms").json() == {"in_play": 3, "max": CAP}

    fifth = bot_room(a, 2, person=True)
    assert refused(a.start(fifth["room"], fifth["host"]))


def hand(
    barrier: threading.Barrier,
    answers: dict[int, httpx.Response],
    i: int,
    api: Api,
    table: dict[str, Any],
) -> None:
    """Hand seat 1 of ``table`` to a bot, at once with the other threads of ``barrier``."""
    barrier.wait()
    answers[i] = api.add_bot(table["room"], table["host"], "random", seat=1)


def test_two_nodes_racing_for_the_last_slot_one_wins(two_nodes: tuple[Api, Api]) -> None:
    a, b = two_nodes
    for api in (a, b):  # CAP - 1 games in play, one on each node
        table = bot_room(api, 2, person=True)
        assert not refused(api.start(table["room"], table["host"]))
    for _ in range(5):
        tables = [a.table(players=3), b.table(players=3)]
        barrier = threading.Barrier(2)
        answers: dict[int, httpx.Response] = {}
        threads = [
            threading.Thread(target=hand, args=(barrier, answers, i, api, table))
            for i, (api, table) in enumerate(zip((a, b), tables, strict=True))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        won = [i for i in (0, 1) if not refused(answers[i])]
        assert len(won) == 1, [answers[i].text for i in (0, 1)]
        winner = tables[won[0]]
        assert (a, b)[1 - won[0]].remove_bot(winner["room"], winner["host"], 1).status_code == 200


def test_the_games_of_a_node_that_died_count_until_their_lease_ends(
    postgres: Postgres, redis: Redis
) -> None:
    db = postgres.create_database()
    env = {
        "DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": str(CAP),
        "DAME_NATURE_BOT_ROOM_LEASE_SECONDS": str(LEASE),
    }
    nodes = [
        ServerProcess(db, env=env, args=["--redis", redis.url, "--node", name])
        for name in ("a", "b")
    ]
    clients = [httpx.Client(base_url=node.url, timeout=20) for node in nodes]
    try:
        start_all(nodes)
        on_a, on_b = (Api(http, node.ws_url) for http, node in zip(clients, nodes, strict=True))
        for _ in range(CAP):
            table = bot_room(on_a, 2, person=True)
            assert not refused(on_a.start(table["room"], table["host"]))
        late = bot_room(on_b, 2, person=True)
        # node A renews its games' leases while it lives: still counted past a whole lease
        # (looked at a few times a second, leaving the CPU to the nodes)
        held_until = time.monotonic() + LEASE + 1
        while time.monotonic() < held_until:
            assert refused(on_b.start(late["room"], late["host"]))
            time.sleep(0.2)
        nodes[0].kill()
        deadline = time.monotonic() + 60
        while refused(on_b.start(late["room"], late["host"])):
            assert time.monotonic() < deadline, "the games of the dead node still count"
        assert on_b.info(late["room"]).json()["status"] == "playing"
    finally:
        for http in clients:
            http.close()
        for node in nodes:
            node.stop()
