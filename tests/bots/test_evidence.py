"""What partners' past programs say about their hands (``bots/evidence.py``): the deals
they explain are weighed above those they do not, and the true hands are among them."""

from __future__ import annotations

import random

from dame_nature.bots.expert import ExpertBot
from dame_nature.bots.knowledge import Knowledge
from dame_nature.engine import Game


def _true_deal_weight(know: Knowledge, hands: list[list[str]]) -> float:
    sim = know.base.copy()
    for seat, hand in enumerate(hands):
        if seat != know.seat:
            sim.hands[seat] = list(hand)
    return know.evidence.weight(sim)


def test_the_true_hands_explain_partners_programs_better_than_random_deals() -> None:
    """In games of experts, at each programming decision of seat 0, the weight of the
    true hands is above the mean weight of the deals consistent with the rest of what the
    bot knows: partners' programs are read for what they say."""
    true_weights: list[float] = []
    sampled_weights: list[float] = []
    rng = random.Random(5)
    for seed in range(2):
        state = Game(4).new_initial_state(seed=seed)
        bots = [ExpertBot(s, seed=s, worlds=2) for s in range(4)]
        while not state.is_over:
            for seat in sorted(state.current_players()):
                view = state.view(seat)
                action = bots[seat].act(view)
                if seat == 0 and view["phase"] == "programming" and view["programmed"] is None:
                    know = bots[0].knowledge(view)
                    if know.evidence.turns:
                        hands = [state.cards_of(s) for s in range(4)]
                        true_weights.append(_true_deal_weight(know, hands))
                        for _ in range(10):
                            sampled = know.short_deal(rng)
                            sampled_weights.append(know.evidence.weight(sampled))
                if action is not None:
                    state.apply(seat, action)
                    break
    assert len(true_weights) >= 8
    true_mean = sum(true_weights) / len(true_weights)
    sampled_mean = sum(sampled_weights) / len(sampled_weights)
    assert true_mean > 1.3 * sampled_mean, (true_mean, sampled_mean)


def test_no_evidence_is_read_under_the_advanced_rules() -> None:
    state = Game(4, ("wetland",)).new_initial_state(seed=3)
    bot = ExpertBot(0, seed=0, worlds=2)
    bot.turn_starts = {}
    know = bot.knowledge(state.view(0))
    assert not know.evidence.turns
