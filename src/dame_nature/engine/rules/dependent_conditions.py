"""Path 1, stage 2: Dependent Conditions (``cond-*-4``) need a Species revealed just before
them; otherwise they are discarded."""

from __future__ import annotations

from .base import RevealContext, Rule


class DependentConditions(Rule):
    mode = "dependent_conditions"
    title = "Dependent Conditions"
    title_fr = "Conditions dépendantes"
    summary = (
        "A dependent Condition is placed only if the card revealed just before it was a "
        "Species; the first reveal of a turn can never place one."
    )
    summary_fr = (
        "Une Condition dépendante n'est placée que si la carte révélée juste avant elle est "
        "une Espèce ; la première carte révélée d'un tour ne peut jamais en placer une."
    )
    reasons = {
        "dependent": (
            "dependent Condition: it needs a Species revealed just before it",
            "Condition dépendante : il faut une Espèce révélée juste avant elle",
        )
    }

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        if ctx.card.symbol != "dependent":
            return None
        previous = ctx.previous_card()
        return None if previous is not None and previous.is_species else "dependent"
