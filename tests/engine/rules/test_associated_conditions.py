"""Associated Conditions (``engine/rules/associated_conditions.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    last_turn_reasons,
    new_state,
    play_turn,
)


# Associated Conditions ------------------------------------------------------------------
def test_associated_condition_first_in_the_turn_is_discarded():
    state = new_state(
        3,
        ["associated_conditions"],
        plays={0: ["cond-violet-3"], 1: ["cond-violet-1"], 2: ["species-ortie"]},
    )
    play_turn(state, ["cond-violet-3", "cond-violet-1", "species-ortie"])
    assert last_turn_reasons(state)[:2] == [
        ("cond-violet-3", "discarded", "associated"),
        ("cond-violet-1", "placed", None),
    ]


def test_associated_condition_after_a_condition_or_a_joker_is_placed():
    state = new_state(3, ["associated_conditions"],
                      plays={0: ["cond-blue-1", "species-ortie"], 1: ["cond-violet-3", "joker-1"],
                             2: ["species-jonc", "cond-yellow-3"]})  # fmt: skip
    play_turn(state, [("cond-blue-1", {"slot": "species-jonc:1"}), "cond-violet-3", "species-jonc"])
    assert last_turn_reasons(state)[1] == ("cond-violet-3", "placed", None)
    # turn 2 (seat 1 first): a Joker given blue, then the associated yellow
    play_turn(state, [("joker-1", {"slot": "species-ortie:1", "colour": "blue"}),
                      ("cond-yellow-3", {"slot": "species-ortie:2"}), "species-ortie"])  # fmt: skip
    assert last_turn_reasons(state) == [
        ("joker-1", "placed", None), ("cond-yellow-3", "placed", None),
        ("species-ortie", "placed", None),
    ]  # fmt: skip


def test_associated_condition_after_a_species_is_discarded():
    state = new_state(
        3,
        ["associated_conditions"],
        plays={0: ["species-ortie"], 1: ["cond-violet-3"], 2: ["species-jonc"]},
    )
    play_turn(state, ["species-ortie", "cond-violet-3", "species-jonc"])
    assert last_turn_reasons(state)[1] == ("cond-violet-3", "discarded", "associated")


def test_associated_symbol_means_nothing_without_its_rule():
    state = new_state(3, plays={0: ["cond-violet-3"], 1: ["species-ortie"], 2: ["species-jonc"]})
    play_turn(state, ["cond-violet-3", "species-ortie", "species-jonc"])
    assert last_turn_reasons(state)[0] == ("cond-violet-3", "placed", None)
