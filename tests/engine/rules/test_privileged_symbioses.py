"""Privileged Symbioses (``engine/rules/privileged_symbioses.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    known,
    new_state,
)


# Privileged Symbioses -------------------------------------------------------------------
def test_privileged_show_to_one_player_costs_a_symbiosis_and_tells_no_one_else():
    state = new_state(5, ["privileged_symbioses"], plays={2: ["species-aigle-royal"]})
    assert state.view(0)["show_names_one_player"] is True
    state.apply(2, {"type": "show", "card": "species-aigle-royal", "to": 4})
    assert state.symbiosis_cards[2] == 1
    assert [s for s in range(5) if known(state, s)] == [4]
    public = [e for e in state.view(None)["log"] if e["type"] == "show"]
    assert public == [{"type": "show", "turn": 1, "seat": 2, "to": 4, "paid_with": "card"}]
