"""The objects the cyclic collector tracks for each open websocket of a room.

A real ``dame-nature serve`` process on loopback (the default settings, the per-address
limits lifted: every client is here); N rooms are created and started, then their
5 seats' websockets are opened and hold their first views. The server counts the
objects its collector tracks (``gc.get_objects()`` after ``gc.collect()``, the objects
frozen at start-up excluded) with the first half of the sockets open, then with all of
them; the difference divided by the second half's sockets is the figure (what is built
once, at the first socket, is left out), with the types that make it; and the CPU time
of a full pass of the collector over the heap (the least of 5), each time.

Then what one message leaves behind: every object is frozen (``gc.freeze()``), each
socket sends a ping and reads its pong, and the objects tracked beside the frozen ones,
divided by the sockets, are what a socket keeps from its last message until its next
(seconds, in play): what the collector's young passes walk, and its middle passes once
they outlived a young one.

    python benchmarks/socket_heap.py                 # 20 rooms, 100 sockets
    python benchmarks/socket_heap.py --rooms 100 --top 25
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from server_load import SEATS, die_with_parent, free_port, post_ok, wait_healthy  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]

#: the server, with a SIGUSR1 handler that writes its collector's census to a file
COUNTED = """
import gc, json, signal, sys, time
from collections import Counter
from dame_nature.__main__ import main
def census(*_):
    gc.collect()
    full_ms = 1e9
    for _ in range(5):  # a full pass over what is left: its CPU time, the least of 5
        started = time.thread_time()
        gc.collect()
        full_ms = min(full_ms, (time.thread_time() - started) * 1000)
    objects = gc.get_objects()
    types = Counter(type(o).__qualname__ for o in objects)
    holders = {{}}
    for name in {explain!r}:
        held = Counter()
        for o in objects:
            if type(o).__qualname__ == name:
                held.update(_holder(r) for r in gc.get_referrers(o) if r is not objects)
        holders[name] = held.most_common(40)
    with open({path!r}, "w") as out:
        json.dump({{"total": len(objects), "types": types, "frozen": gc.get_freeze_count(),
                   "holders": holders, "full_ms": full_ms}}, out)
def _holder(r):
    name = type(r).__qualname__
    if name == "frame":
        return "frame " + r.f_code.co_qualname
    if name == "coroutine":
        return "coroutine " + r.__qualname__
    if name == "dict":
        return "dict " + ",".join(sorted(map(str, r))[:4])
    return name
def mark(*_):
    gc.collect()
    gc.freeze()
signal.signal(signal.SIGUSR1, census)
signal.signal(signal.SIGUSR2, mark)
sys.argv[0] = "dame-nature"
main()
"""


def census(proc: subprocess.Popen[bytes], path: Path) -> dict[str, object]:
    path.unlink(missing_ok=True)
    proc.send_signal(signal.SIGUSR1)
    deadline = time.monotonic() + 600  # the holders (--explain) take a while
    while time.monotonic() < deadline:
        try:
            return dict(json.loads(path.read_text()))
        except (OSError, ValueError):
            time.sleep(0.05)  # the server writes it between two of its loop's turns
    raise TimeoutError("no census from the server")


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "census.json"
        lifted = {f"DAME_NATURE_{name}": "100000" for name in (
            "RATE_LIMIT_PER_SECOND", "RATE_LIMIT_BURST", "CREATE_RATE_PER_SECOND",
            "CREATE_RATE_BURST", "CONNECT_ADDRESS_RATE_PER_SECOND",
            "CONNECT_ADDRESS_RATE_BURST", "MAX_CONNECTIONS_PER_ADDRESS",
            "MAX_ROOMS_PER_ADDRESS")}  # fmt: skip
        env = {**os.environ, **lifted, "PYTHONPATH": str(ROOT / "src")}
        code = COUNTED.format(path=str(out), explain=args.explain)
        cmd = [sys.executable, "-c", code, "serve", "--host", "127.0.0.1", "--port", str(port),
               "--db", str(Path(tmp) / "heap.db"), "--log-level", "warning"]  # fmt: skip
        proc = subprocess.Popen(cmd, env=env, preexec_fn=die_with_parent)
        try:
            url = f"http://127.0.0.1:{port}"
            wait_healthy(f"{url}/healthz", proc)
            async with httpx.AsyncClient(base_url=url, timeout=60) as http:
                paths = []
                for index in range(args.rooms):
                    created = await post_ok(http, "/api/rooms", json={"seed": index})
                    code, host = created["room"], created["host_token"]
                    for seat in range(SEATS):
                        joined = await post_ok(http, f"/api/rooms/{code}/players",
                                               json={"name": f"p{seat}"})  # fmt: skip
                        paths.append(f"ws://127.0.0.1:{port}/api/rooms/{code}/ws"
                                     f"?token={joined['token']}")  # fmt: skip
                    await post_ok(http, f"/api/rooms/{code}/start",
                                  headers={"Authorization": f"Bearer {host}"})  # fmt: skip
            # the first half of the sockets pays what is built once (at the first
            # socket, the first view of a room): the figure is the second half's
            sockets = []
            for half, counted in enumerate((paths[: len(paths) // 2], paths[len(paths) // 2 :])):
                if half:
                    await asyncio.sleep(1)  # every seat's "connected" update has gone out
                    before = census(proc, out)
                for path in counted:
                    ws = await connect(path, ping_interval=None)
                    await ws.recv()  # its first view
                    sockets.append(ws)
            await asyncio.sleep(1)
            after = census(proc, out)
            n = len(paths) - len(paths) // 2
            proc.send_signal(signal.SIGUSR2)  # everything so far frozen
            await asyncio.sleep(1)
            for ws in sockets:
                await ws.send('{"type": "ping"}')
            for ws in sockets:
                while json.loads(await ws.recv())["type"] != "pong":
                    pass
            await asyncio.sleep(1)
            renewed = census(proc, out)
            for ws in sockets:
                await ws.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    total = int(after["total"]) - int(before["total"])  # type: ignore[call-overload]
    print(f"rooms {args.rooms}, sockets {n}; frozen at start-up {after['frozen']}")
    print(f"tracked objects: {before['total']} with half the sockets, {after['total']} with all")
    print(f"tracked objects per socket: {total / n:.1f}")
    print(f"a full pass of the collector: {before['full_ms']:.1f} ms of CPU with half the "
          f"sockets, {after['full_ms']:.1f} ms with all")  # fmt: skip
    grown = Counter(after["types"]) - Counter(before["types"])  # type: ignore[arg-type]
    for name, count in grown.most_common(args.top):
        print(f"  {count / n:7.2f}  {name}")
    print(f"kept from one message until the next, a socket: {renewed['total'] / len(sockets):.1f}")
    for name, count in Counter(renewed["types"]).most_common(args.top):  # type: ignore[arg-type]
        print(f"  {count / len(sockets):7.2f}  {name}")
    for name, held in after["holders"].items():  # type: ignore[union-attr]
        print(f"{name} held by:")
        was = Counter(dict(before["holders"][name]))  # type: ignore[index]
        for holder, count in (Counter(dict(held)) - was).most_common():
            print(f"  {count / n:7.2f}  {holder}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--top", type=int, default=40, help="types listed")
    parser.add_argument("--explain", nargs="*", default=[], metavar="TYPE",
                        help="what holds the objects of these types")  # fmt: skip
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
