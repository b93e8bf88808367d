"""The push path per message alone, for counting instructions under callgrind.

Run by hand: ``python benchmarks/push_count.py --rounds N [--sockets N] [--size N]``.

uvicorn serves ``--sockets`` websockets in this process, under uvloop and with the
protocols of ``dame-nature serve`` (``transport.uvicorn_options``), each a
``Connection`` on an ``AsgiSocket`` as the room route makes them; the clients are raw
sockets of the same process (a large receive buffer), which are emptied without parsing
after each round, so that every message is written at once. A round pushes one message
of ``--size`` bytes to every socket, as ``Hub.broadcast`` does (``Connection.push``,
``AsgiSocket.send_now``, ``transport.write_text_now``, uvloop's write and its ``send``).
Nothing is timed: run it under ``valgrind --tool=callgrind`` at two counts of rounds and
divide the difference of the totals by the difference of the messages::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=cg.%p \\
        python benchmarks/push_count.py --rounds 200
    (the same with --rounds 2000; (total at 2000 - total at 200) / (1800 * sockets))

The count includes the clients' ``recv_into`` (one a socket and round, not parsed) and the
loop's own lines.
"""

from __future__ import annotations

import argparse
import asyncio
import socket

import uvloop
from _support.in_process import (  # this script's folder is on sys.path
    connecting_app,
    serve,
    settings_for,
    started_connection,
    state_text,
)
from websockets.client import ClientProtocol
from websockets.uri import parse_uri

from dame_nature.server.connections import Connection


async def connect(port: int) -> socket.socket:
    """A raw client socket whose websocket handshake is done (nothing read after it)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 1024 * 1024)
    sock.setblocking(False)
    await loop.sock_connect(sock, ("127.0.0.1", port))
    protocol = ClientProtocol(parse_uri(f"ws://127.0.0.1:{port}/"))
    protocol.send_request(protocol.connect())
    for data in protocol.data_to_send():
        await loop.sock_sendall(sock, data)
    while protocol.state.name == "CONNECTING":
        protocol.receive_data(await loop.sock_recv(sock, 65536))
    return sock


def drain(sock: socket.socket, buffer: bytearray) -> int:
    """The bytes waiting in ``sock``, read in one call (a loopback socket has them all
    once the server's write returned)."""
    return sock.recv_into(buffer)


async def measure(args: argparse.Namespace) -> int:
    settings = settings_for("push-count-")
    conns: list[Connection] = []
    app = connecting_app(lambda ws: conns.append(started_connection(ws, len(conns), settings)))
    server, serving, port = await serve(app, settings, args.sockets)
    clients = [await connect(port) for _ in range(args.sockets)]
    while len(conns) < args.sockets:
        await asyncio.sleep(0.01)
    text = state_text(args.size)
    received = 0
    buffer = bytearray(1 << 20)
    for _ in range(args.rounds):
        for conn in conns:
            conn.push(text, "state")
        for sock in clients:
            received += drain(sock, buffer)
    for sock in clients:
        sock.close()
    server.should_exit = True
    await serving
    return received


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sockets", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--size", type=int, default=5500, help="bytes of each message")
    args = parser.parse_args()
    received = uvloop.run(measure(args))
    print(f"received {received} bytes ({received / (args.rounds * args.sockets):.0f} a message)")


if __name__ == "__main__":
    main()
