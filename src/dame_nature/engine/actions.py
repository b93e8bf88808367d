"""The action registry: every action type a player may send, in one place.

Each ``ActionSpec`` declares the type's fields (``fields``), when it can be sent at all
(``available``, cheap), its complete legal instances (``options``), why an instance is
refused (``check``, raising ``IllegalAction`` and changing nothing) and what it does
(``apply``, on a checked action). ``ACTIONS`` lists them in the order ``legal_actions``
groups them: the action the game waits for first, then programming, the Symbioses, and
ending a game that can no longer be won. How often a seat may change: ``pace.py``.

>>> [spec.type.value for spec in ACTIONS.values()][:4]
['choose_side', 'reveal', 'give_back', 'program']
>>> ACTIONS["give"].fields
(Field(name='card', kind='card', required=True), Field(name='to', kind='seat', required=True))
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from . import knowledge, pace, reveal
from .cards import CATALOGUE
from .enums import CHOOSING_SIDES, PROGRAMMING, REVEAL, ActionType, Phase, Side
from .errors import IllegalAction

if TYPE_CHECKING:
    from .state import State

Action = dict[str, Any]

#: each card id to the catalogue's own string: a state holds one copy of each id
CARD_IDS: dict[str, str] = {card_id: card_id for card_id in CATALOGUE.cards}

#: the cards a discard swap may give: Conditions and Jokers
CONDITION_LIKE = frozenset(c.id for c in CATALOGUE.cards.values() if c.is_condition_like)


class Field(NamedTuple):
    """One field of an action: ``kind`` is ``card``, ``seat``, ``slot``, ``colour`` or
    ``side``; a field not ``required`` may be left out or ``null``."""

    name: str
    kind: str
    required: bool = True


_PHASE_NAMES = {
    PROGRAMMING: "during programming",
    REVEAL: "during the reveal",
    CHOOSING_SIDES: "before the first turn, while players choose their side",
}


def require_phase(state: State, phase: str, doing: str) -> None:
    if state.phase != phase:
        raise IllegalAction(f"You can {doing} only {_PHASE_NAMES[phase]}.", "wrong_phase")


def require_own_card(state: State, seat: int, action: Action, field: str = "card") -> str:
    card = action.get(field)
    if not isinstance(card, str) or not CATALOGUE.has_card(card):
        raise IllegalAction(f"Unknown card {card!r}.", "unknown_card")
    if card not in state.hands[seat] and card != state.programmed[seat]:
        raise IllegalAction("That card is not in your hand.", "not_your_card")
    return card


def require_other_seat(state: State, seat: int, to: Any) -> int:
    if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < state.num_players:
        raise IllegalAction("Choose another player of this table.", "invalid_seat")
    if to == seat:
        raise IllegalAction("Choose another player than yourself.", "invalid_seat")
    return to


class ActionSpec:
    """One action type. Subclasses set ``type`` and ``fields`` and implement the four
    methods; ``clean`` is shared."""

    type: ClassVar[ActionType]
    fields: ClassVar[tuple[Field, ...]] = ()
    #: the phases in which this type may be legal
    phases: ClassVar[tuple[str, ...]] = (PROGRAMMING,)
    #: a reveal records every field, ``null`` included; others only the fields given
    record_nulls: ClassVar[bool] = False

    def __init__(self) -> None:
        self.name: str = self.type.value  # the plain string (faster than ``.value``)

    def available(self, state: State, seat: int) -> bool:
        """Whether ``seat`` has at least one legal action of this type now (``seat`` is
        a seat of the table and the phase one of ``phases``)."""
        raise NotImplementedError

    def options(self, state: State, seat: int) -> list[Action]:
        """Every legal action of this type for ``seat``, when ``available``."""
        raise NotImplementedError

    def check(self, state: State, seat: int, action: Action) -> None:
        """Raise ``IllegalAction`` (a sentence and a code) unless ``action`` is legal."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> None:
        """Carry out a checked ``action``."""
        raise NotImplementedError

    def clean(self, action: Action) -> Action:
        """The action as recorded (and carried out): its type and its own fields only,
        card ids as the catalogue's own strings."""
        clean: Action = {"type": self.name}
        for field in self.fields:
            value = action.get(field.name)
            if value is not None or self.record_nulls:
                if field.kind == "card" and type(value) is str:
                    value = CARD_IDS.get(value, value)
                clean[field.name] = value
        return clean


# ------------------------------------------------------------------ before the first turn
class ChooseSide(ActionSpec):
    type = ActionType.CHOOSE_SIDE
    fields = (Field("side", "side"),)
    phases = (CHOOSING_SIDES,)

    def available(self, state: State, seat: int) -> bool:
        return state.next_side_chooser() == seat

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "choose_side", "side": side.value} for side in Side]

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, CHOOSING_SIDES, "choose your side")
        chooser = state.next_side_chooser()
        if seat != chooser:
            raise IllegalAction(
                f"Sides are chosen in seat order from the first player: seat {chooser} "
                "chooses now.",
                "not_your_turn",
            )
        if action.get("side") not in ("plant", "animal"):
            raise IllegalAction("Choose the side 'plant' or 'animal'.", "invalid_action")

    def apply(self, state: State, seat: int, action: Action) -> None:
        state.sides[seat] = action["side"]
        state.event("side_chosen", {"seat": seat, "side": action["side"]})
        if all(side is not None for side in state.sides):
            reveal.start_turn(state)


# ------------------------------------------------------------------ the reveal
class Reveal(ActionSpec):
    type = ActionType.REVEAL
    fields = (
        Field("slot", "slot", False),
        Field("colour", "colour", False),
        Field("target", "card", False),
    )
    record_nulls = True
    phases = (REVEAL,)

    def available(self, state: State, seat: int) -> bool:
        queue = state.reveal_queue
        return bool(queue) and queue[0] == seat

    def options(self, state: State, seat: int) -> list[Action]:
        return [o.action() for o in reveal.awaited_outcomes(state, seat)]

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, REVEAL, "choose where your card goes")
        if not state.reveal_queue or state.reveal_queue[0] != seat:
            raise IllegalAction("It is not your turn to reveal.", "not_your_turn")
        wanted = self.clean(action)
        options = self.options(state, seat)
        if wanted not in options:
            raise IllegalAction(_why_not(wanted, options), "illegal_placement")

    def apply(self, state: State, seat: int, action: Action) -> None:
        wanted = self.clean(action)
        outcomes = reveal.awaited_outcomes(state, seat)
        outcome = next(o for o in outcomes if o.action() == wanted)
        reveal.resolve(state, seat, outcome)
        reveal.advance(state)


def _why_not(wanted: Action, options: list[Action]) -> str:
    slots = sorted({o["slot"] for o in options if o["slot"] is not None})
    if wanted.get("colour") is not None and all(o["colour"] is None for o in options):
        return "Only a Joker is given a colour."
    if all(o["colour"] is not None for o in options) and wanted.get("colour") is None:
        return "Choose a colour for your Joker."
    if wanted.get("slot") is None and slots:
        return "Your card can be placed, so it must be: choose one of " + ", ".join(slots) + "."
    if slots:
        return "Your card cannot go there; it can go to " + ", ".join(slots) + "."
    return "Your card cannot be placed there."


# ------------------------------------------------------------------ programming
class GiveBack(ActionSpec):
    type = ActionType.GIVE_BACK
    fields = (Field("card", "card"),)

    def available(self, state: State, seat: int) -> bool:
        pending = state.pending_give
        return pending is not None and pending["to"] == seat and state.has_cards(seat)

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "give_back", "card": c} for c in state.cards_of(seat)]

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, PROGRAMMING, "give a card back")
        if state.pending_give is None or state.pending_give["to"] != seat:
            raise IllegalAction("No one is waiting for a card from you.", "no_exchange")
        require_own_card(state, seat, action)

    def apply(self, state: State, seat: int, action: Action) -> None:
        assert state.pending_give is not None
        card, giver = action["card"], state.pending_give["from"]
        state.move_secretly(seat, giver, card)
        state.pending_give = None
        state.event("give_back", {"seat": seat, "to": giver}, {"card": card}, [seat, giver])
        state.clear_ready()


class Program(ActionSpec):
    type = ActionType.PROGRAM
    fields = (Field("card", "card"),)

    def available(self, state: State, seat: int) -> bool:
        return bool(state.hands[seat]) and pace.may_change(state, seat)

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "program", "card": c} for c in state.hands[seat]]

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, PROGRAMMING, "program a card")
        card = action.get("card")
        if card is not None and card == state.programmed[seat]:
            raise IllegalAction("That card is already programmed.", "already_programmed")
        require_own_card(state, seat, action)
        pace.require_change_left(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> None:
        pace.count_change(state, seat)
        card = action["card"]
        old = state.programmed[seat]
        hand = state.hands[seat]
        hand.remove(card)
        if old is not None:
            hand.append(old)
        state.programmed[seat] = card
        state.ready[seat] = False
        state.event(
            "programmed", {"seat": seat, "replaced": old is not None}, {"card": card}, [seat]
        )


class Ready(ActionSpec):
    type = ActionType.READY

    def available(self, state: State, seat: int) -> bool:
        return state.programmed[seat] is not None and not state.ready[seat]

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "ready"}]

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, PROGRAMMING, "say you are ready")
        if state.programmed[seat] is None:
            raise IllegalAction("Program a card before saying you are ready.", "not_programmed")
        if state.ready[seat]:
            raise IllegalAction("You are already ready.", "already_ready")

    def apply(self, state: State, seat: int, action: Action) -> None:
        state.ready[seat] = True
        state.event("ready", {"seat": seat})
        reveal.maybe_start(state)


class Unready(ActionSpec):
    type = ActionType.UNREADY

    def available(self, state: State, seat: int) -> bool:
        return state.ready[seat] and pace.may_change(state, seat)

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "unready"}]

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, PROGRAMMING, "take back your ready")
        if not state.ready[seat]:
            raise IllegalAction("You are not ready yet.", "not_ready")
        pace.require_change_left(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> None:
        pace.count_change(state, seat)
        state.ready[seat] = False
        state.event("unready", {"seat": seat})


# ------------------------------------------------------------------ Symbioses
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
            and self.name in state.game.config.symbiosis_kinds
            and (bool(state.hands[seat]) or state.programmed[seat] is not None)
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
        if not discard or not super().available(state, seat):
            return False
        programmed = state.programmed[seat]
        if CONDITION_LIKE.isdisjoint(state.hands[seat]) and programmed not in CONDITION_LIKE:
            return False
        return any(state.can_take(c) for c in discard)

    def options(self, state: State, seat: int) -> list[Action]:
        takeable = [c for c in state.discard if state.can_take(c)]
        return [
            {"type": "swap_discard", "card": c, "take": t}
            for c in state.cards_of(seat)
            if CATALOGUE.card(c).is_condition_like
            for t in takeable
            if t != c
        ]

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


# ------------------------------------------------------------------ the end
class EndGame(ActionSpec):
    """Any player may end a game that can no longer be won (it is lost)."""

    type = ActionType.END_GAME
    phases = (CHOOSING_SIDES, PROGRAMMING, REVEAL)

    def available(self, state: State, seat: int) -> bool:
        return not state.is_winnable()

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "end_game"}]

    def check(self, state: State, seat: int, action: Action) -> None:
        if state.is_winnable():
            raise IllegalAction(
                "The game can still be won: it can be ended only once it cannot.", "still_winnable"
            )

    def apply(self, state: State, seat: int, action: Action) -> None:
        state.event("game_ended_by_players", {"seat": seat})
        reveal.finish(state, "lost")


#: every action type, in the order ``legal_actions`` lists them
ACTIONS: dict[str, ActionSpec] = {
    spec.type.value: spec
    for spec in (
        ChooseSide(),
        Reveal(),
        GiveBack(),
        Program(),
        Ready(),
        Unready(),
        Show(),
        Give(),
        SwapDiscard(),
        EndGame(),
    )
}

#: for each phase, the action types that may be legal in it, in ``ACTIONS`` order
ACTIONS_BY_PHASE: dict[str, tuple[ActionSpec, ...]] = {
    phase.value: tuple(spec for spec in ACTIONS.values() if phase.value in spec.phases)
    for phase in Phase
}

#: the fields each action type carries (others are ignored and not recorded)
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    kind: tuple(f.name for f in spec.fields) for kind, spec in ACTIONS.items()
}
