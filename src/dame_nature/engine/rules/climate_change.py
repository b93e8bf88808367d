"""Path 3, stage 1: Climate Change. A blue card revealed right before or right after a
yellow one (Jokers by their chosen colour) is discarded, even if already placed."""

from __future__ import annotations

from typing import Any

from .base import RevealContext, Rule


def discards(colour: str | None, previous_colour: str | None) -> bool:
    """The rule's tests, pure (the bots' simulator calls them too): a blue card revealed
    right after a yellow one is discarded..."""
    return colour == "blue" and previous_colour == "yellow"


def removes_previous(
    colour: str | None, previous_colour: str | None, previous_placed: bool
) -> bool:
    """... and a yellow card revealed right after a placed blue one takes it off the web."""
    return colour == "yellow" and previous_colour == "blue" and previous_placed


class ClimateChange(Rule):
    mode = "climate_change"
    title = "Climate Change"
    title_fr = "Changement climatique"
    summary = (
        "When a blue and a yellow card are revealed one right after the other in a turn, the "
        "blue one is discarded, even if it was already placed. A Joker counts as the colour "
        "it is given."
    )
    summary_fr = (
        "Quand une carte bleue et une carte jaune sont révélées l'une juste après l'autre "
        "dans un tour, la bleue est défaussée, même si elle était déjà placée. Un Joker "
        "compte pour la couleur qui lui est donnée."
    )
    reasons = {
        "climate_change": (
            "climate change: a blue card next to a yellow one",
            "changement climatique : une carte bleue à côté d'une jaune",
        )
    }

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return "climate_change" if discards(colour, ctx.previous_colour()) else None

    def after_reveal(self, ctx: RevealContext, record: dict[str, Any]) -> None:
        previous = ctx.previous
        if (
            previous is not None
            and previous["slot"] is not None
            and removes_previous(
                record["colour"], previous["colour"], previous["result"] == "placed"
            )
        ):
            ctx.state.discard_from_web(previous["slot"], "climate_change")
