"""The three Symbioses a player may make during programming: show a card, give one
(answered by a ``give_back``), or exchange a Condition with the discard pile.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> seat = state.first_player  # the first player has a free Symbiosis each turn
>>> card = state.hands[seat][0]
>>> [e["type"] for e in state.apply(seat, {"type": "show", "card": card})]
['show']
>>> state.free_symbiosis_used
True
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from . import knowledge
from .action_spec import (
    CONDITION_LIKE,
    Action,
    ActionSpec,
    Field,
    require_other_seat,
    require_own_card,
    require_phase,
)
from .cards import CATALOGUE
from .enums import PROGRAMMING, ActionType
from .errors import IllegalAction

if TYPE_CHECKING:
    from .state import State

__all__ = ["Give", "Show", "SwapDiscard", "Symbiosis"]


class Symbiosis(ActionSpec):
    """What the three Symbioses share: programming, no card given waiting for its
    answer, a Symbiosis left, and the kind allowed by the rules."""

    def available(self, state: State, seat: int) -> bool:
        return (
            state.pending_give is None
            and (
                state.symbiosis_cards[seat] > 0
                or (seat == state.first_player and not state.free_symbiosis_used)
            )
            and (bool(state.hands[seat]) or state.programmed[seat] is not None)
            and self.name in state.game.config.symbiosis_kinds
        )

    def require(self, state: State, seat: int) -> None:
        require_phase(state, PROGRAMMING, "make a Symbiosis")
        if self.type not in state.game.config.symbiosis_kinds:
            raise IllegalAction(
                "Incomplete Symbioses: a Symbiosis can no longer show a card, only exchange one.",
                "symbiosis_not_allowed",
            )
        if state.pending_give is not None:
            raise IllegalAction(
                "Wait until the card given is answered before another Symbiosis.",
                "exchange_pending",
            )
        if not state.can_use_symbiosis(seat):
            raise IllegalAction("You have no Symbiosis left.", "no_symbiosis")


class Show(Symbiosis):
    """Show a card: to everyone (``to`` left out), or to the one player ``to`` when the
    rules say so (Privileged Symbioses)."""

    type = ActionType.SHOW
    fields = (Field("card", "card"), Field("to", "seat", False))

    def options(self, state: State, seat: int) -> list[Action]:
        recipients = state.show_recipients(seat)
        return [
            {"type": "show", "card": c} if to is None else {"type": "show", "card": c, "to": to}
            for c in state.cards_of(seat)
            for to in recipients
        ]

    def options_key(self, state: State, seat: int) -> Hashable:
        # one flat tuple of atoms (no tuple in it: the collector stops tracking it at its
        # first pass); "|" is no card's id
        return (*state.cards_of(seat), "|", *state.show_recipients(seat))

    def options_by_card(self, state: State, seat: int) -> tuple[Sequence[str], Hashable]:
        recipients = state.show_recipients(seat)
        # (the base game's ``[None]``: "None"; else the seats, a string either way)
        return state.cards_of(seat), ",".join(map(str, recipients))

    def check(self, state: State, seat: int, action: Action) -> None:
        self.require(state, seat)
        require_own_card(state, seat, action)
        to = action.get("to")
        if None in state.show_recipients(seat):
            if to is not None:
                raise IllegalAction("A card is shown to every other player.", "invalid_action")
        else:
            require_other_seat(state, seat, to)

    def apply(self, state: State, seat: int, action: Action) -> None:
        card, to = action["card"], action.get("to")
        paid = state.pay_symbiosis(seat)
        known = state.known
        if to is None:
            audience = [s for s in range(state.num_players) if s != seat]
            knowledge.learn(known, knowledge.PUBLIC, seat, card)
        else:
            audience = [to]
        for viewer in audience:
            knowledge.learn(known, viewer, seat, card)
        state.event(
            "show",
            {"seat": seat, "to": to, "paid_with": paid, **({"card": card} if to is None else {})},
            {"card": card},
            [seat, *audience],
        )
        state.clear_ready()


class Give(Symbiosis):
    type = ActionType.GIVE
    fields = (Field("card", "card"), Field("to", "seat"))

    def options(self, state: State, seat: int) -> list[Action]:
        others = [s for s in range(state.num_players) if s != seat]
        return [{"type": "give", "card": c, "to": t} for c in state.cards_of(seat) for t in others]

    def options_key(self, state: State, seat: int) -> Hashable:
        return tuple(state.cards_of(seat))

    def options_by_card(self, state: State, seat: int) -> tuple[Sequence[str], Hashable]:
        # the other seats, in order: told by the seat and the number of players
        return state.cards_of(seat), seat * 16 + state.num_players

    def check(self, state: State, seat: int, action: Action) -> None:
        self.require(state, seat)
        require_own_card(state, seat, action)
        require_other_seat(state, seat, action.get("to"))

    def apply(self, state: State, seat: int, action: Action) -> None:
        card, to = action["card"], action["to"]
        paid = state.pay_symbiosis(seat)
        state.move_secretly(seat, to, card)
        state.pending_give = {"from": seat, "to": to}
        state.event("give", {"seat": seat, "to": to, "paid_with": paid}, {"card": card}, [seat, to])
        state.clear_ready()


class SwapDiscard(Symbiosis):
    type = ActionType.SWAP_DISCARD
    fields = (Field("card", "card"), Field("take", "card"))

    def available(self, state: State, seat: int) -> bool:
        discard = state.discard
        if not discard or not Symbiosis.available(self, state, seat):  # (no super object)
            return False
        programmed = state.programmed[seat]
        if CONDITION_LIKE.isdisjoint(state.hands[seat]) and programmed not in CONDITION_LIKE:
            return False
        if not state.game.hooks.can_take_from_discard:  # any card of the pile may be taken
            return True
        return any(state.can_take(c) for c in discard)

    def options(self, state: State, seat: int) -> list[Action]:
        takeable = state.takeable()
        return [
            {"type": "swap_discard", "card": c, "take": t}
            for c in state.cards_of(seat)
            if c in CONDITION_LIKE
            for t in takeable
            if t != c
        ]

    def options_key(self, state: State, seat: int) -> Hashable:
        cards = [c for c in state.cards_of(seat) if c in CONDITION_LIKE]
        return (*cards, "|", *state.takeable())  # flat, as ``Show``'s

    def check(self, state: State, seat: int, action: Action) -> None:
        self.require(state, seat)
        card = require_own_card(state, seat, action)
        if not CATALOGUE.card(card).is_condition_like:
            raise IllegalAction(
                "Only a Condition card (or a Joker) can be exchanged with the discard pile.",
                "not_a_condition",
            )
        take = action.get("take")
        if not isinstance(take, str) or take not in state.discard:
            raise IllegalAction("That card is not in the discard pile.", "not_in_discard")
        if not state.can_take(take):
            raise IllegalAction("That card was played and cannot be taken back.", "not_takeable")

    def apply(self, state: State, seat: int, action: Action) -> None:
        card, take = action["card"], action["take"]
        paid = state.pay_symbiosis(seat)
        state.take_from(seat, card)
        knowledge.forget_card(state.known, seat, card)
        state.discard.remove(take)
        state.discard.append(card)
        state.hands[seat].append(take)
        knowledge.learn_by_all(state.known, seat, take)
        state.event("swap_discard", {"seat": seat, "card": card, "take": take, "paid_with": paid})
        state.clear_ready()
