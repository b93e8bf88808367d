"""The cards as the bots' inner loops read them: each card's data as plain fields
(``INFO``), the ways a revealed card resolves (``Outcome``), and the key that says where a
card goes when only the web decides (``PLAIN_KEY``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.cards import CATALOGUE, COLOURS


@dataclass(frozen=True, slots=True)
class CardInfo:
    """A card's data as plain fields (the catalogue's ``Card`` computes some as
    properties: too slow for the simulator's inner loop). The rules' pure functions
    read either."""

    id: str
    type: str  # condition | joker | species | cat | pollution | reintroduction
    set: str
    colour: str | None
    symbol: str | None
    kind: str | None  # plant | animal
    is_condition_like: bool
    is_species: bool


INFO: dict[str, CardInfo] = {
    c.id: CardInfo(
        c.id, c.type, c.set, c.colour, c.symbol, c.kind, c.is_condition_like, c.is_species
    )
    for c in CATALOGUE.cards.values()
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One way a revealed card resolves: a slot (and a Joker's colour), a Pollution's
    target, a special play (Cat, Reintroduction, Pollution), or a discard."""

    slot: str | None = None
    colour: str | None = None
    target: str | None = None
    special: bool = False
    discard: bool = False

    def action(self) -> dict[str, Any]:
        return {"type": "reveal", "slot": self.slot, "colour": self.colour, "target": self.target}

    @classmethod
    def of_option(cls, card: str, option: dict[str, Any]) -> Outcome:
        """The outcome of a reveal option of a view (``card`` revealed)."""
        special = INFO[card].type in ("cat", "pollution", "reintroduction")
        slot = option.get("slot")
        return cls(
            slot, option.get("colour"), option.get("target"), special, slot is None and not special
        )


#: the outcome installing each Species (outcomes are immutable: shared)
INSTALLED: dict[str, Outcome] = {
    card.id: Outcome(slot=card.id) for card in INFO.values() if card.type == "species"
}
#: a card discarded (a Joker: given each colour, or none)
DISCARDED: dict[str | None, Outcome] = {
    colour: Outcome(colour=colour, discard=True) for colour in (None, *COLOURS)
}
#: a Species by itself, a Condition by its colour, any other card by its type: what
#: ``Sim.feasible`` counts, and what decides where a card goes when the reveals are plain
#: (``Rules.plain_reveals``)
PLAIN_KEY: dict[str, str] = {
    card.id: card.id if card.type == "species" else (card.colour or card.type)
    for card in INFO.values()
}
