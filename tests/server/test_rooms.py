"""The room manager in-process: one lock per room, expiry, memory of finished rooms,
secrets, settings and the command line."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import threading
from typing import Any

import httpx

from benchmarks._support.live_server import UNLIMITED
from dame_nature.engine import Game
from dame_nature.server.connections import Connection
from dame_nature.server.rooms import RoomManager, RulesChoice
from dame_nature.server.settings import Settings
from dame_nature.server.store import open_store


class Sink:
    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send_text(self, data: str) -> None:
        self.texts.append(data)


def manager_for(tmp_path, **settings: Any) -> RoomManager:
    config = Settings(db=str(tmp_path / "rooms.sqlite3"), **{**UNLIMITED, **settings})
    return RoomManager(config, open_store(config.db))


async def table(manager: RoomManager, players: int = 3, seed: int = 1) -> Any:
    room = await manager.create(RulesChoice(seed=seed))
    for i in range(players):
        await manager.join(room, f"P{i}")
    await manager.start(room, room.host_token)
    return room


def test_one_lock_per_room(tmp_path):
    manager = manager_for(tmp_path)

    async def run() -> None:
        busy, free = await table(manager, seed=1), await table(manager, seed=2)
        card = busy.state.hands[0][0]
        async with busy.lock:  # someone holds the busy room
            waiting = asyncio.create_task(manager.act(busy, 0, {"type": "program", "card": card}))
            other = free.state.hands[1][0]
            # the other room goes on at once
            view = await asyncio.wait_for(
                manager.act(free, 1, {"type": "program", "card": other}), 5
            )
            assert view["programmed"] == other
            await asyncio.sleep(0.01)
            assert not waiting.done() and busy.state.programmed[0] is None
        assert (await waiting)["programmed"] == card

    asyncio.run(run())


def test_concurrent_actions_are_applied_one_at_a_time(tmp_path):
    manager = manager_for(tmp_path)

    async def run() -> None:
        room = await table(manager, players=6, seed=3)
        start = room.version
        actions = []
        for seat in range(6):
            for card in room.state.hands[seat][:4]:
                actions.append(manager.act(room, seat, {"type": "program", "card": card}))
        results = await asyncio.gather(*actions, return_exceptions=True)
        accepted = [r for r in results if isinstance(r, dict)]
        assert len(accepted) == 24
        assert sorted(r["version"] for r in accepted) == list(range(start + 1, start + 25))
        stored = manager.store.load_room(room.code)
        assert len(stored["actions"]) == 24 and stored["version"] == room.version

    asyncio.run(run())


def test_concurrent_http_actions_on_one_room(api, server):
    t = api.table(players=6, seed=4)
    room = t["room"]
    start = api.state(room).json()["version"]
    codes: list[int] = []

    def player(seat: int) -> None:
        with httpx.Client(base_url=server.url, timeout=20) as http:
            hand = http.get(f"/api/rooms/{room}/state", headers=api.auth(t["tokens"][seat])).json()[
                "hand"
            ]
            for card in hand[:5]:
                answer = http.post(
                    f"/api/rooms/{room}/actions",
                    headers=api.auth(t["tokens"][seat]),
                    json={"type": "program", "card": card},
                )
                codes.append(answer.status_code)

    threads = [threading.Thread(target=player, args=(s,)) for s in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert codes.count(200) == 30
    assert api.state(room).json()["version"] == start + 30


def test_idle_rooms_expire_and_connected_rooms_stay(tmp_path):
    manager = manager_for(tmp_path, room_ttl_seconds=100)

    async def run() -> None:
        idle = await table(manager, seed=5)
        watched = await table(manager, seed=6)
        conn = Connection(Sink(), None, manager.settings)
        await manager.connect(watched, conn)
        now = max(idle.updated_at, watched.updated_at)
        assert manager.sweep(now + 50) == (0, 0)
        deleted, _ = manager.sweep(now + 1000)
        assert deleted == 1
        assert idle.code not in manager.rooms and manager.store.load_room(idle.code) is None
        assert watched.code in manager.rooms
        await manager.disconnect(watched, conn)
        manager.sweep(now + 100_000)
        assert manager.rooms == {}

    asyncio.run(run())


def test_a_lobby_nobody_starts_has_a_short_life(tmp_path):
    """Issue 7, defect 5: lobbies lived as long as games (7 days), so a flood of them
    held the room cap for days. A lobby now lives ``lobby_ttl_seconds`` without a change."""
    manager = manager_for(tmp_path, room_ttl_seconds=10_000, lobby_ttl_seconds=100)

    async def run() -> None:
        lobby = await manager.create(RulesChoice())
        playing = await table(manager, seed=7)
        now = max(lobby.updated_at, playing.updated_at)
        assert manager.sweep(now + 50) == (0, 0)
        deleted, _ = manager.sweep(now + 101)
        assert deleted == 1 and lobby.code not in manager.rooms
        assert manager.store.load_room(lobby.code) is None
        assert playing.code in manager.rooms  # a game keeps the long TTL

    asyncio.run(run())


def test_connections_do_not_cost_a_commit_each(tmp_path):
    """Issue 7, defect 6: each connect and disconnect of a seat was an SQLite commit.
    One write now reserves versions ahead; the stored version stays above every version
    a client saw."""
    manager = manager_for(tmp_path)
    writes = []
    set_version = manager.store.set_version

    def counted(*args: Any, **kwargs: Any) -> None:
        writes.append(args)
        set_version(*args, **kwargs)

    manager.store.set_version = counted  # type: ignore[method-assign]

    async def run() -> None:
        room = await table(manager, seed=8)
        for _ in range(150):
            conn = Connection(Sink(), 0, manager.settings)
            await manager.connect(room, conn)
            await manager.disconnect(room, conn)
        assert len(writes) <= 300 // 100 + 1  # 300 versions, one write per 100
        assert manager.store.load_room(room.code)["version"] > room.version

    asyncio.run(run())


def test_finished_rooms_leave_memory_and_come_back(tmp_path):
    manager = manager_for(tmp_path, finished_room_memory_seconds=60)

    async def run() -> None:
        rooms = [await table(manager, seed=seed) for seed in range(5)]
        finished = rooms[0]
        state = finished.state
        rng = random.Random(0)
        while not state.is_over:  # a random legal player, through the manager
            seat = rng.choice(sorted(state.current_players()))
            legal = state.legal_actions(seat)
            ready = [a for a in legal if a["type"] in ("ready", "reveal", "give_back", "end_game")]
            program = [a for a in legal if a["type"] == "program"]
            await manager.act(finished, seat, rng.choice(ready or program or legal))
        before = finished.view(0)
        _, unloaded = manager.sweep(finished.updated_at + 61)
        assert unloaded == 1 and finished.code not in manager.rooms
        assert len(manager.rooms) == 4
        again = await manager.get(finished.code)  # loaded back from the database on demand
        after = again.view(0)
        # exactly as stored: the same version (every node sharing a database agrees on it)
        assert after == before

    asyncio.run(run())


def test_codes_and_tokens_are_long_random_secrets(tmp_path):
    manager = manager_for(tmp_path)

    async def run() -> None:
        rooms = [await manager.create(RulesChoice()) for _ in range(20)]
        secrets_seen = set()
        for room in rooms:
            player = await manager.join(room, "Ada")
            for secret in (room.code, room.host_token, player.token):
                assert len(secret) >= 16  # base64url: 6 bits a character, >= 96 bits
                secrets_seen.add(secret)
        assert len(secrets_seen) == 60

    asyncio.run(run())


def test_restore_reloads_unfinished_rooms(tmp_path):
    first = manager_for(tmp_path)

    async def build() -> tuple[str, dict[str, Any]]:
        room = await table(first, seed=9)
        card = room.state.hands[2][0]
        await first.act(room, 2, {"type": "program", "card": card})
        return room.code, room.view(2)

    code, view = asyncio.run(build())
    second = manager_for(tmp_path)
    assert second.restore() == 1
    restored = second.rooms[code].view(2)
    assert {**restored, "version": 0} == {**view, "version": 0}


def test_deal_rooms_need_exactly_its_seats(tmp_path):
    manager = manager_for(tmp_path)
    setup = Game(3).new_initial_state(seed=2).setup
    deal = {"hands": setup["hands"], "first_player": setup["first_player"]}

    async def run() -> None:
        room = await manager.create(RulesChoice(deal=deal))
        assert room.seats_max == 3
        for i in range(3):
            await manager.join(room, f"P{i}")
        await manager.start(room, room.host_token)
        assert room.state.hands == setup["hands"]

    asyncio.run(run())


def test_settings_from_the_environment(monkeypatch):
    monkeypatch.setenv("DAME_NATURE_DB", "/tmp/elsewhere.sqlite3")
    monkeypatch.setenv("DAME_NATURE_PORT", "9123")
    monkeypatch.setenv("DAME_NATURE_ROOM_TTL_SECONDS", "60")
    settings = Settings()
    assert (settings.db, settings.port, settings.room_ttl_seconds) == (
        "/tmp/elsewhere.sqlite3",
        9123,
        60.0,
    )
    assert Settings(port=1).port == 1  # explicit values win over the environment


def test_command_line_help():
    out = subprocess.run(
        [sys.executable, "-m", "dame_nature", "serve", "--help"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for flag in ("--host", "--port", "--db"):
        assert flag in out


def test_spectators_per_room_are_limited(tmp_path):
    import pytest

    from dame_nature.server.errors import ApiError

    manager = manager_for(tmp_path, max_spectators_per_room=2)

    async def run() -> None:
        room = await table(manager, seed=12)
        conns = [Connection(Sink(), None, manager.settings) for _ in range(3)]
        await manager.connect(room, conns[0])
        await manager.connect(room, conns[1])
        with pytest.raises(ApiError) as refused:
            await manager.connect(room, conns[2])
        assert refused.value.code == "too_many_spectators" and manager.hub.count(room.code) == 2
        for conn in conns[:2]:
            await manager.disconnect(room, conn)

    asyncio.run(run())
