"""Several server nodes on one PostgreSQL and one Redis, behind nginx, all real processes
(``benchmarks/_support/services.py``): any node serves any room; views arrive in version
order without a gap; racing nodes never fork a room; a node killed with SIGKILL or Redis
restarted loses nothing that was acknowledged."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass, field
from typing import Any

import httpx
import psycopg
import pytest
from websockets.exceptions import ConnectionClosed

from benchmarks._support.live_server import ServerProcess, start_all
from benchmarks._support.services import Nginx, Postgres, Redis, require
from dame_nature.engine import State
from tests.server.conftest import Api, WsClient

pytestmark = pytest.mark.timeout(300)

#: quick safety nets for the tests: a lost node is noticed in 5 s, versions polled five
#: times a second
FAST_CLUSTER = {
    "DAME_NATURE_POLL_SECONDS": "0.2",
    "DAME_NATURE_NODE_TIMEOUT_SECONDS": "5",
}


@dataclass
class Cluster:
    db: str
    redis: Redis
    nodes: list[ServerProcess]
    nginx: Nginx
    clients: list[httpx.Client] = field(default_factory=list)

    def api(self, target: ServerProcess | Nginx) -> Api:
        http = httpx.Client(base_url=target.url, timeout=20)
        self.clients.append(http)
        return Api(http, target.ws_url)

    def stop(self) -> None:
        for http in self.clients:
            http.close()
        self.nginx.stop()
        for node in self.nodes:
            node.stop()


@pytest.fixture
def make_cluster(postgres: Postgres, redis: Redis) -> Iterator[Callable[..., Cluster]]:
    """``make_cluster(n)``: n nodes on a fresh database and the session's Redis, and nginx."""
    require("nginx")
    made: list[Cluster] = []

    def make(n: int = 3) -> Cluster:
        db = postgres.create_database()
        nodes = [
            ServerProcess(db, env=FAST_CLUSTER, args=["--redis", redis.url, "--node", f"n{i}"])
            for i in range(n)
        ]
        start_all(nodes)
        nginx = Nginx([f"127.0.0.1:{node.port}" for node in nodes]).start()
        cluster = Cluster(db, redis, nodes, nginx)
        made.append(cluster)
        return cluster

    yield make
    for cluster in made:
        cluster.stop()


def stored_log(db: str, room: str) -> list[tuple[int, int, int]]:
    """The room's stored actions: (game, idx, version), in order."""
    with psycopg.connect(db) as conn:
        rows = conn.execute(
            "SELECT game_no, idx, version FROM actions WHERE room = %s ORDER BY game_no, idx",
            (room,),
        ).fetchall()
    return [(g, i, v) for g, i, v in rows]


def stored_presence(db: str, node: str) -> int:
    with psycopg.connect(db) as conn:
        row = conn.execute("SELECT count(*) FROM presence WHERE node = %s", (node,)).fetchone()
    return int(row[0]) if row else 0


def state_versions(ws: WsClient) -> list[int]:
    return [m["view"]["version"] for m in ws.messages if m["type"] == "state"]


def test_three_nodes_each_player_on_another_node_play_a_whole_game(make_cluster):
    cluster = make_cluster(3)
    front = cluster.api(cluster.nginx)
    table = front.table(players=3, seed=11, start=False)
    room, tokens = table["room"], table["tokens"]
    direct = [cluster.api(node) for node in cluster.nodes]
    with ExitStack() as stack:
        sockets = [stack.enter_context(direct[s].socket(room, tokens[s])) for s in range(3)]
        for ws in sockets:
            ws.receive_type("state")
        assert front.start(room, table["host"]).status_code == 200
        first = front.state(room).json()["version"]
        for ws in sockets:
            assert ws.wait_version(first)["phase"] != "lobby"
        for _ in range(400):
            spectator = front.state(room).json()  # through nginx: any node, up to date
            version = spectator["version"]
            for ws in sockets:  # every seat, on its own node, has seen every change
                ws.wait_version(version)
            if spectator["phase"] == "over":
                break
            seat = Api.next_seat(spectator)
            legal = front.legal(room, tokens[seat])
            if not spectator["winnable"]:
                action = {"type": "end_game"}
            else:
                action = Api.scripted_action(sockets[seat].view, legal)
            sockets[seat].send({"type": "action", "action": action})
            sockets[seat].wait_version(version + 1)
        else:
            raise AssertionError("the game did not end")
        for seat, ws in enumerate(sockets):
            seen = [v for v in state_versions(ws) if v >= first]
            assert seen == list(range(first, version + 1)), f"seat {seat}: {seen}"
            assert ws.view["phase"] == "over" and ws.view["seat"] == seat
            assert not [m for m in ws.messages if m["type"] == "error"]
    replay = front.replay(room).json()
    assert State.replay(replay["setup"], replay["actions"]).result == spectator["result"]
    log = stored_log(cluster.db, room)
    assert [i for _, i, _ in log] == list(range(len(log))) == list(range(len(replay["actions"])))
    versions = [v for _, _, v in log]
    assert versions == sorted(set(versions)) and first < versions[0] and versions[-1] == version


def test_conflicting_actions_on_two_nodes_apply_once(make_cluster):
    cluster = make_cluster(2)
    one, two = (cluster.api(node) for node in cluster.nodes)
    table = one.table(players=3, seed=12)
    room, token = table["room"], table["tokens"][0]
    card = one.state(room, token).json()["hand"][0]
    assert two.act(room, token, {"type": "program", "card": card}).status_code == 200
    start = one.state(room).json()["version"]
    rounds = 30
    for n in range(rounds):
        action = {"type": "ready"} if n % 2 == 0 else {"type": "unready"}
        barrier = threading.Barrier(2)
        answers: list[httpx.Response] = []

        def send(api: Api, action: dict[str, Any], barrier: Any, answers: list[Any]) -> None:
            barrier.wait()
            answers.append(api.act(room, token, action))

        threads = [
            threading.Thread(target=send, args=(api, action, barrier, answers))
            for api in (one, two)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        codes = sorted(a.status_code for a in answers)
        assert codes == [200, 409], [a.text for a in answers]
        refused = next(a for a in answers if a.status_code == 409).json()["error"]["code"]
        assert refused in ("already_ready", "not_ready"), refused
        assert one.state(room).json()["version"] == start + n + 1
        assert two.state(room).json()["version"] == start + n + 1
    log = stored_log(cluster.db, room)
    assert [i for _, i, _ in log] == list(range(rounds + 1))  # the program, then each race
    assert [v for _, _, v in log[1:]] == list(range(start + 1, start + rounds + 1))


class Player:
    """A seat: a websocket (through nginx or to one node) that reconnects when its node
    dies and records the versions of the views it receives; it acts over HTTP, where the
    200 answer is the acknowledgement."""

    def __init__(self, api: Api, room: str, token: str, act_api: Api) -> None:
        self.api, self.room, self.token, self.act_api = api, room, token, act_api
        self.stack = ExitStack()
        self.ws: WsClient | None = None
        self.reconnects = 0
        self.versions: list[int] = []

    def connect(self) -> None:
        deadline = time.monotonic() + 30
        while True:
            try:
                self.ws = self.stack.enter_context(self.api.socket(self.room, self.token))
                self._note(self.ws.receive_type("state")["view"]["version"])
                return
            except (OSError, ConnectionClosed, TimeoutError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)

    def _note(self, version: int) -> None:
        if not self.versions or version != self.versions[-1]:
            self.versions.append(version)

    def wait_version(self, version: int) -> dict[str, Any]:
        """Read views until one of at least ``version`` (reconnecting when the node died)."""
        while True:
            assert self.ws is not None
            try:
                while self.ws.view is None or self.ws.view["version"] < version:
                    message = self.ws.receive(timeout=15)
                    if message["type"] == "state":
                        self._note(message["view"]["version"])
                return self.ws.view
            except ConnectionClosed:
                self.reconnects += 1
                self.connect()

    def close(self) -> None:
        self.stack.close()


def play_step(front: Api, players: list[Player], acked: list[dict[str, Any]]) -> bool:
    """One scripted action over HTTP; False once the game is over. An action answered
    200 is acknowledged; one lost with its node (a 502 from nginx) is played again."""
    spectator = front.state(players[0].room).json()
    if spectator["phase"] == "over":
        return False
    seat = Api.next_seat(spectator)
    player = players[seat]
    legal = front.legal(player.room, player.token)
    view = player.act_api.state(player.room, player.token).json()
    action = {"type": "end_game"} if not spectator["winnable"] else Api.scripted_action(view, legal)
    try:
        answer = player.act_api.act(player.room, player.token, action)
    except httpx.HTTPError:
        return True
    if answer.status_code == 200:
        acked.append({"seat": seat, "action": action, "version": answer.json()["version"]})
        for each in players:  # every seat's socket sees it
            each.wait_version(answer.json()["version"])
    else:
        assert answer.status_code in (502, 503, 409), answer.text
    return True


def is_subsequence(part: list[Any], whole: list[Any]) -> bool:
    items = iter(whole)
    return all(any(x == y for y in items) for x in part)


def test_a_node_killed_mid_game_its_players_reconnect_and_play_on(make_cluster):
    cluster = make_cluster(3)
    front = cluster.api(cluster.nginx)
    table = front.table(players=4, seed=13)
    players = [Player(front, table["room"], token, front) for token in table["tokens"]]
    for player in players:
        player.connect()  # round robin: the seats are spread over the three nodes
    acked: list[dict[str, Any]] = []
    try:
        for _ in range(12):
            assert play_step(front, players, acked)
        cluster.nodes[1].kill()
        for _ in range(400):
            if not play_step(front, players, acked):
                break
        else:
            raise AssertionError("the game did not end")
    finally:
        for player in players:
            player.close()
    assert sum(p.reconnects for p in players) >= 1  # someone's node died under them
    replay = front.replay(table["room"]).json()
    stored = [(a["seat"], a["action"]) for a in replay["actions"]]
    # every acknowledged action is in the log, in order (an action whose answer was lost
    # with its node may be there too)
    assert is_subsequence([(a["seat"], a["action"]) for a in acked], stored)
    for player in players:
        assert player.versions == sorted(set(player.versions))  # never out of order
    # the survivors took the killed node for lost: its seats' presence is gone
    deadline = time.monotonic() + 15
    while stored_presence(cluster.db, "n1") and time.monotonic() < deadline:
        time.sleep(0.2)
    assert stored_presence(cluster.db, "n1") == 0


def test_redis_killed_and_restarted_mid_game_delays_views_loses_none(make_cluster):
    cluster = make_cluster(2)
    front = cluster.api(cluster.nginx)
    direct = [cluster.api(node) for node in cluster.nodes]
    table = front.table(players=4, seed=14)
    players = [
        Player(direct[s % 2], table["room"], t, direct[s % 2])
        for s, t in enumerate(table["tokens"])
    ]
    for player in players:
        player.connect()  # seats 0 and 2 on one node, 1 and 3 on the other
    acked: list[dict[str, Any]] = []
    try:
        for _ in range(8):
            assert play_step(front, players, acked)
        cluster.redis.kill()
        for _ in range(10):  # no fan-out: the other node finds each change by polling
            assert play_step(front, players, acked)
        cluster.redis.start()
        for _ in range(400):
            if not play_step(front, players, acked):
                break
        else:
            raise AssertionError("the game did not end")
        last = front.state(table["room"]).json()["version"]
        for player in players:
            player.wait_version(last)
    finally:
        for player in players:
            player.close()
    assert all(p.reconnects == 0 for p in players)
    for player in players:  # in order, up to the last
        assert player.versions == sorted(set(player.versions))
        assert player.versions[-1] == last
        # every action's version reached every seat, with or without Redis
        assert {a["version"] for a in acked} <= set(player.versions)
    replay = front.replay(table["room"]).json()
    assert [(a["seat"], a["action"]) for a in replay["actions"]] == [
        (a["seat"], a["action"]) for a in acked
    ]


def test_one_node_at_a_time_leads_a_rooms_bots(postgres):
    """The bots of a room are driven by the node holding its advisory lock: one node at
    a time, and another takes over when the holder lets go or loses its connection."""
    from dame_nature.server.store import PostgresStore

    db = postgres.create_database()
    one, two = PostgresStore(db), PostgresStore(db)
    try:
        assert one.try_lead("roomA") and one.try_lead("roomA")  # held: no second lock
        assert not two.try_lead("roomA")
        assert two.try_lead("roomB")  # rooms do not wait for each other
        one.release_lead("roomA")
        assert two.try_lead("roomA") and not one.try_lead("roomA")
        # the holder's session dies (a node killed): its locks go with it
        with psycopg.connect(db, autocommit=True) as admin:
            admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_locks"
                " WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
            )
        deadline = time.monotonic() + 10
        while not one.try_lead("roomA") and time.monotonic() < deadline:
            time.sleep(0.1)
        assert one.try_lead("roomA")
        two.check_leads()  # notices its connection is gone: it leads nothing now
        assert not two.try_lead("roomA")
    finally:
        one.close()
        two.close()
