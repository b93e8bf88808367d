"""The ``random`` level, and the one random legal player of the project.

``choose(actions, rng)`` picks among legal actions: an action type first, with the
weights ``WEIGHTS`` (it programs and says ready far more often than it trades cards,
and says ready at once most of the time it may, so random games finish), then one
action of that type, uniformly. ``RandomBot`` feeds it the actions its view allows
(``legal_actions(view)``) when the table waits for its seat. Tests and benchmarks that
need no views feed it an engine's ``state.legal_actions(seat)``, or, to list only what
it needs (much faster), ``choose_among`` the engine's answers (``random_play``).

>>> import random
>>> from dame_nature.engine import Game
>>> state = Game(4, ["first_predator"]).new_initial_state(seed=3)
>>> choose(state.legal_actions(0), random.Random(0))["type"]
'program'
>>> bot = RandomBot(0, seed=1)
>>> _ = state.apply(0, {"type": "program", "card": state.hands[0][0]})
>>> _ = state.apply(0, {"type": "ready"})
>>> bot.act(state.view(0)) is None  # ready: the table no longer waits for this seat
True
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
    kinds: Callable[[], Sequence[str]],
    options: Callable[[str], Sequence[Action]],
    rng: random.Random,
    *,
    ready: bool,
) -> Action:
    """The random choice itself: ``ready``, whether saying ready is legal; ``kinds()``,
    the legal action types in the engine's order, and ``options(kind)``, the legal
    actions of one of them, both asked only when saying ready at once is not the
    choice (so a caller lists nothing more than it must)."""
    if ready and rng.random() < READY_FIRST:
        return {"type": "ready"}
    legal = kinds()
    if not legal:
        raise ValueError("no legal action to choose from")
    # ``rng.choices(legal, weights)[0]``, drawing the same number
    cumulative = list(accumulate(WEIGHTS.get(kind, 1.0) for kind in legal))
    kind = legal[bisect(cumulative, rng.random() * cumulative[-1], 0, len(legal) - 1)]
    return rng.choice(options(kind))


def choose(actions: Iterable[Action], rng: random.Random) -> Action:
    """A random action among the legal ``actions`` (``choose_among`` them by type)."""
    by_type: dict[str, list[Action]] = {}
    for action in actions:
        by_type.setdefault(action["type"], []).append(action)
    chosen = choose_among(lambda: list(by_type), by_type.__getitem__, rng, ready="ready" in by_type)
    return dict(chosen)


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
