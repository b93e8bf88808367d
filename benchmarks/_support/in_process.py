"""The push path's benchmarks' server: uvicorn serving an ASGI app in this process,
under the running event loop and with the protocols of ``dame-nature serve``
(``transport.uvicorn_options``), each websocket a ``Connection`` on an ``AsgiSocket``
as the room route makes them (``benchmarks/push_count.py``, ``benchmarks/send_path.py``)."""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import uvicorn

from dame_nature.server.connections import Connection
from dame_nature.server.settings import Settings
from dame_nature.server.socket_front import AsgiSocket
from dame_nature.server.transport import uvicorn_options

#: an ASGI websocket app's callable
App = Callable[[Any, Any, Any], Awaitable[None]]


def settings_for(prefix: str) -> Settings:
    """The server's defaults on a fresh file, without the per-address connection cap
    (every client of the benchmark comes from one address)."""
    folder = tempfile.mkdtemp(prefix=prefix)
    return Settings(db=os.path.join(folder, "x.sqlite3"), max_connections_per_address=10**6)


def connecting_app(found: Callable[[AsgiSocket], None]) -> App:
    """An app that accepts each websocket, hands its ``AsgiSocket`` to ``found`` and
    reads it until it closes."""

    async def app(scope: Any, receive: Any, send: Any) -> None:
        ws = AsgiSocket(receive, send)
        await ws.accept()
        found(ws)
        while (await receive())["type"] != "websocket.disconnect":
            pass

    return app


def started_connection(sock: Any, seat: int, settings: Settings) -> Connection:
    """A started ``Connection`` of ``sock``, as the room route makes one."""
    conn = Connection(sock, seat, settings)
    conn.start()
    return conn


async def serve(app: App, settings: Settings, sockets: int) -> tuple[uvicorn.Server, Any, int]:
    """``app`` served on a free loopback port for up to ``sockets`` websockets, once it
    listens: the server (set ``should_exit`` to stop it), its task, and the port."""
    options = uvicorn_options(settings, sockets + 100)
    config = uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning", **options)
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    return server, serving, server.servers[0].sockets[0].getsockname()[1]


def state_text(size: int) -> str:
    """A ``state`` message of ``size`` bytes."""
    head = '{"type":"state","view":"'
    return head + "x" * (size - len(head) - 2) + '"}'
