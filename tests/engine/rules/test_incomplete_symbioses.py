"""Incomplete Symbioses (``engine/rules/incomplete_symbioses.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    assert_illegal,
    known,
    new_state,
)


# Incomplete Symbioses -----------------------------------------------------------------------
def test_incomplete_symbioses_still_allow_give_and_discard_swap():
    state = new_state(4, ["incomplete_symbioses"], plays={1: ["joker-1"]})
    assert_illegal(state, 1, {"type": "show", "card": "joker-1"}, "can no longer show")
    state.apply(1, {"type": "give", "card": "joker-1", "to": 3})
    assert known(state, 1) == [(3, "joker-1")]
