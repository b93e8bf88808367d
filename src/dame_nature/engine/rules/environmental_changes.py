"""Path 3, stage 2: Environmental Changes. A species' Condition slot 2 takes a card only
once its slot 1 is filled."""

from __future__ import annotations

from ..web import Slot
from .base import RevealContext, Rule


class EnvironmentalChanges(Rule):
    mode = "environmental_changes"
    title = "Environmental Changes"
    title_fr = "Changements environnementaux"
    summary = (
        "Each Species' Conditions are placed in the order shown: the second only once the "
        "first is in place."
    )

    def allows_slot(self, ctx: RevealContext, colour: str | None, slot: Slot) -> bool:
        return slot.index != 2 or ctx.state.web[f"{slot.species}:1"] is not None
