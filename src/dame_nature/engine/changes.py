"""The writes the actions (``actions.py``) and the rules (``rules/*.py``) make to a
``State``: moving a card, paying a Symbiosis, logging an event. ``State`` holds the data
and answers the queries; every change of it goes through ``apply``, whose action specs
and rule hooks call these.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> state.event("example", {"seat": 0}, {"card": "x"}, [2, 0])
>>> state.log[-1]
{'type': 'example', 'turn': 1, 'seat': 0, '_private': '{"card":"x"}', '_seen_by': (0, 2)}
>>> private_part(state.log[-1])
{'card': 'x'}

An event's private part is kept as its JSON text and its audience as a tuple of seats
shared by every event of that audience (made once, at import for up to 7 seats): so an
event holds atoms and untracked tuples only, a dict Python's cyclic collector does not
track, where a dict and a list in it made it one more object for every middle pass to
walk for the game's whole life. ``event_to_json`` and ``event_from_json`` turn it into
the saved shape (``"_private"`` an object, ``"_seen_by"`` a list) and back.
"""

from __future__ import annotations

import json
from itertools import combinations
from json.encoder import encode_basestring_ascii as _quote
from typing import TYPE_CHECKING, Any

from . import knowledge
from .cards import CATALOGUE

__all__ = ["StateChanges", "event_from_json", "event_to_json", "private_part"]


class StateChanges:
    """The changes of a ``State`` its actions and rules are made of (a base of
    ``State``: it holds no data of its own)."""

    if not TYPE_CHECKING:  # no slot of its own (``State`` declares them all), which
        __slots__ = ()  # mypy would read as "these fields cannot be assigned"

    # the fields of ``State`` these change
    num_players: int
    hands: list[list[str]]
    programmed: list[str | None]
    ready: list[bool]
    symbiosis_cards: list[int]
    first_player: int
    turn: int
    free_symbiosis_used: bool
    web: dict[str, str | None]
    joker_colours: dict[str, str]
    discard: list[str]
    known: knowledge.Knowledge
    revealed_this_turn: list[dict[str, Any]]
    log: list[dict[str, Any]]

    def has_free_symbiosis(self, seat: int) -> bool:
        return seat == self.first_player and not self.free_symbiosis_used

    def discard_from_web(self, slot: str, reason: str) -> str | None:
        """Move the card of ``slot`` to the discard pile (Climate change, Cats, Pollution,
        temporary Conditions); the card moved, if any."""
        card = self.web[slot]
        if card is None:
            return None
        self.web[slot] = None
        self.joker_colours.pop(card, None)
        self.discard.append(card)
        for record in self.revealed_this_turn:
            if record["card"] == card and record["result"] == "placed":
                record.update(result="discarded", reason=reason)
        self.event("removed_from_web", {"card": card, "slot": slot, "reason": reason})
        return card

    def return_to_hand(self, seat: int, card: str) -> None:
        """A card in play goes back to its player's hand, seen by everyone (Cats)."""
        self.hands[seat].append(card)
        knowledge.learn_by_all(self.known, seat, card)

    def event(
        self,
        kind: str,
        public: dict[str, Any],
        private: dict[str, Any] | None = None,
        seen_by: list[int] | None = None,
    ) -> None:
        """Append an event to the log: ``public`` for everyone, ``private`` only for the
        seats of ``seen_by``. The event is a new dict: ``public`` may change afterwards."""
        event: dict[str, Any] = {"type": kind, "turn": self.turn, **public}
        if private:
            event["_private"] = _text(private)
            event["_seen_by"] = _audience(seen_by or [])
        self.log.append(event)

    def pay_symbiosis(self, seat: int) -> str:
        if self.has_free_symbiosis(seat):
            self.free_symbiosis_used = True
            return "free"
        self.symbiosis_cards[seat] -= 1
        return "card"

    def clear_ready(self) -> None:
        """No seat is ready (the list changed in place: no list made a turn)."""
        ready = self.ready
        for seat in range(self.num_players):
            ready[seat] = False

    def take_from(self, seat: int, card: str) -> None:
        """``card`` leaves ``seat``'s hand or programmed slot."""
        if self.programmed[seat] == card:
            self.programmed[seat] = None
            self.ready[seat] = False
        else:
            self.hands[seat].remove(card)

    def move_secretly(self, giver: int, receiver: int, card: str) -> None:
        """A card changes hands face down: only the two players know which."""
        self.take_from(giver, card)
        self.hands[receiver].append(card)
        knowledge.move_secretly(self.known, giver, receiver, card)


_encode = json.JSONEncoder(separators=(",", ":")).encode
_read = json.JSONDecoder().decode


def _text(private: dict[str, Any]) -> str:
    """``private``'s JSON text, as ``json`` writes it compact: ``{"card": ..}`` of a card of
    the catalogue (every private part the engine logs) as its one text for the process
    (``_CARD_TEXTS``); another object of strings written here, each key and value quoted
    by the encoder's own function (``ensure_ascii``), without an encoder's set-up at each
    call; anything else by the encoder."""
    if len(private) == 1:
        card = private.get("card")
        if type(card) is str:
            text = _CARD_TEXTS.get(card)
            if text is not None:
                return text
    parts = []
    for key, value in private.items():
        if type(key) is not str or type(value) is not str:
            return _encode(private)
        parts.append(f"{_quote(key)}:{_quote(value)}")
    return "{" + ",".join(parts) + "}"


#: the private part ``{"card": ..}`` of each card of the catalogue, as ``_text`` writes it:
#: one string for the process, which every event hiding that card shares
_CARD_TEXTS: dict[str, str] = {card: '{"card":' + _quote(card) + "}" for card in CATALOGUE.cards}


def private_part(event: dict[str, Any]) -> dict[str, Any]:
    """The private part of a logged event (``{}`` when it has none): a new dict."""
    text = event.get("_private")
    return {} if text is None else _read(text)


def event_to_json(event: dict[str, Any]) -> dict[str, Any]:
    """A logged event in the saved shape (the event itself when it has no private part)."""
    if "_private" not in event:
        return event
    return {**event, "_private": _read(event["_private"]), "_seen_by": list(event["_seen_by"])}


def event_from_json(data: dict[str, Any]) -> dict[str, Any]:
    """A saved event (``event_to_json``'s shape, changed in place) in the log's shape."""
    if "_private" in data:
        data["_private"] = _text(data["_private"])
        data["_seen_by"] = _audience(data["_seen_by"])
    return data


#: each audience's tuple of seats, shared by its events: those of up to 7 seats made at
#: import, so that the start-up's full pass finds them holding atoms and untracks them
_SEEN_BY: dict[tuple[int, ...], tuple[int, ...]] = {
    key: key for size in range(1, 8) for key in combinations(range(7), size)
}


def _audience(seats: list[int]) -> tuple[int, ...]:
    """The sorted seats as one shared tuple per set of seats (``_SEEN_BY`` holds sorted
    tuples of distinct seats only: seats given sorted are found at once)."""
    found = _SEEN_BY.get(tuple(seats))
    if found is not None:
        return found
    key = tuple(sorted(set(seats)))
    return _SEEN_BY.setdefault(key, key)
