"""A bot that fails never stops its room: a bot that raises and one that sends refused
actions are logged and replaced by the ``random`` level, an expert's move thought over
past the budget is played by the quick ``greedy`` player (who never shows, gives or swaps,
so the experts' show chain holds on a slow machine), and their games of bots still end.
In-process (``bot_processes=0``: the bots think on a thread, so the test can swap in
failing bots)."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import httpx
import pytest

import dame_nature.bots
from benchmarks._support.live_server import UNLIMITED
from dame_nature.server.app import create_app
from dame_nature.server.settings import Settings

REAL_MAKE_BOT = dame_nature.bots.make_bot


class Raising:
    def __init__(self, seat: int) -> None:
        self.seat = seat

    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        raise RuntimeError("this bot is broken")


class Refused(Raising):
    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        return {"type": "program", "card": "cond-blue-1" if view["seat"] else "cond-red-1"}


class Slow(Raising):
    """Thinks past the budget over its first move, then plays at random."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat)
        self.moves = 0
        self.quick = REAL_MAKE_BOT("random", seat, seed=seat)

    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        self.moves += 1
        if self.moves == 1:
            time.sleep(0.4)
        return self.quick.act(view)


class AlwaysSlow(Raising):
    """Thinks past the budget over every move."""

    def act(self, view: dict[str, Any]) -> dict[str, Any] | None:
        time.sleep(0.15)
        return None


async def play_bots_only(tmp_path: Any, broken: type[Raising]) -> dict[str, Any]:
    settings = Settings(
        db=str(tmp_path / f"{broken.__name__}.sqlite3"),
        bot_processes=0,
        bot_think_seconds=0.1,
        **UNLIMITED,
    )
    app = create_app(settings)
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        created = (await client.post("/api/rooms", json={"seed": 8})).json()
        auth = {"Authorization": f"Bearer {created['host_token']}"}
        code = created["room"]
        for _ in range(3):
            added = await client.post(f"/api/rooms/{code}/bots", json={}, headers=auth)
            assert added.status_code == 201
        assert (await client.post(f"/api/rooms/{code}/start", headers=auth)).status_code == 200
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            await asyncio.sleep(0.05)
            view = (await client.get(f"/api/rooms/{code}/state")).json()
            if view["phase"] == "over":
                break
        log = (await client.get(f"/api/rooms/{code}/log")).json()  # as a spectator
        await app.state.manager.bots.close()
    return {**view, "events": log["events"]}


@pytest.mark.parametrize("broken", [Raising, Refused, Slow])
def test_a_failing_bot_is_replaced_by_the_random_level(tmp_path, monkeypatch, caplog, broken):
    def make_bot(level: str, seat: int, *, seed: int | None = None) -> Any:
        return broken(seat) if level == "expert" else REAL_MAKE_BOT(level, seat, seed=seed)

    monkeypatch.setattr(dame_nature.bots, "make_bot", make_bot)
    with caplog.at_level(logging.INFO, logger="dame_nature.server.bots"):
        view = asyncio.run(play_bots_only(tmp_path, broken))
    assert view["phase"] == "over", "the game of bots did not end"
    assert [p["bot"] for p in view["players"]] == ["expert"] * 3  # the level shown stays
    if broken is Slow:  # that move only, at random: the next may be quicker
        assert "no decision within 0.1 s" in caplog.text
    else:
        assert "the random level plays it from now on" in caplog.text


def test_an_expert_too_slow_is_stood_in_for_by_a_player_who_never_shows(tmp_path, monkeypatch):
    """The stand-in of an expert's slow move follows no show chain of its own: no
    Symbiosis out of the experts' order (a random one broke it on a loaded machine)."""

    def make_bot(level: str, seat: int, *, seed: int | None = None) -> Any:
        return AlwaysSlow(seat) if level == "expert" else REAL_MAKE_BOT(level, seat, seed=seed)

    monkeypatch.setattr(dame_nature.bots, "make_bot", make_bot)
    view = asyncio.run(play_bots_only(tmp_path, AlwaysSlow))
    assert view["phase"] == "over", "the game of bots did not end"
    kinds = {e["type"] for e in view["events"]}
    assert "reveal_started" in kinds
    assert not kinds & {"show", "give", "swap"}, kinds & {"show", "give", "swap"}
