"""Path 2, stage 3: Species-specific biodiversity. Before the first turn each player picks
Plant or Animal; a Species of the other kind that they reveal is discarded."""

from __future__ import annotations

from .base import RevealContext, Rule


class SpeciesBiodiversity(Rule):
    mode = "species_biodiversity"
    title = "Species-specific biodiversity"
    title_fr = "Biodiversité spécifique"
    summary = (
        "Before the first turn, from the first player on, each player chooses Plant or "
        "Animal. A Species revealed by a player of the other side is discarded."
    )
    reasons = {
        "side": (
            "this Species does not match its player's Plant/Animal side",
            "cette Espèce ne correspond pas au côté Plante/Animal de son joueur",
        )
    }

    def first_phase(self) -> str | None:
        return "choosing_sides"

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        if ctx.card.is_species and ctx.state.sides[ctx.seat] != ctx.card.kind:
            return "side"
        return None
