"""The ``expert`` level and the bots in general: legal, never stuck, deterministic, and
reading nothing but the views they are handed."""

from __future__ import annotations

import ast
import random
from collections.abc import Sequence
from pathlib import Path

import pytest

from dame_nature.bots import make_bot
from dame_nature.bots.arena import play_game
from dame_nature.bots.expert import ExpertBot
from dame_nature.bots.greedy import GreedyBot
from dame_nature.engine import MODES, Game
from tests.bots.workers import in_workers

BOTS_DIR = Path(__file__).resolve().parents[2] / "src" / "dame_nature" / "bots"
#: the engine modules a bot may import: static data and pure functions, no State
STATIC = ("cards", "french", "game", "rules")


def table(i: int, worlds: int = 1) -> tuple[Game, list]:
    """Game ``i`` of a sweep: random player count, random rules, random players at the
    seats (experts on a cheap budget, random and greedy players), so experts meet
    partners who follow none of their conventions and random partners' Symbioses too."""
    rng = random.Random(i)
    n = rng.randint(3, 6)
    modes = [m for m in MODES if rng.random() < 0.3]
    bots = []
    for seat in range(n):
        kind = rng.random()
        if kind < 0.6:
            bots.append(ExpertBot(seat, seed=i * 10 + seat, worlds=worlds))
        elif kind < 0.75:
            bots.append(GreedyBot(seat, seed=i * 10 + seat))
        else:
            bots.append(make_bot("random", seat, seed=i * 10 + seat))
    return Game(n, modes), bots


def sweep(games: Sequence[int]) -> set[str]:
    """Plays games ``games`` of the sweep to their end; their outcomes."""
    outcomes = set()
    for i in games:
        game, bots = table(i)
        state = game.new_initial_state(seed=i)
        play_game(state, bots)  # an illegal action raises IllegalAction; BotStuck if stuck
        assert state.is_over
        outcomes.add(state.result["outcome"])
    return outcomes


def test_expert_plays_legal_games_to_their_end() -> None:
    assert sweep(range(60))


@pytest.mark.slow
def test_expert_sweep_1000_games() -> None:
    """1,000 games (with the 1,000 all-random games of test_random_bot.py)."""
    assert set().union(*in_workers(sweep, range(60, 1000))) >= {"lost"}


def test_all_expert_tables_every_rule() -> None:
    """Every seat an expert, each advanced rule alone and all twelve together."""
    for i, modes in enumerate([[m] for m in MODES] + [list(MODES)]):
        n = 3 + i % 4
        state = Game(n, modes).new_initial_state(seed=100 + i)
        play_game(state, [ExpertBot(s, seed=s, worlds=2) for s in range(n)])
        assert state.is_over


def test_expert_wins_some_three_player_games() -> None:
    won = 0
    for seed in range(6):
        state = Game(3).new_initial_state(seed=seed)
        play_game(state, [ExpertBot(s, seed=s, worlds=6) for s in range(3)])
        won += state.result["outcome"] == "won"
    assert won >= 1


def test_same_seed_same_game_and_json_views_change_nothing() -> None:
    """Deterministic for a seed; views through JSON (as on a websocket) act the same."""
    for i in range(4):
        game, _ = table(500 + i)
        histories = []
        for json_views in (False, True, False):
            _, bots = table(500 + i, worlds=3)
            state = game.new_initial_state(seed=i)
            play_game(state, bots, json_views=json_views)
            histories.append(state.history)
        assert histories[0] == histories[1] == histories[2]


def test_expert_ignores_extra_server_fields() -> None:
    state = Game(4).new_initial_state(seed=3)
    view = state.view(0)
    extra = {**view, "room": "abc", "version": 7, "status": "playing", "game": 1}
    extra["players"] = [{**p, "name": "x", "connected": True, "bot": None} for p in view["players"]]
    a = make_bot("expert", 0, seed=1).act(view)
    b = make_bot("expert", 0, seed=1).act(extra)
    assert a == b and a is not None


def test_bot_modules_cannot_reach_the_engine_state() -> None:
    """The bots import nothing of the engine but its static parts: the card data and the
    French grammar of their names, a game's configuration (``get_game``: topology, deck) and
    the rules' pure functions their simulator calls. They are handed views, never a
    ``State``. (The arena and the random player, which play games on the engine for tests
    and benchmarks, and the solver, which is given a whole State on purpose, are the
    exceptions.)"""
    allowed = {f"{prefix}engine.{m}" for prefix in ("..", "dame_nature.") for m in STATIC}
    for path in BOTS_DIR.glob("*.py"):
        if path.stem in ("arena", "random_play", "solver"):
            continue
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                name = "." * node.level + (node.module or "")
                if "engine" in name:
                    assert name in allowed, f"{path.name} imports {name}"
                    names = {a.name for a in node.names}
                    assert "State" not in names, f"{path.name} imports State"
                    if name.endswith("engine.game"):
                        assert names <= {"get_game"}, names
                if node.level == 1 and node.module == "solver":
                    # the rollouts may search the bots' own sampled positions
                    names = {a.name for a in node.names}
                    assert names <= {"can_win"}, names
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    assert "engine" not in alias.name or alias.name in allowed


def test_expert_ends_an_unwinnable_game() -> None:
    """Species revealed before their Conditions until the game cannot be won: the
    expert, seeing ``winnable`` false, ends it."""
    state = Game(3).new_initial_state(seed=4)
    while state.is_winnable():
        for seat in range(3):
            hand = state.hands[seat]
            doomed = [c for c in hand if c.startswith("species-")] or hand
            state.apply(seat, {"type": "program", "card": doomed[0]})
        for seat in range(3):
            state.apply(seat, {"type": "ready"})
        while state.awaited() is not None:
            seat, _ = state.awaited()
            state.apply(seat, state.legal_actions(seat)[0])
    assert not state.is_over
    for seat in range(3):
        assert make_bot("expert", seat, seed=0).act(state.view(seat)) == {"type": "end_game"}
