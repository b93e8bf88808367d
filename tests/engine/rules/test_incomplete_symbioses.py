"""Incomplete Symbioses (``engine/rules/incomplete_symbioses.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    assert_illegal,
    known,
    new_state,
    state4,
)


# Incomplete Symbioses -----------------------------------------------------------------------
def test_incomplete_symbioses_still_allow_give_and_discard_swap():
    state = new_state(4, ["incomplete_symbioses"], plays={1: ["joker-1"]})
    assert_illegal(state, 1, {"type": "show", "card": "joker-1"}, "can no longer show")
    state.apply(1, {"type": "give", "card": "joker-1", "to": 3})
    assert known(state, 1) == [(3, "joker-1")]


def test_incomplete_symbioses_forbid_show():
    state = state4(["incomplete_symbioses"])
    assert not [a for a in state.legal_actions(0) if a["type"] == "show"]
    assert [a for a in state.legal_actions(0) if a["type"] == "give"]
    assert_illegal(state, 0, {"type": "show", "card": "cond-blue-1"}, "can no longer show")
    assert state.view(0)["symbiosis_kinds"] == ["give", "swap_discard"]
