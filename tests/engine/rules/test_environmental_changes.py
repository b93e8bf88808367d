"""Environmental changes (``engine/rules/environmental_changes.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    last_turn,
    new_state,
    play_turn,
    program_all,
    ready_all,
    reveal,
)


# Environmental Changes ---------------------------------------------------------------------
def test_condition_slot_two_waits_for_slot_one():
    state = new_state(
        3,
        ["environmental_changes"],
        plays={0: ["cond-green-1"], 1: ["cond-violet-1"], 2: ["cond-green-2"]},
    )
    play_turn(state, ["cond-green-1", "cond-violet-1", "cond-green-2"])
    # green: Aubépine's and Jonc's green are their slot 2; only Chêne's slot 1 takes it.
    # violet is Chêne's slot 2: now that slot 1 is filled it goes there.
    assert last_turn(state) == [
        ("cond-green-1", "placed", "species-chene:1", None),
        ("cond-violet-1", "placed", "species-chene:2", None),
        ("cond-green-2", "discarded", None, "order"),
    ]


def test_condition_out_of_order_is_discarded_with_its_reason():
    state = new_state(
        3,
        ["environmental_changes"],
        plays={0: ["cond-violet-1"], 1: ["joker-1"], 2: ["cond-yellow-1"]},
    )
    program_all(state, ["cond-violet-1", "joker-1", "cond-yellow-1"])
    ready_all(state)
    assert state.revealed_this_turn[0]["reason"] == "order"
    opts = state.view(1)["awaiting"]["options"]
    assert reveal(None, "violet") in opts and reveal(None, "green") not in opts
    assert reveal("species-chene:1", "green") in opts
    state.apply(1, reveal("species-chene:1", "green"))
    # yellow: Ortie's slot 2 waits, Aubépine's slot 1 takes it
    assert last_turn(state)[2] == ("cond-yellow-1", "placed", "species-aubepine:1", None)
