"""The engine's ``State.apply`` alone, over fixed games: its instructions and the tracked
objects each action leaves alive, for counting under callgrind.

Run by hand: ``python benchmarks/engine_count.py --actions N [--games N] [--census]``.

The games are those random bots play (``make_bot("random")``, the players of
``action_path.py`` and ``server_load.py``), 5 seats, base game, seeded by game (the
100 games of the default hold 6,119 actions): dealt and played to their end once, before
anything is counted, their ``(seat, action)`` steps kept. Then every game is dealt again
(``Game.new_initial_state``) and the first ``--actions`` steps, game after game, are
replayed through ``State.apply`` (its check included) and nothing else. Nothing is timed:
run it under
``valgrind --tool=callgrind`` at two counts of actions and divide the difference of the
totals by the difference of the counts, so that start-up and the games' playing cancel
out::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=cg.%p \\
        python benchmarks/engine_count.py --actions 500
    (the same with --actions 3000; (total at 3000 - total at 500) / 2500)

``--only TYPE``: the actions of that type (or every action: ``all``) are applied inside
``functools.reduce``, which nothing else in the engine calls, so that
``valgrind --tool=callgrind --toggle-collect=functools_reduce`` counts them alone (their
total over their number: a type's instructions an action, the call of ``reduce`` and of
its function included, a few hundred).

``--census``: with the collector off, each replayed action runs between ``gc.freeze()``
and a look at the young generation: the tracked objects the action made that are still
alive after it (what the state keeps of it, for a young pass to walk), by shape, an
action, in all and by the action's type.
"""

from __future__ import annotations

import argparse
import collections
import functools
import gc
import random
from typing import Any

SEATS = 5


def played_games(games: int) -> list[tuple[int, list[tuple[int, dict[str, Any]]]]]:
    """``games`` games played to their end by random bots: ``(seed, steps)`` each."""
    from dame_nature.bots import make_bot
    from dame_nature.engine import Game

    found = []
    for index in range(games):
        state = Game(SEATS).new_initial_state(seed=index)
        bots = [make_bot("random", seat, seed=index * SEATS + seat) for seat in range(SEATS)]
        rng = random.Random(index)
        steps = []
        while not state.is_over:
            seat = rng.choice(state.to_act())
            action = bots[seat].act(state.view(seat))
            if action is None:
                continue
            state.apply(seat, action)
            steps.append((seat, action))
        found.append((index, steps))
    return found


def shape(obj: Any) -> str:
    kind = type(obj)
    if kind is dict:
        return "dict " + ",".join(sorted(map(str, obj))[:5])
    if kind in (tuple, list):
        inner = ",".join(type(x).__name__ for x in list(obj)[:4])
        return f"{kind.__name__} of {len(obj)}: {inner}"
    return kind.__name__


def _apply(_: None, step: tuple[Any, int, dict[str, Any]]) -> None:
    """``reduce``'s function: one ``State.apply`` (``--only``)."""
    state, seat, action = step
    state.apply(seat, action)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--census", action="store_true")
    parser.add_argument("--only", metavar="TYPE", help="an action type, or all (see above)")
    args = parser.parse_args()

    from dame_nature.engine import Game

    games = played_games(args.games)
    total = sum(len(steps) for _, steps in games)
    if args.actions > total:
        raise SystemExit(f"{args.games} games hold {total} actions: ask for fewer")
    states = [Game(SEATS).new_initial_state(seed=seed) for seed, _ in games]
    census: collections.Counter[str] = collections.Counter()
    by_type: collections.Counter[str] = collections.Counter()
    types: collections.Counter[str] = collections.Counter()
    if args.census:
        gc.collect()
        gc.disable()
    done = 0
    for state, (_, steps) in zip(states, games, strict=True):
        for seat, action in steps:
            if done == args.actions:
                break
            if args.census:
                gc.freeze()
            if args.only in ("all", action["type"]):
                functools.reduce(_apply, ((state, seat, action),), None)
                types[action["type"]] += 1
            else:
                state.apply(seat, action)
            if args.census:
                young = gc.get_objects(0)  # (no comprehension: its function would be in it)
                census.update(map(shape, young))
                by_type[action["type"]] += len(young)
                if args.only is None:
                    types[action["type"]] += 1
            done += 1
    if args.only is not None:
        print(f"applied inside functools.reduce: {sum(types.values())} ({dict(types)})")
    if args.census:
        gc.unfreeze()
        gc.enable()
        print(f"{done} actions of {args.games} games ({total} in all)")
        print(f"tracked objects an action leaves alive: {sum(census.values()) / done:.3f}")
        for name, count in census.most_common(20):
            print(f"  {count / done:7.3f}  {name}")
        print("by the action's type (actions, objects alive an action):")
        for kind, count in types.most_common():
            print(f"  {kind:14} {count:6,}  {by_type[kind] / count:.3f}")


if __name__ == "__main__":
    main()
