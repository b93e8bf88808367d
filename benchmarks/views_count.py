"""The views' work per action alone, for counting instructions under callgrind.

Run by hand: ``python benchmarks/views_count.py --actions N [--rooms N]``.

``--rooms`` rooms of 5 players (base game, every seat connected, seeded by room) play
``--actions`` random legal actions (a room drawn at random, one of its seats to act, one of
that seat's legal actions, all from one seeded generator; a game over is dealt again).
After each action the room's ``state`` messages are built for its 5 seats, as the
server's broadcast builds them (``server/views.py``'s ``StateMessages``): no store, no
socket, no client parsing the views (``action_path.py`` counts those too). Nothing is
timed: run it under ``valgrind --tool=callgrind`` at two counts of actions and divide the
difference of the totals by the difference of the counts, so that start-up cancels out::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=cg.%p \\
        python benchmarks/views_count.py --actions 500
    (the same with --actions 3000; (total at 3000 - total at 500) / 2500)

The count covers the engine's ``apply`` and the drawing of the action too, which a change
of the views leaves as they are.
"""

from __future__ import annotations

import argparse
import random

SEATS = 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--actions", type=int, default=3000)
    args = parser.parse_args()

    from dame_nature.engine import Game
    from dame_nature.server.rooms import Player, Room
    from dame_nature.server.views import StateMessages

    rng = random.Random(0)
    rooms = []
    for index in range(args.rooms):
        room = Room(code=f"{index:016d}", host_token="h", spec={"modes": []}, created_at=0.0,
                    updated_at=0.0)  # fmt: skip
        room.players = [Player(seat, f"Player {seat}", f"t{seat}") for seat in range(SEATS)]
        room.present = set(range(SEATS))
        room.status = "playing"
        room.state = Game(SEATS).new_initial_state(seed=index)
        rooms.append(room)
    done = 0
    while done < args.actions:
        room = rng.choice(rooms)
        state = room.state
        assert state is not None
        if state.is_over:
            room.state = Game(SEATS).new_initial_state(seed=rng.randrange(10**6))
            continue
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        room.version += 1
        messages = StateMessages(room)
        for each in range(SEATS):
            messages.text(each)
        done += 1


if __name__ == "__main__":
    main()
