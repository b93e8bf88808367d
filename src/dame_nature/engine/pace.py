"""How much one seat may change in a turn: programming a card (again) and taking back a
"ready" are free moves of the programming phase, so each seat has a bound on them per
turn (``MAX_CHANGES_PER_TURN``). Past it the seat keeps the card it programmed and says
it is ready; ``legal_actions`` no longer lists the change. A game's number of actions is
so bounded by its rules, whatever a client sends.

A seat with no card programmed may always program one (a card it gave away or lost to a
rule leaves it without), so the bound never stops a game.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> a, b = state.hands[0][:2]
>>> for i in range(MAX_CHANGES_PER_TURN):
...     _ = state.apply(0, {"type": "program", "card": a if i % 2 == 0 else b})
>>> changes_this_turn(state, 0), may_change(state, 0)
(16, False)
>>> try:
...     state.apply(0, {"type": "program", "card": a})
... except IllegalAction as err:
...     print(err.code)
too_many_changes
>>> [x["type"] for x in state.legal_actions(0)]
['ready']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalAction

if TYPE_CHECKING:
    from .state import State

#: programs and "not ready" of one seat in one turn
MAX_CHANGES_PER_TURN = 16

#: the events of a change (one per change)
CHANGE_EVENTS = frozenset({"programmed", "unready"})


#: the bits of one seat's count in ``state._changes``, and each seat's one change there
_BITS = 16
_MASK = (1 << _BITS) - 1
_ONE_CHANGE = tuple(1 << (_BITS * seat) for seat in range(8))  # (a seat is under 8)


def changes_this_turn(state: State, seat: int) -> int:
    """The changes ``seat`` made this turn."""
    counts = state._changes
    if counts is None or state._changes_turn != state.turn:
        counts = _count_from_log(state)
    return counts >> (_BITS * seat) & _MASK


def _count_from_log(state: State) -> int:
    """Every seat's changes this turn, ``_BITS`` bits a seat, seat 0 lowest, counted from
    the log and kept in ``state._changes`` for ``state._changes_turn`` (once a turn: then
    ``count_change`` keeps it up to date). An int, which the cyclic collector neither
    tracks nor counts, where a tuple would be made a change; a seat's count stays far
    below ``_MASK`` (past ``MAX_CHANGES_PER_TURN`` only a seat left without a programmed
    card changes, once per card it lost)."""
    turn = state.turn
    counts = 0
    for event in reversed(state.log):
        if event["turn"] != turn:
            break
        if event["type"] in CHANGE_EVENTS:
            counts += _ONE_CHANGE[event["seat"]]
    state._changes = counts
    state._changes_turn = turn
    return counts


def may_change(state: State, seat: int) -> bool:
    """Whether ``seat`` may still change its card or its ready this turn."""
    return state.programmed[seat] is None or changes_this_turn(state, seat) < MAX_CHANGES_PER_TURN


def require_change_left(state: State, seat: int) -> None:
    """Raise ``IllegalAction`` (``too_many_changes``) once ``seat`` used its changes."""
    if not may_change(state, seat):
        raise IllegalAction(
            f"You have changed your card {MAX_CHANGES_PER_TURN} times this turn, the most "
            "allowed: keep the card you programmed and say you are ready.",
            "too_many_changes",
        )


def count_change(state: State, seat: int) -> None:
    """Record one change of ``seat`` (before its event is logged)."""
    counts = state._changes
    if counts is None or state._changes_turn != state.turn:
        counts = _count_from_log(state)
    state._changes = counts + _ONE_CHANGE[seat]
