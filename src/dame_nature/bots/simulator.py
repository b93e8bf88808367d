"""The bots' lean simulator: sampled positions played forward on the engine's rules.

The bots think by playing thousands of turns forward on sampled hands, too many for the
engine's ``State`` (built for logs, views and checks). This simulator keeps only what
decides where cards go (the web, the discard pile, the hands, the first player, the
advanced rules' bookkeeping) and writes no rule of its own: the web's structure, the
deck and the discard limit come from the engine's ``Game`` and ``WebTopology``, and every
advanced rule's test from the pure functions its module exports (``discards``,
``removes_previous``, ``allows``, ``expires``, ``deadlocked`` ...), the very ones the
rule's hooks call. ``tests/bots/test_simulator.py`` checks every reveal of many random
games against the engine. A position is built from a view, never from a ``State``.

>>> rules = Rules(4, ())
>>> sim = Sim.empty(rules, first=0, hands=[[], [], [], []])
>>> [o.slot for o in sim.outcomes(0, "cond-blue-1", None)]
['species-ortie:1', 'species-jonc:1']
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import chain
from typing import Any

from ..engine.cards import COLOURS
from ..engine.game import get_game
from ..engine.rules import (
    associated_conditions,
    climate_change,
    dependent_conditions,
    environmental_changes,
    first_predator,
    invasive_species,
    species_biodiversity,
    species_reintroductions,
    temporary_conditions,
    wetland,
)
from .cards import DISCARDED, INFO, INSTALLED, PLAIN_KEY, CardInfo, Outcome

__all__ = ["INFO", "PLAIN_KEY", "CardInfo", "Outcome", "Record", "Rules", "Sim", "get_rules"]


class Rules:
    """The static side of a game, read off the engine's ``Game``: player count, active
    rules, web topology, deck."""

    def __init__(self, n: int, modes: tuple[str, ...] | list[str]) -> None:
        self.n = n
        self.modes = tuple(modes)
        game = get_game(n, self.modes)
        self.topology = topology = game.topology
        m = set(modes)
        self.associated = "associated_conditions" in m
        self.dependent = "dependent_conditions" in m
        self.wetland = "wetland" in m
        self.temporary = "temporary_conditions" in m
        self.sides = "species_biodiversity" in m
        self.climate = "climate_change" in m
        self.env = "environmental_changes" in m
        self.reintro = "species_reintroductions" in m
        self.invasive = "invasive_species" in m
        self.cats = "first_predator" in m
        # the topology's tables, flattened for the inner loop
        self.parents: dict[str, tuple[str, ...]] = {
            sp: spot.parents for sp, spot in topology.spots.items()
        }
        self.column: dict[str, int] = {sp: spot.column for sp, spot in topology.spots.items()}
        self.slots: list[str] = list(topology.slots)
        self.aquatic: set[str] = {s.id for s in topology.slots.values() if s.web == "aquatic"}
        conditions = [s for s in topology.slots.values() if s.colour is not None]
        self.slot_colour: dict[str, str] = {s.id: s.colour for s in conditions if s.colour}
        self.slot_species: dict[str, str] = {s.id: s.species for s in conditions}
        self.slot_index: dict[str, int] = {s.id: s.index for s in conditions}
        self.conds: dict[str, tuple[str, str]] = {sp: (f"{sp}:1", f"{sp}:2") for sp in self.parents}
        self.by_colour: dict[str, list[str]] = {c: [] for c in COLOURS}
        for sid, colour in self.slot_colour.items():
            self.by_colour[colour].append(sid)
        self.plants = topology.plants("main")
        # children: the species each species opens (with its other parent)
        self.children: dict[str, list[str]] = {sp: [] for sp in self.parents}
        for sp, ps in self.parents.items():
            for p in ps:
                self.children[p].append(sp)
        self.fixed_deck: list[str] = list(game.fixed_cards)
        self.pools: list[tuple[list[str], int]] = [
            (list(d.pool), d.count) for d in game.config.draws
        ]
        self.deck_size = game.deck_size
        self.max_discards = game.max_discards
        #: whether any active rule may discard a card that has a place
        self.discarding = (
            self.associated
            or self.dependent
            or self.sides
            or self.invasive
            or self.cats
            or self.climate
            or self.reintro
        )
        #: whether a Condition, a Joker or a Species resolves the same way whoever reveals
        #: it after whatever card: then only the web decides (no rule discards, no
        #: Wetland, no Environmental changes)
        self.plain_reveals = not (self.discarding or self.wetland or self.env)

    def __repr__(self) -> str:
        return f"Rules({self.n}, {self.modes!r})"


@cache
def get_rules(n: int, modes: tuple[str, ...]) -> Rules:
    return Rules(n, modes)


# a reveal record: (card, colour, placed, slot)
Record = list[Any]


class Sim:
    """A mutable game position the bots play forward. ``hands[s]`` holds every card of
    seat ``s`` (the programmed one included)."""

    __slots__ = (
        "rules",
        "web",
        "hands",
        "first",
        "discards",
        "after_reintro",
        "plants_start",
        "specials_played",
        "cats_out",
        "sides",
        "in_play",
        "turn_records",
        "over",
        "won",
        "played_pollutions",
        "_open",
        "_placements",
        "best_reveals",
    )

    rules: Rules
    web: dict[str, str | None]
    hands: list[list[str]]
    first: int
    discards: int
    after_reintro: bool
    plants_start: bool
    specials_played: int
    cats_out: int
    sides: list[str | None]
    in_play: list[tuple[int, str]]
    turn_records: list[Record]
    over: bool
    won: bool
    played_pollutions: int
    _open: dict[str, list[str]]  # open slots by colour, for the web as it is
    #: the outcomes placing a Condition (or a Joker given a colour) of a colour, keyed by
    #: (colour, the Joker's colour), for the web as it is (no Wetland, no Environmental
    #: changes: their outcomes depend on the card before)
    _placements: dict[tuple[str, str | None], list[Outcome]]
    #: ``policy.best_outcome`` of a card by its ``PLAIN_KEY``, for the web as it is, when
    #: it depends on nothing else (``Rules.plain_reveals``)
    best_reveals: dict[str, tuple[float, Outcome]]

    def __init__(self) -> None:
        self._open = {}
        self._placements = {}
        self.best_reveals = {}
        self.turn_records: list[Record] = []
        self.in_play: list[tuple[int, str]] = []
        self.over = False
        self.won = False

    @classmethod
    def empty(cls, rules: Rules, first: int, hands: list[list[str]]) -> Sim:
        sim = cls()
        sim.rules = rules
        sim.web = dict.fromkeys(rules.slots)
        sim.hands = [list(h) for h in hands]
        sim.first = first
        sim.discards = 0
        sim.after_reintro = False
        sim.plants_start = False
        sim.specials_played = 0
        sim.cats_out = 0
        sim.sides = [None] * rules.n
        sim.played_pollutions = 0
        return sim

    def copy(self) -> Sim:
        sim = Sim.__new__(Sim)
        sim.rules = self.rules
        sim.web = dict(self.web)
        sim.hands = [list(h) for h in self.hands]
        sim.first = self.first
        sim.discards = self.discards
        sim.after_reintro = self.after_reintro
        sim.plants_start = self.plants_start
        sim.specials_played = self.specials_played
        sim.cats_out = self.cats_out
        sim.sides = self.sides
        sim.in_play = list(self.in_play)
        sim.turn_records = [list(r) for r in self.turn_records]
        sim.over = self.over
        sim.won = self.won
        sim.played_pollutions = self.played_pollutions
        sim._open = self._open  # same web: the same answers, until one of them changes
        sim._placements = self._placements
        sim.best_reveals = self.best_reveals
        return sim

    # ------------------------------------------------------------ queries
    def is_open(self, species: str) -> bool:
        web = self.web
        return all(web[p] is not None for p in self.rules.parents[species])

    def open_slots(self, colour: str) -> list[str]:
        """Empty Condition slots of ``colour`` whose species is open and not installed."""
        cached = self._open.get(colour)
        if cached is not None:
            return cached
        out = self.rules.topology.open_condition_slots(self.web, colour)
        self._open[colour] = out
        return out

    @classmethod
    def at_table(cls, view: dict[str, Any], hands: list[list[str]] | None = None) -> Sim:
        """The table a view shows (its rules, first player, web, discards and sides),
        with ``hands`` (default: empty) and nothing else known."""
        rules = get_rules(len(view["players"]), tuple(view["modes"]))
        sim = cls.empty(rules, view["first_player"], hands or [[] for _ in range(rules.n)])
        sim.web = {s: view["web"].get(s) for s in rules.slots}
        sim.discards = len(view["discard"])
        sim.sides = [p.get("side") for p in view["players"]]
        return sim

    def can_install(self, species: str) -> bool:
        return self.rules.topology.can_install(self.web, species)

    def empty_slots(self) -> int:
        return [*self.web.values()].count(None)

    def cards_left(self) -> int:
        return sum(map(len, self.hands))

    def needed(self) -> int:
        """Cards that must still be played to win: empty slots, specials, Cats."""
        rules = self.rules
        need = self.empty_slots()
        if rules.reintro:
            need += rules.n - self.specials_played
        if rules.cats:
            need += rules.n - self.cats_out - len(self.in_play)
        return need

    def goal_met(self) -> bool:
        rules = self.rules
        if None in self.web.values():
            return False
        if rules.reintro and self.specials_played < rules.n:
            return False
        return not (rules.cats and self.cats_out < rules.n)

    def winnable(self) -> bool:
        if self.over:
            return self.won
        if self.cards_left() < self.needed():
            return False
        return not (self.rules.cats and first_predator.deadlocked(self.hands))

    def feasible(self) -> bool:
        """A necessary condition to win without exchanging cards: every empty species
        slot has its card in a hand, and each colour's empty slots have cards enough
        (Jokers filling the gaps)."""
        if not self.winnable():
            return False
        rules = self.rules
        web = self.web
        held = Counter(map(PLAIN_KEY.__getitem__, chain.from_iterable(self.hands)))
        for sp in rules.parents:
            if web[sp] is None and sp not in held:
                return False
        short = 0
        for colour, slots in rules.by_colour.items():
            empty = [web[sid] for sid in slots].count(None)
            short += max(0, empty - held.get(colour, 0))
        return short <= held.get("joker", 0)

    def order(self) -> list[int]:
        """This turn's reveal order: from the first player, seats holding cards."""
        n = self.rules.n
        return [(self.first + i) % n for i in range(n) if self.hands[(self.first + i) % n]]

    # ------------------------------------------------------------ reveal
    def outcomes(self, seat: int, card: str, prev: Record | None) -> list[Outcome]:
        """Every way ``card`` revealed by ``seat`` after ``prev`` can resolve now."""
        info = INFO[card]
        t = info.type
        if t == "cat" or t == "reintroduction":
            return [Outcome(special=True)]
        if t == "pollution":
            if not self.plants_start:
                return [Outcome(discard=True)]
            web = self.web
            targets = [web[s] for s in self.rules.topology.uncovered_conditions(web)]
            return [Outcome(target=t, special=True) for t in targets] or [Outcome(special=True)]
        if t == "joker":
            out: list[Outcome] = []
            for colour in COLOURS:
                out += self._colour_outcomes(seat, info, colour, prev)
            return out
        return self._colour_outcomes(seat, info, info.colour, prev)

    def _discarded(
        self, seat: int, info: CardInfo, colour: str | None, prev: Record | None
    ) -> bool:
        """Whether an active rule discards the card (each rule's own pure test)."""
        rules = self.rules
        prev_info = INFO[prev[0]] if prev is not None else None
        return (
            (rules.associated and associated_conditions.discards(info, prev_info))
            or (rules.dependent and dependent_conditions.discards(info, prev_info))
            or (rules.sides and species_biodiversity.discards(info, self.sides[seat]))
            or (rules.invasive and invasive_species.discards(info, seat == self.first))
            or (rules.cats and first_predator.discards(info, prev_info))
            or (
                rules.climate
                and climate_change.discards(colour, prev[1] if prev is not None else None)
            )
            or (rules.reintro and species_reintroductions.discards(info, self.after_reintro))
        )

    def _colour_outcomes(
        self, seat: int, info: CardInfo, colour: str | None, prev: Record | None
    ) -> list[Outcome]:
        joker = colour if info.type == "joker" else None
        rules = self.rules
        if rules.plain_reveals:  # only the web decides
            if info.type == "species":
                sp = info.id
                if sp in rules.parents and self.can_install(sp):
                    return [INSTALLED[sp]]
                return [DISCARDED[None]]
            assert colour is not None
            return self._placed(colour, joker)
        if not (rules.discarding and self._discarded(seat, info, colour, prev)):
            after_blue = rules.wetland and (
                prev is not None and wetland.after_blue(INFO[prev[0]], prev[1])
            )
            if info.type == "species":
                sp = info.id
                ok = sp in rules.parents and self.can_install(sp)
                if ok and rules.wetland and sp in rules.aquatic and not after_blue:
                    ok = False
                if ok:
                    return [INSTALLED[sp]]
            else:
                assert colour is not None
                if not rules.wetland and not rules.env:
                    return self._placed(colour, joker)
                slots = self.open_slots(colour)
                if rules.wetland and not after_blue:
                    slots = [s for s in slots if s not in rules.aquatic]
                if rules.env:
                    web = self.web
                    slots = [
                        s
                        for s in slots
                        if environmental_changes.allows(
                            rules.slot_index[s], web[rules.slot_species[s] + ":1"] is not None
                        )
                    ]
                if slots:
                    return [Outcome(slot=s, colour=joker) for s in slots]
        return [DISCARDED[joker]]

    def _placed(self, colour: str, joker: str | None) -> list[Outcome]:
        """A Condition of ``colour`` (a Joker given ``joker``) no rule discards: its
        places in the web as it is, or its discard."""
        placements = self._placements.get((colour, joker))
        if placements is None:
            placements = [Outcome(slot=s, colour=joker) for s in self.open_slots(colour)]
            if not placements:
                placements = [DISCARDED[joker]]
            self._placements[(colour, joker)] = placements
        return placements

    def resolve(self, seat: int, card: str, outcome: Outcome) -> Record:
        """Carry out ``outcome`` of ``card`` revealed by ``seat``; its record."""
        records = self.turn_records
        prev = records[-1] if records else None
        info = INFO[card]
        self.hands[seat].remove(card)
        placed = True
        if outcome.special:
            if info.type == "cat":
                self.in_play.append((seat, card))
            elif info.type == "reintroduction":
                self.specials_played += 1
                self.after_reintro = True
            else:  # a Pollution played
                self.specials_played += 1
                self.played_pollutions += 1
                self.discards += 1
                if outcome.target is not None:
                    slot = next(s for s, c in self.web.items() if c == outcome.target)
                    self._remove(slot)
        elif outcome.slot is not None:
            self.web[outcome.slot] = card
            self._open = {}
            self._placements = {}
            self.best_reveals = {}
        else:
            self.discards += 1
            placed = False
        colour = outcome.colour if outcome.colour is not None else info.colour
        record: Record = [card, colour, placed, outcome.slot]
        records.append(record)
        rules = self.rules
        if (
            rules.climate
            and prev is not None
            and prev[3] is not None
            and climate_change.removes_previous(colour, prev[1], prev[2])
        ):
            self._remove(prev[3])
        if rules.reintro and species_reintroductions.ends_reintroduction(info):
            self.after_reintro = False
        if (
            rules.cats
            and prev is not None
            and first_predator.removes_previous(info, INFO[prev[0]], prev[2])
        ):
            self._remove(prev[3])
        if self.goal_met():
            self.over = True
            self.won = True
        return record

    def _remove(self, slot: str) -> None:
        card = self.web[slot]
        if card is None:
            return
        self.web[slot] = None
        self._open = {}
        self._placements = {}
        self.best_reveals = {}
        self.discards += 1
        for record in self.turn_records:
            if record[0] == card and record[2]:
                record[2] = False

    def end_turn(self) -> None:
        rules = self.rules
        if rules.temporary:
            web = self.web
            for sid, card in list(web.items()):
                if card is not None and temporary_conditions.expires(
                    INFO[card], web[rules.slot_species.get(sid, sid)] is not None
                ):
                    self._remove(sid)
        if rules.cats:
            cats, self.in_play = self.in_play, []
            if first_predator.cats_return(len(cats)):
                for seat, card in cats:
                    self.hands[seat].append(card)
            else:
                self.cats_out += len(cats)
                self.discards += len(cats)
        self.turn_records = []
        if self.goal_met():
            self.over = True
            self.won = True
            return
        if self.cards_left() == 0:
            self.over = True
            return
        self.first = (self.first + 1) % rules.n
        self.start_turn()

    def start_turn(self) -> None:
        if self.rules.reintro:
            self.plants_start = species_reintroductions.plants_installed(
                self.web, self.rules.plants
            )
