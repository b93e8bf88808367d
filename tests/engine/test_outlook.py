"""``outlook.lost_reason``: why a game can no longer be won, from public facts only."""

from __future__ import annotations

import random

import pytest

from dame_nature.bots.random_play import random_step
from dame_nature.engine import State
from dame_nature.engine.game import get_game
from dame_nature.engine.outlook import lost_reason


def play_until_lost(num_players: int, modes: tuple[str, ...], seed: int) -> State:
    state = get_game(num_players, modes).new_initial_state(seed=seed)
    rng = random.Random(seed)
    while not state.is_over and state.is_winnable():
        assert lost_reason(state) is None
        seat, action = random_step(state, rng)
        if action["type"] != "end_game":
            state.apply(seat, action)
    return state


@pytest.mark.parametrize(
    ("num_players", "modes", "seed"),
    [(4, (), 1), (3, (), 2), (5, ("first_predator",), 3), (4, ("wetland",), 4)],
)
def test_the_reason_states_the_public_facts(num_players, modes, seed):
    state = play_until_lost(num_players, modes, seed)
    reason = lost_reason(state)
    assert reason is not None
    assert reason["cards_left"] == state.cards_left()
    assert reason["discards"] == len(state.discard)
    assert reason["max_discards"] == state.max_discards()
    assert reason["places_empty"] == list(state.web.values()).count(None)
    assert (
        reason["cards_left"] < reason["places_empty"] + reason["cards_to_play"]
        or reason["deadlocked"]
    )
    for species in reason["species_lost"]:
        assert species in state.discard and state.web[species] is None
    for short in reason["colours_short"]:
        assert short["places"] > short["cards"]
    assert reason["text"]["en"] and reason["text"]["fr"]


def test_the_reason_does_not_depend_on_who_holds_what():
    """Hands exchanged between players (same sizes) give the same reason: no leak."""
    state = play_until_lost(4, (), 5)
    reason = lost_reason(state)
    other = State.from_json(state.to_json())
    sizes = [len(h) for h in other.hands]
    cards = [c for h in other.hands for c in h]
    random.Random(0).shuffle(cards)
    other.hands = [cards[sum(sizes[:i]) : sum(sizes[: i + 1])] for i in range(len(sizes))]
    assert lost_reason(other) == reason


def test_a_colour_short_is_named_as_the_cards_name_it():
    """A colour without enough Conditions left is told as its cards say it, with their
    letter ("Thermal [T]"), never by the colour alone ("yellow")."""
    state = next(
        s
        for s in (play_until_lost(3, (), seed) for seed in range(40))
        if (lost_reason(s) or {}).get("colours_short")
    )
    reason = lost_reason(state)
    assert reason is not None
    words = {"blue": "Hydri", "yellow": "Therm", "green": "Géolog", "violet": "Atmosph"}
    letters = {"blue": "H", "yellow": "T", "green": "G", "violet": "A"}
    for short in reason["colours_short"]:
        for lang in ("en", "fr"):
            assert f"{words[short['colour']]}" in reason["text"][lang], reason["text"][lang]
            assert f"[{letters[short['colour']]}]" in reason["text"][lang]
    for colour in ("blue", "yellow", "green", "violet", "bleue", "jaune", "verte", "violette"):
        assert colour not in reason["text"]["en"].lower().split()
        assert colour not in reason["text"]["fr"].lower().split()
