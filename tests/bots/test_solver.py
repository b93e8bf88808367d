"""The perfect-information solver: a known win with a line that replays on the engine,
a proven loss, and an honest ``unknown`` out of budget."""

from __future__ import annotations

from dame_nature.bots.solver import apply_line, solve
from dame_nature.engine import Game


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
    apply_line(state, result.line, result.sides)
    assert state.result["outcome"] == "won"


def test_proven_loss_when_a_species_is_gone() -> None:
    """Three Species discarded on the first turn: no line without exchanges can win."""
    state = Game(3).new_initial_state(seed=4)
    for seat in range(3):
        top = [c for c in state.hands[seat] if c.startswith("species-") and c != "species-ortie"]
        state.apply(seat, {"type": "program", "card": top[0]})
    for seat in range(3):
        state.apply(seat, {"type": "ready"})
    while state.awaited() is not None:
        seat, _ = state.awaited()
        state.apply(seat, state.legal_actions(seat)[0])
    assert not state.is_over
    result = solve(state, node_budget=5000, time_budget=None)
    assert result.status == "lost"


def test_unknown_when_out_of_budget() -> None:
    state = Game(6).new_initial_state(seed=0)
    result = solve(state, node_budget=5, time_budget=None)
    assert result.status in ("unknown", "won")
    assert result.nodes <= 6
