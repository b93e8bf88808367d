"""Path 1, stage 2: Dependent Conditions (``cond-*-4``) need a Species revealed just before
them; otherwise they are discarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import RevealContext, Rule

if TYPE_CHECKING:
    from ..cards import CardFacts


def discards(card: CardFacts, previous: CardFacts | None) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): a dependent Condition
    with no Species revealed just before it."""
    return card.symbol == "dependent" and not (previous is not None and previous.is_species)


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
        "une Espèce ; la première carte révélée d'un tour ne peut jamais en placer une."
    )
    reasons = {
        "dependent": (
            "dependent Condition: it needs a Species revealed just before it",
            "Condition dépendante : il faut une Espèce révélée juste avant elle",
        )
    }

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return "dependent" if discards(ctx.card, ctx.previous_card()) else None
