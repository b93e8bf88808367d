"""The server's CPU per websocket message: written at once from the broadcast
(``Connection.push`` through ``AsgiSocket.send_now``) against the same message through
the outbox and its sender task (``await send_text``, uvicorn's ASGI ``send``).

uvicorn serves N websockets in this process, under uvloop and with the protocols of
``dame-nature serve`` (``transport.uvicorn_options``); a client process opens them and
reads everything. Each round pushes M messages of the size of a room's ``state`` (5,500 bytes) to
every socket, M broadcasts apart, once each way (alternating, so that a busy machine
weighs on both alike), and divides the CPU time of the server's thread by the messages
written. The clients' CPU is not counted (another process).

    python benchmarks/send_path.py --sockets 500 --rounds 6

Last line: ``send_path_us_per_message: N`` (written at once, the median round).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys

import uvloop
from _support.in_process import (  # this script's folder is on sys.path
    connecting_app,
    serve,
    settings_for,
    started_connection,
    state_text,
)

from dame_nature.server.connections import Connection
from dame_nature.server.socket_front import AsgiSocket

CLIENTS = r"""
import asyncio, sys
from websockets.asyncio.client import connect

async def main() -> None:
    url, count = sys.argv[1], int(sys.argv[2])
    sockets = [await connect(url, max_size=None, ping_interval=None) for _ in range(count)]

    async def drain(ws) -> None:
        async for _ in ws:
            pass

    await asyncio.gather(*(drain(ws) for ws in sockets))

asyncio.run(main())
"""


class ThroughTask:
    """A socket without ``send_now``: its ``Connection`` writes through its sender task."""

    __slots__ = ("socket",)

    def __init__(self, socket: AsgiSocket) -> None:
        self.socket = socket

    async def send_text(self, data: str) -> None:
        await self.socket.send_text(data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.socket.close(code, reason)


def thread_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_THREAD)
    return usage.ru_utime + usage.ru_stime


async def measure(args: argparse.Namespace) -> dict[str, list[float]]:
    settings = settings_for("send-path-")
    ways: dict[str, list[Connection]] = {"at once": [], "sender task": []}

    def found(ws: AsgiSocket) -> None:
        for way, sock in (("at once", ws), ("sender task", ThroughTask(ws))):
            ways[way].append(started_connection(sock, 0, settings))

    server, serving, port = await serve(connecting_app(found), settings, args.sockets)
    url = f"ws://127.0.0.1:{port}/"
    clients = subprocess.Popen([sys.executable, "-c", CLIENTS, url, str(args.sockets)])
    try:
        while len(ways["at once"]) < args.sockets:
            assert clients.poll() is None, "the clients died"
            await asyncio.sleep(0.05)
        text = state_text(args.size)
        found: dict[str, list[float]] = {way: [] for way in ways}
        for _ in range(args.rounds):
            for way, conns in ways.items():
                before = thread_cpu()
                for _ in range(args.messages):
                    for conn in conns:
                        conn.push(text, "state")
                    await asyncio.sleep(args.gap)
                    for conn in conns:
                        await conn.flush()
                spent = thread_cpu() - before
                found[way].append(spent / (args.messages * len(conns)) * 1e6)
        return found
    finally:
        clients.kill()
        clients.wait()
        server.should_exit = True
        await serving


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--messages", type=int, default=40, help="broadcasts a round and way")
    parser.add_argument("--size", type=int, default=5500, help="bytes of each message")
    parser.add_argument("--gap", type=float, default=0.002, help="seconds between broadcasts")
    args = parser.parse_args()
    print(f"{args.sockets} websockets, {args.messages} broadcasts of {args.size} bytes a round, "
          f"{args.rounds} rounds, load average {os.getloadavg()[0]:.1f} at the start")  # fmt: skip
    found = uvloop.run(measure(args))
    print("server CPU µs a message, each round, then the median:")
    for way, figures in found.items():
        rounds = " ".join(f"{x:5.1f}" for x in figures)
        print(f"  {way:<12} {rounds}   median {statistics.median(figures):.1f}")
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print(f"send_path_us_per_message: {statistics.median(found['at once']):.1f}")


if __name__ == "__main__":
    main()
