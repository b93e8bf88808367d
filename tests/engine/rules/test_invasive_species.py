"""Invasive Species (``engine/rules/invasive_species.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    last_turn,
    new_state,
    play_turn,
)


# Invasive Species ---------------------------------------------------------------------------
def test_invasive_species_use_the_lettered_layout():
    state = new_state(4, ["invasive_species"])
    view = state.view(0)
    assert view["layout"] == "lettered"
    assert "species-renouee-du-japon:1" in view["web"] and "species-aubepine" not in view["web"]
    assert "species-frelon-asiatique" in view["web"] and "species-raton-laveur" in view["web"]
    assert "species-martre" not in view["web"] and "species-carabe-dore" not in view["web"]


def test_invasive_species_is_discarded_unless_the_first_player_reveals_it():
    state = new_state(3, ["invasive_species"], plays={
        0: ["cond-violet-1", "cond-green-1"], 1: ["cond-yellow-1", "cond-blue-1"],
        2: ["species-renouee-du-japon", "species-ortie"]})  # fmt: skip
    play_turn(state, [("cond-violet-1", {"slot": "species-renouee-du-japon:1"}),
                      ("cond-yellow-1", {"slot": "species-renouee-du-japon:2"}),
                      "species-renouee-du-japon"])  # fmt: skip
    assert last_turn(state)[2] == ("species-renouee-du-japon", "discarded", None, "invasive")
    # turn 2: seat 1 is first; its free Symbiosis takes the Renouée back from the discard
    state.apply(
        1, {"type": "swap_discard", "card": "cond-blue-1", "take": "species-renouee-du-japon"}
    )
    play_turn(state, ["species-renouee-du-japon", "species-ortie",
                      ("cond-green-1", {"slot": "species-chene:1"})])  # fmt: skip
    assert last_turn(state)[0] == (
        "species-renouee-du-japon",
        "placed",
        "species-renouee-du-japon",
        None,
    )
