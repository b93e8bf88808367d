"""uvicorn's HTTP and websocket protocols with two guards uvicorn lacks:

- a cap on the connections open at once from one address (``max_connections_per_address``;
  a trusted proxy is not capped, the websocket route counts its clients instead): one
  more is answered 429 and closed before anything is parsed;
- a websocket the server closed that keeps sending is cut off (uvicorn would parse
  what it sends for the 10 s it waits for the client's close frame);
- a websocket forgets its opening handshake once accepted (uvicorn and websockets keep
  the request and the response, their headers, for the connection's whole life: objects
  the cyclic collector would walk at each pass);
- a text frame can be written at once, without a task or an ``await``
  (``write_text_now``), when the ASGI ``send`` would have written it without waiting;
- the app can take each message as it is parsed, from a callback
  (``ListeningWebSocketProtocol.listen``), rather than await the ASGI ``receive`` for
  each one (a queue's wait, two coroutines and a future renewed at every message);
- a read that holds exactly one whole small text frame or pong, while websockets'
  parser waits for the next frame, is read at once
  (``ListeningWebSocketProtocol.lone_payload``), with the same message, limits and
  errors as websockets' parser gives;
- a cap on the size of a whole request head (``http_max_header_bytes``), answered 431
  (h11 checks only a head still incomplete, not one that arrives in one packet);
- a deadline for a whole request head (``http_header_timeout_seconds``), from the
  connection or the end of the previous response: a client sending its headers a byte
  at a time (slowloris) is cut off, where uvicorn's keep-alive timer restarts on every
  byte.

- one sweep pings every websocket of the node and closes those whose answer is late
  (``KeepAlive``), where uvicorn arms a timer per socket for each ping and its answer;

Idle keep-alive connections, the size of a request head, the pings' interval and timeout
and the total number of connections are uvicorn's own settings, passed by
``uvicorn_options``. The total number of connections defaults to what the process's
open-files limit allows (``connection_cap``).
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import struct
from typing import Any, Protocol

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode, apply_mask  # (the C one when built, as the parser's)
from websockets.protocol import Protocol as WebsocketsProtocol
from websockets.protocol import State as WebsocketsState

from .clients import is_trusted
from .settings import Settings


class AddressCounts:
    """Open connections by peer address (each transport counted once)."""

    def __init__(self, limit: int, trusted: Any) -> None:
        self.limit = limit
        self.trusted = trusted
        self.by_address: dict[str, int] = {}
        self.transports: dict[asyncio.BaseTransport, str] = {}

    def acquire(self, transport: asyncio.BaseTransport, address: str | None) -> bool:
        if address is None or is_trusted(address, self.trusted):
            return True
        if self.by_address.get(address, 0) >= self.limit:
            return False
        self.by_address[address] = self.by_address.get(address, 0) + 1
        self.transports[transport] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        address = self.transports.pop(transport, None)
        if address is None:
            return
        left = self.by_address.get(address, 0) - 1
        if left > 0:
            self.by_address[address] = left
        else:
            self.by_address.pop(address, None)


def _refusal(status: str, code: str, message: str) -> bytes:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    head = (
        f"HTTP/1.1 {status}\r\ncontent-type: application/json\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode()
    return head + body


REFUSAL = _refusal(
    "429 Too Many Requests", "too_many_connections", "Too many connections from your address."
)
HEAD_TOO_LARGE = _refusal(
    "431 Request Header Fields Too Large",
    "headers_too_large",
    "The request's headers are too large.",
)
#: the first byte of a whole text frame and of a whole pong (FIN, no reserved bit, the
#: opcode: RFC 6455, 5.2)
TEXT_FRAME, PONG_FRAME = 0x81, 0x8A
#: websockets' open state, read once (an enum's member looked up on its class runs the
#: enum type's ``__getattr__``: hundreds of instructions a message)
OPEN = WebsocketsState.OPEN
#: bytes a websocket may still send once the server closed it
AFTER_CLOSE_BYTES = 64 * 1024


def guarded_protocols(settings: Settings) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """The HTTP and websocket protocol classes for ``uvicorn.run(http=.., ws=..)``."""
    counts = AddressCounts(settings.max_connections_per_address, settings.trusted_networks)
    head_timeout = settings.http_header_timeout_seconds
    max_head = settings.http_max_header_bytes

    class GuardedH11Protocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None
        _head_bytes = 0
        _head_tail = b""

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            if not counts.acquire(transport, self.client[0] if self.client else None):
                transport.write(REFUSAL)
                transport.close()
                return
            self._arm_head_timer()

        def _arm_head_timer(self) -> None:
            self._cancel_head_timer()
            self._head_timer = self.loop.call_later(head_timeout, self._head_timed_out)

        def _cancel_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_timed_out(self) -> None:
            self._head_timer = None
            if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.conn.their_state is h11.IDLE and self._head_too_large(data):
                self._cancel_head_timer()
                self.transport.write(HEAD_TOO_LARGE)
                self.transport.close()
                return
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:  # a whole request head arrived
                self._cancel_head_timer()

        def _head_too_large(self, data: bytes) -> bool:
            """Counts the bytes of the request head received so far (h11 checks only a
            head that is still incomplete: one sent whole in a packet passed)."""
            seen = self._head_tail + data
            end = seen.find(b"\r\n\r\n")
            self._head_bytes += len(data) if end < 0 else max(0, end + 4 - len(self._head_tail))
            self._head_tail = seen[-3:]
            return self._head_bytes > max_head

        def on_response_complete(self) -> None:
            self._head_bytes, self._head_tail = 0, b""
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm_head_timer()  # the next request's head has the same deadline

        def handle_websocket_upgrade(self, event: h11.Request) -> None:
            self._cancel_head_timer()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_head_timer()
            counts.release(self.transport)
            super().connection_lost(exc)

    class GuardedWebSocketProtocol(ListeningWebSocketProtocol):
        keepalive = KeepAlive(
            min(
                KeepAlive.TICK,
                settings.ws_ping_interval_seconds / 4,
                settings.ws_ping_timeout_seconds / 4,
            )
        )
        _after_close = 0

        def data_received(self, data: bytes) -> None:
            if self.close_sent:
                # the server closed it (a flood, an outbox overflow): a client answers
                # with its close frame; one that keeps sending is cut off at once
                # rather than parsed for the whole close timeout
                self._after_close += len(data)
                if self._after_close > AFTER_CLOSE_BYTES:
                    # close, not abort: the close frame already written still goes out
                    # (a reset would make the client's kernel drop it); nothing more is read
                    self.transport.close()
                    return
            super().data_received(data)

        send = _send_forgetting_handshake

        def connection_lost(self, exc: Exception | None) -> None:
            counts.release(self.transport)
            super().connection_lost(exc)

    return GuardedH11Protocol, GuardedWebSocketProtocol


class KeepAlive:
    """The pings of every websocket of a node, from one sweep every ``tick`` seconds.

    uvicorn arms a timer for each socket's next ping and another for its answer: a
    ``TimerHandle``, its libuv timer, a ``Context`` and a bound method, renewed at every
    ping and pong, so that each socket keeps a few objects the cyclic collector walks in
    its young passes and, once they survived one, in its middle passes. Here a socket
    keeps one float, when its next ping or its answer's deadline is due; the sweep pings
    the sockets whose ping is due and closes (1011) those whose answer is late, as
    uvicorn's timers do, within ``tick`` seconds. Each socket's behaviour is otherwise
    uvicorn's: the next ping ``ping_interval`` seconds after the last one less its round
    trip, the answer awaited ``ping_timeout`` seconds."""

    #: the longest wait between two sweeps (a quarter of the interval or timeout if shorter)
    TICK = 1.0

    def __init__(self, tick: float) -> None:
        self.tick = tick
        #: the sockets pinged (a dict for its order: the sweep's is the sockets' arrival)
        self.sockets: dict[ListeningWebSocketProtocol, None] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def add(self, protocol: ListeningWebSocketProtocol) -> None:
        self.sockets[protocol] = None
        loop = protocol.loop
        if self._timer is None or self._loop is not loop:  # (a server run again, a new loop)
            if self._timer is not None:
                self._timer.cancel()
            self._loop = loop
            self._timer = loop.call_later(self.tick, self._sweep, loop)

    def discard(self, protocol: ListeningWebSocketProtocol) -> None:
        self.sockets.pop(protocol, None)

    def _sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        now = loop.time()
        due = [protocol for protocol in self.sockets if protocol.keepalive_due <= now]
        for protocol in due:
            protocol.keepalive_check()
        if self.sockets:
            self._timer = loop.call_later(self.tick, self._sweep, loop)
        else:
            self._timer = None


#: what the app is handed of each message it listens to: its text, or its bytes
Incoming = str | bytes


class Listener(Protocol):
    """What takes a listening websocket's messages (``ListeningWebSocketProtocol``)."""

    def on_message(self, raw: Incoming) -> None:
        """A message from the client, as soon as it is parsed."""

    def on_end(self, message: Any) -> None:
        """The socket's end: its ASGI ``websocket.disconnect`` (told once)."""


class ListeningWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O websocket, which can hand each message to the app as soon as it
    is parsed (``listen``) instead of queueing it for the ASGI ``receive``.

    A socket that awaits ``receive`` for each message keeps, between two messages, a
    wait renewed at each one (``receive`` and the queue's ``get``, two coroutines, their
    future and the task's wake-up), alive for seconds: the cyclic collector walks it in
    its young passes and again, once it survived one, in its middle passes. A listening
    socket keeps none. The app paces the client itself: it pauses reading while it is
    busy with a message (``pause_reading``), as uvicorn pauses it while a message waits
    in its queue."""

    #: the node's pings (None: uvicorn's timers, one socket at a time)
    keepalive: KeepAlive | None = None
    #: when the next ping is due, or the answer to the last one (``KeepAlive``)
    keepalive_due = float("inf")
    #: what takes each message, once the app listens (None: queued, as uvicorn does)
    _listener: Listener | None = None
    #: the empty list of a message's frames between two messages (one for the socket's
    #: life, where uvicorn makes a new one at each message)
    _no_frames: list[bytes] | None = None
    #: the bytes read since the opening request less, for each frame websockets' parser
    #: gave, the smallest a frame of its payload can be (RFC 6455, 5.2: a client's frame
    #: is masked): never less than what the parser holds of frames not yet given, so 0
    #: only when it holds nothing and waits for a frame's first byte; None: not known
    #: (the first read held more than the opening request, or an extension changes the
    #: payloads)
    unframed: int | None = None
    #: whether anything was read yet (the first read is the opening request: uvicorn's
    #: HTTP protocol hands it over alone)
    _read_any = False

    def data_received(self, data: bytes) -> None:
        if self.unframed == 0:
            payload = self.lone_payload(data)
            if payload is not None:  # what websockets' parser and uvicorn's handlers do
                if data[0] == TEXT_FRAME:
                    self.curr_msg_data_type = "text"
                    self.frames = [payload]
                    self.send_receive_event_to_app()
                else:
                    self.handle_pong(Frame(Opcode.PONG, payload))
                return
        first = not self._read_any
        self._read_any = True
        if self.unframed is not None:
            self.unframed += len(data)
        super().data_received(data)
        if first and data.find(b"\r\n\r\n") == len(data) - 4:
            self.unframed = 0  # the request alone: the parser waits for the first frame

    def lone_payload(self, data: bytes) -> bytes | None:
        """The payload of ``data`` when it is exactly one whole text frame of at most
        65,535 bytes or one whole pong (at most 125 bytes, as every control frame),
        masked, within the size limit, on an open socket without extensions that is not
        in a fragmented message (what websockets' parser, waiting for a frame, would give
        as one such frame with nothing left over); else None (the parser reads it). Call
        it only while ``unframed`` is 0."""
        size = len(data)
        head = data[0] if size >= 6 else 0
        if head != TEXT_FRAME and head != PONG_FRAME:
            return None
        length = data[1] ^ 0x80  # masked (a clear mask bit gives 128 or more)
        if length < 126:
            start = 6
        elif length == 126 and size >= 8 and head == TEXT_FRAME:
            length = (data[2] << 8) | data[3]
            start = 8
        else:
            return None
        conn = self.conn
        limit = conn.max_message_size
        if (
            size != start + length
            or conn.state is not OPEN
            or conn.extensions
            or conn.current_size is not None
            or conn.debug
            or conn.max_fragment_size is not None
            or limit is None
            or length > limit
        ):
            return None
        return apply_mask(data[start:], data[start - 4 : start])

    def listen(self, listener: Listener) -> list[Any]:
        """From now on, hand each message to ``listener.on_message`` as it is parsed (its
        text or bytes), and the socket's end, the ASGI ``websocket.disconnect`` (the client
        closed it or went away, the app closed it, the server shuts down), to
        ``listener.on_end``, once;
        nothing more is queued for ``receive``, which the app no longer calls. The ASGI
        messages queued so far, in order (the app handles them first). Reading stays
        paused if uvicorn paused it for them (``resume_reading``)."""
        queued = []
        while not self.queue.empty():
            queued.append(self.queue.get_nowait())
        self.queue = _Ends(listener)  # type: ignore[assignment]
        self._listener = listener
        self._no_frames = []
        return queued

    def schedule_ping(self) -> None:
        keepalive = self.keepalive
        if keepalive is None:
            super().schedule_ping()
            return
        assert self.ping_interval is not None
        self.keepalive_due = self.loop.time() + max(0.0, self.ping_interval - self.last_ping_rtt)
        keepalive.add(self)

    def send_keepalive_ping(self) -> None:
        """uvicorn's ping, its answer's deadline kept in ``keepalive_due`` (no timer)."""
        keepalive = self.keepalive
        if keepalive is None:
            super().send_keepalive_ping()
            return
        self.ping_timer = None
        if self.close_sent or self.transport.is_closing():
            keepalive.discard(self)
            return
        self.pending_ping_payload = struct.pack("!I", random.getrandbits(32))
        self.ping_sent_at = self.loop.time()
        self.conn.send_ping(self.pending_ping_payload)
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.ping_timeout is not None:
            self.keepalive_due = self.ping_sent_at + self.ping_timeout
        else:
            self.schedule_ping()

    def handle_pong(self, event: Any) -> None:
        if self.keepalive is None:
            super().handle_pong(event)
            return
        # stale or unsolicited pongs are ignored, as uvicorn does
        if self.pending_ping_payload is None or bytes(event.data) != self.pending_ping_payload:
            return
        self.last_ping_rtt = self.loop.time() - self.ping_sent_at
        self.pending_ping_payload = None
        if self.ping_timeout is not None:  # (without a timeout the next ping is scheduled)
            self.schedule_ping()

    def keepalive_check(self) -> None:
        """``KeepAlive``'s sweep found this socket due: its answer is late, or its ping due."""
        if self.pending_ping_payload is not None:
            assert self.keepalive is not None
            self.keepalive.discard(self)
            self.keepalive_timeout()
        else:
            self.send_keepalive_ping()

    def stop_keepalive(self) -> None:
        if self.keepalive is not None:
            self.keepalive.discard(self)
            self.keepalive_due = float("inf")
        super().stop_keepalive()

    def pause_reading(self) -> None:
        """Stop reading from the client (what was already read is still handed over)."""
        if not self.read_paused:
            self.read_paused = True
            self.transport.pause_reading()

    def resume_reading(self) -> None:
        """Read from the client again."""
        if self.read_paused:
            self.read_paused = False
            self.transport.resume_reading()

    def handle_events(self) -> None:
        events = self.conn.events
        self._count_frames(events)
        if self._listener is None:
            super().handle_events()
            return
        # websockets hands its list of parsed events over and starts a new one at each
        # read: the socket keeps its first list, emptied, instead
        super().handle_events()
        if not self.conn.events:
            events.clear()
            self.conn.events = events

    def _count_frames(self, events: list[Any]) -> None:
        """``unframed`` less the smallest size of each frame in ``events``."""
        unframed = self.unframed
        if unframed is None:
            return
        if self.conn.extensions:  # a payload is not what the frame held
            self.unframed = None
            return
        for event in events:
            if isinstance(event, Frame):
                length = len(event.data)
                unframed -= length + (6 if length < 126 else 8 if length < 65536 else 14)
        self.unframed = unframed

    def send_receive_event_to_app(self) -> None:
        listener = self._listener
        if listener is None:
            super().send_receive_event_to_app()
            return
        frames = self.frames
        data = frames[0] if len(frames) == 1 else b"".join(frames)
        frames.clear()
        self.frames = self._no_frames  # type: ignore[assignment]
        if self.close_sent:  # the app closed it: what comes until the client's close is dropped
            return
        if self.curr_msg_data_type == "bytes":
            listener.on_message(data)
            return
        try:
            text = data.decode()
        except UnicodeDecodeError:  # as uvicorn answers it
            self.logger.exception("Invalid UTF-8 sequence received from client.")
            self.conn.send_close(1007)
            self.handle_parser_exception()
            return
        listener.on_message(text)


class _Ends:
    """uvicorn's receive queue, for a listening socket: uvicorn puts nothing in it but
    the socket's end then, which goes to the app's callback (once)."""

    __slots__ = ("listener",)

    def __init__(self, listener: Listener) -> None:
        self.listener: Listener | None = listener

    def put_nowait(self, message: Any) -> None:
        listener, self.listener = self.listener, None
        if listener is not None:
            listener.on_end(message)

    def empty(self) -> bool:
        return True


async def _send_forgetting_handshake(protocol: WebSocketsSansIOProtocol, message: Any) -> None:
    """The guarded websocket's ASGI ``send``: uvicorn's, then ``forget_handshake`` once
    the socket is accepted."""
    await WebSocketsSansIOProtocol.send(protocol, message)
    if message["type"] == "websocket.accept" and protocol.handshake_complete:
        forget_handshake(protocol)


#: the ASGI ``send`` functions that write a ``websocket.send`` as ``write_text_now`` does
_DIRECT_SENDS = (WebSocketsSansIOProtocol.send, _send_forgetting_handshake)


def sansio_protocol(send: Any) -> WebSocketsSansIOProtocol | None:
    """The websocket protocol behind an ASGI ``send``, when ``send`` is the protocol's
    own (uvicorn's sans-I/O websocket, guarded or not, no middleware wrapping it) and the
    protocol holds what ``write_text_now`` relies on; else None (then every message goes
    through ``send``)."""
    protocol = getattr(send, "__self__", None)
    if not isinstance(protocol, WebSocketsSansIOProtocol):
        return None
    if getattr(send, "__func__", None) not in _DIRECT_SENDS:
        return None
    conn = getattr(protocol, "conn", None)
    if not (
        isinstance(conn, WebsocketsProtocol)
        and isinstance(getattr(protocol, "writable", None), asyncio.Event)
        and all(
            isinstance(getattr(protocol, name, None), bool)
            for name in ("disconnected", "close_sent", "handshake_complete")
        )
        and hasattr(protocol, "initial_response")
    ):
        return None
    return protocol


def write_text_now(protocol: WebSocketsSansIOProtocol, text: str) -> bool:
    """Write ``text`` as one text frame now, byte for byte as the protocol's ASGI
    ``send`` writes a ``{"type": "websocket.send", "text": text}``, and say so; False,
    having written nothing, whenever ``send`` would do anything else: wait for the
    transport to drain (paused for writing: the backpressure), or refuse (the handshake
    not done, the socket closing, closed or gone)."""
    conn = protocol.conn
    transport = protocol.transport
    if (
        not protocol.writable.is_set()
        or protocol.disconnected
        or protocol.close_sent
        or not protocol.handshake_complete
        or protocol.initial_response is not None
        or conn.state is not OPEN
        or transport.is_closing()
    ):
        return False
    writes = conn.writes
    if not (writes or conn.extensions or conn.expect_continuation_frame or conn.debug):
        # what ``conn.send_text`` would append, written as it is: a server's frame is
        # not masked, and without an extension its payload is the text's UTF-8 bytes;
        # the header and the payload handed over together, not joined in a new bytes
        payload = text.encode()
        transport.writelines((text_header(len(payload)), payload))
        return True
    # ``conn.data_to_send()`` would hand over its list of writes and start a new one:
    # emptied in place instead, the protocol keeps one list for its whole life rather
    # than a new one a message, for the cyclic collector to walk
    conn.send_text(text.encode())
    transport.write(b"".join(writes))
    writes.clear()
    return True


#: the header of a text frame of 126 to 65,535 bytes: FIN and the text opcode, 126, the
#: length in 16 bits
_HEADER_16 = struct.Struct("!BBH").pack


def text_header(size: int) -> bytes:
    """The header of a whole unmasked text frame (RFC 6455, 5.2) of ``size`` bytes: FIN
    and the text opcode, then the length in 7 bits, or 126 and 16 bits, or 127 and 64
    bits.

    >>> text_header(2), text_header(200), text_header(70_000)
    (b'\\x81\\x02', b'\\x81~\\x00\\xc8', b'\\x81\\x7f\\x00\\x00\\x00\\x00\\x00\\x01\\x11p')
    """
    if size < 126:
        return bytes((0x81, size))
    if size < 65536:
        return _HEADER_16(0x81, 126, size)
    return b"\x81\x7f" + size.to_bytes(8, "big")


def forget_handshake(protocol: WebSocketsSansIOProtocol) -> None:
    """Drop what an accepted websocket keeps of its opening handshake: uvicorn's request
    and response, and websockets' handshake parser, which holds the request for as long
    as it parses the frames after it. The parser is replaced by a frame parser only
    while it waits for a frame's first byte (the buffer empty): then the two are in the
    same state. Nothing reads the request or the response after the accept."""
    protocol.request = None  # type: ignore[assignment]
    protocol.response = None  # type: ignore[assignment]
    conn = protocol.conn
    frames = getattr(conn.parser, "gi_yieldfrom", None)  # the frames, after the request
    waiting = getattr(frames, "gi_yieldfrom", None)
    if (
        getattr(frames, "gi_code", None) is WebsocketsProtocol.parse.__code__
        and getattr(waiting, "gi_code", None) is type(conn.reader).at_eof.__code__
        and not conn.reader.buffer
        and not conn.reader.eof
    ):
        conn.parser = WebsocketsProtocol.parse(conn)
        next(conn.parser)


def uvicorn_options(settings: Settings, limit_concurrency: int) -> dict[str, Any]:
    """Every limit uvicorn takes, from the settings; ``limit_concurrency`` is the cap on
    connections at once (``connection_cap``)."""
    http, ws = guarded_protocols(settings)
    return {
        "http": http,
        "ws": ws,
        # frames over the limit are refused by the websocket layer too (close 1009)
        "ws_max_size": settings.max_message_bytes + 1024,
        "ws_per_message_deflate": settings.ws_compression,
        "ws_ping_interval": settings.ws_ping_interval_seconds,
        "ws_ping_timeout": settings.ws_ping_timeout_seconds,
        "timeout_keep_alive": settings.http_keep_alive_seconds,
        "h11_max_incomplete_event_size": settings.http_max_header_bytes,
        "limit_concurrency": limit_concurrency,
        "proxy_headers": False,  # the app reads them itself, from trusted proxies only
    }


#: descriptors kept apart from connections (the store, logs, static files, the bot
#: workers' pipes): at most this many, and at most a quarter of the open-files limit
RESERVED_DESCRIPTORS = 256
#: a hard limit reported as unlimited: Linux still caps descriptors (``fs.nr_open``)
UNLIMITED_FILES = 1 << 20


def raise_open_files_limit() -> int:
    """Raise the soft limit on open files to the hard one; the soft limit in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = UNLIMITED_FILES if hard == resource.RLIM_INFINITY else hard
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            return target
        except (ValueError, OSError):
            return soft
    return UNLIMITED_FILES if soft == resource.RLIM_INFINITY else soft


def default_connection_cap(open_files: int) -> int:
    """The connections accepted at once under an open-files limit: all of it but a margin.

    >>> default_connection_cap(1024), default_connection_cap(160), default_connection_cap(65536)
    (768, 120, 65280)
    """
    return max(1, open_files - min(RESERVED_DESCRIPTORS, open_files // 4))


def connection_cap(settings: Settings) -> tuple[int, int]:
    """``(connections accepted at once, the open-files limit)``, once the soft limit is
    raised to the hard one: ``limit_concurrency`` when it is set, else derived from the
    limit so that the node refuses a connection (503) before it runs out of descriptors."""
    open_files = raise_open_files_limit()
    if settings.limit_concurrency is not None:
        return settings.limit_concurrency, open_files
    return default_connection_cap(open_files), open_files
