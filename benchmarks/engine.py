"""Engine benchmark: random legal games, clones and legal-action listings per second on
one core.

Run by hand: ``python benchmarks/engine.py [--seconds S] [--baseline SRC] [--rounds N]``.

- complete random legal games per second (5 players), for the base game and for all
  twelve advanced rules at once (``dame_nature.bots.random_play``: the bots' random player fed
  by the engine, listing only the action type it picks);
- ``State.clone()`` per second and ``legal_actions(seat)`` listings per second, on states
  sampled along random games (every seat that must act, every few actions), as a search
  bot would use them;
- the engine's part of the server's CPU per action: ``apply``, then the view of every
  seat and of a spectator, each serialised with ``orjson`` as the server sends it
  (random 5-player base games, from the first action to the last);
- the same with the server's own encoding: ``apply``, then the ``state`` message of
  every seat and of a spectator as the server builds them (``server/views.py``: the
  shared part encoded once a change, the pieces that did not change kept encoded), on
  the same games in a room of 5 connected players. ``--views`` measures only these two.

Rates are per second of this process's CPU time (``time.process_time``), so that other
work on a shared machine slows them less than it would wall-clock rates. With
``--baseline SRC`` (a source tree holding the ``dame_nature`` package, e.g. an export of
``main``'s ``src``), the same measures run on that code in a subprocess, alternating with
this one for ``--rounds`` rounds; each figure is the best round of each, and the ratios
compare them. The last line is ``engine_games_per_second: N`` (base game, this code).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from typing import Any

import orjson

from dame_nature.engine import MODES, Game, State

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir))
try:
    from dame_nature.bots.random_play import play_random_game, random_step
except ImportError:  # a ``--baseline`` tree from before it: its engine's own random player,
    # which drew the same numbers (the same games)
    from dame_nature.engine import play_random_game, random_step  # type: ignore[attr-defined,no-redef]


def games_per_second(modes: tuple[str, ...], seconds: float, players: int = 5) -> dict[str, float]:
    """Random games per CPU second over at least ``seconds``, and actions per game."""
    game = Game(players, modes)
    done = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or done == 0:
        state = game.new_initial_state(seed=done)
        play_random_game(state, random.Random(done))
        actions += len(state.history)
        done += 1
    return {"games_per_s": done / elapsed, "actions_per_game": actions / done}


def sample_states(modes: tuple[str, ...], players: int = 5, games: int = 20) -> list[State]:
    """States met along random games: every 4th action of ``games`` games."""
    game = Game(players, modes)
    states: list[State] = []
    for seed in range(games):
        state = game.new_initial_state(seed=seed)
        final = play_random_game(state.clone(), random.Random(seed))
        replayed = game.new_initial_state(seed=seed)
        for i, step in enumerate(final.history):
            if i % 4 == 0:
                states.append(replayed.clone())
            replayed.apply(step["seat"], step["action"])
    return states


def rate(work: Any, seconds: float) -> float:
    """Calls of ``work()`` (each doing ``n`` operations, returned) per CPU second."""
    done = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or done == 0:
        done += work()
    return done / elapsed


def search_rates(modes: tuple[str, ...], seconds: float) -> dict[str, float]:
    states = sample_states(modes)
    seats = [(s, seat) for s in states for seat in sorted(s.current_players())]

    def clones() -> int:
        for s in states:
            s.clone()
        return len(states)

    def listings() -> int:
        for s, seat in seats:
            s.legal_actions(seat)
        return len(seats)

    return {"clones_per_s": rate(clones, seconds), "listings_per_s": rate(listings, seconds)}


def view_ms_per_action(seconds: float, players: int = 5) -> float:
    """CPU milliseconds per action for ``apply`` plus every seat's and a spectator's
    view, serialised (what the server does after each action, but the network)."""
    game = Game(players, ())
    seats = [None, *range(players)]
    done = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or done == 0:
        state = game.new_initial_state(seed=done)
        rng = random.Random(done)
        while not state.is_over:
            state.apply(*random_step(state, rng))
            actions += 1
            for seat in seats:
                orjson.dumps({"type": "state", "view": state.view(seat)})
        done += 1
    return elapsed / actions * 1000


def messages_ms_per_action(seconds: float, players: int = 5) -> float:
    """CPU milliseconds per action for ``apply`` plus the ``state`` message of every
    seat and of a spectator, as the server encodes them after each action."""
    from dame_nature.server.rooms import Player, Room
    from dame_nature.server.views import StateMessages

    game = Game(players, ())
    seats = [None, *range(players)]
    done = actions = 0
    start = time.process_time()
    while (elapsed := time.process_time() - start) < seconds or done == 0:
        room = Room(code="r" * 16, host_token="h", spec={"modes": []}, created_at=0.0,
                    updated_at=0.0)  # fmt: skip
        room.players = [Player(s, f"Player {s}", f"t{s}") for s in range(players)]
        room.present = set(range(players))
        room.status = "playing"
        room.state = state = game.new_initial_state(seed=done)
        rng = random.Random(done)
        while not state.is_over:
            state.apply(*random_step(state, rng))
            room.version += 1
            actions += 1
            messages = StateMessages(room)
            for seat in seats:
                messages.text(seat)
        done += 1
    return elapsed / actions * 1000


def measure_views(seconds: float) -> dict[str, float]:
    return {
        "view_ms_per_action": view_ms_per_action(seconds),
        "messages_ms_per_action": messages_ms_per_action(seconds),
    }


def measure(seconds: float) -> dict[str, float]:
    base = games_per_second((), seconds)
    everything = games_per_second(MODES, seconds)
    search = search_rates(MODES, seconds / 2)
    return {
        "base_games_per_s": base["games_per_s"],
        "base_actions_per_game": base["actions_per_game"],
        "all_games_per_s": everything["games_per_s"],
        "all_actions_per_game": everything["actions_per_game"],
        **search,
        **measure_views(seconds),
    }


LABELS = {
    "base_games_per_s": "base game, 5 players: games/s",
    "all_games_per_s": "all twelve rules, 5 players: games/s",
    "clones_per_s": "State.clone() per second (all rules, mid-game states)",
    "listings_per_s": "legal_actions(seat) listings per second (all rules)",
    "view_ms_per_action": "CPU ms per action: apply + 6 views serialised (base game)",
    "messages_ms_per_action": "CPU ms per action: apply + the server's 6 state messages",
}
#: the figures where less is better
LESS = ("view_ms_per_action", "messages_ms_per_action")


def _fmt(value: float) -> str:
    return f"{value:.3f}" if value < 10 else f"{value:,.0f}"


def run_in(src: str, seconds: float, views: bool) -> dict[str, float]:
    """``measure`` in a subprocess importing ``dame_nature`` from ``src``."""
    env = {**os.environ, "PYTHONPATH": src}
    out = subprocess.run(
        [sys.executable, __file__, "--seconds", str(seconds), "--json", *(["--views"] * views)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    ).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=3.0, help="CPU time per measure")
    parser.add_argument("--baseline", help="a source tree (src/) of the code to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (baseline)")
    parser.add_argument("--views", action="store_true", help="only the views' CPU per action")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    run = measure_views if args.views else measure
    if args.json:
        print(json.dumps(run(args.seconds)))
        return
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    if args.baseline:
        here = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "src")
        ours: list[dict[str, float]] = []
        theirs: list[dict[str, float]] = []
        for _ in range(args.rounds):
            theirs.append(run_in(args.baseline, args.seconds, args.views))
            ours.append(run_in(os.path.abspath(here), args.seconds, args.views))
        # each figure's best round: the most per second, the least milliseconds
        best = {k: min if k in LESS else max for k in ours[0]}
        mine = {k: best[k](r[k] for r in ours) for k in ours[0]}
        old = {k: best[k](r[k] for r in theirs) for k in theirs[0]}
        for key, label in LABELS.items():
            if key in mine:
                print(
                    f"{label}: {_fmt(mine[key])} (baseline {_fmt(old[key])}, "
                    f"x{mine[key] / old[key]:.2f})"
                )
    else:
        mine = run(args.seconds)
        for key, label in LABELS.items():
            if key in mine:
                print(f"{label}: {_fmt(mine[key])}")
    if args.views:
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return
    print(
        f"actions per game: base {mine['base_actions_per_game']:.0f}, "
        f"all rules {mine['all_actions_per_game']:.0f}"
    )
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    print(f"engine_games_per_second: {mine['base_games_per_s']:.0f}")


if __name__ == "__main__":
    main()
