"""Temporary Conditions (``engine/rules/temporary_conditions.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    events_of,
    new_state,
    play_turn,
)


# Temporary Conditions ---------------------------------------------------------------------
def test_temporary_condition_not_covered_at_end_of_turn_is_discarded():
    state = new_state(
        3,
        ["temporary_conditions"],
        plays={0: ["cond-yellow-5"], 1: ["species-ortie"], 2: ["species-jonc"]},
    )
    events = play_turn(state, [("cond-yellow-5", {"slot": "species-aubepine:1"}), "species-ortie",
                               "species-jonc"])  # fmt: skip
    removed = events_of(events, "removed_from_web")
    assert removed == [{"type": "removed_from_web", "turn": 1, "card": "cond-yellow-5",
                        "slot": "species-aubepine:1", "reason": "temporary"}]  # fmt: skip
    assert state.web["species-aubepine:1"] is None
    assert state.discard[-1] == "cond-yellow-5"
    assert state.view(0)["last_turn"][0]["result"] == "discarded"
    assert state.view(0)["last_turn"][0]["reason"] == "temporary"


def test_temporary_condition_covered_by_its_species_in_the_turn_stays():
    state = new_state(
        3,
        ["temporary_conditions"],
        plays={0: ["cond-blue-5"], 1: ["cond-yellow-1"], 2: ["species-ortie"]},
    )
    play_turn(state, [("cond-blue-5", {"slot": "species-ortie:1"}),
                      ("cond-yellow-1", {"slot": "species-ortie:2"}), "species-ortie"])  # fmt: skip
    assert state.web["species-ortie:1"] == "cond-blue-5"
    assert state.discard == []


def test_temporary_symbol_means_nothing_without_its_rule():
    state = new_state(3, plays={0: ["cond-yellow-5"], 1: ["species-ortie"], 2: ["species-jonc"]})
    play_turn(state, [("cond-yellow-5", {"slot": "species-aubepine:1"}), "species-ortie",
                      "species-jonc"])  # fmt: skip
    assert state.web["species-aubepine:1"] == "cond-yellow-5"
