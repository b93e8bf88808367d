"""Experts reading partners who do not follow their conventions (``bots/partners.py``): a
greedy player who never shows, gives or swaps is seen off the chain once it was first
player; experts among themselves never mark one another."""

from __future__ import annotations

from dame_nature.bots.arena import play_game
from dame_nature.bots.expert import ExpertBot
from dame_nature.bots.greedy import GreedyBot
from dame_nature.bots.partners import Partners
from dame_nature.bots.simulator import Sim, get_rules
from dame_nature.engine import Game


def test_experts_among_themselves_never_mark_a_partner() -> None:
    for seed in range(3):
        state = Game(4).new_initial_state(seed=seed)
        bots = [ExpertBot(s, seed=s, worlds=2) for s in range(4)]
        play_game(state, bots)
        for bot in bots:
            assert not bot.partners.off_chain, (seed, bot.seat)
            assert not bot.partners.poor_answer, (seed, bot.seat)


def test_a_partner_who_never_shows_first_is_read_off_the_chain() -> None:
    """Once the greedy seat was first player and revealed without any Symbiosis, the
    experts take it off the chain, and only it."""
    marked = 0
    for seed in range(3):
        state = Game(4).new_initial_state(seed=seed)
        greedy = seed % 4
        bots = [
            GreedyBot(s, seed=s) if s == greedy else ExpertBot(s, seed=s, worlds=2)
            for s in range(4)
        ]
        play_game(state, bots)
        for s, bot in enumerate(bots):
            if s != greedy:
                assert bot.partners.off_chain <= {greedy}, (seed, s)
                marked += bot.partners.off_chain == {greedy}
    assert marked >= 6  # most experts of the three games saw it


def test_a_partner_off_the_chain_is_predicted_on_its_own_hand() -> None:
    """Its program is what looks best on its hand and the web alone; its give-back to a
    Give is the card it can least place itself."""
    rules = get_rules(4, ())
    hands = [[], ["cond-blue-1", "species-chene"], [], []]
    sim = Sim.empty(rules, 0, hands)
    sim.web = dict.fromkeys(rules.slots)
    sim.start_turn()
    partners = Partners(0)
    assert partners.own_ways(sim) == {}
    partners.off_chain.add(1)
    assert set(partners.own_ways(sim)) == {1}
    guess = partners.give_back(sim, 1, 0, lambda *_: "never")
    assert guess in hands[1]
    partners.off_chain.clear()
    assert partners.give_back(sim, 1, 0, lambda *_: "useful") == "useful"
