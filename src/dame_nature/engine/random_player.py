"""A random legal player, for tests, load tests and as the simplest bot.

It picks among ``legal_actions`` with weights that keep games moving (it programs and
says ready far more often than it trades cards), so random games finish.

>>> import random
>>> from dame_nature.engine import Game
>>> state = Game(4, ["first_predator"]).new_initial_state(seed=3)
>>> play_random_game(state, random.Random(0)).is_over
True
"""

from __future__ import annotations

import random
from typing import Any

from .state import State

WEIGHTS = {
    "program": 4.0,
    "ready": 6.0,
    "unready": 0.2,
    "show": 0.3,
    "give": 0.3,
    "swap_discard": 0.3,
    "give_back": 1.0,
    "reveal": 1.0,
    "choose_side": 1.0,
    "end_game": 1.0,
}


def choose_action(state: State, seat: int, rng: random.Random) -> dict[str, Any]:
    """One legal action for ``seat``, at random with ``WEIGHTS``."""
    if state.programmed[seat] is not None and not state.ready[seat] and rng.random() < 0.7:
        ready = {"type": "ready"}
        if state.is_legal(seat, ready):  # cheaper than listing every action
            return ready
    by_type = state.legal_actions_by_type(seat)
    if not by_type:
        raise ValueError(f"seat {seat} has no legal action")
    kinds = list(by_type)
    kind = rng.choices(kinds, weights=[WEIGHTS.get(k, 1.0) for k in kinds])[0]
    return rng.choice(by_type[kind])


def random_step(state: State, rng: random.Random) -> tuple[int, dict[str, Any]]:
    """A seat that must act, and a random legal action for it."""
    seats = sorted(state.current_players())
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
