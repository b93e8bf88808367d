"""Spectators cannot fill the server: spectator websockets are bounded per client
address and on the whole node (a part of the connection slots), while a player with a
seat token is never counted against them and always gets in."""

from __future__ import annotations

import json
import time
from contextlib import ExitStack
from typing import Any

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def first_message(ws: ClientConnection) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(ws.recv(timeout=10))
    return message


def test_spectators_are_bounded_per_address_and_per_node(server_factory, make_api):
    server = server_factory(
        {
            "DAME_NATURE_MAX_SPECTATORS_PER_ADDRESS": "2",
            "DAME_NATURE_MAX_SPECTATORS": "3",
            "DAME_NATURE_WS_AUTH_TIMEOUT_SECONDS": "0.5",
            "DAME_NATURE_TRUSTED_PROXIES": "127.0.0.1",
        }
    ).start()
    api = make_api(server)
    table = api.table(players=3, seed=40)
    url = f"{server.ws_url}/api/rooms/{table['room']}/ws"

    def open_from(stack: ExitStack, address: str, token: str | None = None) -> ClientConnection:
        headers = {"X-Forwarded-For": f"{address}, 127.0.0.1"}
        target = url + (f"?token={token}" if token else "")
        return stack.enter_context(connect(target, additional_headers=headers, open_timeout=10))

    def refused(ws: ClientConnection) -> None:
        message = first_message(ws)
        assert message["type"] == "error", message
        assert message["error"]["code"] == "too_many_spectators"
        try:
            ws.recv(timeout=10)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4429
        else:
            raise AssertionError("the refused socket stayed open")

    with ExitStack() as stack:
        for _ in range(2):
            assert first_message(open_from(stack, "203.0.113.1"))["type"] == "state"
        refused(open_from(stack, "203.0.113.1"))  # a third spectator of that address
        # a player of that address is never counted as a spectator
        player = open_from(stack, "203.0.113.1", table["tokens"][0])
        assert first_message(player)["type"] == "state"
        assert first_message(open_from(stack, "203.0.113.2"))["type"] == "state"
        refused(open_from(stack, "203.0.113.3"))  # the node's spectator places are taken
        player = open_from(stack, "203.0.113.3", table["tokens"][1])
        assert first_message(player)["type"] == "state"
    # once the server has seen them close, the places are free again
    deadline = time.monotonic() + 10
    while True:
        with ExitStack() as stack:
            kind = first_message(open_from(stack, "203.0.113.1"))["type"]
        if kind == "state" or time.monotonic() > deadline:
            assert kind == "state"
            break


def test_a_player_takes_the_connection_of_a_spectator_of_its_address(server_factory, make_api):
    server = server_factory(
        {"DAME_NATURE_MAX_CONNECTIONS_PER_ADDRESS": "3", "DAME_NATURE_TRUSTED_PROXIES": "127.0.0.1"}
    ).start()
    api = make_api(server)
    table = api.table(players=3, seed=41)
    url = f"{server.ws_url}/api/rooms/{table['room']}/ws"
    headers = {"X-Forwarded-For": "203.0.113.9, 127.0.0.1"}
    with ExitStack() as stack:
        spectators = []
        for _ in range(3):
            ws = stack.enter_context(connect(url, additional_headers=headers, open_timeout=10))
            assert first_message(ws)["type"] == "state"
            spectators.append(ws)
        one_more = stack.enter_context(connect(url, additional_headers=headers, open_timeout=10))
        message = first_message(one_more)
        assert message["error"]["code"] == "too_many_connections", message
        target = f"{url}?token={table['tokens'][0]}"
        player = stack.enter_context(connect(target, additional_headers=headers, open_timeout=10))
        assert first_message(player)["type"] == "state"
        # the oldest spectator of that address made room
        try:
            while True:
                spectators[0].recv(timeout=10)
        except ConnectionClosed as closed:
            assert closed.rcvd is not None and closed.rcvd.code == 4429
