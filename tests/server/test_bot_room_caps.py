"""Games with bots are bounded per client and share the bots' thinking fairly, on a real
server process: one address has at most ``max_bot_rooms_per_address`` games with bots in
play (a start, a rematch, a bot handed a seat past it is refused 429
``too_many_bot_rooms``, nothing changed); and a room where a person waits for its bots
is thought for before a flood of rooms of bots only (no decision of theirs is given the
bots' worker while one of the person's room waits for it)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import connect

from dame_nature.server.bot_pool import Asker, Turns

pytestmark = pytest.mark.timeout(300)

TOKEN = "metrics-token-for-the-tests"


def bot_room(api: Any, bots: int, person: bool, level: str = "random") -> dict[str, Any]:
    """A room in the lobby: a person at seat 0 (who never plays) if ``person``, then
    ``bots`` bots of ``level``."""
    created = api.create().json()
    room, host = created["room"], created["host_token"]
    token = api.join(room, "Person").json()["token"] if person else None
    for _ in range(bots):
        assert api.add_bot(room, host, level).status_code == 201
    return {"room": room, "host": host, "token": token}


def wait_over(api: Any, room: str) -> None:
    """Until the game of ``room`` (bots only) is over (each poll waits for a new view)."""
    with api.socket(room) as watcher:
        while watcher.receive_type("state", timeout=60)["view"]["phase"] != "over":
            pass


def test_one_address_has_at_most_its_cap_of_games_with_bots(server_factory, make_api):
    server = server_factory({"DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": "2"}).start()
    api = make_api(server)
    bots_only = bot_room(api, 3, person=False)
    assert api.start(bots_only["room"], bots_only["host"]).status_code == 200
    wait_over(api, bots_only["room"])  # a game that is over counts no more
    waiting = [bot_room(api, 2, person=True) for _ in range(2)]  # never over: no one plays
    for table in waiting:
        started = api.start(table["room"], table["host"])
        assert started.status_code == 200, started.text

    third = bot_room(api, 2, person=True)
    refused = api.start(third["room"], third["host"])
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "too_many_bot_rooms"
    assert "games with bots in play" in refused.json()["error"]["message"]
    assert api.info(third["room"]).json()["status"] == "lobby"  # nothing changed

    game = api.state(bots_only["room"]).json()["game"]
    again = api.rematch(bots_only["room"], bots_only["host"])
    assert again.status_code == 429, again.text
    assert again.json()["error"]["code"] == "too_many_bot_rooms"
    assert api.state(bots_only["room"]).json()["game"] == game

    people = api.table(players=3)  # a game of people only is never counted
    handed = api.add_bot(people["room"], people["host"], "random", seat=1)
    assert handed.status_code == 429, handed.text
    assert api.state(people["room"]).json()["players"][1]["bot"] is None


def test_an_address_reads_its_games_with_bots_before_it_makes_a_room(server_factory, make_api):
    """``GET /api/bot_rooms``: a client that makes a room to play with bots at once asks
    first, and makes nothing at the cap (a start refused would leave a room behind)."""
    server = server_factory({"DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": "1"}).start()
    api = make_api(server)
    assert api.http.get("/api/bot_rooms").json() == {"in_play": 0, "max": 1}
    table = bot_room(api, 2, person=True)  # never over: no one plays
    assert api.http.get("/api/bot_rooms").json() == {"in_play": 0, "max": 1}  # a lobby
    assert api.start(table["room"], table["host"]).status_code == 200
    assert api.http.get("/api/bot_rooms").json() == {"in_play": 1, "max": 1}
    api.table(players=3)  # a game of people only is never counted
    assert api.http.get("/api/bot_rooms").json() == {"in_play": 1, "max": 1}


def test_play_from_at_the_cap_says_first_what_is_wrong_with_the_request(server_factory, make_api):
    """At its cap, a client's "Play from here" with a seat the game does not have, an
    unknown level or a step past the end was answered 429 ``too_many_bot_rooms``: fixing
    the request then would not have helped. Now those refusals come first; a good
    request is still refused at the cap, and nothing is made either way."""
    server = server_factory({"DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": "1"}).start()
    api = make_api(server)
    people = api.table(players=3, seed=23)
    api.play_out(people)
    waiting = bot_room(api, 2, person=True)
    assert api.start(waiting["room"], waiting["host"]).status_code == 200  # the cap
    held = api.http.get("/healthz").json()["rooms"]
    path = f"/api/rooms/{people['room']}/replay/play_from"
    steps = len(api.replay(people["room"]).json()["actions"])
    for body, status, code in (
        ({"actions": 2, "seat": 4}, 404, "seat_not_found"),
        ({"actions": 2, "seat": 1, "level": "god"}, 422, "unknown_level"),
        ({"actions": steps + 1, "seat": 1}, 422, "invalid_request"),
        ({"actions": 2, "seat": 1}, 429, "too_many_bot_rooms"),
    ):
        answer = api.http.post(path, json=body)
        assert answer.status_code == status, (body, answer.text)
        assert answer.json()["error"]["code"] == code
    assert api.http.get("/healthz").json()["rooms"] == held


def figures(http: httpx.Client) -> dict[str, float]:
    """``dame_nature_bot_queue_ahead`` count and sum, by who waited."""
    text = http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    found = {}
    for kind, waiting, value in re.findall(
        r'^dame_nature_bot_queue_ahead_(count|sum)\{waiting="(\w+)"\} (\S+)$', text, re.M
    ):
        found[f"{waiting}_{kind}"] = float(value)
    return found


async def play_first_turn(api: Any, ws_url: str, solo: dict[str, Any]) -> None:
    """Start the ``bot_room`` ``solo`` with its person connected, until both of its bots
    have programmed a card."""
    url = f"{ws_url}/api/rooms/{solo['room']}/ws?token={solo['token']}"
    async with connect(url) as ws:
        while not json.loads(await ws.recv())["view"]["players"][0]["connected"]:
            pass
        assert api.start(solo["room"], solo["host"]).status_code == 200
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] == "state" and len(message["view"]["to_act"]) == 1:
                break


def test_a_room_with_a_person_waiting_is_thought_for_before_rooms_of_bots(server_factory, make_api):
    server = server_factory(
        {"DAME_NATURE_BOT_PROCESSES": "1", "DAME_NATURE_METRICS_TOKEN": TOKEN}
    ).start()
    api = make_api(server)
    http = api.http
    for _ in range(4):  # a flood of rooms of expert bots, on the one worker
        flood = bot_room(api, 3, person=False, level="expert")
        assert api.start(flood["room"], flood["host"]).status_code == 200
    deadline = time.monotonic() + 120
    while figures(http).get("bots_sum", 0) == 0:  # until they queue behind each other
        assert time.monotonic() < deadline, "the rooms of bots never waited for each other"
    solo = bot_room(api, 2, person=True)
    asyncio.run(play_first_turn(api, server.ws_url, solo))
    seen = figures(http)
    assert seen["person_count"] >= 2, seen
    assert seen["person_sum"] == 0, seen  # no other decision went first
    assert seen["bots_sum"] > 0, seen


def test_turns_go_to_people_first_then_client_by_client_and_room_by_room():
    """The order a bot worker's turns are given in: a person's room, then the client
    served longest ago, then its room served longest ago; a cancelled wait is dropped."""

    async def main() -> list[str]:
        turns = Turns()
        order: list[str] = []
        assert await turns.take(Asker("busy", "X")) == 0  # the worker is taken

        async def ask(asker: Asker) -> None:
            await turns.take(asker)
            order.append(asker.room)
            turns.give_back()

        askers = [Asker("a1", "A"), Asker("a2", "A"), Asker("a3", "A"), Asker("b1", "B")]
        askers += [Asker("gone", "C"), Asker.person("solo", "D")]
        tasks = {a.room: asyncio.create_task(ask(a)) for a in askers}
        while len(turns.waiting) < len(askers):
            await asyncio.sleep(0)  # each task reaches its wait
        tasks["gone"].cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await tasks.pop("gone")
        turns.give_back()
        await asyncio.gather(*tasks.values())
        assert not turns.busy and not turns.waiting
        return order

    assert asyncio.run(main()) == ["solo", "a1", "b1", "a2", "a3"]


def test_one_addresss_hints_from_many_rooms_take_one_clients_turns(server_factory, make_api):
    """Hints asked without pause from the seats of many rooms of one address are that
    address's turns on the bot worker, not one client's a room: a person at a table of
    bots, from another address, has at most one decision served before each of its
    bots' (before, one hint a room of the flood)."""
    server = server_factory(
        {
            "DAME_NATURE_BOT_PROCESSES": "1",
            "DAME_NATURE_METRICS_TOKEN": TOKEN,
            "DAME_NATURE_TRUSTED_PROXIES": "127.0.0.1",
        }
    ).start()
    flooder = make_api(server)
    flooder.http.headers["X-Forwarded-For"] = "192.0.2.66"
    seats = []
    for _ in range(6):
        table = flooder.table(players=3, hints=True)
        seats += [(table["room"], token) for token in table["tokens"]]
    stop = threading.Event()

    def ask_hints(room: str, token: str) -> None:
        while not stop.is_set():
            asked = flooder.http.get(f"/api/rooms/{room}/hint", headers=flooder.auth(token))
            assert asked.status_code == 200, asked.text

    api = make_api(server)
    solo = bot_room(api, 2, person=True)
    with ThreadPoolExecutor(len(seats)) as pool:
        flood = [pool.submit(ask_hints, room, token) for room, token in seats]
        try:
            time.sleep(1)  # the hints queue behind each other
            asyncio.run(play_first_turn(api, server.ws_url, solo))
        finally:
            stop.set()
        for asking in flood:
            asking.result()
    seen = figures(api.http)
    assert seen["person_count"] >= 2, seen
    assert seen["person_sum"] <= seen["person_count"], seen
