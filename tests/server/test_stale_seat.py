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

from benchmarks._support.live_server import ServerProcess
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
