"""Why a game can no longer be won, told from what every player sees.

``lost_reason(state)`` answers ``None`` while the game can be won (or once it is won),
else the facts that make it lost, for the table to say before anyone ends it:

- ``cards_left``: the cards still in hands (programmed ones included);
- ``places_empty``: the empty places of the web; ``cards_to_play``: the advanced-rule
  cards that must still be played (the Cats held, the Pollutions and Reintroductions not
  played yet);
- ``discards`` and ``max_discards``: the discard pile and the most a won game may have;
- ``species_lost``: Species in the discard pile whose place in the web is still empty;
- ``colours_short``: ``[{colour, places, cards}]``, each colour whose empty places
  outnumber its Conditions still in hands, when the Jokers left cannot make up for them
  (``jokers_left`` then says how many there are);
- ``deadlocked``: the advanced rules that lock the game (only Cats left, held by two
  players or more);
- ``text``: ``{"en", "fr"}``, the same in a sentence or two.

Every fact is public: the web, the discard pile and the hand sizes are on the table, and
the Conditions and Jokers still in hands are those of the deck (cards of a random draw
are never Conditions or Jokers) neither in the web nor in the discard pile.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from .cards import CATALOGUE, COLOUR_LETTERS, COLOUR_WORDS, COLOURS
from .french import capital, the

if TYPE_CHECKING:
    from .state import State

#: a colour as the cards name it, with the letter they carry (never the colour alone)
COLOUR_NAMES: dict[str, tuple[str, str]] = {
    colour: (
        f"{en.capitalize()} [{COLOUR_LETTERS[colour]}]",
        f"{fr.capitalize()} [{COLOUR_LETTERS[colour]}]",
    )
    for colour, (en, fr) in COLOUR_WORDS.items()
}
DEADLOCK_TEXT: dict[str, tuple[str, str]] = {
    "first_predator": (
        "Only Cats are left, held by two players or more: they would come back every turn.",
        "Il ne reste que des Chats, tenus par deux joueurs ou plus : ils reviendraient à "
        "chaque tour.",
    ),
}


def lost_reason(state: State) -> dict[str, Any] | None:
    """Why ``state`` can no longer be won (see the module), or ``None`` while it can."""
    if state.is_winnable():
        return None
    game = state.game
    topology = game.topology
    web = state.web
    in_web = [card for card in web.values() if card is not None]
    pending = sum(rule.pending_plays(state) for rule in game.hooks.pending_plays)
    species_lost = [
        card
        for card in state.discard
        if CATALOGUE.card(card).is_species and topology.has_species(card) and web[card] is None
    ]
    # Conditions and Jokers still in hands: the deck's, less the web's and the discards'
    left: Counter[str] = Counter()
    for card in game.fixed_cards:
        info = CATALOGUE.card(card)
        if info.is_condition_like:
            left["joker" if info.is_joker else str(info.colour)] += 1
    for card in (*in_web, *state.discard):
        info = CATALOGUE.card(card)
        if info.is_condition_like:
            left["joker" if info.is_joker else str(info.colour)] -= 1
    short: list[dict[str, Any]] = []
    for colour in COLOURS:
        places = sum(
            1 for slot in topology.condition_slots_by_colour.get(colour, ()) if web[slot.id] is None
        )
        if places > left[colour]:
            short.append({"colour": colour, "places": places, "cards": max(0, left[colour])})
    missing = sum(c["places"] - c["cards"] for c in short)
    jokers_left = max(0, left["joker"])
    if missing <= jokers_left:
        short = []
    reason: dict[str, Any] = {
        "cards_left": state.cards_left(),
        "places_empty": topology.empty_slot_count(web),
        "cards_to_play": pending,
        "discards": len(state.discard),
        "max_discards": state.max_discards(),
        "species_lost": species_lost,
        "colours_short": short,
        "jokers_left": jokers_left if short else None,
        "deadlocked": [rule.mode for rule in game.hooks.is_deadlocked if rule.is_deadlocked(state)],
    }
    reason["text"] = {"en": _text(reason, 0), "fr": _text(reason, 1)}
    return reason


def _plural(n: int, one: str, many: str) -> str:
    return (one if n == 1 else many).format(n=n)


#: the counted words of the first sentence: (English one, many, French one, many)
COUNTED: dict[str, tuple[str, str, str, str]] = {
    "cards_left": ("{n} card is", "{n} cards are", "{n} carte reste", "{n} cartes restent"),
    "places_empty": ("{n} empty place", "{n} empty places", "{n} place vide", "{n} places vides"),
    "cards_to_play": (
        " and {n} card to play",
        " and {n} cards to play",
        " et {n} carte à jouer",
        " et {n} cartes à jouer",
    ),
    "discards": (
        "{n} card discarded",
        "{n} cards discarded",
        "{n} carte défaussée",
        "{n} cartes défaussées",
    ),
}


def _text(reason: dict[str, Any], lang: int) -> str:
    """The reason in English (``lang`` 0) or French (1)."""
    fr = lang == 1
    parts = []
    need = reason["places_empty"] + reason["cards_to_play"]
    if reason["cards_left"] < need:
        said = {
            key: _plural(reason[key], *words[2 * lang : 2 * lang + 2])
            for key, words in COUNTED.items()
        }
        cards, places, discards = said["cards_left"], said["places_empty"], said["discards"]
        extra = said["cards_to_play"] if reason["cards_to_play"] else ""
        most = reason["max_discards"]
        if fr:
            parts.append(
                f"Il ne reste pas assez de cartes : {cards} en main pour {places}{extra} "
                f"({discards}, {most} au plus pour gagner)."
            )
        else:
            parts.append(
                f"Not enough cards are left: {cards} in hands for {places}{extra} "
                f"({discards}, {most} at most to win)."
            )
    for species in reason["species_lost"]:
        info = CATALOGUE.card(species)
        if fr:
            parts.append(f"{capital(the(species))} est dans la défausse et sa place est vide.")
        else:
            parts.append(
                f"The Species {info.name_en} is in the discard pile and its place is empty."
            )
    for short in reason["colours_short"]:
        name = COLOUR_NAMES[short["colour"]][lang]
        if fr:
            parts.append(
                f"{name} : {short['places']} places vides pour "
                f"{_plural(short['cards'], '{n} Condition', '{n} Conditions')} en main."
            )
        else:
            parts.append(
                f"{name}: {short['places']} empty places for "
                f"{_plural(short['cards'], '{n} Condition', '{n} Conditions')} left in hands."
            )
    if reason["colours_short"]:
        jokers = reason["jokers_left"]
        if not jokers:
            parts.append(
                "Aucun Joker ne reste pour compenser."
                if fr
                else "No Joker is left to make up for it."
            )
        elif fr:
            parts.append(
                _plural(jokers, "{n} Joker ne suffit pas.", "{n} Jokers ne suffisent pas.")
            )
        else:
            parts.append(
                _plural(jokers, "{n} Joker left is not enough.", "{n} Jokers left are not enough.")
            )
    for mode in reason["deadlocked"]:
        texts = DEADLOCK_TEXT.get(mode)
        if texts:
            parts.append(texts[lang])
    return " ".join(parts)
