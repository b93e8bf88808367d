"""``/api/admin/``: absent without ``DAME_NATURE_ADMIN_TOKEN``, refused without the token
or with another one, rate-limited, and each action (close a room, remove a seat, send a
message to every table) done, told to the sockets concerned and written to the admin
log; against real server processes on both stores."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from benchmarks._support.live_server import ServerProcess, start_all
from tests.server.conftest import Api

TOKEN = "admin-token-for-the-tests-0123456789"
ADMIN = {"Authorization": f"Bearer {TOKEN}", "X-Admin-Label": "Ops%20Ad%C3%A0"}  # "Ops Adà"


@pytest.fixture
def admin_server(
    store_url: str, store_kind: str, request: pytest.FixtureRequest
) -> Iterator[ServerProcess]:
    """A server with the admin token on the parametrised store (PostgreSQL: with Redis)."""
    args = ["--redis", request.getfixturevalue("redis").url] if store_kind == "postgres" else []
    env = {"DAME_NATURE_ADMIN_TOKEN": TOKEN, "DAME_NATURE_ADMIN_RATE_BURST": "1000"}
    proc = ServerProcess(store_url, env, args=args).start()
    yield proc
    proc.stop()


@pytest.fixture
def admin_api(admin_server: ServerProcess) -> Iterator[Api]:
    with httpx.Client(base_url=admin_server.url, timeout=20) as http:
        yield Api(http, admin_server.ws_url)


def log_entries(api: Api) -> list[dict[str, Any]]:
    answer = api.http.get("/api/admin/log", headers=ADMIN)
    assert answer.status_code == 200, answer.text
    return answer.json()["entries"]  # type: ignore[no-any-return]


def test_no_admin_routes_without_the_setting(api: Api) -> None:
    routes = [("GET", "/api/admin/rooms"), ("GET", "/api/admin/log"),
              ("POST", "/api/admin/announce"), ("POST", "/api/admin/rooms/abc/close"),
              ("DELETE", "/api/admin/rooms/abc/seats/0"), ("GET", "/admin")]  # fmt: skip
    for method, path in routes:
        answer = api.http.request(method, path, headers=ADMIN, json={"message": "hi"})
        assert answer.status_code == 404, (method, path, answer.text)


def test_the_token_is_required_and_checked(admin_api: Api) -> None:
    http = admin_api.http
    table = admin_api.table(players=3, start=False)
    for path in ("/api/admin/rooms", "/api/admin/log"):
        missing = http.get(path)
        assert missing.status_code == 401 and missing.json()["error"]["code"] == "missing_token"
        wrong = http.get(path, headers={"Authorization": "Bearer " + TOKEN[:-1] + "x"})
        assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "not_admin"
        # a seat's or the host's token is no admin token
        host = http.get(path, headers={"Authorization": f"Bearer {table['host']}"})
        assert host.status_code == 403
        in_url = http.get(path, params={"token": TOKEN})
        assert in_url.status_code == 400 and in_url.json()["error"]["code"] == "token_in_url"
    # a room is not told to exist before the token is checked
    close = http.post(f"/api/admin/rooms/{table['room']}/close", json={})
    assert close.status_code == 401
    assert http.get(f"/api/rooms/{table['room']}").status_code == 200
    assert http.get("/admin").status_code == 200  # the page itself asks for the token
    assert log_entries(admin_api) == []


def test_rooms_are_listed_with_status_players_age_and_node(admin_api: Api) -> None:
    lobby = admin_api.table(players=2, start=False, names=["Ada", "Bo"])
    game = admin_api.table(players=3)
    with admin_api.socket(game["room"], game["tokens"][0]) as ws:
        ws.receive_type("state")
        answer = admin_api.http.get("/api/admin/rooms", headers=ADMIN)
        assert answer.status_code == 200, answer.text
        listed = {room["code"]: room for room in answer.json()["rooms"]}
        node = answer.json()["node"]
    assert listed[lobby["room"]]["status"] == "lobby"
    assert [p["name"] for p in listed[lobby["room"]]["players"]] == ["Ada", "Bo"]
    playing = listed[game["room"]]
    assert playing["status"] == "playing" and playing["game_no"] == 1
    assert len(playing["players"]) == 3 and playing["age_seconds"] >= 0
    assert playing["held_here"] is True
    assert playing["players"][0]["connected"] is True
    # the node its seat is connected to, named once, as the answer names itself (a node
    # of a cluster without DAME_NATURE_NODE: its generated name)
    assert playing["nodes"] == [node], (node, playing)
    assert all("token" not in str(p) for p in playing["players"])


def test_closing_a_room_tells_its_sockets_then_closes_it(admin_api: Api) -> None:
    table = admin_api.table(players=3)
    with (
        admin_api.socket(table["room"], table["tokens"][1]) as seat,
        admin_api.socket(table["room"]) as spectator,
    ):
        seat.receive_type("state")
        spectator.receive_type("state")
        answer = admin_api.http.post(
            f"/api/admin/rooms/{table['room']}/close", headers=ADMIN, json={"message": "Spam"}
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["sockets_told"] == 2
        for ws in (seat, spectator):
            told = ws.receive_type("room_closed")
            assert told["message"] == "Spam"
            with pytest.raises(ConnectionClosed) as closed:
                ws.receive()
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4404
    assert admin_api.info(table["room"]).status_code == 404
    again = admin_api.http.post(f"/api/admin/rooms/{table['room']}/close", headers=ADMIN)
    assert again.status_code == 404
    (entry,) = log_entries(admin_api)
    assert (entry["who"], entry["action"], entry["target"]) == (
        "Ops Adà",
        "close_room",
        table["room"],
    )
    assert entry["detail"]["message"] == "Spam" and entry["at"] > 0


def test_removing_a_seat_in_the_lobby_and_during_a_game(admin_api: Api) -> None:
    lobby = admin_api.table(players=3, start=False)
    removed = admin_api.http.delete(f"/api/admin/rooms/{lobby['room']}/seats/1", headers=ADMIN)
    assert removed.status_code == 200 and removed.json()["outcome"] == "removed"
    assert len(admin_api.info(lobby["room"]).json()["players"]) == 2

    game = admin_api.table(players=3)
    with admin_api.socket(game["room"], game["tokens"][2]) as ws:
        ws.receive_type("state")
        answer = admin_api.http.delete(
            f"/api/admin/rooms/{game['room']}/seats/2",
            headers={"Authorization": f"Bearer {TOKEN}"},  # no label: the token's fingerprint
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["outcome"] == "bot"
        assert ws.receive_type("error")["error"]["code"] == "seat_removed"
    view = admin_api.state(game["room"]).json()
    assert view["players"][2]["bot"] == "expert"
    refused = admin_api.act(game["room"], game["tokens"][2], {"type": "ready"})
    assert refused.status_code == 401  # the token no longer holds the seat
    twice = admin_api.http.delete(f"/api/admin/rooms/{game['room']}/seats/2", headers=ADMIN)
    assert twice.status_code == 409
    missing = admin_api.http.delete(f"/api/admin/rooms/{game['room']}/seats/5", headers=ADMIN)
    assert missing.status_code == 404
    entries = log_entries(admin_api)
    assert [(e["action"], e["target"], e["detail"]["outcome"]) for e in entries] == [
        ("remove_seat", game["room"], "bot"),
        ("remove_seat", lobby["room"], "removed"),
    ]
    assert entries[0]["who"].startswith("token:") and TOKEN not in str(entries)
    assert entries[1]["who"] == "Ops Adà"


def test_a_message_reaches_every_table(admin_api: Api) -> None:
    first = admin_api.table(players=3)
    second = admin_api.table(players=3, start=False)
    with (
        admin_api.socket(first["room"], first["tokens"][0]) as a,
        admin_api.socket(second["room"]) as b,
    ):
        a.receive_type("state")
        b.receive_type("state")
        too_long = admin_api.http.post(
            "/api/admin/announce", headers=ADMIN, json={"message": "x" * 281}
        )
        assert too_long.status_code == 422
        answer = admin_api.http.post(
            "/api/admin/announce", headers=ADMIN, json={"message": "Restart  at 22:00"}
        )
        assert answer.status_code == 200, answer.text
        assert answer.json()["sockets_told"] >= 2
        for ws in (a, b):
            told = ws.receive_type("announcement")
            assert told["message"] == "Restart at 22:00" and told["at"] > 0
    (entry,) = log_entries(admin_api)
    assert entry["action"] == "announce" and entry["detail"]["message"] == "Restart at 22:00"


def test_admin_requests_are_rate_limited(server_factory: Any, tmp_path: Path) -> None:
    env = {"DAME_NATURE_ADMIN_TOKEN": TOKEN, "DAME_NATURE_ADMIN_RATE_BURST": "3",
           "DAME_NATURE_ADMIN_RATE_PER_SECOND": "0.01"}  # fmt: skip
    server = server_factory(env).start()
    with httpx.Client(base_url=server.url, timeout=20) as http:
        codes = [http.get("/api/admin/log", headers=ADMIN).status_code for _ in range(3)]
        assert codes == [200, 200, 200]
        wrong = http.get("/api/admin/log", headers={"Authorization": "Bearer guess"})
        assert wrong.status_code == 429 and wrong.json()["error"]["code"] == "rate_limited"
        assert http.get("/api/admin/log", headers=ADMIN).status_code == 429
        assert http.get("/api/rooms/modes").status_code != 429  # the rest of the API is not


def test_in_a_cluster_the_other_nodes_sockets_are_told(postgres: Any, redis: Any) -> None:
    """Two nodes on one PostgreSQL and Redis: the admin acts through node 0, a player's
    socket on node 1 gets the message and is told its room closed (by Redis, or by the
    node's poll of the stored versions when a message is missed)."""
    db = postgres.create_database()
    env = {"DAME_NATURE_ADMIN_TOKEN": TOKEN, "DAME_NATURE_POLL_SECONDS": "0.5"}
    nodes = [
        ServerProcess(db, env, args=["--redis", redis.url, "--node", f"n{i}"]) for i in range(2)
    ]
    try:
        start_all(nodes)
        with (
            httpx.Client(base_url=nodes[0].url, timeout=20) as first,
            httpx.Client(base_url=nodes[1].url, timeout=20) as second,
        ):
            api, other = Api(first, nodes[0].ws_url), Api(second, nodes[1].ws_url)
            table = api.table(players=3)
            with other.socket(table["room"], table["tokens"][0]) as ws:
                ws.receive_type("state")
                listed = api.http.get("/api/admin/rooms", headers=ADMIN).json()["rooms"]
                assert [room["nodes"] for room in listed] == [["n1"]]
                told = api.http.post("/api/admin/announce", headers=ADMIN, json={"message": "Hi"})
                assert told.status_code == 200 and told.json()["sockets_told"] == 0
                closed = api.http.post(
                    f"/api/admin/rooms/{table['room']}/close",
                    headers=ADMIN,
                    json={"message": "Bye"},
                )
                assert closed.status_code == 200, closed.text
                kinds = []
                with pytest.raises(ConnectionClosed) as ended:
                    while True:
                        kinds.append(ws.receive(timeout=20)["type"])
                assert ended.value.rcvd is not None and ended.value.rcvd.code == 4404
                assert "room_closed" in kinds
            assert other.info(table["room"]).status_code == 404
    finally:
        for node in nodes:
            node.stop()
