"""A read holding exactly one whole small text frame or pong is read without websockets'
parser (``ListeningWebSocketProtocol.lone_payload``): the same messages, the same
socket's end, the same bytes written back (pongs, close frames), the same answer to the
server's ping and the same close as websockets' parser gives, for random streams of
frames (texts, bytes, fragments, pings, pongs, the answer to the server's ping, closes,
frames over the size limit, not masked, with a reserved bit, not UTF-8, lengths not
written in the fewest bytes) read whole, frame by frame, merged or cut anywhere.
Each stream goes to two sockets of the server's own protocol: one as it runs, one
whose parser reads everything (``unframed`` not known). Deterministic seed."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import uvicorn
from uvicorn.server import ServerState

from dame_nature.server.settings import Settings
from dame_nature.server.transport import uvicorn_options

SETTINGS = Settings(max_message_bytes=300)
LIMIT = SETTINGS.max_message_bytes + 1024  # uvicorn's ``ws_max_size``
READY = b'{"type":"action","action":{"type":"ready"}}'
REQUEST = (
    b"GET /ws HTTP/1.1\r\nhost: test\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
    b"sec-websocket-key: dGhlIHNhbXBsZSBub25jZQ==\r\nsec-websocket-version: 13\r\n\r\n"
)


class Transport(asyncio.Transport):
    """Keeps what is written; closing is remembered."""

    def __init__(self) -> None:
        super().__init__()
        self.written = bytearray()
        self.closed = False

    def write(self, data: Any) -> None:
        self.written += data

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.closed = True

    def is_closing(self) -> bool:
        return self.closed

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return {"peername": ("127.0.0.1", 5000), "sockname": ("127.0.0.1", 8000)}.get(name, default)


class Listener:
    def __init__(self) -> None:
        self.seen: list[tuple[str, Any]] = []

    def on_message(self, raw: Any) -> None:
        self.seen.append(("message", raw))

    def on_end(self, message: Any) -> None:
        self.seen.append(("end", message))


async def app(scope: Any, receive: Any, send: Any) -> None:
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    await asyncio.Event().wait()  # the socket's messages go to the listener


#: the masks of the frames (seeded)
MASKS = random.Random(23)


def _frame(
    opcode: int, payload: bytes, fin: bool = True, masked: bool = True, rsv: int = 0,
    wide: bool = False,
) -> bytes:  # fmt: skip
    """A client's frame (RFC 6455, 5.2); ``wide``: the length in 16 bits even when 7 do."""
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    size = len(payload)
    bit = 0x80 if masked else 0
    if size < 126 and not wide:
        head += bytes([bit | size])
    elif size < 65536:
        head += bytes([bit | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([bit | 127]) + size.to_bytes(8, "big")
    if not masked:
        return head + payload
    mask = MASKS.randbytes(4)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def _text(rng: random.Random, size: int) -> bytes:
    return "".join(rng.choice('ab{}":,é€') for _ in range(size)).encode()[:size]


def _stream(rng: random.Random) -> list[bytes]:
    """A few frames, mostly whole texts, some of every other kind."""
    frames = []
    for _ in range(rng.randint(1, 8)):
        kind = rng.random()
        size = rng.choice([0, 1, 60, 125, 126, 127, 200, LIMIT, LIMIT + 1])
        if kind < 0.5:
            frames.append(_frame(1, READY + b"x" * rng.randint(0, 90)))
        elif kind < 0.6:
            frames.append(_frame(1, _text(rng, size)))  # (may cut a character: not UTF-8)
        elif kind < 0.65:
            frames.append(_frame(2, _text(rng, size)))
        elif kind < 0.72:
            frames.append(_frame(1, b"ab", fin=False))
            frames.append(_frame(0, b"cd", fin=rng.random() < 0.8))
        elif kind < 0.77:
            frames.append(_frame(0, b"x"))  # a continuation of nothing
        elif kind < 0.82:
            frames.append(_frame(9, b"ping"))
        elif kind < 0.85:
            pong = rng.choice([b"pong", b"p" * 125, b"p" * 126])  # (126: too long a control)
            frames.append(_frame(10, pong, wide=rng.random() < 0.3))
        elif kind < 0.88:
            frames.append(_frame(1, b'{"a":1}', wide=True))
        elif kind < 0.91:
            frames.append(_frame(1, b'{"a":1}', masked=False))
        elif kind < 0.94:
            frames.append(_frame(1, b'{"a":1}', rsv=0x40))
        elif kind < 0.97:
            frames.append(_frame(8, (1000).to_bytes(2, "big") + b"bye"))
        else:
            frames.append(_frame(1, b"\xff\xfe"))
    return frames


def _reads(rng: random.Random, frames: list[bytes]) -> list[bytes]:
    """The frames' bytes as reads: one a frame, merged with the next, or cut anywhere."""
    reads: list[bytes] = []
    for frame in frames:
        how = rng.random()
        if how < 0.6 or not reads:
            reads.append(frame)
        elif how < 0.75:
            reads[-1] += frame
        else:
            cut = rng.randint(1, len(frame))
            reads[-1] += frame[:cut]
            reads.append(frame[cut:])
    return [read for read in reads if read]


class Opened:
    def __init__(self, protocol: Any, transport: Transport, listener: Listener) -> None:
        self.protocol, self.transport, self.listener = protocol, transport, listener

    def outcome(self) -> tuple[Any, ...]:
        return (self.listener.seen, bytes(self.transport.written), self.transport.closed,
                self.protocol.close_sent, self.protocol.conn.state,
                self.protocol.pending_ping_payload)  # fmt: skip


async def _opened(config: uvicorn.Config, ws_class: Any, parser_only: bool) -> Opened:
    transport = Transport()
    protocol = ws_class(config=config, server_state=ServerState(), app_state={})
    protocol.connection_made(transport)
    protocol.data_received(REQUEST)
    while not protocol.handshake_complete:
        await asyncio.sleep(0)
    listener = Listener()
    assert protocol.listen(listener) == []
    if parser_only:
        protocol.unframed = None
    else:
        assert protocol.unframed == 0
    transport.written.clear()  # (the handshake's answer)
    return Opened(protocol, transport, listener)


def _read(opened: Opened, read: bytes) -> str | None:
    """``read`` handed to the socket; what it raised, if anything (as uvicorn's own
    parser raises it: two texts not UTF-8 in one read, the second's close refused)."""
    try:
        opened.protocol.data_received(read)
    except Exception as err:
        return repr(err)
    return None


def _close(opened: Opened) -> None:
    opened.protocol.keepalive.discard(opened.protocol)
    for task in list(opened.protocol.tasks):
        task.cancel()


def test_streams_read_as_websockets_parser_reads_them():
    rng = random.Random(22)

    async def run() -> int:
        options = uvicorn_options(SETTINGS, 100)
        ws_class = options.pop("ws")
        config = uvicorn.Config(app, ws=ws_class, log_level="critical", **options)
        config.load()
        read_alone = 0
        for _ in range(3000):
            frames = _stream(rng)
            fast = await _opened(config, ws_class, parser_only=False)
            slow = await _opened(config, ws_class, parser_only=True)
            if rng.random() < 0.3:  # the server pings, the client answers among its frames
                for opened in (fast, slow):
                    random.seed(22)  # (the ping's payload)
                    opened.protocol.send_keepalive_ping()
                answer = _frame(10, fast.protocol.pending_ping_payload)
                frames.insert(rng.randint(0, len(frames)), answer)
            for read in _reads(rng, frames):
                if fast.protocol.unframed == 0 and fast.protocol.lone_payload(read) is not None:
                    read_alone += 1
                raised = [_read(opened, read) for opened in (fast, slow)]
                assert raised[0] == raised[1], frames
                assert fast.outcome() == slow.outcome(), frames
            _close(fast)
            _close(slow)
            await asyncio.sleep(0)
        return read_alone

    read_alone = asyncio.run(run())
    assert read_alone > 2000  # (2,869 reads, 300 of them pongs: most whole texts and pongs)


def test_the_usual_action_is_read_without_the_parser_and_the_parser_reads_the_next():
    async def run() -> None:
        options = uvicorn_options(SETTINGS, 100)
        ws_class = options.pop("ws")
        config = uvicorn.Config(app, ws=ws_class, log_level="critical", **options)
        config.load()
        opened = await _opened(config, ws_class, parser_only=False)
        action = b'{"type":"action","action":{"type":"program","card":"cond-blue-1"}}'
        frame = _frame(1, action)
        assert opened.protocol.lone_payload(frame) == action
        opened.protocol.data_received(frame)
        ping, tail = _frame(9, b"hi"), _frame(1, b'{"b":2}')
        opened.protocol.data_received(ping + tail[:3])  # the parser's: a ping, a frame begun
        assert opened.protocol.unframed > 0
        opened.protocol.data_received(tail[3:])
        assert opened.protocol.unframed == 0
        assert opened.listener.seen == [("message", action.decode()), ("message", '{"b":2}')]
        assert bytes(opened.transport.written) == b"\x8a\x02hi"  # the pong
        _close(opened)

    asyncio.run(run())
