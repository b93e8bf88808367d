"""Random legal play over every player count and any combination of advanced rules, with
the invariants checked after every action."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, Game, IllegalAction, State

from .invariants import check_invariants, check_queries_agree, check_round_trip

MAX_ACTIONS = 5_000

players = st.integers(min_value=3, max_value=6)
mode_sets = st.lists(st.sampled_from(MODES), unique=True)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def play(state: State, rng: random.Random, on_step=None) -> list[tuple[int, dict]]:
    """Play to the end, checking invariants; the actions, for a failure's report."""
    actions: list[tuple[int, dict]] = []
    check_invariants(state)
    while not state.is_over:
        assert len(actions) < MAX_ACTIONS, "the game did not end"
        seat, action = random_step(state, rng)
        if on_step is not None:
            on_step(state, seat)
        state.apply(seat, action)
        actions.append((seat, action))
        check_invariants(state)
    assert state.current_players() == set()
    assert all(state.legal_actions(s) == [] for s in range(state.num_players))
    return actions


def every_legal_action_applies(state: State, seat: int, rng: random.Random, most: int = 6) -> None:
    """``legal_actions`` never offers an action that ``apply`` refuses (checked on a
    sample of one action of each type, then random ones, ``most`` in all)."""
    by_type = state.legal_actions_by_type(seat)
    sample = [group[0] for group in by_type.values()]
    everything = [a for group in by_type.values() for a in group]
    sample += rng.sample(everything, min(len(everything), max(0, most - len(sample))))
    for action in sample:
        state.clone().apply(seat, action)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(n=players, modes=mode_sets, seed=seeds, play_seed=seeds)
def test_random_games_keep_invariants_and_legal_actions_apply(n, modes, seed, play_seed) -> None:
    state = Game(n, modes).new_initial_state(seed=seed)
    rng = random.Random(play_seed)
    check_rng = random.Random(play_seed + 1)
    steps = 0

    def on_step(s: State, seat: int) -> None:
        nonlocal steps
        steps += 1
        if steps % 5 == 0:
            every_legal_action_applies(s, seat, check_rng)
        if steps % 20 == 0:
            check_round_trip(s)
        if steps % 7 == 0:
            check_queries_agree(s)

    play(state, rng, on_step)
    check_round_trip(state)
    assert state.result["outcome"] in ("won", "lost")
    assert state.result["discards"] == len(state.discard)


@settings(max_examples=60, deadline=None)
@given(n=players, modes=mode_sets, seed=seeds, play_seed=seeds)
def test_replay_from_setup_and_actions_is_identical(n, modes, seed, play_seed) -> None:
    state = Game(n, modes).new_initial_state(seed=seed)
    play(state, random.Random(play_seed))
    again = State.replay(state.setup, state.history)
    assert again.to_json() == state.to_json()


@settings(max_examples=30, deadline=None)
@given(n=players, modes=mode_sets, seed=seeds, play_seed=seeds, junk=st.data())
def test_refused_actions_change_nothing(n, modes, seed, play_seed, junk) -> None:
    state = Game(n, modes).new_initial_state(seed=seed)
    rng = random.Random(play_seed)
    card_ids = st.sampled_from(["cond-blue-1", "joker-1", "species-aigle-royal", "cat-1", "nope"])
    bad_actions = st.one_of(
        st.fixed_dictionaries(
            {
                "type": st.sampled_from(["program", "show", "give", "give_back"]),
                "card": card_ids,
                "to": st.integers(-1, 7),
            }
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("reveal"),
                "slot": st.text(max_size=20),
                "colour": st.sampled_from([None, "blue", "red"]),
            }
        ),
        st.fixed_dictionaries(
            {"type": st.just("swap_discard"), "card": card_ids, "take": card_ids}
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["ready", "unready", "end_game", "choose_side", "fly", ""])}
        ),
        st.dictionaries(st.text(max_size=5), st.integers()),
    )
    while not state.is_over:
        for _ in range(2):
            seat = junk.draw(st.integers(0, n - 1))
            action = junk.draw(bad_actions)
            before = state.to_json()
            try:
                state.apply(seat, action)
            except IllegalAction as err:
                assert isinstance(err, ValueError) and str(err) and err.code
                assert state.to_json() == before
        if not state.is_over:
            state.apply(*random_step(state, rng))


def test_thousands_of_seeded_games_end_with_invariants() -> None:
    """A plain seeded sweep (cheaper than hypothesis): 2,000 games over every player count
    and pseudo-random mode sets, every one to its end."""
    outcomes = {"won": 0, "lost": 0}
    for i in range(2_000):
        rng = random.Random(i)
        modes = [m for m in MODES if rng.random() < 0.35]
        state = Game(3 + i % 4, modes).new_initial_state(seed=i)
        try:
            play(state, rng)
        except AssertionError as err:  # print what replays the failure
            raise AssertionError(f"seed={i} modes={modes} players={3 + i % 4}: {err}") from err
        outcomes[state.result["outcome"]] += 1
    assert outcomes["lost"] > 0
