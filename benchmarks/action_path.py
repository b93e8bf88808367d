"""Action path benchmark: the server's CPU per websocket action, in one process.

Run by hand: ``python benchmarks/action_path.py [--rooms N] [--actions N] [--baseline SRC]
[--rounds N]``.

Each round opens a ``RoomManager`` on a fresh SQLite file with its default settings
(the per-client limits lifted), ``--rooms`` rooms of 5 players, each seat with one
connected socket that writes nowhere, then plays ``--actions`` random actions (the bots'
random level, from the seat's own last view, a room drawn at random each time; 300
before them warm up) the way ``routes/ws.py`` handles a websocket's ``action`` message:
the JSON read, validated, turned into the engine's action, then ``RoomManager.play``
(the rate, the lock, the engine's ``apply``, the store's commit, every seat's ``state``
message pushed). Figures are microseconds of this process's CPU time per action (every
thread: the store's checkpoints too): the server's work on an action without the
sockets' reads and writes, which ``server_load.py`` measures with them.

``--route``: each action's text is handed instead to its socket's ``Receiver`` (one a
seat, as ``routes/ws.py`` makes one a websocket), as uvicorn's protocol hands a parsed
message over: the socket's message rate, its size limit, the same reading, and the task
(or none) the route runs it in, awaited when there is one. Only the frame's parsing and
the socket's reads are left out. ``--uvloop``: on uvloop's event loop, as the server
runs (else asyncio's own).

With ``--baseline SRC`` (a source tree holding the ``dame_nature`` package, e.g. an
export of ``main``'s ``src``), the same round runs on that code in a subprocess,
alternating with this one for ``--rounds`` rounds; each figure is the median of each.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from typing import Any

from _support.trees import round_in, source_trees  # this script's folder is on sys.path

SEATS = 5
WARM_UP = 300


class Socket:
    """A socket that takes every message at once and keeps the last one."""

    def __init__(self) -> None:
        self.last = ""

    def send_now(self, text: str) -> bool:
        self.last = text
        return True

    async def send_text(self, text: str) -> None:
        self.last = text

    async def close(self, code: int = 1000) -> None:
        pass

    def pause_reading(self) -> None:
        pass

    def resume_reading(self) -> None:
        pass


#: a room, its seats' connections and its seats' random bots
Table = tuple[Any, list[Any], list[Any]]


async def open_tables(manager: Any, rooms: int) -> list[Table]:
    """``rooms`` started rooms of ``SEATS`` players on ``manager``, each seat with a
    connected ``Socket`` and a random bot (seeded by room and seat)."""
    from dame_nature.bots import make_bot
    from dame_nature.server.connections import Connection
    from dame_nature.server.rooms import RulesChoice

    tables: list[Table] = []
    for index in range(rooms):
        room = await manager.create(RulesChoice(seed=index))
        for seat in range(SEATS):
            await manager.join(room, f"Player {seat}")
        await manager.start(room, room.host_token)
        conns = []
        for seat in range(SEATS):
            conn = Connection(Socket(), seat, manager.settings)
            await manager.connect(room, conn, room.players[seat].token)
            conn.start()
            conns.append(conn)
        for _ in range(3):  # the views pushed before ``start`` go out
            await asyncio.sleep(0)
        bots = [make_bot("random", seat, seed=index * SEATS + seat) for seat in range(SEATS)]
        tables.append((room, conns, bots))
    return tables


async def next_action(
    manager: Any, tables: list[Table], rng: random.Random
) -> tuple[Any, Any, str] | None:
    """A room drawn at random, one of its seats to act, and that seat's bot's action from
    the seat's last view, as its websocket message: ``(room, connection, text)``. None
    when the room's game was over (a rematch began instead)."""
    room, conns, bots = rng.choice(tables)
    state = room.state
    if state.is_over:
        await manager.rematch(room, room.host_token)
        return None
    seat = rng.choice(state.to_act())
    action = bots[seat].act(json.loads(conns[seat].socket.last)["view"])
    return room, conns[seat], json.dumps({"type": "action", "action": action})


async def through_route(manager: Any, room: Any, conn: Any, raw: str) -> None:
    """``raw`` handed to the socket's ``Receiver`` as uvicorn hands a parsed message over;
    its task awaited when it made one."""
    from dame_nature.server.routes.ws import Receiver

    receiver = RECEIVERS.get(conn)
    if receiver is None:
        receiver = RECEIVERS[conn] = Receiver(conn.socket, manager, None, room, conn)
    receiver.on_message(raw)
    if receiver.task is not None:
        await receiver.task


#: each connection's ``Receiver`` (``--route``)
RECEIVERS: dict[Any, Any] = {}


async def play(manager: Any, room: Any, conn: Any, raw: str) -> None:
    """``raw`` handled as ``routes/ws.py`` handles an ``action`` message."""
    from dame_nature.server.jsonio import loads
    from dame_nature.server.models import WsClientAdapter, action_to_engine

    parsed = WsClientAdapter.validate_python(loads(raw))
    await manager.play(room, conn, action_to_engine(parsed.action))


@contextlib.asynccontextmanager
async def playing_rooms(rooms: int) -> AsyncIterator[tuple[Any, list[Table]]]:
    """A ``RoomManager`` on a fresh SQLite file with its default settings (the per-client
    limits lifted) and its ``open_tables``; closed (its tasks, then its store) after."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
    from benchmarks._support.live_server import UNLIMITED
    from dame_nature.server.rooms import RoomManager
    from dame_nature.server.settings import Settings
    from dame_nature.server.store import open_store

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(db=os.path.join(folder, "rooms.sqlite3"), **UNLIMITED)
        manager = RoomManager(settings, open_store(settings.db))
        try:
            yield manager, await open_tables(manager, rooms)
        finally:
            await manager.close()
            manager.store.close()


async def one_round(rooms: int, actions: int, route: bool = False, pause: float = 0.0) -> float:
    handle = through_route if route else play
    async with playing_rooms(rooms) as (manager, tables):
        rng = random.Random(0)

        async def act() -> float | None:
            picked = await next_action(manager, tables, rng)
            if picked is None:
                return None
            if pause:
                time.sleep(pause)
            start = time.process_time()
            await handle(manager, *picked)
            return time.process_time() - start

        for _ in range(WARM_UP):
            await act()
        spent, done = 0.0, 0
        while done < actions:
            took = await act()
            if took is not None:
                spent += took
                done += 1
    return 1e6 * spent / done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--baseline", help="a source tree to compare with")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--route", action="store_true",
                        help="through the route's Receiver (a parsed message)")  # fmt: skip
    parser.add_argument("--uvloop", action="store_true",
                        help="on uvloop's event loop, as the server runs")  # fmt: skip
    parser.add_argument("--pause", type=float, default=0.0, metavar="MS",
                        help="the process sleeps MS milliseconds before each action (not "
                        "timed), as the server idles between actions coming alone")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="one round, as JSON (internal)")
    args = parser.parse_args()
    if args.json:
        if args.uvloop:
            import uvloop

            asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        cpu_us = asyncio.run(one_round(args.rooms, args.actions, args.route, args.pause / 1000))
        print(json.dumps({"cpu_us": cpu_us}))
        return
    trees = source_trees(__file__, args.baseline)
    figures: dict[str, list[float]] = {name: [] for name in trees}
    for _ in range(args.rounds):
        for name, src in trees.items():
            sizes = ["--rooms", str(args.rooms), "--actions", str(args.actions)]
            sizes += [f"--{flag}" for flag in ("route", "uvloop") if getattr(args, flag)]
            sizes += ["--pause", str(args.pause)] if args.pause else []
            figures[name].append(round_in(__file__, src, sizes)["cpu_us"])
            print(name, f"{figures[name][-1]:.1f} µs an action", flush=True)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; median of {args.rounds}")
    for name, values in figures.items():
        print(f"{name} cpu_us={statistics.median(values):.1f}")
    if "baseline" in figures:
        ratio = statistics.median(figures["this"]) / statistics.median(figures["baseline"])
        print(f"cpu_us: this/baseline = {ratio:.3f}")


if __name__ == "__main__":
    main()
