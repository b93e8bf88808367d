"""Websockets against a real uvicorn server: own views only, live updates, reconnect,
spectators, connected flags and every websocket error of API.md."""

from __future__ import annotations

import json

import pytest
from websockets.exceptions import ConnectionClosed


def test_two_players_each_receive_only_their_own_hand(api):
    table = api.table(players=3, seed=11)
    room, tokens = table["room"], table["tokens"]
    hands = [set(api.state(room, t).json()["hand"]) for t in tokens]
    with api.socket(room, tokens[0]) as zero, api.socket(room, tokens[1]) as one:
        first0 = zero.receive_type("state")["view"]
        one.receive_type("state")
        assert set(first0["hand"]) == hands[0]
        # seat 0 plays over the websocket; both get the new version, each its own view
        card = first0["hand"][0]
        zero.send({"type": "action", "action": {"type": "program", "card": card}})
        target = api.state(room).json()["version"]
        view0 = zero.wait_version(target)
        view1 = one.wait_version(target)
        assert view0["programmed"] == card and view1["programmed"] is None
        assert set(view1["hand"]) == hands[1]
        assert view1["players"][0]["has_programmed"] is True
        for message in zero.messages:
            assert not hands[1] & _card_values(message), "seat 0 saw a card of seat 1"
        for message in one.messages:
            assert not hands[0] & _card_values(message), "seat 1 saw a card of seat 0"
            assert card not in json.dumps(message)


def _card_values(message: dict) -> set[str]:
    found: set[str] = set()

    def walk(node):
        if isinstance(node, str):
            found.add(node)
        elif isinstance(node, dict):
            for key, value in node.items():
                if key != "slot" and key != "web":
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    walk(message)
    return found


def test_http_action_is_pushed_to_every_socket(api):
    table = api.table(players=3, seed=12)
    room, tokens = table["room"], table["tokens"]
    with api.socket(room, tokens[1]) as one, api.socket(room) as watcher:
        one.receive_type("state")
        watcher.receive_type("state")
        hand = api.state(room, tokens[2]).json()["hand"]
        new = api.act(room, tokens[2], {"type": "program", "card": hand[0]}).json()
        assert one.wait_version(new["version"])["players"][2]["has_programmed"]
        assert watcher.wait_version(new["version"])["hand"] == []


def test_reconnect_gets_the_seat_back_and_the_current_view(api):
    table = api.table(players=3, seed=13)
    room, tokens = table["room"], table["tokens"]
    with api.socket(room, tokens[0]) as zero:
        zero.receive_type("state")
        with api.socket(room, tokens[1]) as one:
            joined = one.receive_type("state")["view"]
            assert joined["players"][1]["connected"] is True
            assert zero.wait_version(joined["version"])["players"][1]["connected"] is True
        # seat 1 left: everyone sees it disconnected
        left = zero.receive_type("state")["view"]
        assert left["players"][1]["connected"] is False
        assert api.info(room).json()["players"][1]["connected"] is False
        # a change while seat 1 is away
        hand = api.state(room, tokens[1]).json()["hand"]
        api.act(room, tokens[1], {"type": "program", "card": hand[-1]})
        with api.socket(room, tokens[1]) as back:
            view = back.receive_type("state")["view"]
            assert view["seat"] == 1 and view["programmed"] == hand[-1]
            assert view["players"][1]["connected"] is True
            assert view == api.state(room, tokens[1]).json() | {"version": view["version"]}


def test_spectator_never_sees_a_hand_and_cannot_play(api):
    table = api.table(players=4, seed=14)
    room, tokens = table["room"], table["tokens"]
    all_hands = set()
    for token in tokens:
        all_hands |= set(api.state(room, token).json()["hand"])
    with api.socket(room) as watcher:
        view = watcher.receive_type("state")["view"]
        assert view["seat"] is None and view["hand"] == [] and view["programmed"] is None
        assert api.info(room).json()["spectators"] == 1
        watcher.send({"type": "action", "action": {"type": "ready"}})
        assert watcher.receive_type("error")["error"]["code"] == "not_a_player"
        watcher.send({"type": "ping"})
        assert watcher.receive_type("pong")["type"] == "pong"
        for token in tokens:
            hand = api.state(room, token).json()["hand"]
            api.act(room, token, {"type": "program", "card": hand[0]})
        final = api.state(room).json()["version"]
        watcher.wait_version(final)
        for message in watcher.messages:
            assert not all_hands & _card_values(message)


def test_lobby_view_then_start_pushes_the_hands(api):
    created = api.create(seed=15).json()
    room = created["room"]
    tokens = [api.join(room, f"P{i}").json()["token"] for i in range(3)]
    with api.socket(room, tokens[0]) as zero:
        lobby = zero.receive_type("state")["view"]
        assert lobby["phase"] == "lobby" and lobby["hand"] == []
        assert [p["name"] for p in lobby["players"]] == ["P0", "P1", "P2"]
        api.join(room, "P3")
        assert len(zero.wait_version(lobby["version"] + 1)["players"]) == 4
        api.start(room, created["host_token"])
        started = zero.wait_version(api.state(room).json()["version"])
        assert started["phase"] == "programming" and len(started["hand"]) > 0


def test_recoverable_errors_keep_the_connection_open(api):
    table = api.table(players=3, seed=16)
    room, tokens = table["room"], table["tokens"]
    before = api.state(room).json()["version"]
    with api.socket(room, tokens[0]) as zero:
        zero.receive_type("state")
        cases = [
            ("{not json", "invalid_json"),
            (json.dumps([1, 2]), "invalid_message"),
            (json.dumps({"type": "dance"}), "invalid_message"),
            (json.dumps({"type": "action", "action": {"type": "fly"}}), "invalid_message"),
            (json.dumps({"type": "action", "action": {"type": "program"}}), "invalid_message"),
            (json.dumps({"type": "action", "action": {"type": "ready"}}), "not_programmed"),
            (
                json.dumps({"type": "action", "action": {"type": "program", "card": "nope"}}),
                "unknown_card",
            ),
            (
                json.dumps({"type": "action", "action": {"type": "reveal", "slot": None}}),
                "wrong_phase",
            ),
        ]
        for raw, code in cases:
            zero.send(raw)
            error = zero.receive_type("error")["error"]
            assert error["code"] == code, (raw, error)
            assert error["message"]
        zero.send({"type": "ping"})
        assert zero.receive_type("pong")
    assert api.state(room).json()["version"] >= before
    assert api.state(room, tokens[0]).json()["programmed"] is None  # nothing changed


@pytest.mark.parametrize(
    ("path", "code", "close"),
    [
        ("/api/rooms/{room}/ws?token=wrong-token", "invalid_token", 4401),
        ("/api/rooms/NoSuchRoomCode123/ws", "room_not_found", 4404),
    ],
)
def test_fatal_errors_close_the_socket(api, path, code, close):
    from websockets.sync.client import connect

    table = api.table(players=3, seed=17, start=False)
    url = api.ws_url + path.format(room=table["room"])
    with connect(url) as ws:
        message = json.loads(ws.recv(timeout=10))
        assert message == {
            "type": "error",
            "error": {"code": code, "message": message["error"]["message"]},
        }
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd.code == close


def test_a_message_over_64_kib_is_refused(api):
    table = api.table(players=3, seed=18)
    with api.socket(table["room"], table["tokens"][0]) as zero:
        zero.receive_type("state")
        zero.send(json.dumps({"type": "ping", "pad": "x" * (70 * 1024)}))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                zero.receive()
        assert closed.value.rcvd.code == 1009
    assert api.http.get("/healthz").status_code == 200


def test_websocket_rate_limit(server_factory, make_api):
    """Past the rate: one ``rate_limited`` notice, then the messages are dropped unread
    (no answer at all), and the socket stays open."""
    server = server_factory(
        {"DAME_NATURE_WS_RATE_PER_SECOND": "0.001", "DAME_NATURE_WS_RATE_BURST": "5"}
    ).start()
    api = make_api(server)
    table = api.table(players=3, seed=19)
    with api.socket(table["room"], table["tokens"][0]) as zero:
        zero.receive_type("state")
        for _ in range(8):
            zero.send({"type": "ping"})
        replies = [zero.receive() for _ in range(6)]
        assert [r["type"] for r in replies].count("pong") == 5
        assert [r["error"]["code"] for r in replies if r["type"] == "error"] == ["rate_limited"]
        with pytest.raises(TimeoutError):  # the two others were dropped, unanswered
            zero.receive(timeout=0.5)
