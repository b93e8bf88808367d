"""No one absent freezes a table: a real server (absence after ``ABSENT`` seconds) and
real websockets. The host's socket closes mid-game; the others are told; once the seat
counts as absent any seated player hands it to a bot, the host role passes on (the old
host token gets 403 ``not_host``), the bot's moves are the bot's in the views, the game
ends; the host comes back and takes the seat back. Names are unique in a room.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.server.conftest import Api, WsClient
from tests.server.test_bots import code, play_humans

ABSENT = 8.0  # DAME_NATURE_ABSENT_SECONDS of these tests' server: the checks that a seat
# is not yet absent run within it after a disconnect, even on a loaded machine
LEVEL = "random"


@pytest.fixture(scope="module")
def absent_server(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from benchmarks._support.live_server import ServerProcess

    proc = ServerProcess(
        tmp_path_factory.mktemp("absent") / "rooms.sqlite3",
        {"DAME_NATURE_ABSENT_SECONDS": str(ABSENT)},
    ).start()
    yield proc
    proc.stop()


@pytest.fixture
def api(absent_server: Any, make_api: Any) -> Api:
    made: Api = make_api(absent_server)
    return made


def hosted_room(api: Api, names: list[str], **rules: Any) -> dict[str, Any]:
    """A room whose creator sat down with the host token (as the browser does)."""
    created = api.create(**rules).json()
    room, host = created["room"], created["host_token"]
    tokens = []
    for i, name in enumerate(names):
        headers = api.auth(host) if i == 0 else {}
        joined = api.http.post(f"/api/rooms/{room}/players", json={"name": name}, headers=headers)
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    return {"room": room, "host": host, "tokens": tokens}


def hosts(api: Api, room: str) -> list[bool]:
    return [p["host"] for p in api.info(room).json()["players"]]


def until_view(ws: WsClient, check: Any, timeout: float = 20.0) -> dict[str, Any]:
    """Read the socket's views until ``check(view)``; that view."""
    deadline = time.monotonic() + timeout
    while True:
        if ws.view is not None and check(ws.view):
            return ws.view
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no such view; the last: {ws.view and ws.view['players']}")
        ws.receive(timeout=left)


def test_names_are_unique_in_a_room(api: Api) -> None:
    room = api.create().json()["room"]
    assert api.join(room, "Dan").status_code == 201
    for same in ("dan", "DAN", " Dan ", "Ｄａｎ"):
        refused = api.join(room, same)
        assert code(refused) == (409, "name_taken"), same
    assert api.join(room, "Danu").status_code == 201
    accent = api.join(room, "Zoé")
    assert accent.status_code == 201
    assert code(api.join(room, "Zoe\u0301")) == (409, "name_taken")  # the same, decomposed
    assert [p["name"] for p in api.info(room).json()["players"]] == ["Dan", "Danu", "Zoé"]
    # a bot added in the lobby is named after no one at the table
    created = api.create().json()
    for name in ("Darwin", "darwin2"):
        api.join(created["room"], name)
    assert code(api.join(created["room"], "DARWIN")) == (409, "name_taken")
    bot = api.add_bot(created["room"], created["host_token"], LEVEL).json()
    assert bot["name"].casefold() not in ("darwin", "darwin2")


def test_the_host_seat_is_the_one_taken_with_the_host_token(api: Api) -> None:
    table = hosted_room(api, ["Ada", "Bo", "Cy"])
    assert hosts(api, table["room"]) == [True, False, False]
    # a room whose host never sat down marks no seat, and its host token stays the host
    other = api.table(players=3, start=False)
    assert hosts(api, other["room"]) == [False, False, False]
    assert api.start(other["room"], other["tokens"][0]).status_code == 403
    assert api.start(other["room"], other["host"]).status_code == 200


def test_a_first_connection_is_no_return(api: Api) -> None:
    """A person whose seat was dealt before her page connected (a solo game from the home
    page) is not told "is back" when she first arrives: only a seat that was connected
    and left comes back."""
    table = api.table(players=3, seed=4)  # started before any socket connected
    room, (ada, bo, _cy) = table["room"], table["tokens"]

    def returns(view: dict[str, Any]) -> list[int]:
        return [e["seat"] for e in view["table_events"] if e["type"] == "returned"]

    with api.socket(room, bo) as bo_ws:
        assert returns(bo_ws.receive_type("state")["view"]) == []
        with api.socket(room, ada) as ada_ws:
            assert returns(ada_ws.receive_type("state")["view"]) == []
            view = until_view(bo_ws, lambda v: v["players"][0]["connected"])
            assert returns(view) == []
        view = until_view(bo_ws, lambda v: not v["players"][0]["connected"])
        assert [e["seat"] for e in view["table_events"] if e["type"] == "left"] == [0]
        with api.socket(room, ada):
            view = until_view(bo_ws, lambda v: v["players"][0]["connected"])
            assert returns(view) == [0]


def test_an_absent_host_is_handed_to_a_bot_by_another_player(api: Api) -> None:
    table = hosted_room(api, ["Ada", "Bo", "Cy"], seed=5)
    room, host, (ada, bo, cy) = table["room"], table["host"], table["tokens"]
    with api.socket(room, bo) as bo_ws, api.socket(room, cy) as cy_ws:
        with api.socket(room, ada) as ada_ws:
            ada_ws.receive_type("state")
            assert api.start(room, host).status_code == 200
            until_view(bo_ws, lambda v: v["phase"] != "lobby" and v["players"][0]["connected"])
        # Ada's socket closed: everyone is told at once, but the seat is not yet absent
        view = until_view(bo_ws, lambda v: not v["players"][0]["connected"])
        assert view["players"][0]["absent"] is False
        assert code(api.add_bot(room, bo, LEVEL, seat=0)) == (409, "player_connected")
        assert code(api.add_bot(room, bo, LEVEL, seat=1)) == (409, "player_connected")
        left = [e for e in view["table_events"] if e["type"] == "left"]
        assert left and left[-1]["seat"] == 0 and left[-1]["name"] == "Ada"

        # after the absence time, without any request: the seat counts as absent and the
        # host role passed to the person seated longest who is connected (Bo)
        view = until_view(cy_ws, lambda v: v["players"][0]["absent"], timeout=ABSENT + 15)
        view = until_view(cy_ws, lambda v: v["players"][1]["host"])
        assert [p["host"] for p in view["players"]] == [False, True, False]
        assert hosts(api, room) == [False, True, False]
        assert any(e["type"] == "host" and e["seat"] == 1 for e in view["table_events"])
        # the old host token no longer acts as host; Bo's seat token does
        assert code(api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(host))) == (
            403,
            "not_host",
        )
        assert api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(bo)).status_code == 200
        assert code(api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(cy))) == (
            403,
            "not_host",
        )

        # refusals change nothing
        version = api.state(room).json()["version"]
        assert code(api.add_bot(room, None, LEVEL, seat=0))[0] == 401
        stranger = api.table(players=3, start=False)["tokens"][0]
        assert code(api.add_bot(room, stranger, LEVEL, seat=0)) == (401, "invalid_token")
        assert code(api.add_bot(room, cy, LEVEL, seat=3)) == (404, "seat_not_found")
        assert api.add_bot(room, cy, LEVEL, seat=9).status_code == 422
        assert api.state(room).json()["version"] == version

        # Cy (neither host nor the absent one) hands Ada's seat to a bot
        taken = api.add_bot(room, cy, LEVEL, seat=0)
        assert taken.status_code == 200, taken.text
        assert taken.json() == {"seat": 0, "level": LEVEL, "name": "Ada"}
        assert code(api.add_bot(room, bo, LEVEL, seat=0)) == (409, "already_a_bot")
        view = until_view(bo_ws, lambda v: v["players"][0]["stand_in"])
        assert any(e["type"] == "stand_in" and e["seat"] == 0 for e in view["table_events"])

        final = play_humans(api, room, {1: bo, 2: cy}, limit=120)
        assert final["result"] is not None
        # the stand-in's moves are the bot's: every move of seat 0 was played for Ada
        moves = api.state(room, bo).json()["stand_in_moves"]
        assert moves and {m["seat"] for m in moves} == {0}
        assert all(m["level"] == LEVEL and m["type"] for m in moves)
        replay = api.replay(room).json()
        assert len(moves) == sum(1 for a in replay["actions"] if a["seat"] == 0)

    # Ada comes back (her own token) and takes her seat back; her view says what was
    # played for her; the host role stays with Bo
    with api.socket(room, ada) as ada_ws:
        view = until_view(ada_ws, lambda v: v["players"][0]["bot"] is None)
        assert view["players"][0]["connected"] and not view["players"][0]["stand_in"]
        assert [m["seat"] for m in view["stand_in_moves"]] == [0] * len(moves)
        assert any(e["type"] == "stand_in_ended" for e in view["table_events"])
        assert code(api.rematch(room, host)) == (403, "not_host")
        assert code(api.rematch(room, ada)) == (403, "not_host")
        assert api.rematch(room, bo).status_code == 200
        assert [p["host"] for p in until_view(ada_ws, lambda v: v["game"] == 2)["players"]] == [
            False,
            True,
            False,
        ]


def test_a_seat_never_connected_counts_as_absent_after_the_time(api: Api) -> None:
    table = hosted_room(api, ["Ada", "Bo", "Cy"], seed=6)
    room, host, (ada, bo, cy) = table["room"], table["host"], table["tokens"]
    with api.socket(room, ada), api.socket(room, bo) as bo_ws:
        assert api.start(room, host).status_code == 200
        # the host may hand a seat without a connection at once (as before) ...
        assert api.add_bot(room, host, LEVEL, seat=2).status_code == 200
        assert api.remove_bot(room, cy, 2).status_code == 200  # Cy's token takes it back
        # ... another player only once it counts as absent
        assert code(api.add_bot(room, bo, LEVEL, seat=2)) == (409, "player_connected")
        until_view(bo_ws, lambda v: v["players"][2]["absent"], timeout=ABSENT + 15)
        assert api.add_bot(room, bo, LEVEL, seat=2).status_code == 200
        # the host is connected: the role stays
        assert hosts(api, room) == [True, False, False]


def test_the_host_role_waits_for_a_connected_person(api: Api) -> None:
    table = hosted_room(api, ["Ada", "Bo", "Cy"], seed=7)
    room, host, (ada, bo, _cy) = table["room"], table["host"], table["tokens"]
    assert api.start(room, host).status_code == 200
    # nobody connected: the host seat is absent, but there is no one to pass the role to
    with api.socket(room) as watcher:
        until_view(watcher, lambda v: v["players"][0]["absent"], timeout=ABSENT + 15)
    assert hosts(api, room) == [True, False, False]
    assert api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(host)).status_code == 200
    # Bo connects: the role passes to him
    with api.socket(room, bo) as bo_ws:
        until_view(bo_ws, lambda v: v["players"][1]["host"])
    assert hosts(api, room) == [False, True, False]
    assert code(api.start(room, host)) == (403, "not_host")
    # Ada is back: she is a player like the others now
    with api.socket(room, ada) as ada_ws:
        view = until_view(ada_ws, lambda v: v["players"][0]["connected"])
        assert [p["host"] for p in view["players"]] == [False, True, False]
