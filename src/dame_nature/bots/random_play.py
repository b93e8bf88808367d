"""Random legal games straight from the engine, for tests and benchmarks that need no
views: the bots' random player (``dame_nature.bots.random_bot.choose_among``, its weights
in one place) fed with the engine's legal action types, listing only the type it picks.

>>> import random
>>> from dame_nature.engine import Game
>>> state = Game(4, ["first_predator"]).new_initial_state(seed=3)
>>> play_random_game(state, random.Random(0)).is_over
True
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

from dame_nature.bots.random_bot import choose_among
from dame_nature.engine import ACTIONS, State

READY = ACTIONS["ready"]


def random_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """A random legal action of ``seat``: whether it may say ready and, when needed, its
    legal types and the options of the type chosen, as the action registry gives them."""
    ready = state.phase in READY.phases and READY.available(state, seat)
    return choose_among(
        partial(state.legal_action_types, seat),
        lambda kind: ACTIONS[kind].options(state, seat),
        rng,
        ready=ready,
    )


def random_step(state: State, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat the table waits for, and a random legal action of it."""
    seats = state.to_act()
    if not seats:
        raise ValueError("no one can act: the game is over")
    seat = rng.choice(seats)
    return seat, random_action(state, seat, rng)


def play_random_game(state: State, rng: random.Random, max_actions: int = 20_000) -> State:
    """Play ``state`` to its end with random legal actions (in place); returns it."""
    for _ in range(max_actions):
        if state.is_over:
            return state
        state.apply(*random_step(state, rng))
    raise RuntimeError(f"game did not end in {max_actions} actions")
