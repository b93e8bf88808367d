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

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING

from . import pace, reveal
from .action_spec import (
    CARD_IDS,
    CONDITION_LIKE,
    Action,
    ActionSpec,
    Field,
    require_own_card,
    require_phase,
)
from .enums import CHOOSING_SIDES, PROGRAMMING, REVEAL, ActionType, Phase, Side
from .errors import IllegalAction
from .rules.base import Outcome
from .symbioses import Give, Show, SwapDiscard

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "ACTIONS",
    "ACTIONS_BY_PHASE",
    "ACTION_FIELDS",
    "CARD_IDS",
    "CONDITION_LIKE",
    "Action",
    "ActionSpec",
    "Field",
]


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
        if _chosen(state, seat, action) is None:
            wanted = self.clean(action)
            raise IllegalAction(_why_not(wanted, self.options(state, seat)), "illegal_placement")

    def apply(self, state: State, seat: int, action: Action) -> None:
        outcome = _chosen(state, seat, action)
        assert outcome is not None, "a checked reveal names an outcome"
        reveal.resolve(state, seat, outcome)
        reveal.advance(state)


def _chosen(state: State, seat: int, action: Action) -> Outcome | None:
    """The first awaited outcome whose slot, colour and target are the action's (a field
    left out: ``None``), if any: the one whose ``Outcome.action()`` equals the action as
    ``clean`` keeps it, found without making either."""
    slot, colour, target = action.get("slot"), action.get("colour"), action.get("target")
    for outcome in reveal.awaited_outcomes(state, seat):
        if outcome.slot == slot and outcome.colour == colour and outcome.target == target:
            return outcome
    return None


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

    def options_key(self, state: State, seat: int) -> Hashable:
        return tuple(state.cards_of(seat))

    def options_by_card(self, state: State, seat: int) -> tuple[Sequence[str], Hashable]:
        return state.cards_of(seat), ""

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

    def options_key(self, state: State, seat: int) -> Hashable:
        return tuple(state.hands[seat])

    def options_by_card(self, state: State, seat: int) -> tuple[Sequence[str], Hashable]:
        return state.hands[seat], ""

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
    listing = ({"type": "ready"},)

    def available(self, state: State, seat: int) -> bool:
        return state.programmed[seat] is not None and not state.ready[seat]

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "ready"}]

    def options_key(self, state: State, seat: int) -> Hashable:
        return ()

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
    listing = ({"type": "unready"},)

    def available(self, state: State, seat: int) -> bool:
        return state.ready[seat] and pace.may_change(state, seat)

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "unready"}]

    def options_key(self, state: State, seat: int) -> Hashable:
        return ()

    def check(self, state: State, seat: int, action: Action) -> None:
        require_phase(state, PROGRAMMING, "take back your ready")
        if not state.ready[seat]:
            raise IllegalAction("You are not ready yet.", "not_ready")
        pace.require_change_left(state, seat)

    def apply(self, state: State, seat: int, action: Action) -> None:
        pace.count_change(state, seat)
        state.ready[seat] = False
        state.event("unready", {"seat": seat})


# ------------------------------------------------------------------ the end
class EndGame(ActionSpec):
    """Any player may end a game that can no longer be won (it is lost)."""

    type = ActionType.END_GAME
    listing = ({"type": "end_game"},)
    phases = (CHOOSING_SIDES, PROGRAMMING, REVEAL)

    def available(self, state: State, seat: int) -> bool:
        return not state.is_winnable()

    def options(self, state: State, seat: int) -> list[Action]:
        return [{"type": "end_game"}]

    def options_key(self, state: State, seat: int) -> Hashable:
        return ()

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
