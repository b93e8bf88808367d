"""The card catalogue and web layouts, read from the package's ``data/cards.json``.

>>> CATALOGUE.card("species-aigle-royal").name_en
'Golden eagle'
>>> CATALOGUE.card("cond-blue-3").symbol
'associated'
>>> len(CATALOGUE.layout("numbered"))
10
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Protocol

COLOURS: tuple[str, ...] = ("blue", "yellow", "green", "violet")
#: each colour's word on the cards, (English, French), and the letter the cards print
COLOUR_WORDS: dict[str, tuple[str, str]] = {
    "blue": ("hydric", "hydrique"),
    "yellow": ("thermal", "thermique"),
    "green": ("geological", "géologique"),
    "violet": ("atmospheric", "atmosphérique"),
}
COLOUR_LETTERS: dict[str, str] = {"blue": "H", "yellow": "T", "green": "G", "violet": "A"}


class CardFacts(Protocol):
    """What the rules' pure tests read of a card: a ``Card`` of the catalogue, or a
    bot simulator's leaner record of the same fields."""

    @property
    def id(self) -> str: ...
    @property
    def type(self) -> str: ...
    @property
    def set(self) -> str: ...
    @property
    def colour(self) -> str | None: ...
    @property
    def symbol(self) -> str | None: ...
    @property
    def kind(self) -> str | None: ...
    @property
    def is_condition_like(self) -> bool: ...
    @property
    def is_species(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class Card:
    id: str
    type: str  # condition | joker | species | cat | pollution | reintroduction
    set: str
    colour: str | None = None
    symbol: str | None = None
    kind: str | None = None  # plant | animal, for species
    name_fr: str | None = None
    name_en: str | None = None
    players: tuple[int, ...] = ()
    replaces: str | None = None

    @property
    def is_condition(self) -> bool:
        """A Condition card (Jokers are not: they are ``is_condition_like``)."""
        return self.type == "condition"

    @property
    def is_joker(self) -> bool:
        return self.type == "joker"

    @property
    def is_condition_like(self) -> bool:
        """Goes into a Condition slot: a Condition or a Joker."""
        return self.type in ("condition", "joker")

    @property
    def is_species(self) -> bool:
        return self.type == "species"


@dataclass(frozen=True, slots=True)
class SpeciesSpot:
    """One species of a web layout: where it sits, what it needs."""

    species: str
    column: int
    row: int
    parents: tuple[str, ...]
    conditions: tuple[str, ...]


class Catalogue:
    """Read-only access to the card data."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.raw = data
        self.cards: dict[str, Card] = {}
        for entry in data["cards"]:
            fields = {k: v for k, v in entry.items()}
            fields["players"] = tuple(fields.get("players", ()))
            self.cards[entry["id"]] = Card(**fields)
        self.setup_by_players: dict[int, dict[str, int]] = {
            int(k): v for k, v in data["setup_by_players"].items()
        }
        self._layouts: dict[str, tuple[SpeciesSpot, ...]] = {
            name: tuple(
                SpeciesSpot(
                    species=species,
                    column=spot["column"],
                    row=spot["row"],
                    parents=tuple(spot["parents"]),
                    conditions=tuple(spot["conditions"]),
                )
                for species, spot in layout.items()
            )
            for name, layout in data["layouts"].items()
        }

    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def has_card(self, card_id: str) -> bool:
        return card_id in self.cards

    def layout(self, name: str) -> tuple[SpeciesSpot, ...]:
        return self._layouts[name]

    def in_set(self, set_name: str, card_type: str | None = None) -> list[str]:
        return [
            c.id
            for c in self.cards.values()
            if c.set == set_name and (card_type is None or c.type == card_type)
        ]


@cache
def raw_card_data() -> dict[str, Any]:
    """The card data exactly as shipped (``data/cards.json``)."""
    text = resources.files("dame_nature").joinpath("data/cards.json").read_text("utf-8")
    return json.loads(text)


CATALOGUE = Catalogue(raw_card_data())
