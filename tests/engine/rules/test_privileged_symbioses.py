"""Privileged Symbioses (``engine/rules/privileged_symbioses.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    assert_illegal,
    known,
    new_state,
    state4,
    visible_cards,
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


def test_privileged_show_reveals_to_the_chosen_player_only():
    state = state4(["privileged_symbioses"])
    assert_illegal(state, 1, {"type": "show", "card": "joker-1"}, "another player")
    assert_illegal(state, 1, {"type": "show", "card": "joker-1", "to": 1}, "than yourself")
    assert_illegal(state, 1, {"type": "show", "card": "joker-1", "to": 9}, "another player")
    assert all("to" in a for a in state.legal_actions(1) if a["type"] == "show")
    events = state.apply(1, {"type": "show", "card": "joker-1", "to": 3})
    assert "card" not in events[0] and events[0]["to"] == 3
    assert known(state, 3) == [(1, "joker-1")]
    assert known(state, 0) == known(state, 2) == known(state, None) == []
    assert "joker-1" not in visible_cards(state, 0) | visible_cards(state, 2)
    assert "joker-1" in visible_cards(state, 3)
