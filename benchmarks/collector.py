"""Collector benchmark: what the cyclic collector walks while rooms play, in one process.

Run by hand: ``python benchmarks/collector.py [--rooms N] [--actions N] [--census]``.

The rooms and their players are ``action_path.py``'s (a ``RoomManager`` on a fresh SQLite
file, rooms of 5 seats, each with a socket that writes nowhere, random actions from each
seat's own last view, a room drawn at random each time), with the server's collector
settings (``gc.freeze()`` once the rooms are open, the thresholds ``app.GC_THRESHOLDS``).
A ``gc.callbacks`` entry counts, at the start of each pass, the objects of the
generations it collects (what it walks), and times the pass's CPU; the actions played
before each middle and full pass are printed (how often they come). Play is paced as the
server's sockets would see it: nothing here but the rooms (no socket's own objects), so
the figures are the views' and the games' share of what the server's passes walk.

The counts are deterministic for a given code (the seeds are fixed); the CPU times
follow the machine's load. ``--census``: after play, the tracked objects each room's
views keep from one version to the next (reachable from the state's views' shared part,
``State._public``, and not from the rest of the state), by shape, and what the last
middle pass walked, by shape.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import gc
import random
import time
from typing import Any

from action_path import next_action, play, playing_rooms  # this script's folder is on sys.path


class Passes:
    """The collector's passes: objects walked and CPU seconds, by generation."""

    def __init__(self, census: bool) -> None:
        #: the shapes of the objects the last middle pass walked, if asked
        self.census: collections.Counter[str] | None = collections.Counter() if census else None
        self.objects: list[list[int]] = [[], [], []]
        self.cpu: list[list[float]] = [[], [], []]
        #: the actions played before each pass, by generation
        self.at: list[list[int]] = [[], [], []]
        self.done = 0  # actions played so far
        self._walked = 0
        self._started = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if phase == "start":
            self._walked = sum(len(gc.get_objects(g)) for g in range(generation + 1))
            if generation == 1 and self.census is not None:
                self.census.clear()
                for g in (0, 1):
                    self.census.update(map(shape, gc.get_objects(g)))
            self._started = time.thread_time()
            return
        self.cpu[generation].append(time.thread_time() - self._started)
        self.objects[generation].append(self._walked)
        self.at[generation].append(self.done)


def shape(obj: Any) -> str:
    kind = type(obj)
    if kind is dict:
        return "dict " + ",".join(sorted(map(str, obj))[:5])
    if kind in (tuple, list):  # (through the collector: an item may not be set yet)
        items = gc.get_referents(obj)
        if kind is tuple:
            items.reverse()
        inner = ",".join(type(x).__name__ for x in items[:4])
        return f"{kind.__name__} of {len(items)}: {inner}"
    return kind.__name__


def reachable(roots: list[Any], stop: set[int], live: set[int]) -> list[Any]:
    """The objects of ``live`` reachable from ``roots``, not through one in ``stop``."""
    seen: set[int] = set()
    found = []
    todo = list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or id(obj) in stop or id(obj) not in live:
            continue
        seen.add(id(obj))
        found.append(obj)
        todo.extend(gc.get_referents(obj))
    return found


async def run(rooms: int, actions: int, census: bool) -> None:
    async with playing_rooms(rooms) as (manager, tables):
        from dame_nature.engine.state import State
        from dame_nature.server.app import GC_THRESHOLDS

        rng = random.Random(0)
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        passes = Passes(census)
        gc.callbacks.append(passes)
        start = time.process_time()
        done = 0
        while done < actions:
            picked = await next_action(manager, tables, rng)
            if picked is None:
                continue
            await play(manager, *picked)
            done += 1
            passes.done = done
        spent = time.process_time() - start
        gc.callbacks.remove(passes)
        names = ("young", "middle", "full")
        print(f"{rooms} rooms, {actions} actions, {1e6 * spent / actions:.0f} µs of CPU an action")
        for g, name in enumerate(names):
            counts, cpu = passes.objects[g], passes.cpu[g]
            if not counts:
                print(f"{name} passes: 0")
                continue
            mean = sum(counts) / len(counts)
            print(
                f"{name} passes: {len(counts)}, objects walked: mean {mean:,.0f}"
                f", most {max(counts):,}; CPU ms: mean {1e3 * sum(cpu) / len(cpu):.1f}"
                f", most {1e3 * max(cpu):.1f}"
            )
            if g:
                print(f"  after actions: {', '.join(f'{n:,}' for n in passes.at[g])}")
        walked = sum(sum(c) for c in passes.objects)
        print(f"objects walked an action: {walked / actions:.1f}")
        if passes.census:
            print("the last middle pass walked, by shape:")
            for what, count in passes.census.most_common(30):
                print(f"  {count:7,}  {what}")
        if census:
            kept: collections.Counter[str] = collections.Counter()
            total = 0
            live = {id(o) for o in gc.get_objects()}  # tracked, not frozen
            for room, _, _ in tables:
                state = room.state
                if not isinstance(state, State) or state._public is None:
                    continue
                rest = [getattr(state, name) for name in State._FIELDS]
                stop = {id(o) for o in reachable(rest, set(), live)}
                found = reachable([state._public], stop, live)
                total += len(found)
                kept.update(map(shape, found))
            print(f"tracked objects the views keep, a room: {total / rooms:.1f}")
            for what, count in kept.most_common(25):
                print(f"  {count / rooms:6.2f}  {what}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=200)
    parser.add_argument("--actions", type=int, default=20_000)
    parser.add_argument("--census", action="store_true")
    args = parser.parse_args()
    asyncio.run(run(args.rooms, args.actions, args.census))


if __name__ == "__main__":
    main()
