"""A random legal player, for tests, load tests and as the simplest bot.

It picks an action type among those legal now with the weights of the action registry
(``ActionSpec.random_weight``: it programs and says ready far more often than it trades
cards, so random games finish), then one action of that type. Only the chosen type's
actions are listed, which keeps it fast.

>>> import random
>>> from dame_nature.engine import Game
>>> state = Game(4, ["first_predator"]).new_initial_state(seed=3)
>>> play_random_game(state, random.Random(0)).is_over
True
"""

from __future__ import annotations

import random
from bisect import bisect
from itertools import accumulate
from typing import Any

from .actions import ACTIONS
from .state import State

#: the weight of each action type (from the registry)
WEIGHTS = {kind: spec.random_weight for kind, spec in ACTIONS.items()}


def choose_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """One legal action for ``seat``, at random with ``WEIGHTS``."""
    if (
        state.programmed[seat] is not None
        and not state.ready[seat]
        and rng.random() < 0.7
        and state.phase == "programming"  # then "ready" is legal: no need to list actions
    ):
        return {"type": "ready"}
    kinds = state.legal_action_types(seat)
    if not kinds:
        raise ValueError(f"seat {seat} has no legal action")
    # ``rng.choices(kinds, weights)[0]``, drawing the same number
    cumulative = list(accumulate(WEIGHTS[k] for k in kinds))
    kind = kinds[bisect(cumulative, rng.random() * cumulative[-1], 0, len(kinds) - 1)]
    return rng.choice(ACTIONS[kind].options(state, seat))


def random_step(state: State, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat that must act, and a random legal action for it."""
    seats = state.to_act()
    if not seats:
        raise ValueError("no one can act: the game is over")
    seat = rng.choice(seats)
    return seat, choose_action(state, seat, rng)


def play_random_game(state: State, rng: random.Random, max_actions: int = 20_000) -> State:
    """Play ``state`` to its end with random legal actions (in place); returns it."""
    for _ in range(max_actions):
        if state.is_over:
            return state
        seat, action = random_step(state, rng)
        state.apply(seat, action)
    raise RuntimeError(f"game did not end in {max_actions} actions")
