"""Path 1, stage 3: the Wetland. Six more cards and an aquatic web (Charagne, then Gardon);
a card goes into the aquatic web only right after a blue Condition or a Joker given blue."""

from __future__ import annotations

from ..cards import CATALOGUE
from ..web import Slot
from .base import GameConfig, RevealContext, Rule


class Wetland(Rule):
    mode = "wetland"
    title = "The Wetland"
    title_fr = "La zone humide"
    summary = (
        "Six Wetland cards join the deck (hands may differ by one) and an aquatic web is built "
        "too: Charagne, then Gardon. A card goes into the aquatic web only if the card "
        "revealed just before it was blue. Both webs must be complete to win."
    )

    def configure(self, cfg: GameConfig) -> None:
        cfg.extra_webs.append(("aquatic", "aquatic"))
        cfg.extra_cards += CATALOGUE.in_set("wetland", "condition")

    def allows_slot(self, ctx: RevealContext, colour: str | None, slot: Slot) -> bool:
        if slot.web != "aquatic":
            return True
        previous = ctx.previous_card()
        return (
            previous is not None
            and previous.is_condition_like
            and ctx.previous_colour() == "blue"
        )
