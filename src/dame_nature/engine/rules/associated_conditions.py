"""Path 1, stage 1: Associated Conditions (``cond-*-3``) need a Condition or Joker revealed
just before them; otherwise they are discarded."""

from __future__ import annotations

from .base import RevealContext, Rule


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
        "Condition ou un Joker ; la première carte révélée d'un tour ne peut jamais en placer "
        "une."
    )
    reasons = {
        "associated": (
            "associated Condition: it needs a Condition revealed just before it",
            "Condition associée : il faut une Condition révélée juste avant elle",
        )
    }

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        if ctx.card.symbol != "associated":
            return None
        previous = ctx.previous_card()
        return None if previous is not None and previous.is_condition_like else "associated"
