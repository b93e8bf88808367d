"""The last turns' exact search (``bots.endgame``): which programs keep the game won."""

from __future__ import annotations

import random

from dame_nature.bots import endgame
from dame_nature.bots.expert import ExpertBot
from dame_nature.bots.solver import sim_from_state
from dame_nature.engine.state import State

from .positions import EAGLE, position
from .test_blunders import eagle_left


def eagle_first() -> State:
    """The Golden Eagle's three slots left; its holder reveals first with a Joker beside
    it; the partners hold its blue and violet Conditions and the other Joker."""
    game, web, left = eagle_left(4)
    blue = next(c for c in left if c.startswith("cond-blue"))
    violet = next(c for c in left if c.startswith("cond-violet"))
    state = position(
        4, web=web, hands={0: [EAGLE, "joker-1"], 1: [blue], 2: [violet], 3: ["joker-2"]}
    )
    return state


def test_turn_wins_fixes_the_programs_given_and_frees_the_others() -> None:
    state = eagle_first()
    sim = sim_from_state(state)
    assert not endgame.turn_wins(sim.copy(), {0: EAGLE}, 10_000)  # the Eagle before its Conditions
    assert endgame.turn_wins(sim.copy(), {0: "joker-1"}, 10_000)
    assert endgame.turn_wins(sim.copy(), {}, 10_000)


def test_win_shares_on_the_deals_a_view_allows() -> None:
    """Whoever of the partners holds which card, the Joker keeps the game won and the
    Eagle loses it."""
    state = eagle_first()
    bot = ExpertBot(0, seed=1)
    know = bot.knowledge(state.view(0))
    assert endgame.applies(know)
    shares = endgame.win_shares(know, [EAGLE, "joker-1"], random.Random(3), worlds=10)
    assert shares == {EAGLE: 0.0, "joker-1": 1.0}
    assert endgame.Endgame(seed=1, worlds=5).programs(know, [EAGLE, "joker-1"]) == ["joker-1"]


def test_the_search_waits_for_the_last_turns() -> None:
    state = position(4, web={}, hands={})  # a full deal: eight cards each
    know = ExpertBot(0, seed=1).knowledge(state.view(0))
    assert not endgame.applies(know)


def test_reveal_shares_keep_the_place_the_last_card_needs() -> None:
    """A Joker revealed first, the Eagle's blue and violet slots open, the two partners
    after it holding a blue Condition and the Eagle (the bot does not know which), the
    last violet Condition and the other Joker discarded, no discard left: the Joker goes
    violet (blue leaves the violet slot empty: the Eagle is lost whoever holds it)."""
    game, web, left = eagle_left(4)
    blue = next(c for c in left if c.startswith("cond-blue"))
    violet = next(c for c in left if c.startswith("cond-violet"))
    hands = {0: ["joker-1"], 1: [blue], 2: [EAGLE], 3: []}
    state = position(4, web=web, hands=hands, discard=[violet, "joker-2"], rest={})
    know = ExpertBot(0, seed=1).knowledge(state.view(0))
    outcomes = know.base.outcomes(0, "joker-1", None)
    shares = endgame.reveal_shares(know, "joker-1", outcomes, [1, 2], random.Random(2), 10)
    by_colour = {o.colour: share for o, share in zip(outcomes, shares, strict=True)}
    assert by_colour["blue"] == 0.0
    assert by_colour["violet"] > 0.0  # won where the blue comes before the Eagle
