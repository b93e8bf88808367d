"""The ``random`` level, and the one random legal player of the project.

``choose(actions, rng)`` picks among legal actions: an action type first, with the
weights ``WEIGHTS`` (it programs and says ready far more often than it trades cards,
and says ready at once most of the time it may, so random games finish), then one
action of that type, uniformly. ``RandomBot`` feeds it the actions its view allows
(``legal_actions(view)``) when the table waits for its seat. Tests and benchmarks that
need no views feed it an engine's ``state.legal_actions(seat)``, or, to list only the
chosen type's actions (much faster), ``choose_among(state.legal_action_types(seat),
partial(state.legal_options, seat), rng)``.

>>> import random
>>> from dame_nature.engine import Game
>>> state = Game(4, ["first_predator"]).new_initial_state(seed=3)
>>> choose(state.legal_actions(0), random.Random(0))["type"]
'program'
"""

from __future__ import annotations

import random
from bisect import bisect
from collections.abc import Callable, Iterable, Sequence
from itertools import accumulate

from .base import Action, Bot, View, awaiting_me, legal_actions

#: how often an action type is picked among the legal ones (any other type: 1)
WEIGHTS: dict[str, float] = {
    "program": 4.0,
    "ready": 6.0,
    "unready": 0.2,
    "show": 0.3,
    "give": 0.3,
    "swap_discard": 0.3,
}
#: the chance of saying ready at once when it is legal, before any other choice
READY_FIRST = 0.7


def choose_among(
    kinds: Sequence[str], options: Callable[[str], Sequence[Action]], rng: random.Random
) -> Action:
    """The random choice itself: ``kinds`` are the legal action types (in the engine's
    order), ``options(kind)`` that type's legal actions, asked for the type chosen only."""
    if not kinds:
        raise ValueError("no legal action to choose from")
    if "ready" in kinds and rng.random() < READY_FIRST:
        return {"type": "ready"}
    # ``rng.choices(kinds, weights)[0]``, drawing the same number
    cumulative = list(accumulate(WEIGHTS.get(kind, 1.0) for kind in kinds))
    kind = kinds[bisect(cumulative, rng.random() * cumulative[-1], 0, len(kinds) - 1)]
    return rng.choice(options(kind))


def choose(actions: Iterable[Action], rng: random.Random) -> Action:
    """A random action among the legal ``actions`` (``choose_among`` their types)."""
    by_type: dict[str, list[Action]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    return dict(choose_among(list(by_type), by_type.__getitem__, rng))


class RandomBot(Bot):
    """Plays ``choose`` over its view's legal actions when the table waits for its seat
    (``to_act``); otherwise (already ready, another seat's choice) it has nothing to do,
    so it never loops."""

    level = "random"

    def decide(self, view: View) -> Action | None:
        if self.seat not in view["to_act"] and awaiting_me(view) is None:
            return None
        actions = legal_actions(view)
        return choose(actions, self.rng) if actions else None
