"""Bot seats in the server: the lobby's seat management (add and remove bots, leave or
remove a seat) and its refusals, a solo game played over a websocket with bots in the
other seats, a bot taking over the seat of a player who left and the player taking it
back, and bots that play on after a SIGKILL and a restart.

The bots think in the server's worker process (the default ``bot_processes=1``) and act
without a pause (``DAME_NATURE_BOT_DELAY_SECONDS=0`` in ``benchmarks/_support/live_server.py``).
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any

from dame_nature.bots import make_bot

LEVEL = "random"  # fast and legal: these tests are about the seats, not the play


def players(api: Any, room: str) -> list[tuple[str, str | None, bool]]:
    return [(p["name"], p["bot"], p["stand_in"]) for p in api.info(room).json()["players"]]


def code(response: Any) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def wait_for(check: Any, timeout: float = 30.0, what: str = "the bots") -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.02)
    raise AssertionError(f"timed out waiting for {what}")


def play_humans(api: Any, room: str, tokens: dict[int, str], limit: float = 60.0) -> dict:
    """Play the seats in ``tokens`` (by HTTP, the test script's policy) while the bots
    play theirs, until the game is over; the last spectator view."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        spectator = api.state(room).json()
        if spectator["phase"] == "over":
            return spectator  # type: ignore[no-any-return]
        awaiting = spectator["awaiting"]
        if awaiting:
            todo = [awaiting["seat"]] if awaiting["seat"] in tokens else []
        else:
            todo = [
                p["seat"]
                for p in spectator["players"]
                if p["seat"] in tokens
                and (p["hand_size"] or p["has_programmed"])
                and not p["ready"]
            ]
        if not spectator["winnable"]:
            todo = list(tokens)[:1]
        if not todo:
            time.sleep(0.01)  # the bots are on it
            continue
        seat = todo[0]
        legal = api.legal(room, tokens[seat])
        if not legal:
            continue
        view = api.state(room, tokens[seat]).json()
        action = {"type": "end_game"} if not view["winnable"] else api.scripted_action(view, legal)
        api.act(room, tokens[seat], action)  # may lose a race with a bot: then try again
    raise AssertionError("the game did not end")


def test_lobby_seats_bots_and_refusals(api):
    created = api.create(seed=5).json()
    room, host = created["room"], created["host_token"]
    levels = api.http.get("/api/bots").json()
    assert LEVEL in levels["levels"] and levels["default"] in levels["levels"]
    ada = api.join(room, "Ada").json()

    assert code(api.add_bot(room, None)) == (401, "missing_token")
    assert code(api.add_bot(room, ada["token"])) == (403, "not_host")
    assert code(api.add_bot(room, "nope")) == (401, "invalid_token")
    assert code(api.add_bot(room, host, "grandmaster")) == (422, "unknown_level")
    assert api.add_bot(room, host, "x" * 33).status_code == 422
    assert code(api.add_bot(room, host, LEVEL, seat=0)) == (409, "game_not_started")

    first = api.add_bot(room, host, LEVEL)
    assert first.status_code == 201
    assert first.json() == {"seat": 1, "level": LEVEL, "name": "Darwin"}
    second = api.add_bot(room, host).json()  # the default level
    assert second == {"seat": 2, "level": levels["default"], "name": "Linné"}
    bo = api.join(room, "Bo").json()
    assert bo["seat"] == 3
    assert players(api, room) == [
        ("Ada", None, False),
        ("Darwin", LEVEL, False),
        ("Linné", levels["default"], False),
        ("Bo", None, False),
    ]
    lobby = api.state(room, bo["token"]).json()
    assert [p["bot"] for p in lobby["players"]] == [None, LEVEL, levels["default"], None]

    # removing a seat: the seats after it move down; tokens follow their players
    assert code(api.remove_bot(room, host, 0)) == (409, "not_a_bot")
    assert code(api.remove_bot(room, ada["token"], 1)) == (403, "not_host")
    assert code(api.remove_bot(room, host, 4)) == (404, "seat_not_found")
    removed = api.remove_bot(room, host, 1)
    assert removed.status_code == 200
    assert [p["name"] for p in removed.json()["players"]] == ["Ada", "Linné", "Bo"]
    assert api.state(room, bo["token"]).json()["seat"] == 2

    # a player leaves their seat; the host removes another's; their tokens stop working
    assert code(api.remove_seat(room, None)) == (401, "missing_token")
    assert code(api.remove_seat(room, bo["token"], 0)) == (403, "not_host")
    assert api.remove_seat(room, bo["token"]).status_code == 200
    assert code(api.state(room, bo["token"])) == (401, "invalid_token")
    assert code(api.remove_seat(room, bo["token"])) == (401, "invalid_token")
    assert api.remove_seat(room, host, 0).status_code == 200
    assert code(api.state(room, ada["token"])) == (401, "invalid_token")
    assert players(api, room) == [("Linné", levels["default"], False)]
    assert api.remove_seat(room, host, "x").status_code == 422

    # six seats at most, bots included
    for _ in range(5):
        assert api.add_bot(room, host, LEVEL).status_code == 201
    assert code(api.add_bot(room, host, LEVEL)) == (409, "room_full")
    assert code(api.join(room, "Cy")) == (409, "room_full")
    assert api.remove_bot(room, host, 5).status_code == 200
    cy = api.join(room, "Cy").json()
    assert cy["seat"] == 5

    # once started: no seat changes in the lobby's way
    assert api.start(room, host).status_code == 200
    assert code(api.add_bot(room, host, LEVEL)) == (409, "game_started")
    assert code(api.remove_seat(room, cy["token"])) == (409, "game_started")
    assert code(api.remove_seat(room, host, 1)) == (409, "game_started")
    assert code(api.remove_bot(room, host, 0)) == (409, "no_player")
    assert code(api.remove_bot(room, cy["token"], 0)) == (403, "not_host")


def test_solo_game_over_a_websocket_with_bots(api):
    """One person (a scripted websocket client) and three bots play a whole game; the
    person's socket only ever carries the person's own view."""
    created = api.create(seed=11, modes=["climate_change"]).json()
    room, host = created["room"], created["host_token"]
    me = api.join(room, "Ada").json()
    for _ in range(3):
        assert api.add_bot(room, host, LEVEL).status_code == 201
    assert api.start(room, host).status_code == 200
    person = make_bot("random", 0, seed=3)
    acted_on = -1
    with api.socket(room, me["token"]) as ws:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            message = ws.receive(timeout=30)
            if message["type"] != "state":
                continue
            view = message["view"]
            assert view["seat"] == 0
            assert [p["bot"] for p in view["players"]] == [None, LEVEL, LEVEL, LEVEL]
            if view["phase"] == "over":
                break
            action = person.act(view)
            if action is not None and view["version"] > acted_on:
                acted_on = view["version"]
                ws.send({"type": "action", "action": action})
        else:
            raise AssertionError("the solo game did not end")
    assert view["result"]["outcome"] in ("won", "lost")
    replay = api.replay(room).json()
    seats = {entry["seat"] for entry in replay["actions"]}
    assert seats == {0, 1, 2, 3}  # everyone played, the bots through the server


def test_a_bot_takes_over_a_seat_and_the_player_takes_it_back(api):
    table = api.table(players=3, seed=21)
    room, host, tokens = table["room"], table["host"], table["tokens"]
    with api.socket(room, tokens[0]) as ws:
        ws.receive_type("state")  # connected: the server has seated the socket
        assert code(api.add_bot(room, host, LEVEL, seat=0)) == (409, "player_connected")
    # another seated player may hand it over only once it counts as absent (30 s here)
    assert code(api.add_bot(room, tokens[1], LEVEL, seat=2)) == (409, "player_connected")
    assert code(api.add_bot(room, host, LEVEL, seat=4)) == (404, "seat_not_found")
    assert code(api.remove_bot(room, host, 2)) == (409, "not_a_bot")

    taken = api.add_bot(room, host, LEVEL, seat=2)
    assert taken.status_code == 200
    assert taken.json() == {"seat": 2, "level": LEVEL, "name": "P2"}
    assert players(api, room)[2] == ("P2", LEVEL, True)
    assert code(api.add_bot(room, host, LEVEL, seat=2)) == (409, "already_a_bot")
    assert code(api.act(room, tokens[2], {"type": "ready"})) == (409, "bot_seat")
    # the bot plays seat 2: it programs and says ready by itself
    wait_for(lambda: api.state(room).json()["players"][2]["ready"])
    version = api.state(room).json()["version"]

    # P2 comes back: opening the seat's websocket takes it back from the bot
    with api.socket(room, tokens[2]) as ws:
        view = ws.receive_type("state")["view"]
        assert view["seat"] == 2 and view["version"] > version
        assert view["players"][2]["bot"] is None and view["players"][2]["connected"]
        assert players(api, room)[2] == ("P2", None, False)
        assert api.act(room, tokens[2], {"type": "unready"}).status_code == 200

    wait_for(lambda: not api.info(room).json()["players"][2]["connected"], what="P2 gone")
    # taken over again; this time the player's token gives it back explicitly
    assert api.add_bot(room, host, LEVEL, seat=2).status_code == 200
    assert code(api.remove_bot(room, tokens[1], 2)) == (403, "not_host")
    assert api.remove_bot(room, tokens[2], 2).status_code == 200
    assert players(api, room)[2] == ("P2", None, False)

    # a bot plays seat 1 while the people play the rest, to the end
    assert api.add_bot(room, host, LEVEL, seat=1).status_code == 200
    final = play_humans(api, room, {0: tokens[0], 2: tokens[2]})
    assert final["result"] is not None
    assert 1 in {entry["seat"] for entry in api.replay(room).json()["actions"][-40:]}
    # the game is over; the bot still holds seat 1 for the rematch, until P1 is back
    assert api.rematch(room, host).status_code == 200
    wait_for(lambda: api.state(room).json()["players"][1]["ready"])


def children_of(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(entry.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_bots_play_on_after_sigkill_and_restart(server_factory, make_api, tmp_path):
    db = tmp_path / "bots.sqlite3"
    # bots that wait 60 s before acting: they have not acted when the server is killed
    first = server_factory(env={"DAME_NATURE_BOT_DELAY_SECONDS": "60"}, db=db).start()
    api = make_api(first)
    created = api.create(seed=41).json()
    room, host = created["room"], created["host_token"]
    me = api.join(room, "Ada").json()
    api.add_bot(room, host, LEVEL)
    api.add_bot(room, host, LEVEL)
    assert api.start(room, host).status_code == 200
    workers = wait_for(lambda: children_of(first.proc.pid), what="the bot worker")
    before = players(api, room)
    assert not any(p["ready"] for p in api.state(room).json()["players"])

    first.kill()
    # the bot worker does not outlive its server
    wait_for(lambda: not any(alive(pid) for pid in workers), 10, "the worker to exit")

    second = server_factory(db=db).start()
    api = make_api(second)
    assert (
        players(api, room)
        == before
        == [
            ("Ada", None, False),
            ("Darwin", LEVEL, False),
            ("Linné", LEVEL, False),
        ]
    )
    # no one connects: the bots resume by themselves
    wait_for(lambda: all(p["ready"] for p in api.state(room).json()["players"][1:]))
    final = play_humans(api, room, {0: me["token"]})
    assert final["result"] is not None
    assert os.path.exists(db)


def test_expert_bots_keep_their_show_chain_on_the_server(api):
    """Experts show their programs in reveal order and wait for the revealers before them;
    a bot that waits is not replaced by a random move (only a round in which no bot moves
    falls back), so every program a bot showed is the card it reveals."""
    created = api.create(seed=21).json()
    room, host = created["room"], created["host_token"]
    me = api.join(room, "Ada").json()
    for _ in range(5):
        assert api.add_bot(room, host, "expert").status_code == 201
    assert api.start(room, host).status_code == 200
    play_humans(api, room, {0: me["token"]}, limit=240.0)
    log = api.http.get(f"/api/rooms/{room}/log", headers=api.auth(me["token"])).json()
    turns: dict[int, list[dict]] = {}
    for event in log["events"]:
        turns.setdefault(event["turn"], []).append(event)
    chained = 0  # turns in which the chain went on past one bot
    for events in turns.values():
        started = next((e for e in events if e["type"] == "reveal_started"), None)
        if started is None:
            continue
        order = started["order"]
        revealed = {e["seat"]: e["card"] for e in events if e["type"] == "revealed"}
        shows = [e for e in events if e["type"] == "show" and e["seat"] != 0]
        positions = [order.index(e["seat"]) for e in shows]
        assert positions == sorted(positions), positions
        for show in shows:
            assert revealed.get(show["seat"]) == show["card"], show
        chained += len(shows) >= 2
    assert chained >= 1
