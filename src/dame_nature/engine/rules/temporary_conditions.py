"""Path 2, stage 2: Temporary Conditions (``cond-*-5``) must be covered by their Species by
the end of the turn, or they are discarded."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..cards import CATALOGUE
from .base import Rule

if TYPE_CHECKING:
    from ..cards import CardFacts
    from ..state import State


def expires(card: CardFacts, species_installed: bool) -> bool:
    """The rule's test, pure (the bots' simulator calls it too): at the end of a turn, a
    temporary Condition whose Species is not installed leaves the web."""
    return card.symbol == "temporary" and not species_installed


class TemporaryConditions(Rule):
    mode = "temporary_conditions"
    title = "Temporary Conditions"
    title_fr = "Conditions temporaires"
    summary = (
        "At the end of each turn, a temporary Condition in the web whose Species is not "
        "installed is discarded (its slot empties)."
    )
    summary_fr = (
        "À la fin de chaque tour, une Condition temporaire du réseau dont l'Espèce n'est pas "
        "installée est défaussée (son emplacement se libère)."
    )
    reasons = {
        "temporary": (
            "a temporary Condition not covered by its Species at the end of the turn",
            "une Condition temporaire non couverte par son Espèce à la fin du tour",
        )
    }

    def end_of_turn(self, state: State) -> None:
        topo = state.game.topology
        for slot_id, card in list(state.web.items()):
            if card is None:
                continue
            installed = state.web[topo.slots[slot_id].species] is not None
            if expires(CATALOGUE.card(card), installed):
                state.discard_from_web(slot_id, "temporary")
