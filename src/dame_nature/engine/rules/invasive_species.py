"""Path 4, stage 1: Invasive Species replace Aubépine, Carabe doré and Martre (the lettered
layout); one revealed by anyone but the first player of the turn is discarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .base import GameConfig, RevealContext, Rule

if TYPE_CHECKING:
    from ..cards import CardFacts


def discards(card: CardFacts, by_first_player: bool) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): an invasive species
    revealed by anyone but the first player."""
    return card.set == "invasive" and not by_first_player


class InvasiveSpecies(Rule):
    mode = "invasive_species"
    title = "Invasive Species"
    title_fr = "Espèces invasives"
    summary = (
        "Renouée du Japon, Frelon asiatique and Raton laveur replace Aubépine, Carabe doré "
        "and Martre (lettered Setup cards). An invasive species is discarded unless the "
        "first player of the turn reveals it."
    )
    summary_fr = (
        "La Renouée du Japon, le Frelon asiatique et le Raton laveur remplacent l'Aubépine, "
        "le Carabe doré et la Martre (cartes de mise en place à lettres). Une espèce invasive "
        "est défaussée sauf si le premier joueur du tour la révèle."
    )
    reasons = {
        "invasive": (
            "an invasive species must be played by the first player",
            "une espèce invasive doit être jouée par le premier joueur",
        )
    }

    def configure(self, cfg: GameConfig) -> None:
        cfg.main_layout = "lettered"

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return "invasive" if discards(ctx.card, ctx.is_first_player) else None

    def certain_discard(self, ctx: RevealContext, colour: str | None) -> str | None:
        return self.discard_reason(ctx, colour)  # whatever is revealed before the card
