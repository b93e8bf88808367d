"""Path 1, stage 1: Associated Conditions (``cond-*-3``) need a Condition or Joker revealed
just before them; otherwise they are discarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import RevealContext, Rule

if TYPE_CHECKING:
    from ..cards import CardFacts


def discards(card: CardFacts, previous: CardFacts | None) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): an associated Condition
    with no Condition or Joker revealed just before it."""
    return card.symbol == "associated" and not (previous is not None and previous.is_condition_like)


class AssociatedConditions(Rule):
    mode = "associated_conditions"
    title = "Associated Conditions"
    title_fr = "Conditions associées"
    summary = (
        "An associated Condition is placed only if the card revealed just before it was a "
        "Condition or a Joker; the first reveal of a turn can never place one."
    )
    summary_fr = (
        "Une Condition associée n'est placée que si la carte révélée juste avant elle est une "
        "Condition ou un Joker ; la première carte révélée d'un tour ne peut jamais en placer "
        "une."
    )
    reasons = {
        "associated": (
            "associated Condition: it needs a Condition revealed just before it",
            "Condition associée : il faut une Condition révélée juste avant elle",
        )
    }

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return "associated" if discards(ctx.card, ctx.previous_card()) else None
