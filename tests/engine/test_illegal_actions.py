"""Refused actions: each raises ``IllegalAction`` (a ``ValueError``) with a sentence for a
person and leaves ``state.to_json()`` unchanged; and ``legal_actions`` offers only actions
that ``apply`` accepts."""

import pytest

from dame_nature.engine import IllegalAction
from tests.engine.helpers import (
    PLANTS_3P,
    assert_illegal,
    assert_legal_actions_accepted,
    new_state,
    play_any_turn,
    play_turn,
    program_all,
    ready_all,
)
from tests.engine.rules.test_species_reintroductions import POLLUTION_5P
from tests.engine.rules.test_wetland import WETLAND_GAME, wetland_turns


def state4():
    return new_state(4, plays={0: ["cond-blue-1", "joker-1"], 1: ["species-ortie"]})


@pytest.mark.parametrize("seat", [-1, 4, "0", True, None, 1.0])
def test_no_such_seat(seat):
    error = assert_illegal(
        state4(), seat, {"type": "program", "card": "cond-blue-1"}, "no such seat"
    )
    assert error.code == "invalid_seat"


@pytest.mark.parametrize(
    ("action", "match"),
    [
        (None, "object with a 'type'"),
        ("program", "object with a 'type'"),
        ({}, "object with a 'type'"),
        ({"type": 3}, "object with a 'type'"),
        ({"type": "teleport"}, "Unknown action type 'teleport'"),
        ({"type": "_do_program", "card": "cond-blue-1"}, "Unknown action type"),
        ({"type": "program"}, "Unknown card None"),
        ({"type": "program", "card": "species-dodo"}, "Unknown card"),
        ({"type": "program", "card": ["cond-blue-1"]}, "Unknown card"),
        ({"type": "program", "card": "species-ortie"}, "not in your hand"),
        ({"type": "show", "card": "species-ortie"}, "not in your hand"),
        ({"type": "give", "card": "cond-blue-1", "to": "1"}, "another player"),
        ({"type": "give_back", "card": "cond-blue-1"}, "No one is waiting"),
        ({"type": "swap_discard", "card": "cond-blue-1"}, "not in the discard pile"),
        ({"type": "reveal", "slot": None}, "only during the reveal"),
        ({"type": "choose_side", "side": "plant"}, "before the first turn"),
        ({"type": "end_game"}, "can still be won"),
    ],
)
def test_refused_actions_change_nothing(action, match):
    error = assert_illegal(state4(), 0, action, match)
    assert isinstance(error, IllegalAction) and error.code


def test_programming_the_programmed_card_again_is_refused():
    state = state4()
    state.apply(0, {"type": "program", "card": "cond-blue-1"})
    assert_illegal(state, 0, {"type": "program", "card": "cond-blue-1"}, "already programmed")


def test_reveal_actions_must_match_an_option():
    state = new_state(3, plays={0: ["joker-1"]})
    program_all(state, ["joker-1", state.hands[1][0], state.hands[2][0]])
    ready_all(state)
    assert state.awaited() == (0, "reveal")
    for action, match in [
        ({"type": "reveal"}, "Choose a colour"),
        ({"type": "reveal", "slot": "species-ortie:1", "colour": "pink"}, "cannot go there"),
        ({"type": "reveal", "slot": "nowhere", "colour": "blue"}, "cannot go there"),
        ({"type": "reveal", "slot": ["species-ortie:1"], "colour": "blue"}, "cannot"),
        ({"type": "reveal", "slot": "species-ortie:1", "colour": "blue", "target": "x"}, "cannot"),
    ]:
        assert_illegal(state, 0, action, match)
    for seat in (1, 2):
        assert_illegal(state, seat, {"type": "reveal", "slot": None}, "not your turn")
        assert_illegal(state, seat, {"type": "ready"}, "only during programming")


def test_nothing_is_accepted_once_the_game_is_over():
    state = new_state(3)
    state.apply(0, {"type": "program", "card": state.hands[0][0]})
    while not state.is_over:
        play_any_turn(state)
    for seat in range(3):
        assert state.legal_actions(seat) == []
        assert_illegal(state, seat, {"type": "end_game"}, "over")
        assert_illegal(state, seat, {"type": "ready"}, "over")


def test_legal_actions_are_accepted_through_scripted_games():
    """At the start of every turn and at every reveal choice of three scripted games, every
    action every seat is offered is accepted on a clone."""
    scripts = [
        (3, [], PLANTS_3P),
        (
            5,
            ["species_reintroductions"],
            POLLUTION_5P[:3]
            + [[("pollution-2", {"target": "cond-violet-2"})] + POLLUTION_5P[3][1:]],
        ),
        (3, ["wetland"], wetland_turns(WETLAND_GAME)[:6]),
    ]
    checked = 0
    for n, modes, turns in scripts:
        state = new_state(n, modes, turns)
        for entries in turns:
            assert_legal_actions_accepted(state, limit=15)
            play_turn(state, entries, strict=False)  # checks each reveal choice's options too
            checked += 1
    assert checked == 4 + 4 + 6


def test_legal_actions_during_an_exchange():
    state = state4()
    state.apply(1, {"type": "give", "card": "species-ortie", "to": 0})
    assert_legal_actions_accepted(state)
    kinds = {a["type"] for a in state.legal_actions(0)}
    assert "give_back" in kinds and not kinds & {"show", "give", "swap_discard"}
    assert not [a for a in state.legal_actions(2) if a["type"] in ("give_back", "show", "give")]
