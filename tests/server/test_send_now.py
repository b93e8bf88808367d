"""A message is written from the broadcast itself when the socket can take it at once
(``AsgiSocket.send_now``, ``transport.write_text_now``): the same bytes as the ASGI
``send`` writes, and the outbox's rules (order, backpressure, a newer view replacing an
older one not yet sent) unchanged.

The server is uvicorn with the protocols ``dame-nature serve`` uses, in the test's own
process, serving a small ASGI app around ``AsgiSocket`` and ``Connection``; the clients
are raw TCP sockets speaking websockets' sans-I/O client protocol, so that the test sees
the bytes on the wire and decides when the client reads.
"""

from __future__ import annotations

import asyncio
import socket
from typing import Any

import pytest
from starlette.types import Receive, Scope, Send
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from dame_nature.server.connections import Connection
from dame_nature.server.settings import Settings
from dame_nature.server.socket_front import AsgiSocket
from tests.server.test_socket_front import serve_app

#: what the app writes: ASCII, non-ASCII, empty, repeated (the deflate context), then
#: one over 65,535 bytes (the 8-byte length), last so that nothing waits behind it
TEXTS = [
    '{"type":"state","version":1,"view":{"hand":[1,2,3]}}',
    "Dame Nature: l'écureuil 🐿 et le chêne " * 20,
    "",
    '{"type":"state","version":1,"view":{"hand":[1,2,3]}}',
    "x" * 66_000,
]


class RawClient:
    """A websocket client on a raw socket: it reads only when told to."""

    def __init__(self, sock: socket.socket, protocol: ClientProtocol) -> None:
        self.sock = sock
        self.protocol = protocol
        self.wire = b""  # every byte received, the handshake's response included
        self.frames: list[Frame] = []

    @classmethod
    async def connect(
        cls, port: int, path: str, deflate: bool = False, receive_buffer: int | None = None
    ) -> RawClient:
        loop = asyncio.get_running_loop()
        sock = socket.socket()
        if receive_buffer is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", port))
        extensions = [ClientPerMessageDeflateFactory()] if deflate else None
        protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}{path}"), extensions=extensions)
        client = cls(sock, protocol)
        protocol.send_request(protocol.connect())
        await client.flush()
        while protocol.handshake_exc is None and protocol.state.name == "CONNECTING":
            await client.read()
        assert protocol.handshake_exc is None  # accepted (and maybe already sent more)
        return client

    async def flush(self) -> None:
        for data in self.protocol.data_to_send():
            if data:
                await asyncio.get_running_loop().sock_sendall(self.sock, data)

    async def read(self) -> bool:
        """One read; False at the end of the stream."""
        data = await asyncio.wait_for(asyncio.get_running_loop().sock_recv(self.sock, 65536), 10)
        self.wire += data
        if data:
            self.protocol.receive_data(data)
        else:
            self.protocol.receive_eof()
        self.frames += [e for e in self.protocol.events_received() if isinstance(e, Frame)]
        await self.flush()  # the answer to a close frame
        return bool(data)

    def texts(self) -> list[str]:
        return [bytes(f.data).decode() for f in self.frames if f.opcode is Opcode.TEXT]

    async def until_closed(self) -> None:
        while await self.read():
            pass

    def after_handshake(self) -> bytes:
        return self.wire.split(b"\r\n\r\n", 1)[1]


@pytest.mark.parametrize("deflate", [False, True], ids=["plain", "permessage-deflate"])
def test_a_frame_written_at_once_is_the_frame_the_asgi_send_writes(tmp_path, deflate):
    written: dict[str, list[bool]] = {}

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        way = scope["path"].strip("/")

        async def wrapped(message: Any) -> None:  # a middleware's send: never written at once
            await send(message)

        ws = AsgiSocket(receive, wrapped if way == "wrapped" else send)
        await ws.accept()
        written[way] = []
        for text in TEXTS:
            if way != "asgi":
                written[way].append(ws.send_now(text))
            if way != "now":
                await ws.send_text(text)
        await ws.close(4000)
        while (await receive())["type"] != "websocket.disconnect":
            pass

    async def main() -> dict[str, bytes]:
        settings = Settings(db=str(tmp_path / "x.sqlite3"), ws_compression=deflate)
        wires = {}
        async with serve_app(app, settings) as port:
            for way in ("asgi", "now", "wrapped"):
                client = await RawClient.connect(port, f"/{way}", deflate=deflate)
                await client.until_closed()
                client.sock.close()
                assert client.texts() == TEXTS, way
                assert client.frames[-1].opcode is Opcode.CLOSE
                wires[way] = client.after_handshake()
        return wires

    wires = asyncio.run(main())
    assert written["now"] == [True] * len(TEXTS)  # every one written by ``send_now``
    assert wires["now"] == wires["asgi"]  # and byte for byte what ``send`` writes
    assert written["wrapped"] == [False] * len(TEXTS) and wires["wrapped"] == wires["asgi"]
    assert wires["now"][0] == (0xC1 if deflate else 0x81)  # RSV1 set: compressed


def test_a_socket_not_read_queues_in_order_and_keeps_only_the_newest_view(tmp_path):
    """Past what the transport takes without pausing, messages wait in the outbox (no
    longer written at once), go out in the order pushed once the client reads, and a
    newer view replaces an older one still waiting; then writing at once resumes."""
    settings = Settings(
        db=str(tmp_path / "x.sqlite3"),
        ws_outbox_max_messages=100_000,
        ws_outbox_max_bytes=256 * 1024 * 1024,
    )
    seen: dict[str, Any] = {}
    filled, go_on = asyncio.Event(), asyncio.Event()

    async def app(scope: Scope, receive: Receive, send: Send) -> None:
        ws = AsgiSocket(receive, send)
        await ws.accept()
        conn = Connection(ws, 0, settings)
        conn.start()
        pushed = 0
        while conn.queued[0] == 0:  # written at once until the transport pauses
            assert pushed < 20_000, "the transport never paused"
            conn.push(f"{pushed:06d}" + "." * 4000)
            pushed += 1
        conn.push("old view", "state")
        conn.push(f"{pushed:06d}", "other")
        conn.push("new view", "state")
        seen["pushed"] = pushed + 1
        seen["queued"] = conn.queued[0]
        filled.set()
        await go_on.wait()  # the client reads everything
        await conn.flush()
        seen["idle"] = conn._task is None and conn.queued == (0, 0)
        conn.push("at once")
        seen["at once"] = conn.queued == (0, 0) and conn._task is None
        await ws.close(4000)
        while (await receive())["type"] != "websocket.disconnect":
            pass

    async def main() -> list[str]:
        async with serve_app(app, settings) as port:
            client = await RawClient.connect(port, "/", receive_buffer=4096)
            await asyncio.wait_for(filled.wait(), 30)  # meanwhile the client reads nothing
            go_on.set()
            await client.until_closed()
            client.sock.close()
            return client.texts()

    texts = asyncio.run(main())
    numbered = [int(t[:6]) for t in texts if t[:6].isdigit()]
    assert numbered == list(range(seen["pushed"]))  # every one, once, in order
    assert seen["queued"] >= 2  # a part waited in the outbox
    assert "old view" not in texts and texts[-2:] == ["new view", "at once"]
    assert seen["idle"] and seen["at once"]
