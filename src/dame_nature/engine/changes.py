"""The writes the actions (``actions.py``) and the rules (``rules/*.py``) make to a
``State``: moving a card, paying a Symbiosis, logging an event. ``State`` holds the data
and answers the queries; every change of it goes through ``apply``, whose action specs
and rule hooks call these.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> state.event("example", {"seat": 0}, {"card": "x"}, [2, 0])
>>> state.log[-1]
{'type': 'example', 'turn': 1, 'seat': 0, '_private': {'card': 'x'}, '_seen_by': [0, 2]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import knowledge

__all__ = ["StateChanges"]


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
        seats of ``seen_by``."""
        event: dict[str, Any] = {"type": kind, "turn": self.turn, **public}
        if private:
            event["_private"] = private
            event["_seen_by"] = _seen_by_list(seen_by or [])
        self.log.append(event)

    def pay_symbiosis(self, seat: int) -> str:
        if self.has_free_symbiosis(seat):
            self.free_symbiosis_used = True
            return "free"
        self.symbiosis_cards[seat] -= 1
        return "card"

    def clear_ready(self) -> None:
        self.ready = [False] * self.num_players

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


_SEEN_BY: dict[tuple[int, ...], list[int]] = {}


def _seen_by_list(seats: list[int]) -> list[int]:
    """The sorted seats as one shared list per set of seats (events are never changed,
    so a log holds one list per audience, not one per event)."""
    key = tuple(sorted(set(seats)))
    found = _SEEN_BY.get(key)
    if found is None:
        found = _SEEN_BY[key] = list(key)
    return found
