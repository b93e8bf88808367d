"""An action's way from the route to the store without the views, for counting
instructions under callgrind.

Run by hand, once to record, then under callgrind at two counts of actions::

    python benchmarks/route_count.py record ACTIONS.json
    PYTHONHASHSEED=0 valgrind --tool=callgrind --separate-threads=yes \\
        python benchmarks/route_count.py replay ACTIONS.json --actions 300
    (the same with --actions 2300; the difference of the event loop's thread, ``-01``,
    over 2,000)

``record`` plays ``action_path.py``'s rooms (40 here, 5 seats each, its random bots, a
room drawn at random each time) through their sockets' ``Receiver`` until every room's
first game is over (a rematch deals anew), and writes each accepted action's room, seat
and text. ``replay`` opens the same rooms, connects their sockets (the seats present, as
in play), then takes the sockets out of the hub, so that the broadcast finds none and
builds no view, and hands the recorded texts to the sockets' ``Receiver`` in order:
the route, the rate, the lock, the engine's ``apply``, the store's write, what follows
a change, the metrics, and the end of each game (its digest, its result, its review
asked for). One game end comes in about 64 actions. Nothing is timed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random

import uvloop
from action_path import playing_rooms, through_route  # this script's folder is on sys.path

ROOMS = 40


async def record(path: str) -> None:
    rng = random.Random(0)
    steps = []
    async with playing_rooms(ROOMS) as (manager, tables):
        live = list(range(len(tables)))
        while live:
            index = rng.choice(live)
            room, conns, bots = tables[index]
            if room.state.is_over:
                live.remove(index)
                continue
            seat = rng.choice(room.state.to_act())
            action = bots[seat].act(json.loads(conns[seat].socket.last)["view"])
            text = json.dumps({"type": "action", "action": action})
            version = room.version
            await through_route(manager, room, conns[seat], text)
            if room.version == version + 1:
                steps.append([index, seat, text])
    with open(path, "w") as out:
        json.dump(steps, out)


async def replay(path: str, actions: int) -> None:
    with open(path) as file:
        steps = json.load(file)[:actions]
    async with playing_rooms(ROOMS) as (manager, tables):
        for room, conns, _ in tables:
            for conn in conns:
                manager.hub.remove(room.code, conn)
        for index, seat, text in steps:
            room, conns, _ = tables[index]
            version = room.version
            await through_route(manager, room, conns[seat], text)
            assert room.version == version + 1, conns[seat].socket.last
    print(f"replayed {len(steps)} actions")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=("record", "replay"))
    parser.add_argument("file")
    parser.add_argument("--actions", type=int, default=2300)
    args = parser.parse_args()
    uvloop.install()
    asyncio.run(record(args.file) if args.mode == "record" else replay(args.file, args.actions))


if __name__ == "__main__":
    main()
