"""Store benchmark: the CPU an action's commit costs on SQLite (the embedded store).

Run by hand: ``python benchmarks/store.py [--actions N] [--rooms N] [--baseline SRC]
[--rounds N]``.

Each round opens a fresh SQLite file (WAL, as the server runs it), creates ``--rooms``
rooms with two seats and a game each, then appends ``--actions`` actions through
``store.add_action``, to the rooms in turn (the room's compare-and-set and the insert,
one transaction each: what every accepted action costs the store; the server's load test
plays 200 rooms), and reads the first room back ``--actions / 10`` times
(``store.load_room``, what a node catching up does). Figures are microseconds of this
process's CPU time (``time.process_time``) per call, so that other work on a shared
machine slows them less than it would wall-clock figures.

With ``--baseline SRC`` (a source tree holding the ``dame_nature`` package, e.g. an
export of ``main``'s ``src``), the same round runs on that code in a subprocess,
alternating with this one for ``--rounds`` rounds; each figure is the best round of
each.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import Any

from _support.trees import round_in, source_trees  # this script's folder is on sys.path


def one_round(actions: int, rooms: int = 1) -> dict[str, float]:
    from dame_nature.server.store import open_store

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(os.path.join(folder, "bench.db"))
        codes = [f"bench{i:011d}" for i in range(rooms)]
        try:
            for code in codes:
                store.create_room(code, "host", {"modes": []}, now=1.0)
                store.add_player(code, 0, "Ada", f"t0{code}", version=1, now=1.0)
                store.add_player(code, 1, "Bo", f"t1{code}", version=2, now=1.0)
                store.start_game(code, 1, {"seed": 1}, campaign=None, version=3, now=1.0)
            action = {"type": "program", "card": "c12"}
            start = time.process_time()
            for step in range(actions):
                idx = step // rooms
                store.add_action(
                    codes[step % rooms], 1, idx, idx % 2, action,
                    result=None, campaign=None, version=4 + idx, now=2.0 + step / rooms,
                )  # fmt: skip
            commit = time.process_time() - start
            loads = max(1, actions // 10)
            start = time.process_time()
            for _ in range(loads):
                store.load_room(codes[0], 1, actions // rooms - 5)
            load = time.process_time() - start
        finally:
            store.close()
    return {"commit_us": 1e6 * commit / actions, "load_room_us": 1e6 * load / loads}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--rooms", type=int, default=1, help="rooms the actions go to in turn")
    parser.add_argument("--baseline", help="a source tree to compare with")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--json", action="store_true", help="one round, as JSON (internal)")
    args = parser.parse_args()
    if args.json:
        print(json.dumps(one_round(args.actions, args.rooms)))
        return
    trees = source_trees(__file__, args.baseline)
    best: dict[str, dict[str, float]] = {}
    for _ in range(args.rounds):
        for name, src in trees.items():
            sizes = ["--actions", str(args.actions), "--rooms", str(args.rooms)]
            figures: dict[str, Any] = round_in(__file__, src, sizes)
            kept = best.setdefault(name, figures)
            for key, value in figures.items():
                kept[key] = min(kept[key], value)
    load = os.getloadavg()
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; best of {args.rounds}")
    for name, figures in best.items():
        print(name, " ".join(f"{key}={value:.1f}" for key, value in figures.items()))
    if "baseline" in best:
        for key in best["this"]:
            print(f"{key}: this/baseline = {best['this'][key] / best['baseline'][key]:.3f}")


if __name__ == "__main__":
    main()
