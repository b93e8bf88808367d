"""The bot interface and the ``random`` level: legal, finishing, deterministic, view-only."""

from __future__ import annotations

import random

import pytest

from dame_nature.bots import LEVELS, legal_actions, make_bot
from dame_nature.bots.arena import play_game
from dame_nature.engine import MODES, Game


def random_setup(i: int) -> tuple[Game, int]:
    rng = random.Random(i)
    n = rng.randint(3, 6)
    modes = [m for m in MODES if rng.random() < 0.3]
    return Game(n, modes), i


def test_levels_and_unknown_level() -> None:
    assert "random" in LEVELS
    for level in LEVELS:
        assert make_bot(level, 0, seed=1).seat == 0
    with pytest.raises(ValueError, match="Unknown bot level"):
        make_bot("grandmaster", 0)


def test_random_bots_finish_1000_games_legally() -> None:
    outcomes = set()
    for i in range(1000):
        game, seed = random_setup(i)
        state = game.new_initial_state(seed=seed)
        bots = [make_bot("random", s, seed=seed * 7 + s) for s in range(game.num_players)]
        play_game(state, bots)  # an illegal action raises IllegalAction
        assert state.is_over
        outcomes.add(state.result["outcome"])
    assert "lost" in outcomes


def test_view_legal_actions_are_engine_legal() -> None:
    """The actions read off a view are the engine's list, exactly."""
    checked = 0

    def check(seat, view, action, seconds):  # noqa: ANN001
        nonlocal checked
        assert legal_actions(view) == states[-1].legal_actions(seat)
        checked += 1

    states = []
    for i in range(60):
        game, seed = random_setup(1000 + i)
        states.append(game.new_initial_state(seed=seed))
        bots = [make_bot("random", s, seed=s) for s in range(game.num_players)]
        play_game(states[-1], bots, on_decision=check)
    assert checked > 1000


def test_random_bot_is_deterministic_and_view_only() -> None:
    """Same seed, same game; views through JSON (as on a websocket) change nothing."""
    for i in range(20):
        game, seed = random_setup(2000 + i)
        histories = []
        for json_views in (False, True, False):
            state = game.new_initial_state(seed=seed)
            bots = [make_bot("random", s, seed=s + 100) for s in range(game.num_players)]
            play_game(state, bots, json_views=json_views)
            histories.append(state.history)
        assert histories[0] == histories[1] == histories[2]
