"""Play whole games with bots at every seat, on the engine: the harness of the tests and
of ``benchmarks/bots.py``. This module holds the real ``State``; the bots never do: each
is handed only ``state.view(seat)``.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=2)
>>> bots = [make_bot("random", s, seed=s) for s in range(3)]
>>> play_game(state, bots).is_over
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any, cast

from ..engine.state import State
from . import make_bot
from .base import Bot

__all__ = ["BotStuck", "make_bot", "play_game"]


class BotStuck(RuntimeError):
    """No bot moved the game on although someone had to act."""


def play_game(
    state: State,
    bots: Sequence[Bot],
    *,
    json_views: bool = False,
    max_actions: int = 5000,
    on_decision: Callable[[int, dict[str, Any], dict[str, Any] | None, float], None] | None = None,
) -> State:
    """Play ``state`` to its end (in place), asking each seat that must act for its move.

    ``json_views`` hands each bot a JSON round trip of its view (as a websocket would);
    ``on_decision(seat, view, action, seconds)`` sees every call of ``act``.
    """
    for _ in range(max_actions):
        if state.is_over:
            return state
        moved = False
        for seat in sorted(state.current_players()):
            view = cast(dict[str, Any], state.view(seat))  # what a websocket carries
            if json_views:
                view = json.loads(json.dumps(view))
            start = time.perf_counter()
            action = bots[seat].act(view)
            elapsed = time.perf_counter() - start
            if on_decision is not None:
                on_decision(seat, view, action, elapsed)
            if action is not None:
                state.apply(seat, action)
                moved = True
                break  # views changed: ask again from the start
        if not moved:
            raise BotStuck(f"no bot acted: {state!r}, waiting for {state.current_players()}")
    raise BotStuck(f"the game did not end in {max_actions} actions: {state!r}")
