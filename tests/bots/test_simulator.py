"""The bots' simulator follows the engine: every reveal of many random games, under random
rule sets, resolves in the simulator exactly as in the engine."""

from __future__ import annotations

import random

from dame_nature.bots.random_play import random_step
from dame_nature.bots.simulator import Sim
from dame_nature.bots.solver import sim_from_state
from dame_nature.engine import MODES, Game
from dame_nature.engine.state import State


def check_turn(before: Sim, state: State, records: list[dict]) -> None:
    sim = before.copy()
    sim.start_turn()
    for record in records:
        prev = sim.turn_records[-1] if sim.turn_records else None
        options = sim.outcomes(record["seat"], record["card"], prev)
        match = [
            o
            for o in options
            if (o.slot, o.target) == (record["slot"], record["target"])
            and (o.colour == record["colour"] or o.colour is None)
        ]
        assert match, (record, options)
        sim.resolve(record["seat"], record["card"], match[0])
    if not sim.over:
        sim.end_turn()
    assert sim.web == state.web
    assert sim.discards == len(state.discard)
    assert sim.over == state.is_over
    if state.is_over:
        assert sim.won == (state.result["outcome"] == "won")
    else:
        assert sim.first == state.first_player
        assert [sorted(h) for h in sim.hands] == [
            sorted(state.cards_of(s)) for s in range(state.num_players)
        ]
        assert sim.winnable() == state.is_winnable()


def test_simulator_matches_engine_on_random_games() -> None:
    turns = 0
    for i in range(200):
        rng = random.Random(i)
        n = rng.randint(3, 6)
        modes = [m for m in MODES if rng.random() < 0.35]
        state = Game(n, modes).new_initial_state(seed=i)
        snapshot = None
        while not state.is_over:
            if state.phase == "programming":
                snapshot = sim_from_state(state)
                turn = state.turn
            seat, action = random_step(state, rng)
            state.apply(seat, action)
            if action["type"] == "end_game":
                break
            if snapshot is not None and (state.is_over or state.turn != turn):
                over_mid_turn = state.is_over and state.revealed_this_turn
                records = state.revealed_this_turn if over_mid_turn else state.last_turn
                check_turn(snapshot, state, records)
                snapshot = None
                turns += 1
    assert turns > 400


def test_outcomes_kept_for_a_web_follow_each_copy() -> None:
    """A copy shares the outcomes found for its web until one of them changes it: the
    copy placing a card sees the web it made, the original still its own."""
    from dame_nature.bots.policy import best_outcome
    from dame_nature.bots.simulator import get_rules

    hands = [["cond-blue-1", "cond-blue-2", "joker-1"], [], [], []]
    sim = Sim.empty(get_rules(4, ()), first=0, hands=hands)
    slots = [o.slot for o in sim.outcomes(0, "cond-blue-1", None)]
    best_joker = best_outcome(sim, 0, "joker-1", None)
    other = sim.copy()
    other.resolve(0, "cond-blue-1", other.outcomes(0, "cond-blue-1", None)[0])
    assert [o.slot for o in other.outcomes(0, "cond-blue-2", None)] == slots[1:]
    assert best_outcome(other, 0, "joker-1", None)[1].slot != slots[0]
    assert [o.slot for o in sim.outcomes(0, "cond-blue-2", None)] == slots
    assert best_outcome(sim, 0, "joker-1", None) == best_joker
