"""What every action type declares (``ActionSpec``, its ``Field``s) and the checks they
share; the types themselves are in ``actions.py`` (the registry) and ``symbioses.py``.

>>> from dame_nature.engine import Game
>>> require_other_seat(Game(3).new_initial_state(seed=1), 0, 0)
Traceback (most recent call last):
    ...
dame_nature.engine.errors.IllegalAction: Choose another player than yourself.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from .cards import CATALOGUE
from .enums import CHOOSING_SIDES, PROGRAMMING, REVEAL, ActionType
from .errors import IllegalAction

if TYPE_CHECKING:
    from .state import State

__all__ = [
    "CARD_IDS",
    "CONDITION_LIKE",
    "Action",
    "ActionSpec",
    "Field",
    "require_other_seat",
    "require_own_card",
    "require_phase",
]

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
    if not isinstance(card, str) or card not in CARD_IDS:  # (the catalogue's cards)
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
    #: ``options`` when it is the same for every seat of every game (never changed): the
    #: views' listing of this type, one for all (no list of its own in each view part)
    listing: ClassVar[tuple[Action, ...] | None] = None

    def __init__(self) -> None:
        self.name: str = self.type.value  # the plain string (faster than ``.value``)
        #: each field's name, and whether it holds a card (read by ``clean``)
        self._cleaned: tuple[tuple[str, bool], ...] = tuple(
            (field.name, field.kind == "card") for field in self.fields
        )

    def available(self, state: State, seat: int) -> bool:
        """Whether ``seat`` has at least one legal action of this type now (``seat`` is
        a seat of the table and the phase one of ``phases``)."""
        raise NotImplementedError

    def options(self, state: State, seat: int) -> list[Action]:
        """Every legal action of this type for ``seat``, when ``available``."""
        raise NotImplementedError

    def options_key(self, state: State, seat: int) -> Hashable | None:
        """What ``options`` depends on besides the game and the seat, when it is cheap to
        tell (two equal keys of one seat of one game: equal options), so that views may
        keep a listing from one version to the next; ``None``: list them each time."""
        return None

    def options_by_card(self, state: State, seat: int) -> tuple[Sequence[str], Hashable] | None:
        """``(cards, rest)`` when ``options`` lists, card after card of ``cards``, the
        actions ``card_options`` gives for that card, which depend on nothing but the card,
        the type and ``rest`` (an atom: equal for every state and seat with the same
        actions of a card), so that views may keep each card's actions, encoded, for the
        process; ``None``: not so. ``cards`` is to be read at once, never kept."""
        return None

    def card_options(self, state: State, seat: int, card: str) -> list[Action]:
        """The actions of ``options`` for ``card``, one of ``options_by_card``'s cards:
        those naming it, in their order (asked once a card and ``rest`` for the process:
        ``server/views.py``)."""
        return [action for action in self.options(state, seat) if action["card"] == card]

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
        for name, is_card in self._cleaned:
            value = action.get(name)
            if value is None:
                if self.record_nulls:
                    clean[name] = None
            elif is_card and type(value) is str:
                clean[name] = CARD_IDS.get(value, value)
            else:
                clean[name] = value
        return clean
