"""A room's websocket takes the short path (``server/socket_front.py``): it keeps few
frames and objects for its whole life, and every guarantee the longer path gave it holds.

The server runs in the test's own process (uvicorn with the app and the transport
``dame-nature serve`` uses, on a free loopback port), so that the test can look at what a
socket keeps; the clients are real websocket clients over TCP.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from types import SimpleNamespace
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import connect
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import Protocol
from websockets.server import ServerProtocol
from websockets.uri import parse_uri

from dame_nature.server.app import create_app
from dame_nature.server.settings import Settings
from dame_nature.server.socket_front import SocketFront
from dame_nature.server.transport import forget_handshake, uvicorn_options

#: what the short path leaves out: none of these may stay suspended for a room's socket
HTTP_STACK = {
    "SecurityHeadersMiddleware.__call__",
    "ProxyHeadersMiddleware.__call__",
    "GuardMiddleware.__call__",
    "ExceptionMiddleware.__call__",
    "AsyncExitStackMiddleware.__call__",
    "Router.__call__",
    "Router.app",
    "WebSocketRoute.handle",
}


@asynccontextmanager
async def serve_app(app: Any, config: Settings) -> AsyncIterator[int]:
    """The port of uvicorn serving ``app`` in this process, with the protocols and limits
    ``dame-nature serve`` gives it."""
    options = uvicorn_options(config, 1000)
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **options)
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "the server did not start"
        await asyncio.sleep(0.01)
    try:
        yield server.servers[0].sockets[0].getsockname()[1]
    finally:
        server.should_exit = True
        await task


@asynccontextmanager
async def serving(
    tmp_path: Any, front: bool = True, **settings: Any
) -> AsyncIterator[tuple[str, Any]]:
    """``(base URL, app)`` of a server running in this process."""
    config = Settings(db=str(tmp_path / "front.sqlite3"), bot_processes=0, **settings)
    app = create_app(config)
    if not front:  # the same app, its room sockets served by the router
        app.user_middleware = [m for m in app.user_middleware if m.cls is not SocketFront]
    async with serve_app(app, config) as port:
        yield f"127.0.0.1:{port}", app


async def a_room(base: str) -> dict[str, Any]:
    """A started room of 3 seats: its code and its seats' tokens."""
    async with httpx.AsyncClient(base_url=f"http://{base}") as http:
        created = (await http.post("/api/rooms", json={"seed": 3})).json()
        tokens = [
            (await http.post(f"/api/rooms/{created['room']}/players", json={"name": n})).json()[
                "token"
            ]
            for n in ("Ada", "Bea", "Cyd")
        ]
        started = await http.post(
            f"/api/rooms/{created['room']}/start",
            headers={"Authorization": f"Bearer {created['host_token']}"},
        )
        assert started.status_code == 200, started.text
    return {"room": created["room"], "tokens": tokens}


def chain(coro: Any) -> list[str]:
    """The coroutines a suspended coroutine waits on, outermost first."""
    names = []
    while coro is not None and hasattr(coro, "cr_await"):
        names.append(coro.__qualname__)
        coro = coro.cr_await
    return names


def socket_tasks() -> list[asyncio.Task[Any]]:
    """The tasks of the websockets being served (uvicorn's ``run_asgi``)."""
    return [
        task
        for task in asyncio.all_tasks()
        if task.get_coro().__qualname__ == "WebSocketsSansIOProtocol.run_asgi"
    ]


def senders() -> list[asyncio.Task[Any]]:
    """The sockets' sender tasks (``Connection._run``) running."""
    return [t for t in asyncio.all_tasks() if t.get_coro().__qualname__ == "Connection._run"]


async def until(condition: Callable[[], bool], what: str) -> None:
    for _ in range(1000):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(what)


async def recv_json(ws: Any) -> dict[str, Any]:
    message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 10))
    return message


def test_a_room_socket_keeps_a_short_stack_and_no_handshake(tmp_path):
    async def main() -> None:
        async with serving(tmp_path) as (base, _):
            table = await a_room(base)
            url = f"ws://{base}/api/rooms/{table['room']}/ws?token={table['tokens'][0]}"
            async with connect(url) as ws:
                assert (await recv_json(ws))["type"] == "state"
                [task] = socket_tasks()
                # idle: the handler waits on one future for the socket's whole life
                # (its messages are handed over as they are parsed); the view it was
                # sent went out, and its sender task ended with it
                await until(
                    lambda: chain(task.get_coro())[-1] == "Receiver.serve",
                    "the handler waits for the socket's end",
                )
                await until(lambda: not senders(), "an idle socket has no sender task")
                frames = chain(task.get_coro())
                serve = task.get_coro()
                while serve.__qualname__ != "Receiver.serve":
                    serve = serve.cr_await
                receiver = serve.cr_frame.f_locals["self"]
                assert receiver.task is None and not receiver.ended.done()
                assert "room_socket" in frames, frames
                assert not HTTP_STACK & set(frames), frames
                assert len(frames) <= 12, frames
                # the opening handshake is forgotten: uvicorn's request and response,
                # and websockets' handshake parser (a frame parser in its place)
                protocol = task.get_coro().cr_frame.f_locals["self"]
                assert protocol.request is None and protocol.response is None
                assert protocol.conn.parser.gi_code is Protocol.parse.__code__
                # its messages are written at once, through the same protocol
                handler = task.get_coro()
                while handler.__qualname__ != "room_socket":
                    handler = handler.cr_await
                assert handler.cr_frame.f_locals["websocket"]._protocol is protocol
                # and the socket works as before: an action, its new view
                await ws.send(json.dumps({"type": "ping"}))
                assert (await recv_json(ws))["type"] == "pong"

    asyncio.run(main())


def test_the_router_serves_the_same_socket_without_the_front(tmp_path):
    """The route is a route of the app like any other (``docs/api.md``, the router):
    an app without the front serves the same socket through the whole stack."""

    async def main() -> None:
        async with serving(tmp_path, front=False) as (base, _):
            table = await a_room(base)
            url = f"ws://{base}/api/rooms/{table['room']}/ws"
            async with connect(url, subprotocols=[f"dame-nature.token.{table['tokens'][1]}",
                                                  "dame-nature"]) as ws:  # fmt: skip
                assert ws.subprotocol == "dame-nature"
                message = await recv_json(ws)
                assert message["type"] == "state" and message["view"]["seat"] == 1
                [task] = socket_tasks()
                await until(lambda: "Router.__call__" in chain(task.get_coro()), "via the router")
            async with connect(f"ws://{base}/api/rooms/NOPE/ws") as ws:
                assert (await recv_json(ws))["error"]["code"] == "room_not_found"

    asyncio.run(main())


def test_forwarded_addresses_are_believed_from_a_trusted_proxy_only(tmp_path):
    """The per-address limits of websockets count the client a trusted proxy names
    (``X-Forwarded-For``), and the peer itself when it is not a trusted proxy."""

    async def spectators(trusted: str) -> list[str]:
        limits = {"trusted_proxies": trusted, "max_spectators_per_address": 1}
        async with serving(tmp_path, **limits) as (base, _):
            table = await a_room(base)
            url = f"ws://{base}/api/rooms/{table['room']}/ws"
            kinds = []
            async with connect(url, additional_headers={"X-Forwarded-For": "203.0.113.1"}) as one:
                kinds.append((await recv_json(one))["type"])
                other = {"X-Forwarded-For": "203.0.113.2"}
                async with connect(url, additional_headers=other) as two:
                    message = await recv_json(two)
                    kinds.append(message.get("error", {}).get("code", message["type"]))
            return kinds

    async def main() -> None:
        assert await spectators("127.0.0.1") == ["state", "state"]  # two clients
        (tmp_path / "front.sqlite3").unlink()
        assert await spectators("") == ["state", "too_many_spectators"]  # one peer

    asyncio.run(main())


def handshaken(early: bytes) -> Any:
    """websockets' server side of a connection whose client sent ``early`` right behind
    its opening request, accepted, as uvicorn holds it (``conn``, ``request``,
    ``response``), and the frames parsed with the request."""
    client = ClientProtocol(parse_uri("ws://example.test/api/rooms/ABC/ws"))
    client.send_request(client.connect())
    server = ServerProtocol()
    server.receive_data(b"".join(client.data_to_send()) + early)
    [request, *frames] = server.events_received()
    response = server.accept(request)
    server.send_response(response)
    return SimpleNamespace(conn=server, request=request, response=response, frames=frames)


def test_the_handshake_parser_is_replaced_only_between_two_frames():
    """``forget_handshake`` swaps websockets' handshake parser for a frame parser only
    where the two are in the same state (waiting for a frame's first byte): a frame
    already begun is parsed to its end by the parser that began it."""
    ping = Frame(Opcode.TEXT, b'{"type": "ping"}').serialize(mask=True)
    for early, swapped in ((b"", True), (ping[:2], False), (ping[:7], False), (ping, True)):
        protocol = handshaken(early)
        forget_handshake(protocol)
        assert protocol.request is None and protocol.response is None
        swapped_now = protocol.conn.parser.gi_code is Protocol.parse.__code__
        assert swapped_now is swapped, (early, swapped)
        protocol.conn.receive_data(ping[len(early) :] + ping)  # the rest, then a whole one
        events = protocol.frames + protocol.conn.events_received()
        texts = [e.data for e in events if isinstance(e, Frame)]
        assert texts == [b'{"type": "ping"}'] * 2, (early, texts)


def test_an_idle_socket_closed_by_the_server_still_sends_its_last_words(tmp_path):
    """A socket with no sender task between two messages: what the server says before
    closing it (an oversized message's refusal) still goes out, then the close."""

    async def main() -> None:
        async with serving(tmp_path, max_message_bytes=4096) as (base, _):
            table = await a_room(base)
            url = f"ws://{base}/api/rooms/{table['room']}/ws?token={table['tokens'][0]}"
            async with connect(url, max_size=None) as ws:
                assert (await recv_json(ws))["type"] == "state"
                await ws.send(json.dumps({"type": "ping", "pad": "x" * 5000}))
                assert (await recv_json(ws))["error"]["code"] == "message_too_large"
                try:
                    await asyncio.wait_for(ws.recv(), 10)
                except ConnectionClosed as closed:
                    assert closed.rcvd is not None and closed.rcvd.code == 1009
                else:
                    raise AssertionError("the socket stayed open")

    asyncio.run(main())
