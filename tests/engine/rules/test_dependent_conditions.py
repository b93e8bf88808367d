"""Dependent Conditions (``engine/rules/dependent_conditions.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    last_turn_reasons,
    new_state,
    play_turn,
)


# Dependent Conditions -------------------------------------------------------------------
def test_dependent_condition_needs_a_species_revealed_just_before():
    state = new_state(3, ["dependent_conditions"],
                      plays={0: ["species-martre", "cond-green-1"],
                             1: ["cond-violet-4", "cond-green-4"],
                             2: ["cond-yellow-4", "species-chene"]})  # fmt: skip
    # a Species even discarded (the Martre is not open) lets a dependent Condition in
    play_turn(state, ["species-martre", "cond-violet-4", "cond-yellow-4"])
    assert last_turn_reasons(state) == [
        ("species-martre", "discarded", "species_not_open"),
        ("cond-violet-4", "placed", None),
        ("cond-yellow-4", "discarded", "dependent"),  # after a Condition
    ]
    # first reveal of turn 2 (seat 1): a dependent Condition is discarded
    play_turn(
        state, ["cond-green-4", "species-chene", ("cond-green-1", {"slot": "species-jonc:2"})]
    )
    assert last_turn_reasons(state)[0] == ("cond-green-4", "discarded", "dependent")
