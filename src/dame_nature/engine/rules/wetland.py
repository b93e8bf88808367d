"""Path 1, stage 3: the Wetland. Six more cards and an aquatic web (Charagne, then Gardon);
a card goes into the aquatic web only right after a blue Condition or a Joker given blue."""

from __future__ import annotations

from ..cards import CATALOGUE, CardFacts
from ..web import Slot
from .base import GameConfig, RevealContext, Rule


def after_blue(previous: CardFacts | None, previous_colour: str | None) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): a card goes into the
    aquatic web only right after a blue Condition or a Joker given blue."""
    return previous is not None and previous.is_condition_like and previous_colour == "blue"


class Wetland(Rule):
    mode = "wetland"
    title = "The Wetland"
    title_fr = "La zone humide"
    summary = (
        "Six Wetland cards join the deck (hands may differ by one) and an aquatic web is built "
        "too: Charagne, then Gardon. A card goes into the aquatic web only if the card "
        "revealed just before it was blue. Both webs must be complete to win."
    )
    summary_fr = (
        "Les six cartes de la zone humide rejoignent le paquet (les mains peuvent différer "
        "d'une carte) et un réseau aquatique se construit aussi : la Charagne, puis le "
        "Gardon. Une carte n'entre dans le réseau aquatique que si la carte révélée juste "
        "avant elle est bleue. Il faut compléter les deux réseaux pour gagner."
    )
    reasons = {
        "aquatic": (
            "the aquatic web needs a blue Condition revealed just before",
            "le réseau aquatique demande une Condition bleue révélée juste avant",
        )
    }
    refusal = "aquatic"

    def configure(self, cfg: GameConfig) -> None:
        cfg.extra_webs.append(("aquatic", "aquatic"))
        cfg.extra_cards += CATALOGUE.in_set("wetland", "condition")

    def allows_slot(self, ctx: RevealContext, colour: str | None, slot: Slot) -> bool:
        return slot.web != "aquatic" or ctx.unsure or _after_blue(ctx)

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        """An aquatic Species that could be installed, not right after a blue card."""
        card = ctx.card
        if not card.is_species or _after_blue(ctx):
            return None
        topology = ctx.state.game.topology
        if topology.web_of_species.get(card.id) != "aquatic":
            return None
        return "aquatic" if topology.can_install(ctx.state.web, card.id) else None


def _after_blue(ctx: RevealContext) -> bool:
    """The card revealed just before was a blue Condition or a Joker given blue."""
    return after_blue(ctx.previous_card(), ctx.previous_colour())
