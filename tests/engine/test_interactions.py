"""Advanced rules played together (RULINGS: any combination may be active), and paths."""

import pytest

from dame_nature.engine import MODES, Game, modes_for_path
from tests.engine.helpers import (
    events_of,
    last_turn,
    new_state,
    play_turn,
    program_all,
    ready_all,
    reveal,
)


def test_cat_between_two_species_removes_the_first_and_discards_the_second():
    state = new_state(5, ["first_predator"], plays={
        0: ["cond-blue-1"], 1: ["cond-yellow-1"], 2: ["species-ortie"], 3: ["cat-1"],
        4: ["species-jonc"]})  # fmt: skip
    events = play_turn(state, [("cond-blue-1", {"slot": "species-ortie:1"}),
                               ("cond-yellow-1", {"slot": "species-ortie:2"}),
                               "species-ortie", "cat-1", "species-jonc"])  # fmt: skip
    assert last_turn(state)[2:] == [
        ("species-ortie", "discarded", "species-ortie", "cat"),
        ("cat-1", "discarded", None, "cat_alone"),
        ("species-jonc", "discarded", None, "cat"),
    ]
    assert events_of(events, "cat_discarded")[0]["card"] == "cat-1"
    assert state.discard == ["species-ortie", "species-jonc", "cat-1"]


def test_climate_change_with_first_predator_and_jokers():
    # a Joker given yellow after a placed blue Joker removes it; then a Cat, alone
    state = new_state(3, ["climate_change", "first_predator"], plays={
        0: ["joker-1"], 1: ["joker-2"], 2: ["cat-1"]})  # fmt: skip
    play_turn(
        state,
        [
            ("joker-1", {"slot": "species-ortie:1", "colour": "blue"}),
            ("joker-2", {"slot": "species-ortie:2", "colour": "yellow"}),
            "cat-1",
        ],
    )
    assert last_turn(state) == [
        ("joker-1", "discarded", "species-ortie:1", "climate_change"),
        ("joker-2", "placed", "species-ortie:2", None),
        ("cat-1", "discarded", None, "cat_alone"),
    ]
    assert state.discard == ["joker-1", "cat-1"]
    assert state.joker_colours == {"joker-2": "yellow"}


def test_temporary_condition_left_uncovered_by_a_reintroduction_is_discarded():
    state = new_state(3, ["temporary_conditions", "species_reintroductions"], plays={
        0: ["cond-blue-5"], 1: ["reintroduction-1"], 2: ["cond-yellow-1"]})  # fmt: skip
    events = play_turn(state, [("cond-blue-5", {"slot": "species-ortie:1"}), "reintroduction-1",
                               "cond-yellow-1"])  # fmt: skip
    assert last_turn(state) == [
        ("cond-blue-5", "discarded", "species-ortie:1", "temporary"),
        ("reintroduction-1", "played", None, None),
        ("cond-yellow-1", "discarded", None, "reintroduction"),
    ]
    assert events_of(events, "removed_from_web")[0]["reason"] == "temporary"
    assert state.discard == ["cond-yellow-1", "cond-blue-5"]
    assert state.web["species-ortie:1"] is None


def test_wetland_with_associated_conditions():
    state = new_state(
        3,
        ["associated_conditions", "wetland"],
        plays={0: ["cond-blue-3"], 1: ["wet-blue-1"], 2: ["wet-green-1"]},
    )
    program_all(state, ["cond-blue-3", "wet-blue-1", "wet-green-1"])
    ready_all(state)
    # the associated blue opens the turn: discarded, but it was a blue Condition revealed,
    # so the wetland blue after it may go into the aquatic web
    assert state.revealed_this_turn[0]["reason"] == "associated"
    assert sorted(o["slot"] for o in state.view(1)["awaiting"]["options"]) == [
        "species-charagne:1", "species-jonc:1", "species-ortie:1"]  # fmt: skip
    state.apply(1, reveal("species-charagne:1"))
    state.apply(2, reveal("species-charagne:2"))
    assert state.web["species-charagne:2"] == "wet-green-1"
    assert state.phase == "programming"


def test_species_biodiversity_with_wetland_and_invasive_species():
    state = new_state(
        3,
        ["wetland", "species_biodiversity", "invasive_species"],
        plays={0: ["species-frelon-asiatique"], 1: ["species-charagne"], 2: ["species-jonc"]},
    )
    for seat, side in [(0, "plant"), (1, "animal"), (2, "plant")]:
        state.apply(seat, {"type": "choose_side", "side": side})
    play_turn(state, ["species-frelon-asiatique", "species-charagne", "species-jonc"])
    # the Charagne (a plant revealed by an Animal player, its Conditions not in place) is
    # not right after a blue card either, but a blue card would not have placed it: the
    # reason is its player's side
    assert [r[3] for r in last_turn(state)] == ["side", "side", "conditions_missing"]


@pytest.mark.parametrize("path", [1, 2, 3, 4])
def test_paths_stack_their_rules(path):
    stages = [modes_for_path(path, stage) for stage in (1, 2, 3)]
    assert stages[0] == [MODES[3 * (path - 1)]]
    assert stages[1] == list(MODES[3 * (path - 1) : 3 * path - 1])
    assert stages[2] == list(MODES[3 * (path - 1) : 3 * path])
    for modes in stages:
        for n in (3, 6):
            game = Game(n, modes)
            state = game.new_initial_state(seed=path)
            assert list(state.view(0)["modes"]) == modes
            assert sum(len(h) for h in state.hands) == game.deck_size


def test_path_names():
    assert modes_for_path(1, 3) == ["associated_conditions", "dependent_conditions", "wetland"]
    assert modes_for_path(2, 3) == [
        "privileged_symbioses", "temporary_conditions", "species_biodiversity"]  # fmt: skip
    assert modes_for_path(3, 3) == [
        "climate_change", "environmental_changes", "species_reintroductions"]  # fmt: skip
    assert modes_for_path(4, 3) == [
        "invasive_species", "incomplete_symbioses", "first_predator"]  # fmt: skip
    for bad in [(0, 1), (5, 1), (1, 0), (1, 4)]:
        with pytest.raises(ValueError, match="Paths are numbered"):
            modes_for_path(*bad)


def test_all_twelve_rules_together():
    game = Game(6, list(MODES))
    state = game.new_initial_state(seed=11)
    assert state.phase == "choosing_sides"
    assert game.deck_size == 36 + 6 + 6 + 6 - 0  # wetland, Cats and Pollution/Reintroductions
    assert state.view(0)["layout"] == "lettered" and state.view(0)["symbiosis_kinds"] == [
        "give", "swap_discard"]  # fmt: skip
