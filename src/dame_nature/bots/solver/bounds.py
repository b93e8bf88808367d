"""Necessary conditions to win that hold whatever Symbioses are made: a position that
fails one is lost (proven), whoever holds which card.

A Give swaps one card between two hands and a discard swap trades a Condition (or Joker)
of a hand for a card of the discard pile: neither changes the number of cards in hands,
nor the number of cards in the discard pile. So

- the cards left in hands must cover the empty slots (and the mode cards still to play);
- a Species missing from every hand can only come back by a discard swap, which costs a
  Symbiosis and sends a Condition (or Joker) of a hand to the discard pile in its place;
- a colour short of Conditions in hands is made up by Jokers, or by discard swaps too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..simulator import INFO

if TYPE_CHECKING:
    from ..simulator import Sim

__all__ = ["lost_for_certain", "symbioses_left"]


def symbioses_left(sim: Sim, cards: tuple[int, ...], free_used: bool) -> int:
    """Symbioses the team can still make: its cards, and one free per turn left (as
    many turns as cards in the fullest hand; with the Cats, which can come back to
    hands, no limit)."""
    if sim.rules.cats:
        return 1 << 30
    turns = max((len(h) for h in sim.hands), default=0)
    return sum(cards) + max(0, turns - (1 if free_used else 0))


def lost_for_certain(sim: Sim, pile: list[str], symbioses: int) -> bool:
    """Whether ``sim`` (at the start of a turn) cannot be won by any line, Symbioses
    included. ``pile``: the cards of the discard pile a discard swap may take."""
    if sim.over:
        return not sim.won
    if sim.discards > sim.rules.max_discards or not sim.winnable():
        return True
    rules = sim.rules
    web = sim.web
    held: dict[str, int] = {}
    condition_like = 0
    for hand in sim.hands:
        for card in hand:
            info = INFO[card]
            key = card if info.type == "species" else (info.colour or info.type)
            held[key] = held.get(key, 0) + 1
            condition_like += info.is_condition_like
    in_pile: dict[str, int] = {}
    for card in pile:
        info = INFO[card]
        key = card if info.type == "species" else (info.colour or info.type)
        in_pile[key] = in_pile.get(key, 0) + 1
    fetch = 0  # cards that must come back from the discard pile
    for sp in rules.parents:
        if web[sp] is None and sp not in held:
            if sp not in in_pile:
                return True
            fetch += 1
    empty_conditions = 0
    short = 0
    spare_in_pile = in_pile.get("joker", 0)
    for colour, slots in rules.by_colour.items():
        empty = sum(1 for sid in slots if web[sid] is None)
        empty_conditions += empty
        gap = max(0, empty - held.get(colour, 0))
        short += gap
        spare_in_pile += min(gap, in_pile.get(colour, 0))
    short = max(0, short - held.get("joker", 0))
    if short > spare_in_pile:
        return True
    fetch += short
    if fetch > symbioses:
        return True
    # each Species fetched sends a Condition of a hand to the pile for good
    species_fetched = fetch - short
    return condition_like - species_fetched < empty_conditions
