"""The no-leak property with bots seated: games of one person and bots (3 to 6 seats,
random rules) played in-process, the person's and a spectator's sockets attached through
``RoomManager.connect``. No message to them ever holds a card they are not entitled to,
and no bot seat's view is ever sent to any socket: the bots' views go to the bots only.

Entitlement is updated after every change of the room (the bots change it between the
person's moves), with the helpers of ``test_no_leaks``.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

import httpx

from benchmarks._support.live_server import UNLIMITED
from dame_nature.engine import MODES
from dame_nature.server.app import create_app
from dame_nature.server.connections import Connection
from dame_nature.server.settings import Settings
from tests.server.test_no_leaks import RecordingSocket, card_ids_in, from_view, seen_now

GAMES = 16


async def play_one(client: httpx.AsyncClient, app: Any, index: int) -> int:
    rng = random.Random(1000 + index)
    seats = rng.randint(3, 6)
    body = {"modes": [m for m in MODES if rng.random() < 0.3], "seed": index}
    created = (await client.post("/api/rooms", json=body)).json()
    code, host = created["room"], created["host_token"]
    host_auth = {"Authorization": f"Bearer {host}"}
    token = (await client.post(f"/api/rooms/{code}/players", json={"name": "Ada"})).json()["token"]
    for _ in range(seats - 1):
        added = await client.post(
            f"/api/rooms/{code}/bots", json={"level": "random"}, headers=host_auth
        )
        assert added.status_code == 201, added.text
    manager = app.state.manager
    room = await manager.get(code)
    sockets = {0: RecordingSocket(), None: RecordingSocket()}
    conns = [Connection(sock, seat, app.state.settings) for seat, sock in sockets.items()]
    for conn in conns:
        await manager.connect(room, conn)
    entitled: dict[int | None, set[str]] = {seat: set() for seat in sockets}
    commit = manager.commit
    changed = commit.changed  # every change of a room goes through the commit path

    def changed_and_entitled(changed_room: Any, now: float, *args: Any) -> None:
        changed(changed_room, now, *args)
        if changed_room is room and room.state is not None:
            for viewer in entitled:
                entitled[viewer] |= seen_now(room.state, viewer)

    commit.changed = changed_and_entitled
    started = await client.post(f"/api/rooms/{code}/start", headers=host_auth)
    assert started.status_code == 200, started.text
    auth = {"Authorization": f"Bearer {token}"}
    checked = {seat: 0 for seat in sockets}
    moves = 0
    for _ in range(20_000):
        await asyncio.sleep(0.001)  # the bots and the sender tasks run
        for viewer, sock in sockets.items():
            for text in sock.texts[checked[viewer] :]:
                message = json.loads(text)
                if message["type"] == "state":
                    assert message["view"]["seat"] == viewer  # never a bot's view
                leaked = card_ids_in(text) - entitled[viewer]
                assert not leaked, f"game {index}: seat {viewer} was sent {sorted(leaked)}"
            checked[viewer] = len(sock.texts)
        if room.state.is_over:
            break
        if 0 not in room.state.current_players() and room.state.is_winnable():
            continue
        view = json.loads(sockets[0].texts[-1])["view"]
        answer = await client.post(
            f"/api/rooms/{code}/actions", headers=auth, json=from_view(view, rng)
        )
        if answer.status_code == 200:
            leaked = card_ids_in(answer.text) - entitled[0]
            assert not leaked, f"game {index}: an action's answer holds {sorted(leaked)}"
            moves += 1
    assert room.state.is_over, f"game {index} did not end"
    commit.changed = changed
    for conn in conns:
        await manager.disconnect(room, conn)
    return moves


def test_no_view_leaks_with_bots_seated(tmp_path):
    settings = Settings(
        db=str(tmp_path / "bots.sqlite3"),
        **UNLIMITED,
        bot_processes=0,  # in-process: the bots think on a thread
    )
    app = create_app(settings)

    async def run() -> int:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            total = 0
            for index in range(GAMES):
                total += await play_one(client, app, index)
            await app.state.manager.bots.close()
            return total

    assert asyncio.run(run()) > GAMES
