"""A token's seat is read under the room's lock, from the room as stored, on every path:
when the host removes a seat (the seats after it move down) and starts the game while a
player's action is on its way, the action is played by that player's seat as it is then,
or refused; never by the seat the player had before, which is now another player's (whose
hand the answer would show). Raced many times on PostgreSQL, where the window is widest
(each write awaits the database), over HTTP and over a websocket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from benchmarks._support.live_server import ServerProcess, start_all
from dame_nature.engine import Game

TRIES = 80
SENDS = 1
#: how long after the host's requests the websocket's action is sent, try after try
DELAYS = [0.001 + k * 0.00025 for k in range(20)]
SEED = 5


@pytest.fixture(scope="module")
def pg_server(postgres: Any, redis: Any, tmp_path_factory: pytest.TempPathFactory) -> Any:
    proc = ServerProcess(postgres.create_database(), args=["--redis", redis.url]).start()
    yield proc
    proc.stop()


def seat1_card() -> str:
    """A card of seat 1's hand in the deal of the game that starts (3 players, ``SEED``),
    not in seat 0's."""
    hands = Game(3).new_initial_state(seed=SEED).hands
    return next(c for c in hands[1] if c not in hands[0])


async def one_try(
    http: httpx.AsyncClient, ws_url: str, via: str, delay: float
) -> tuple[int, int, Any]:
    """Four players, host removes seat 0 and starts while B (seat 1, then 0) programs a
    card of seat 1's deal. (B's seat now, C's view, the view B's action answered.)"""
    created = (await http.post("/api/rooms", json={"seed": SEED})).json()
    room, host = created["room"], created["host_token"]
    tokens = []
    for name in ("A", "B", "C", "D"):
        tokens.append(
            (await http.post(f"/api/rooms/{room}/players", json={"name": name})).json()["token"]
        )
    b, c = tokens[1], tokens[2]
    auth = {"Authorization": f"Bearer {host}"}
    action = {"type": "program", "card": seat1_card()}
    answer: Any
    if via == "http":
        _, _, reply = await asyncio.gather(
            http.delete(f"/api/rooms/{room}/players/0", headers=auth),
            http.post(f"/api/rooms/{room}/start", headers=auth),
            http.post(
                f"/api/rooms/{room}/actions",
                headers={"Authorization": f"Bearer {b}"},
                json=action,
            ),
        )
        answer = reply.json() if reply.status_code == 200 else None
    else:
        async with connect(f"{ws_url}/api/rooms/{room}/ws?token={b}") as ws:
            await ws.recv()  # the lobby view: attached
            await asyncio.gather(
                http.delete(f"/api/rooms/{room}/players/0", headers=auth),
                http.post(f"/api/rooms/{room}/start", headers=auth),
                later(delay, ws.send(json.dumps({"type": "action", "action": action}))),
            )
            answer = await ws_outcome(http, ws, room, c)
    b_seat = (
        await http.get(f"/api/rooms/{room}/state", headers={"Authorization": f"Bearer {b}"})
    ).json()["seat"]
    c_view = (
        await http.get(f"/api/rooms/{room}/state", headers={"Authorization": f"Bearer {c}"})
    ).json()
    return b_seat, c_view, answer


async def later(delay: float, request: Any) -> Any:
    """``request`` (a coroutine) sent ``delay`` seconds from now: the websocket's action
    a little after the host's requests set off (they take longer to reach the room than a
    message on an open socket), each try another delay, so that some tries read it while
    the removal is being written."""
    await asyncio.sleep(delay)
    return await request


async def ws_outcome(http: httpx.AsyncClient, ws: Any, room: str, c: str) -> Any:
    """Once B's websocket action was handled: B's view with its card programmed, or
    None (refused, or played by C's seat: C's view then shows a card C never
    programmed)."""
    handled = 0
    answer = None
    auth = {"Authorization": f"Bearer {c}"}
    for _ in range(100):
        if handled == SENDS:
            break
        if handled == SENDS - 1:  # the one left may have been played by C's seat
            c_view = (await http.get(f"/api/rooms/{room}/state", headers=auth)).json()
            if c_view.get("programmed"):
                break
        try:
            message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
        except TimeoutError:
            continue
        if message["type"] == "error":
            handled += 1
        elif message["type"] == "state" and message["view"].get("programmed"):
            answer = message["view"]
            handled += 1  # played by B's seat
    else:
        raise AssertionError(f"{SENDS - handled} of B's actions never answered")
    return answer


@pytest.mark.parametrize("via", ["http", "ws"])
def test_an_action_raced_with_a_seat_removal_is_never_played_by_another_seat(pg_server, via):
    async def main() -> list[str]:
        wrong = []
        async with httpx.AsyncClient(base_url=pg_server.url, timeout=20) as http:
            for i in range(TRIES):
                b_seat, c_view, answer = await one_try(
                    http, pg_server.ws_url, via, (i % 10) * 0.002
                )
                if c_view.get("programmed"):
                    wrong.append(f"try {i}: B (seat {b_seat}) programmed C's card")
                if answer is not None and answer["seat"] != b_seat:
                    wrong.append(
                        f"try {i}: B (seat {b_seat}) was sent seat {answer['seat']}'s view"
                    )
        return wrong

    wrong = asyncio.run(main())
    assert not wrong, wrong


@pytest.fixture(scope="module")
def two_nodes(postgres: Any, redis: Any) -> Any:
    db = postgres.create_database()
    nodes = start_all(
        [ServerProcess(db, args=["--redis", redis.url, "--node", f"n{i}"]) for i in (0, 1)]
    )
    yield nodes
    for node in nodes:
        node.stop()


async def view_where(ws: Any, done: Any) -> dict[str, Any]:
    """The first ``state`` view on ``ws`` for which ``done(view)`` holds."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 20))
        if message["type"] == "state" and done(message["view"]):
            return dict(message["view"])


def test_a_socket_on_another_node_plays_the_seat_its_token_has_after_a_removal(two_nodes):
    """B's websocket is on node 1; the host removes seat 0 and starts on node 0, so B moves
    from seat 1 to seat 0 and C from 2 to 1. Node 1 reloads the room from the store: B's
    socket is then seat 0's (its view, its hand), never C's; its action is B's own."""
    first, second = two_nodes

    async def main() -> None:
        async with httpx.AsyncClient(base_url=first.url, timeout=20) as http:
            created = (await http.post("/api/rooms", json={"seed": SEED})).json()
            room, host = created["room"], created["host_token"]
            tokens = [
                (await http.post(f"/api/rooms/{room}/players", json={"name": n})).json()["token"]
                for n in ("A", "B", "C", "D")
            ]
            b, c = tokens[1], tokens[2]
            auth = {"Authorization": f"Bearer {host}"}
            async with connect(f"{second.ws_url}/api/rooms/{room}/ws?token={b}") as ws:
                assert (await view_where(ws, lambda v: True))["seat"] == 1
                assert (await http.delete(f"/api/rooms/{room}/players/0", headers=auth)).is_success
                assert (await http.post(f"/api/rooms/{room}/start", headers=auth)).is_success
                view = await view_where(ws, lambda v: v["status"] == "playing")
                c_hand = (
                    await http.get(
                        f"/api/rooms/{room}/state", headers={"Authorization": f"Bearer {c}"}
                    )
                ).json()["hand"]
                assert view["seat"] == 0, "B's socket was sent another seat's view"
                assert view["hand"] != c_hand
                assert view["players"][0]["connected"], "B, connected, counts as gone"
                card = seat1_card()  # seat 1's deal: C's hand now, not B's
                await ws.send(
                    json.dumps({"type": "action", "action": {"type": "program", "card": card}})
                )
                reply = json.loads(await asyncio.wait_for(ws.recv(), 20))
                assert reply["type"] == "error", reply
                c_view = (
                    await http.get(
                        f"/api/rooms/{room}/state", headers={"Authorization": f"Bearer {c}"}
                    )
                ).json()
                assert not c_view.get("programmed"), "B's socket programmed C's card"

    asyncio.run(main())


def test_the_seats_connected_move_with_the_seats_when_one_is_removed(api):
    """B and C are connected when the host removes seat 0: B moves to seat 0 and C to
    seat 1, and the room says those seats are connected (not D's, now seat 2, whose
    player never came), so no one can hand B's seat to a bot as if B had left."""
    table = api.table(players=4, start=False, seed=SEED)
    room, host, tokens = table["room"], table["host"], table["tokens"]
    with api.socket(room, tokens[1]) as b, api.socket(room, tokens[2]) as c:
        b.receive_type("state")
        c.receive_type("state")
        assert api.remove_seat(room, host, 0).status_code == 200
        started = api.start(room, host)
        assert started.status_code == 200, started.text
        view = b.wait_version(started.json()["version"])
        assert [p["connected"] for p in view["players"]] == [True, True, False]
        assert view["seat"] == 0
