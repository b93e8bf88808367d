"""The perfect-information solver: a win comes with a line that replays on the engine
(Symbioses included), a loss is proven (by the bounds or the exact search of the last
cards), ``unknown`` is honest out of budget, and no deal or position the bots won is
ever called lost."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from dame_nature.bots import make_bot
from dame_nature.bots.arena import play_game
from dame_nature.bots.expert import ExpertBot
from dame_nature.bots.solver import SolverResult, apply_line, review, solve, solve_sim
from dame_nature.bots.solver.review import played_line, turn_starts
from dame_nature.engine import MODES, Game, State
from tests.bots.workers import in_workers


def replays_to_a_win(state: State, result) -> bool:
    state = state.clone()
    apply_line(state, result.line, result.sides)
    return state.is_over and state.result["outcome"] == "won"


def test_known_win_replays_on_the_engine() -> None:
    state = Game(3).new_initial_state(seed=1)
    result = solve(state, node_budget=5000, time_budget=None)
    assert result.status == "won"
    apply_line(state, result.line, result.sides)
    assert state.is_over and state.result["outcome"] == "won"


def test_win_with_advanced_rules_replays() -> None:
    state = Game(4, ["species_reintroductions", "climate_change"]).new_initial_state(seed=2)
    result = solve(state, node_budget=5000, time_budget=None)
    assert result.status == "won"
    assert replays_to_a_win(state, result)


def test_a_win_that_needs_exchanges_replays() -> None:
    """The search without Symbioses finds no win here; Gives and discard swaps do, and
    the line's Symbioses replay on the engine (a Give and its answer, in programming)."""
    state = Game(4).new_initial_state(seed=0)
    result = solve(state, node_budget=40_000, time_budget=None)
    assert result.status == "won"
    kinds = {step["type"] for step in result.line}
    assert kinds & {"give", "swap_discard"}
    assert replays_to_a_win(state, result)


def test_sides_of_species_biodiversity_come_with_the_line() -> None:
    state = Game(4, ["species_biodiversity"]).new_initial_state(seed=2)
    assert state.phase == "choosing_sides"
    result = solve(state, node_budget=40_000, time_budget=None)
    assert result.status == "won"
    assert result.sides is not None and set(result.sides) <= {"plant", "animal"}
    assert replays_to_a_win(state, result)


def test_loss_proven_by_counting_the_cards_left() -> None:
    """Four Species discarded at three players (three discards allowed): no exchange
    brings the count back, since a discard swap puts a card in the pile for each one
    it takes."""
    state = Game(3).new_initial_state(seed=4)
    for _ in range(2):
        for seat in range(3):
            animals = [c for c in state.hands[seat] if c in ANIMALS_LAST]
            state.apply(seat, {"type": "program", "card": (animals or state.hands[seat])[0]})
        for seat in range(3):
            state.apply(seat, {"type": "ready"})
        while state.awaited() is not None:
            seat, _ = state.awaited()
            state.apply(seat, state.legal_actions(seat)[0])
    assert len(state.discard) > 3 and not state.is_over
    result = solve(state, node_budget=5000, time_budget=None)
    assert (result.status, result.proof) == ("lost", "bounds")


ANIMALS_LAST = (
    "species-aigle-royal",
    "species-herisson",
    "species-martre",
    "species-carabe-dore",
    "species-mesange-bleue",
    "species-campagnol",
)


def off_the_line(seed: int, turn: int) -> State:
    """A 4-player deal played along a winning line until ``turn``, then that turn with
    cards programmed and placed at random (fixed seed)."""
    state = Game(4).new_initial_state(seed=seed)
    found = solve(state, node_budget=60_000, time_budget=None)
    assert found.status == "won"
    apply_line(state, [s for s in found.line if s["turn"] < turn], found.sides)
    rng = random.Random(seed)
    for seat in range(4):
        state.apply(seat, {"type": "program", "card": rng.choice(state.hands[seat])})
    for seat in range(4):
        state.apply(seat, {"type": "ready"})
    while state.phase == "reveal":
        seat, _ = state.awaited()
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def test_exact_search_proves_a_late_loss_the_bounds_miss() -> None:
    state = off_the_line(10, 7)
    assert state.turn == 8 and len(state.discard) <= 2  # the counting bound holds
    result = solve(state, node_budget=100_000, time_budget=None)
    assert (result.status, result.proof) == ("lost", "exact")


def test_exact_search_finds_a_late_win_by_exchanges() -> None:
    state = off_the_line(2, 6)
    assert max(len(h) for h in state.hands) == 2
    assert solve_sim_without_exchanges(state) == "lost"
    result = solve(state, node_budget=100_000, time_budget=None)
    assert result.status == "won"
    assert any(step["type"] != "reveal" for step in result.line)
    assert replays_to_a_win(state, result)


def solve_sim_without_exchanges(state: State) -> str:
    from dame_nature.bots.solver import sim_from_state

    return solve_sim(sim_from_state(state), node_budget=100_000, time_budget=None).status


def test_unknown_when_out_of_budget() -> None:
    state = Game(6).new_initial_state(seed=0)
    result = solve(state, node_budget=5, time_budget=None)
    assert result.status in ("unknown", "won")
    assert result.nodes <= 12


# ------------------------------------------------------------------ bot games
def bot_game(i: int) -> State:
    """Game ``i``: 3 to 6 players, a few advanced rules, cheap experts at every seat."""
    rng = random.Random(i)
    n = rng.randint(3, 6)
    modes = [m for m in MODES if rng.random() < 0.15]
    state = Game(n, modes).new_initial_state(seed=i)
    return play_game(state, [ExpertBot(s, seed=i * 10 + s, worlds=1) for s in range(n)])


def check_game(state: State, node_budget: int) -> None:
    """No position of the game is called lost if the bots went on to win from it; every
    line the solver calls won replays to a win from its position. (A loss is proven by
    the bounds, whatever the budget, or by the exact search of the last two cards of
    each hand, which gets ten times the budget.)"""
    won = state.result["outcome"] == "won"
    deal = State.replay(state.setup, [])
    for start in turn_starts(state.setup, state.history)[:-1]:
        late = max(len(start.cards_of(s)) for s in range(start.num_players)) <= 2
        budget = node_budget * 10 if late else node_budget
        result = solve(start.clone(), node_budget=budget, time_budget=None)
        assert not (won and result.status == "lost"), (state.setup, start.turn)
        if result.status == "won":
            assert replays_to_a_win(start, result), (state.setup, start.turn)
            # the review's answer when the deal itself is undecided: the game, then this
            played = played_line(state, start.turn) + result.line
            whole = SolverResult("won", played, sides=result.sides or _sides_of(state))
            assert replays_to_a_win(deal, whole), (state.setup, start.turn)


def _sides_of(state: State) -> list[str] | None:
    return None if None in state.sides else list(state.sides)


@pytest.mark.parametrize("i", range(3))
def test_no_position_the_bots_won_is_called_lost(i: int) -> None:
    check_game(bot_game(i), node_budget=300)


def check_games(games: Sequence[int]) -> int:
    """``check_game`` on each of ``games``; how many the bots won."""
    wins = 0
    for i in games:
        state = bot_game(i)
        wins += state.result["outcome"] == "won"
        check_game(state, node_budget=300)
    return wins


@pytest.mark.slow
def test_no_position_the_bots_won_is_called_lost_200_games() -> None:
    wins = sum(in_workers(check_games, range(3, 203)))
    assert wins >= 5  # 7 at the time of writing: cheap experts, random rules


# ------------------------------------------------------------------ review
def lost_expert_game() -> State:
    return play_game(
        Game(4).new_initial_state(seed=5), [ExpertBot(s, seed=30 + s, worlds=1) for s in range(4)]
    )


def test_review_of_a_lost_game_finds_its_turning_point() -> None:
    state = lost_expert_game()
    assert state.result["outcome"] == "lost"
    answer = review(state.setup, state.history, time_budget=None, node_budget=200_000)
    assert answer["verdict"] == "won"
    assert replays_to_a_win(State.replay(state.setup, []), _as_result(answer))
    point = answer["turning_point"]
    assert point is not None and point["slipped_in"] == answer["last_winnable_turn"]
    assert point["turn"] == point["slipped_in"] + 1


def test_the_game_s_own_turns_then_a_line_win_the_deal() -> None:
    """What the review answers when the deal's own search runs out of budget but a
    later turn start is won: the game's steps before that turn (``played_line``), then
    the line found there, replay from the deal to a win."""
    state = lost_expert_game()
    start = turn_starts(state.setup, state.history)[1]
    found = solve(start.clone(), node_budget=20_000, time_budget=None)
    assert found.status == "won"
    played = played_line(state, start.turn)
    assert played and all(step["turn"] < start.turn for step in played)
    line = played + found.line
    deal = State.replay(state.setup, [])
    assert replays_to_a_win(deal, SolverResult("won", line))


def test_review_of_a_won_game_has_no_turning_point() -> None:
    state = Game(3).new_initial_state(seed=1)
    line = solve(state.clone(), node_budget=5000, time_budget=None)
    apply_line(state, line.line, line.sides)
    answer = review(state.setup, state.history, time_budget=None, node_budget=50_000)
    assert answer["verdict"] == "won" and answer["turning_point"] is None


def test_review_of_a_random_game_is_json() -> None:
    import json

    state = play_game(
        Game(5).new_initial_state(seed=4), [make_bot("random", s, seed=s) for s in range(5)]
    )
    answer = review(state.setup, state.history, time_budget=None, node_budget=50_000)
    assert json.loads(json.dumps(answer)) == answer
    assert set(answer) == {"verdict", "line", "sides", "turning_point", "last_winnable_turn"}


def _as_result(answer: dict):
    from dame_nature.bots.solver import SolverResult

    return SolverResult(answer["verdict"], answer["line"], sides=answer["sides"])
