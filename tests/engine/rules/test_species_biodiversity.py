"""Species biodiversity (``engine/rules/species_biodiversity.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    PLANTS_3P,
    assert_illegal,
    assert_legal_actions_accepted,
    new_state,
    play_turn,
    reveals,
)


# Species-specific biodiversity ------------------------------------------------------------
def test_sides_are_chosen_in_seat_order_from_the_first_player_before_turn_one():
    state = new_state(4, ["species_biodiversity"], first_player=2)
    view = state.view(2)
    assert view["phase"] == "choosing_sides" and view["turn"] == 0
    assert view["awaiting"]["seat"] == 2 and view["awaiting"]["kind"] == "choose_side"
    assert view["awaiting"]["options"] == [
        {"type": "choose_side", "side": "plant"}, {"type": "choose_side", "side": "animal"}
    ]  # fmt: skip
    assert state.view(3)["awaiting"]["options"] == []
    assert_illegal(state, 3, {"type": "choose_side", "side": "plant"}, "seat 2 chooses now")
    assert_illegal(state, 2, {"type": "choose_side", "side": "fungus"}, "'plant' or 'animal'")
    assert_illegal(
        state, 2, {"type": "program", "card": state.hands[2][0]}, "only during programming"
    )
    assert_legal_actions_accepted(state)
    for seat, side in [(2, "plant"), (3, "animal"), (0, "animal")]:
        state.apply(seat, {"type": "choose_side", "side": side})
        assert state.phase == "choosing_sides"
    events = state.apply(1, {"type": "choose_side", "side": "plant"})
    assert [e["type"] for e in events] == ["side_chosen", "turn_started"]
    assert state.phase == "programming" and state.turn == 1 and state.first_player == 2
    assert [p["side"] for p in state.view(0)["players"]] == ["animal", "plant", "plant", "animal"]
    assert_illegal(state, 0, {"type": "choose_side", "side": "plant"}, "before the first turn")


def test_a_species_of_the_other_side_is_discarded():
    turns = [t[:] for t in PLANTS_3P]
    state = new_state(3, ["species_biodiversity"], turns)
    for seat, side in [(0, "plant"), (1, "animal"), (2, "plant")]:
        state.apply(seat, {"type": "choose_side", "side": side})
    # seats 2 and 0 reveal the plants of turns 1 and 2: placed
    play_turn(state, turns[0])
    play_turn(state, turns[1])
    assert state.web["species-ortie"] and state.web["species-aubepine"]
    # turn 3 (seat 2 first): seat 1 reveals the Chêne but chose Animal
    play_turn(state, turns[2])
    assert reveals(state, "last")[2] == (1, "species-chene", "discarded", None)
    assert state.view(0)["last_turn"][2]["reason"] == "side"
    # its Conditions are played freely
    assert state.web["species-chene:1"] == "cond-green-2"
