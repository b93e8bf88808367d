"""Statements of the rulebook and RULINGS.md pinned by scenarios the rule files do not play:
what "revealed" means for the rules that read the card before (a card discarded was still
revealed), rules played together across paths, and the base game's count of turns."""

import pytest

from dame_nature.engine import Game
from tests.engine.helpers import (
    PLANTS_3P,
    last_turn,
    new_state,
    play_any_turn,
    play_turn,
    play_turns,
    program_all,
    ready_all,
    reveal,
)


# The turns ---------------------------------------------------------------------------------
@pytest.mark.parametrize(("n", "hand"), [(3, 11), (4, 8), (5, 7), (6, 6)])
def test_there_are_as_many_turns_as_cards_in_a_hand(n, hand):
    """Rulebook: "There will be as many turns as there are cards in each player's hand"."""
    state = Game(n).new_initial_state(seed=n)
    assert [len(h) for h in state.hands] == [hand] * n
    while not state.is_over:
        play_any_turn(state)
    assert state.turn <= hand
    if state.result["outcome"] == "lost":
        assert state.turn == hand and state.cards_left() == 0


# "Revealed" is not "placed" ----------------------------------------------------------------
def test_an_associated_condition_after_a_discarded_condition_is_placed():
    """The previous card was a Condition revealed, even though it was discarded."""
    state = new_state(
        3,
        ["associated_conditions"],
        plays={0: ["cond-green-3"], 1: ["cond-blue-3"], 2: ["cond-violet-1"]},
    )
    play_turn(state, ["cond-green-3", ("cond-blue-3", {"slot": "species-ortie:1"}),
                      "cond-violet-1"])  # fmt: skip
    assert last_turn(state)[:2] == [
        ("cond-green-3", "discarded", None, "associated"),
        ("cond-blue-3", "placed", "species-ortie:1", None),
    ]


def test_a_yellow_card_discarded_still_discards_the_blue_right_after_it():
    """Climate Change counts the yellow card revealed (Path 3 with Path 1's first rule)."""
    state = new_state(
        3,
        ["associated_conditions", "climate_change"],
        plays={0: ["cond-yellow-3"], 1: ["cond-blue-1"], 2: ["cond-green-1"]},
    )
    play_turn(state, ["cond-yellow-3", "cond-blue-1",
                      ("cond-green-1", {"slot": "species-chene:1"})])  # fmt: skip
    assert last_turn(state)[:2] == [
        ("cond-yellow-3", "discarded", None, "associated"),
        ("cond-blue-1", "discarded", None, "climate_change"),
    ]


def test_a_blue_card_discarded_by_climate_change_still_opens_the_aquatic_web():
    """The Wetland reads the card revealed just before: a blue Condition, discarded or not."""
    state = new_state(
        3,
        ["wetland", "climate_change"],
        plays={0: ["cond-yellow-1"], 1: ["wet-blue-1"], 2: ["cond-green-1"]},
    )
    program_all(state, ["cond-yellow-1", "wet-blue-1", "cond-green-1"])
    ready_all(state)
    state.apply(0, reveal("species-aubepine:1"))
    assert state.revealed_this_turn[1]["reason"] == "climate_change"
    slots = sorted(o["slot"] for o in state.view(2)["awaiting"]["options"])
    assert slots == ["species-aubepine:2", "species-charagne:2", "species-chene:1",
                     "species-jonc:2"]  # fmt: skip
    state.apply(2, reveal("species-charagne:2"))
    assert state.web["species-charagne:2"] == "cond-green-1"


def test_a_dependent_condition_after_an_invasive_species_discarded_is_placed():
    """Path 4's Invasive Species with Path 1's Dependent Conditions: the invasive Species
    revealed by the second player is discarded, but it is a Species revealed."""
    state = new_state(
        3,
        ["dependent_conditions", "invasive_species"],
        plays={0: ["cond-blue-1"], 1: ["species-renouee-du-japon"], 2: ["cond-violet-4"]},
    )
    play_turn(state, [("cond-blue-1", {"slot": "species-ortie:1"}), "species-renouee-du-japon",
                      ("cond-violet-4", {"slot": "species-renouee-du-japon:1"})])  # fmt: skip
    assert last_turn(state)[1:] == [
        ("species-renouee-du-japon", "discarded", None, "invasive"),
        ("cond-violet-4", "placed", "species-renouee-du-japon:1", None),
    ]


# Rules of different paths together ---------------------------------------------------------
def test_a_temporary_condition_whose_species_a_cat_removes_is_discarded_at_the_end_of_turn():
    """Temporary Conditions (Path 2) with The First Predator (Path 4): the Species covered
    the temporary Condition when it was placed, but is not installed at the end of the turn."""
    state = new_state(
        4,
        ["temporary_conditions", "first_predator"],
        plays={0: ["cond-blue-5"], 1: ["cond-yellow-1"], 2: ["species-ortie"], 3: ["cat-1"]},
    )
    play_turn(state, [("cond-blue-5", {"slot": "species-ortie:1"}),
                      ("cond-yellow-1", {"slot": "species-ortie:2"}), "species-ortie",
                      "cat-1"])  # fmt: skip
    assert last_turn(state) == [
        ("cond-blue-5", "discarded", "species-ortie:1", "temporary"),
        ("cond-yellow-1", "placed", "species-ortie:2", None),
        ("species-ortie", "discarded", "species-ortie", "cat"),
        ("cat-1", "discarded", None, "cat_alone"),
    ]
    assert state.web["species-ortie:1"] is None and state.web["species-ortie"] is None
    assert state.discard == ["species-ortie", "cond-blue-5", "cat-1"]


def test_pollution_may_take_an_uncovered_condition_of_the_aquatic_web():
    """Species Reintroductions (Path 3) with the Wetland (Path 1): the 4 plants are those
    of the main web, and an uncovered Condition may be one of the aquatic web."""
    turns = [
        *PLANTS_3P,
        # turn 5, seat 1 first: a blue into the Campagnol, a wetland blue after it into the
        # Charagne (the aquatic web's first plant is not needed for Pollution), Pollution
        [("cond-blue-3", {"slot": "species-campagnol:2"}), "wet-blue-1",
         ("pollution-1", {"target": "wet-blue-1"})],
    ]  # fmt: skip
    state = new_state(3, ["wetland", "species_reintroductions"], turns)
    play_turns(state, turns[:4])
    program_all(state, [entry[0] if isinstance(entry, tuple) else entry for entry in turns[4]])
    ready_all(state)
    assert state.web["species-charagne:1"] == "wet-blue-1"  # its one place, after a blue
    assert state.awaited() == (0, "reveal")
    options = state.view(0)["awaiting"]["options"]
    assert sorted(o["target"] for o in options) == ["cond-blue-3", "wet-blue-1"]
    state.apply(0, reveal(target="wet-blue-1"))
    assert state.web["species-charagne:1"] is None
    assert state.discard[-2:] == ["pollution-1", "wet-blue-1"]
    assert state.rule_data["species_reintroductions"]["played"] == ["pollution-1"]


def test_a_yellow_card_judged_before_climate_change_removes_the_blue_of_slot_one():
    """Climate Change with Environmental Changes (Path 3, stage 2), which RULINGS does not
    settle: the yellow card revealed right after a placed blue finds its place in the web
    as it is (slot 1 filled by the blue), then the blue card is discarded. The yellow stays
    in slot 2; slot 1 takes a card again later."""
    state = new_state(
        3,
        ["climate_change", "environmental_changes"],
        plays={0: ["cond-blue-1"], 1: ["cond-yellow-1"], 2: ["cond-green-1"]},
    )
    play_turn(state, [("cond-blue-1", {"slot": "species-ortie:1"}),
                      ("cond-yellow-1", {"slot": "species-ortie:2"}), "cond-green-1"])  # fmt: skip
    assert last_turn(state)[:2] == [
        ("cond-blue-1", "discarded", "species-ortie:1", "climate_change"),
        ("cond-yellow-1", "placed", "species-ortie:2", None),
    ]
    assert state.web["species-ortie:1"] is None
    assert state.web["species-ortie:2"] == "cond-yellow-1"


# Symbioses ---------------------------------------------------------------------------------
def test_a_discard_swap_may_take_back_a_cat_which_must_then_be_played_again():
    """RULINGS: a discard swap takes any one card of the discard pile (a played Pollution
    aside); a Cat taken back is one more Cat to discard before the game is won."""
    state = new_state(
        4,
        ["incomplete_symbioses", "first_predator"],
        plays={0: ["cond-blue-1"], 1: ["cond-yellow-1"], 2: ["cond-green-1"], 3: ["cat-1"]},
    )
    play_turn(state, [("cond-blue-1", {"slot": "species-ortie:1"}),
                      ("cond-yellow-1", {"slot": "species-ortie:2"}),
                      ("cond-green-1", {"slot": "species-chene:1"}), "cat-1"])  # fmt: skip
    assert state.discard == ["cat-1"]
    assert state.first_player == 1
    condition = next(c for c in state.hands[1] if c.startswith("cond-"))
    swap = {"type": "swap_discard", "card": condition, "take": "cat-1"}
    assert swap in state.legal_actions(1)
    state.apply(1, swap)
    assert state.location_of("cat-1") == "hand:1" and state.discard == [condition]
    assert not state.is_goal_met()
