"""Path 2, stage 3: Species-specific biodiversity. Before the first turn each player picks
Plant or Animal; a Species of the other kind that they reveal is discarded."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .base import GameConfig, RevealContext, Rule

if TYPE_CHECKING:
    from ..cards import CardFacts
    from ..state import State


def discards(card: CardFacts, side: str | None) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): a Species revealed by
    a player of the other side (or of no side yet)."""
    return card.is_species and side != card.kind


class SpeciesBiodiversity(Rule):
    mode = "species_biodiversity"
    title = "Species-specific biodiversity"
    title_fr = "Biodiversité spécifique"
    summary = (
        "Before the first turn, from the first player on, each player chooses Plant or "
        "Animal. A Species revealed by a player of the other side is discarded."
    )
    summary_fr = (
        "Avant le premier tour, à partir du premier joueur, chacun choisit Végétal ou Animal. "
        "Une Espèce révélée par un joueur de l'autre camp est défaussée."
    )
    reasons = {
        "side": (
            "this Species does not match its player's Plant/Animal side",
            "cette Espèce ne correspond pas au côté Végétal/Animal de son joueur",
        )
    }

    def configure(self, cfg: GameConfig) -> None:
        self.num_players = cfg.num_players

    def initial_data(self) -> dict[str, Any]:
        return {"sides": [None] * self.num_players}  # "plant" / "animal" once chosen

    def first_phase(self) -> str | None:
        return "choosing_sides"

    def sides(self, state: State) -> list[str | None] | None:
        sides: list[str | None] = self.data(state)["sides"]
        return sides

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return "side" if discards(ctx.card, self.data(ctx.state)["sides"][ctx.seat]) else None

    def certain_discard(self, ctx: RevealContext, colour: str | None) -> str | None:
        return self.discard_reason(ctx, colour)  # whatever is revealed before the card
