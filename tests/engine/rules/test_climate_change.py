"""Climate change (``engine/rules/climate_change.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    assert_illegal,
    assert_legal_actions_accepted,
    events_of,
    last_turn,
    new_state,
    play_turn,
    program_all,
    ready_all,
    reveal,
)


# Climate Change ----------------------------------------------------------------------------
def test_blue_revealed_right_after_yellow_is_discarded_even_with_a_slot():
    state = new_state(
        3,
        ["climate_change"],
        plays={0: ["cond-yellow-1"], 1: ["cond-blue-1"], 2: ["species-ortie"]},
    )
    play_turn(state, [("cond-yellow-1", {"slot": "species-aubepine:1"}), "cond-blue-1",
                      "species-ortie"])  # fmt: skip
    assert last_turn(state)[1] == ("cond-blue-1", "discarded", None, "climate_change")


def test_yellow_right_after_a_placed_blue_removes_the_blue_from_the_web():
    state = new_state(
        3,
        ["climate_change"],
        plays={0: ["cond-blue-1"], 1: ["cond-yellow-1"], 2: ["species-ortie"]},
    )
    events = play_turn(
        state,
        [
            ("cond-blue-1", {"slot": "species-ortie:1"}),
            ("cond-yellow-1", {"slot": "species-ortie:2"}),
            "species-ortie",
        ],
    )
    assert events_of(events, "removed_from_web") == [{
        "type": "removed_from_web", "turn": 1, "card": "cond-blue-1", "slot": "species-ortie:1",
        "reason": "climate_change"}]  # fmt: skip
    assert state.web["species-ortie:1"] is None and state.web["species-ortie:2"] == "cond-yellow-1"
    assert last_turn(state) == [
        ("cond-blue-1", "discarded", "species-ortie:1", "climate_change"),
        ("cond-yellow-1", "placed", "species-ortie:2", None),
        ("species-ortie", "discarded", None, "conditions_missing"),
    ]
    assert state.discard == ["cond-blue-1", "species-ortie"]


def test_climate_change_needs_the_two_cards_next_to_each_other_in_one_turn():
    state = new_state(3, ["climate_change"],
                      plays={0: ["cond-yellow-1", "cond-blue-2"],
                             1: ["cond-green-1", "cond-yellow-2"],
                             2: ["cond-blue-1", "species-ortie"]})  # fmt: skip
    # yellow, green, blue: the blue is placed
    play_turn(state, [("cond-yellow-1", {"slot": "species-ortie:2"}),
                      ("cond-green-1", {"slot": "species-chene:1"}),
                      ("cond-blue-1", {"slot": "species-ortie:1"})])  # fmt: skip
    assert state.web["species-ortie:1"] == "cond-blue-1"
    # turn 2 (seat 1 first): a yellow last in turn 1 ... and a blue first of the next turn
    play_turn(state, ["cond-yellow-2", "species-ortie", "cond-blue-2"])
    assert last_turn(state)[2] == ("cond-blue-2", "placed", "species-jonc:1", None)


def test_a_joker_counts_as_the_colour_it_is_given():
    state = new_state(3, ["climate_change"],
                      plays={0: ["joker-1", "cond-blue-2"], 1: ["cond-blue-1", "joker-2"],
                             2: ["cond-yellow-1", "joker-3"]})  # fmt: skip
    # a Joker given yellow discards the blue right after it
    play_turn(state, [("joker-1", {"slot": "species-aubepine:1", "colour": "yellow"}),
                      "cond-blue-1", "cond-yellow-1"])  # fmt: skip
    assert last_turn(state)[1] == ("cond-blue-1", "discarded", None, "climate_change")
    # turn 2 (seat 1 first): a Joker given blue is placed, a Joker given yellow (no yellow
    # slot: discarded) removes it, and the blue Condition after that yellow is discarded
    play_turn(state, [("joker-2", {"slot": "species-ortie:1", "colour": "blue"}),
                      ("joker-3", {"slot": None, "colour": "yellow"}), "cond-blue-2"])  # fmt: skip
    assert last_turn(state) == [
        ("joker-2", "discarded", "species-ortie:1", "climate_change"),
        ("joker-3", "discarded", None, "joker_no_slot"),
        ("cond-blue-2", "discarded", None, "climate_change"),
    ]
    assert state.web["species-ortie:1"] is None


def test_after_a_yellow_a_jokers_blue_side_is_a_discard():
    state = new_state(
        3, ["climate_change"], plays={0: ["cond-yellow-1"], 1: ["joker-1"], 2: ["species-ortie"]}
    )
    program_all(state, ["cond-yellow-1", "joker-1", "species-ortie"])
    ready_all(state)
    state.apply(0, reveal("species-aubepine:1"))
    opts = state.view(1)["awaiting"]["options"]
    assert reveal(None, "blue") in opts
    assert not [o for o in opts if o["colour"] == "blue" and o["slot"] is not None]
    assert reveal("species-ortie:2", "yellow") in opts
    assert_legal_actions_accepted(state)
    assert_illegal(state, 1, reveal("species-ortie:1", "blue"), "cannot go there")
    state.apply(1, reveal(None, "blue"))
    assert last_turn(state)[1] == ("joker-1", "discarded", None, "climate_change")


def test_a_placed_blue_joker_is_removed_by_the_yellow_after_it():
    state = new_state(
        3, ["climate_change"], plays={0: ["joker-1"], 1: ["cond-yellow-1"], 2: ["species-ortie"]}
    )
    play_turn(state, [("joker-1", {"slot": "species-jonc:1", "colour": "blue"}),
                      ("cond-yellow-1", {"slot": "species-ortie:2"}), "species-ortie"])  # fmt: skip
    assert state.web["species-jonc:1"] is None and "joker-1" in state.discard
    assert "joker-1" not in state.joker_colours
    assert last_turn(state)[0] == ("joker-1", "discarded", "species-jonc:1", "climate_change")
