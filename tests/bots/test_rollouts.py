"""The expert's rollouts predict each turn as its players would program it
(``policy.play_turn``): the show chain's revealers greedily, their programs shown, every
other seat by the base policy, blind to the reveals before it it was not shown."""

from __future__ import annotations

import pytest

from dame_nature.bots.expert import predict_programs
from dame_nature.bots.policy import greedy_move, program_choice, turn_programs
from dame_nature.bots.shows import SHOW_CHAIN, chain_length
from dame_nature.bots.simulator import Sim
from dame_nature.bots.solver import sim_from_state
from dame_nature.engine import Game


def deal(n: int, seed: int, modes: tuple[str, ...] = ()) -> Sim:
    sim = sim_from_state(Game(n, list(modes)).new_initial_state(seed=seed))
    sim.start_turn()
    return sim


def with_hands_swapped(sim: Sim, a: int, b: int) -> Sim:
    """``sim`` with the hands of seats ``a`` and ``b`` exchanged (the same sizes: the
    first turn's deal)."""
    other = sim.copy()
    other.hands[a], other.hands[b] = sim.hands[b], sim.hands[a]
    return other


def test_a_program_does_not_depend_on_an_unshown_earlier_reveal() -> None:
    """At 4 players the first player shows its program; the third revealer does not see
    the second's card, so the second's hand does not change the third's program (it
    changes that of the greedy all-seeing play on some of these deals)."""
    for seed in range(30):
        sim = deal(4, seed)
        order = sim.order()
        second, third, fourth = order[1], order[2], order[3]
        programs = turn_programs(sim)
        other = turn_programs(with_hands_swapped(sim, second, fourth))
        assert other[third] == programs[third], seed


def test_the_shown_program_is_seen_and_played_greedily() -> None:
    """The chain's revealer plays its best-looking card; the next revealer programs
    knowing it was revealed just before."""
    for seed in range(10):
        sim = deal(4, seed)
        order = sim.order()
        programs = turn_programs(sim)
        head = sim.copy()
        card, outcome = greedy_move(head, order[0], None)
        assert programs[order[0]] == card, seed
        record = head.resolve(order[0], card, outcome)
        assert programs[order[1]] == program_choice(head, order[1], record, 0), seed


@pytest.mark.parametrize("n", [5, 6])
def test_the_chain_heads_the_turn_at_5_and_6_players(n: int) -> None:
    """The first ``SHOW_CHAIN`` revealers are shown; the first revealer after the chain
    sees the last of them, and the one after it does not see that one's card."""
    assert chain_length(n, ()) == SHOW_CHAIN[n]
    for seed in range(10):
        sim = deal(n, seed)
        order = sim.order()
        k = SHOW_CHAIN[n]
        after, later, last = order[k], order[k + 1], order[-1]
        programs = turn_programs(sim)
        if later != last:
            other = turn_programs(with_hands_swapped(sim, after, last))
            assert other[later] == programs[later], seed


def test_privileged_symbioses_show_to_the_next_revealer_only() -> None:
    """Under Privileged Symbioses the first player's program is seen by the next
    revealer alone: the third revealer programs on the web as the turn began, two
    unknown revealers before it."""
    modes = ("privileged_symbioses",)
    assert chain_length(4, modes) == 1
    for seed in range(20):
        sim = deal(4, seed, modes)
        order = sim.order()
        programs = turn_programs(sim)
        assert programs[order[2]] == program_choice(sim, order[2], None, 2), seed
        other = turn_programs(with_hands_swapped(sim, order[0], order[3]))
        assert other[order[2]] == programs[order[2]], seed


def test_no_chain_when_symbioses_show_nothing() -> None:
    """Under Incomplete Symbioses no program is shown: the second revealer programs
    with one unknown revealer before it."""
    modes = ("incomplete_symbioses",)
    assert chain_length(4, modes) == 0
    for seed in range(20):
        sim = deal(4, seed, modes)
        order = sim.order()
        programs = turn_programs(sim)
        for i, seat in enumerate(order):
            assert programs[seat] == program_choice(sim, seat, None, i), seed


def test_turn_programs_leaves_the_position_alone() -> None:
    sim = deal(4, 3)
    before = ([list(h) for h in sim.hands], dict(sim.web), sim.discards)
    turn_programs(sim)
    assert ([list(h) for h in sim.hands], dict(sim.web), sim.discards) == before


def test_the_expert_s_turn_prediction_keeps_a_privileged_show_to_its_recipient() -> None:
    """Under Privileged Symbioses the first player's shown program reaches the next
    revealer only: the expert predicts the later revealers on the web as the turn began,
    whatever the first player programmed."""
    for seed in range(20):
        sim = deal(4, seed, ("privileged_symbioses",))
        order = sim.order()
        first = order[0]
        predicted = {
            card: predict_programs(sim, order, {first: card}, {first: card}, to_all=False)
            for card in dict.fromkeys(sim.hands[first])
        }
        for programs in predicted.values():
            assert programs[order[2]] == program_choice(sim, order[2], None, 2), seed
            assert programs[order[3]] == program_choice(sim, order[3], None, 3), seed
