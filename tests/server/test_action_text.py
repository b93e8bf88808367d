"""An action's stored text (``store/base.py``'s ``_action_text``) is the text ``json``
wrote before: the same bytes for every action, whichever encoder writes it."""

from __future__ import annotations

import json
import random

from dame_nature.server.store.base import _action_text

VALUES = [
    None, "", "cond-blue-1", "a\x7fb", "a\x00b", "tab\there", 'quote"', "back\\slash", "/",
    "été", "\ud800", "\U0001f600", "~", 0, -1, 5, 2**63, 2**64, -(2**63) - 1, 2.0, 1e16,
    True, False, [1, "a"], {"k": "v"},
]  # fmt: skip


def test_the_same_text_as_json_writes():
    rng = random.Random(22)
    for _ in range(5_000):
        action = {"type": rng.choice(["program", "give", "reveal", "é"])}
        for name in rng.sample(["card", "to", "slot", "target", "x\x7f"], rng.randint(0, 3)):
            action[name] = rng.choice(VALUES)
        assert _action_text(action) == json.dumps(action, separators=(",", ":")), action
