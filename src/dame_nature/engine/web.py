"""The web of life: its slots, which are open, and where a revealed card may go.

A slot is ``<species-id>:1`` / ``<species-id>:2`` (the species' two Conditions, in card
order) or ``<species-id>`` (the species itself). The topology here is static; which card
lies in which slot is the state's ``web`` mapping.

>>> topo = WebTopology((("main", "numbered"),))
>>> web = topo.empty_web()
>>> topo.open_condition_slots(web, "blue")
['species-ortie:1', 'species-jonc:1']
>>> web["species-ortie:1"] = "cond-blue-1"; web["species-ortie:2"] = "cond-yellow-1"
>>> topo.can_install(web, "species-ortie")
True
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .cards import CATALOGUE, SpeciesSpot


@dataclass(frozen=True, slots=True)
class Slot:
    id: str
    web: str  # "main" or "aquatic"
    species: str
    index: int  # 0: the species itself; 1 or 2: its Conditions in card order
    colour: str | None  # the Condition colour the slot takes (None for a species slot)

    @property
    def is_species_slot(self) -> bool:
        return self.index == 0


class WebTopology:
    """The slots of every active web, built from the layouts of ``cards.json``."""

    def __init__(self, webs: tuple[tuple[str, str], ...]) -> None:
        self.webs = webs
        self.spots: dict[str, SpeciesSpot] = {}
        self.web_of_species: dict[str, str] = {}
        self.slots: dict[str, Slot] = {}
        for web_name, layout_name in webs:
            for spot in CATALOGUE.layout(layout_name):
                self.spots[spot.species] = spot
                self.web_of_species[spot.species] = web_name
                for i, colour in enumerate(spot.conditions, start=1):
                    sid = f"{spot.species}:{i}"
                    self.slots[sid] = Slot(sid, web_name, spot.species, i, colour)
                self.slots[spot.species] = Slot(spot.species, web_name, spot.species, 0, None)
        self.condition_slots_by_colour: dict[str, list[Slot]] = {}
        for slot in self.slots.values():
            if slot.colour is not None:
                self.condition_slots_by_colour.setdefault(slot.colour, []).append(slot)
        # per colour: (slot, its species, the species' parents), for open_condition_slots
        self._open_test: dict[str, tuple[tuple[str, str, tuple[str, ...]], ...]] = {
            colour: tuple((s.id, s.species, self.spots[s.species].parents) for s in slots)
            for colour, slots in self.condition_slots_by_colour.items()
        }

    def empty_web(self) -> dict[str, str | None]:
        return {sid: None for sid in self.slots}

    def has_species(self, species: str) -> bool:
        return species in self.spots

    def is_installed(self, web: Mapping[str, str | None], species: str) -> bool:
        return web.get(species) is not None

    def is_open(self, web: Mapping[str, str | None], species: str) -> bool:
        """Plants are always open; an animal once all its parents are installed."""
        return all(web[p] is not None for p in self.spots[species].parents)

    def open_condition_slots(self, web: Mapping[str, str | None], colour: str) -> list[str]:
        """Empty Condition slots of this colour whose species is open and not installed."""
        found = []
        for slot, species, parents in self._open_test.get(colour, ()):
            if web[slot] is None and web[species] is None:
                for parent in parents:
                    if web[parent] is None:
                        break
                else:
                    found.append(slot)
        return found

    def can_install(self, web: Mapping[str, str | None], species: str) -> bool:
        """Both Condition slots filled, the species slot empty (and so open)."""
        return (
            web[species] is None
            and web[f"{species}:1"] is not None
            and web[f"{species}:2"] is not None
            and self.is_open(web, species)
        )

    def uncovered_conditions(self, web: Mapping[str, str | None]) -> list[str]:
        """Slots holding a Condition whose species is not installed."""
        return [
            s.id
            for s in self.slots.values()
            if s.colour is not None and web[s.id] is not None and web[s.species] is None
        ]

    def empty_slot_count(self, web: Mapping[str, str | None]) -> int:
        return list(web.values()).count(None)

    def is_complete(self, web: Mapping[str, str | None]) -> bool:
        return None not in web.values()

    def plants(self, web_name: str = "main") -> list[str]:
        return [
            sp
            for sp, spot in self.spots.items()
            if not spot.parents and self.web_of_species[sp] == web_name
        ]
