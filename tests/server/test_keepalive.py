"""The node's pings come from one sweep (``transport.KeepAlive``), not from a timer per
socket: a client that answers them is kept, one that does not is closed (1011) once its
answer is ``ws_ping_timeout_seconds`` late, as uvicorn's own timers do.

The server is uvicorn with the protocols ``dame-nature serve`` uses, in the test's own
process; the clients are raw sockets speaking websockets' sans-I/O client protocol, so
that the test decides whether a client reads (and so answers the pings) or stays silent.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.types import Receive, Scope, Send
from websockets.frames import Close, Frame, Opcode

from dame_nature.server.settings import Settings
from dame_nature.server.transport import ListeningWebSocketProtocol, sansio_protocol
from tests.server.test_send_now import RawClient
from tests.server.test_socket_front import serve_app, until


def test_a_silent_client_is_closed_and_one_that_answers_is_kept(tmp_path):
    protocols: list[Any] = []

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":  # (the lifespan: left unsupported, as uvicorn allows)
            raise NotImplementedError
        protocols.append(sansio_protocol(send))
        await send({"type": "websocket.accept"})
        while (await receive())["type"] != "websocket.disconnect":
            pass

    async def main() -> None:
        settings = Settings(
            db=str(tmp_path / "x.sqlite3"),
            ws_ping_interval_seconds=0.05,
            ws_ping_timeout_seconds=1.0,
        )
        async with serve_app(app, settings) as port:
            live = await RawClient.connect(port, "/live")
            silent = await RawClient.connect(port, "/silent")
            assert all(isinstance(p, ListeningWebSocketProtocol) for p in protocols)
            assert all(p.keepalive is protocols[0].keepalive for p in protocols)  # one a node
            assert all(p.ping_timer is None and p.pong_timer is None for p in protocols)

            async def answer() -> None:  # reads, and so answers each ping at once
                while await live.read():
                    pass

            answering = asyncio.create_task(answer())
            # the silent one does not read, so its first ping goes unanswered
            await until(lambda: protocols[1].close_sent, "the silent client was closed")
            loop = asyncio.get_running_loop()
            while data := await loop.sock_recv(silent.sock, 65536):  # what it was sent, unanswered
                silent.protocol.receive_data(data)
            sent = [e for e in silent.protocol.events_received() if isinstance(e, Frame)]
            pings = [f for f in live.frames if f.opcode is Opcode.PING]
            assert len(pings) >= 3  # pinged every 0.05 s for the second the silent one had
            assert not answering.done()  # the live one is still open
            assert all(p.ping_timer is None and p.pong_timer is None for p in protocols)
            answering.cancel()
            live.sock.close()
            silent.sock.close()
        assert [f.opcode for f in sent] == [Opcode.PING, Opcode.CLOSE]
        assert Close.parse(sent[1].data).code == 1011

    asyncio.run(main())
