"""Path 3, stage 2: Environmental Changes. A species' Condition slot 2 takes a card only
once its slot 1 is filled."""

from __future__ import annotations

from ..web import Slot
from .base import RevealContext, Rule


def allows(index: int, first_filled: bool) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): a Condition slot 2
    takes a card only once slot 1 of its species is filled."""
    return index != 2 or first_filled


class EnvironmentalChanges(Rule):
    mode = "environmental_changes"
    title = "Environmental Changes"
    title_fr = "Changements environnementaux"
    summary = (
        "Each Species' Conditions are placed in the order shown: the second only once the "
        "first is in place."
    )
    summary_fr = (
        "Les Conditions de chaque Espèce se placent dans l'ordre indiqué : la seconde "
        "seulement une fois la première en place."
    )
    reasons = {
        "order": (
            "environmental changes: the Condition slots fill in order",
            "changements environnementaux : les emplacements de Condition se remplissent "
            "dans l'ordre",
        )
    }

    refusal = "order"

    def allows_slot(self, ctx: RevealContext, colour: str | None, slot: Slot) -> bool:
        return allows(slot.index, ctx.state.web[f"{slot.species}:1"] is not None)

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        """A Condition whose open slots of its colour all wait for their slot 1: say why."""
        if not ctx.card.is_condition_like or colour is None:
            return None
        topology = ctx.state.game.topology
        open_slots = topology.open_condition_slots(ctx.state.web, colour)
        if open_slots and not any(
            self.allows_slot(ctx, colour, topology.slots[sid]) for sid in open_slots
        ):
            return "order"
        return None

    def certain_discard(self, ctx: RevealContext, colour: str | None) -> str | None:
        return self.discard_reason(ctx, colour)  # whatever is revealed before the card
