"""The engine's named values as ``StrEnum``s: each member *is* its string, so views, events
and the JSON state hold plain strings and compare equal to them.

>>> Phase.PROGRAMMING == "programming", ActionType.SWAP_DISCARD.value
(True, 'swap_discard')
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    CHOOSING_SIDES = "choosing_sides"  # before the first turn (Species biodiversity)
    PROGRAMMING = "programming"
    REVEAL = "reveal"
    OVER = "over"


# the phases as plain strings, for hot paths (comparing a str with an enum member is
# several times slower than with a str)
CHOOSING_SIDES: str = Phase.CHOOSING_SIDES.value
PROGRAMMING: str = Phase.PROGRAMMING.value
REVEAL: str = Phase.REVEAL.value
OVER: str = Phase.OVER.value


class ActionType(StrEnum):
    CHOOSE_SIDE = "choose_side"
    REVEAL = "reveal"
    GIVE_BACK = "give_back"
    PROGRAM = "program"
    READY = "ready"
    UNREADY = "unready"
    SHOW = "show"
    GIVE = "give"
    SWAP_DISCARD = "swap_discard"
    END_GAME = "end_game"


class Result(StrEnum):
    """What became of a revealed card (``revealed_this_turn`` / ``last_turn`` records)."""

    PLACED = "placed"  # in the web (it may be discarded from it later in the turn)
    DISCARDED = "discarded"  # in the discard pile; the record's ``reason`` says why
    PLAYED = "played"  # a Pollution or a Reintroduction whose effect happened
    IN_PLAY = "in_play"  # a Cat, until the end of its turn
    RETURNED = "returned"  # a Cat gone back to its player's hand at the end of the turn


class Reason(StrEnum):
    """Why a card was discarded. The core's own; each rule declares its texts."""

    NO_SLOT = "no_slot"
    JOKER_NO_SLOT = "joker_no_slot"
    CONDITIONS_MISSING = "conditions_missing"
    SPECIES_NOT_OPEN = "species_not_open"
    ALREADY_INSTALLED = "already_installed"
    ASSOCIATED = "associated"
    DEPENDENT = "dependent"
    AQUATIC = "aquatic"
    TEMPORARY = "temporary"
    SIDE = "side"
    CLIMATE_CHANGE = "climate_change"
    ORDER = "order"
    REINTRODUCTION = "reintroduction"
    INVASIVE = "invasive"
    POLLUTION_EARLY = "pollution_early"
    POLLUTION = "pollution"
    CAT = "cat"
    CAT_ALONE = "cat_alone"


class Side(StrEnum):
    PLANT = "plant"
    ANIMAL = "animal"
