"""Hostile clients for the hardening tests and the soak benchmark: a raw websocket over
a plain TCP socket (so it can refuse to read), floods, idle and slow-header
connections, and measures of the server (RSS, open files, ``/healthz`` latency).

Everything targets 127.0.0.1 and stops by itself (counts and durations are bounded).
"""

from __future__ import annotations

import asyncio
import base64
import os
import socket
import statistics
import struct
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

# ---------------------------------------------------------------- the server process


def rss_mib(pid: int) -> float:
    """Resident memory of a process, MiB (Linux ``/proc``)."""
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def open_files(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/fd"))


async def health_latencies(base_url: str, seconds: float, every: float = 0.1) -> list[float]:
    """``/healthz`` answer times (seconds) for ``seconds``, one request at a time on new
    connections, from a thread of its own (so a busy flood in the caller's event loop
    does not delay it); a failed request counts as 10 s."""
    return await asyncio.to_thread(health_latencies_sync, base_url, seconds, every)


def health_latencies_sync(base_url: str, seconds: float, every: float = 0.1) -> list[float]:
    times: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        start = time.monotonic()
        try:
            ok = httpx.get(base_url + "/healthz", timeout=10).status_code == 200
        except httpx.HTTPError:
            ok = False
        times.append(time.monotonic() - start if ok else 10.0)
        time.sleep(every)
    return times


def median_ms(times: list[float]) -> float:
    return statistics.median(times) * 1000 if times else float("nan")


# ---------------------------------------------------------------- a raw websocket


def frame(payload: bytes, opcode: int = 1) -> bytes:
    """One masked client frame (text by default)."""
    mask = os.urandom(4)
    head = bytes([0x80 | opcode])
    n = len(payload)
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack("!H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", n)
    masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    return head + mask + masked


@dataclass
class RawSocket:
    """A websocket spoken by hand: it reads only when asked to."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int
    headers: dict[str, str] = field(default_factory=dict)

    def send(self, payload: bytes | str, opcode: int = 1) -> None:
        data = payload.encode() if isinstance(payload, str) else payload
        self.writer.write(frame(data, opcode))

    async def recv(self, timeout: float = 10) -> tuple[int, bytes]:
        """The next frame: (opcode, payload). Raises ``asyncio.IncompleteReadError`` once
        the server closed the connection."""

        async def read() -> tuple[int, bytes]:
            b1, b2 = await self.reader.readexactly(2)
            n = b2 & 0x7F
            if n == 126:
                (n,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif n == 127:
                (n,) = struct.unpack("!Q", await self.reader.readexactly(8))
            return b1 & 0x0F, await self.reader.readexactly(n)

        return await asyncio.wait_for(read(), timeout)

    async def close_code(self, timeout: float = 10) -> int | None:
        """Read until the server's close frame (its code) or the end of the stream (None)."""
        try:
            while True:
                opcode, payload = await self.recv(timeout)
                if opcode == 8:
                    return struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    def close(self) -> None:
        self.writer.close()


async def raw_websocket(
    port: int,
    path: str,
    protocols: list[str] | None = None,
    receive_buffer: int | None = None,
    headers: dict[str, str] | None = None,
) -> RawSocket:
    """Open a websocket on 127.0.0.1:port by hand. ``receive_buffer`` shrinks the
    socket's receive buffer (for a client that does not read)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    reader, writer = await asyncio.open_connection(sock=sock)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET {path} HTTP/1.1",
        f"Host: 127.0.0.1:{port}",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    if protocols:
        lines.append("Sec-WebSocket-Protocol: " + ", ".join(protocols))
    lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
    writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    first, *rest = head.decode("latin-1").split("\r\n")
    parsed = {}
    for line in rest:
        if ":" in line:
            k, v = line.split(":", 1)
            parsed[k.strip().lower()] = v.strip()
    return RawSocket(reader, writer, int(first.split()[1]), parsed)


async def flood(sock: RawSocket, seconds: float, payload: bytes = b"x", batch: int = 200) -> int:
    """Send ``payload`` frames as fast as the socket takes them for ``seconds`` (or until
    the server closes it); the frames sent."""
    sent = 0
    data = frame(payload) * batch
    end = time.monotonic() + seconds
    try:
        while time.monotonic() < end and not sock.writer.is_closing():
            sock.writer.write(data)
            sent += batch
            await asyncio.wait_for(sock.writer.drain(), timeout=max(0.01, end - time.monotonic()))
            await asyncio.sleep(0)  # let the caller's other tasks run
    except (ConnectionError, TimeoutError, OSError):
        pass
    return sent


# ---------------------------------------------------------------- idle and slow clients


async def idle_connections(port: int, count: int) -> list[socket.socket]:
    """``count`` TCP connections that send nothing."""
    loop = asyncio.get_running_loop()
    socks = []
    for _ in range(count):
        sock = socket.socket()
        sock.setblocking(False)
        await loop.sock_connect(sock, ("127.0.0.1", port))
        socks.append(sock)
    return socks


async def slow_headers(port: int, count: int, seconds: float, every: float = 0.5) -> int:
    """``count`` connections sending a request head one header line every ``every``
    seconds, never finishing it, for at most ``seconds``; how many the server closed."""
    loop = asyncio.get_running_loop()
    socks = await idle_connections(port, count)
    for sock in socks:
        await loop.sock_sendall(sock, b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
    closed: set[int] = set()
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end and len(closed) < count:
        n += 1
        for i, sock in enumerate(socks):
            if i in closed:
                continue
            try:
                sock.send(f"X-Slow-{n}: 1\r\n".encode())
                if is_closed(sock):
                    closed.add(i)
            except OSError:
                closed.add(i)
        await asyncio.sleep(every)
    for sock in socks:
        sock.close()
    return len(closed)


def is_closed(sock: socket.socket) -> bool:
    """Whether the peer closed ``sock`` (without waiting)."""
    try:
        data = sock.recv(65536, socket.MSG_PEEK | socket.MSG_DONTWAIT)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return data == b"" or data.startswith(b"HTTP/1.1 4")


def count_closed(socks: list[Any]) -> int:
    return sum(1 for sock in socks if is_closed(sock))
