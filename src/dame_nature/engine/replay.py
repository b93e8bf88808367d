"""The steps of a finished game for a replay: every hand visible, one step per action, and
one per reveal (and per end of turn) inside an action that sets off several.

The game is played again from its ``setup`` and ``actions``; while an action resolves
reveals, the reveal pipeline tells an observer (``State._observer``) when a card is about
to be revealed and when the turn is about to end, and each step's table is the state at
that moment: every frame is the engine's own state, never a table rebuilt from events.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> steps, total = replay_steps(state.setup, [])
>>> steps[0]["kind"], len(steps[0]["state"]["players"][0]["hand"]), total
('start', 11, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from .changes import private_part
from .table import table_cards

if TYPE_CHECKING:
    from .state import State


def omniscient(event: dict[str, Any]) -> dict[str, Any]:
    """An event with its private part (the game is over: nothing is secret any more)."""
    public = {k: v for k, v in event.items() if not k.startswith("_")}
    public.update(private_part(event))
    return public


def frame(state: State) -> dict[str, Any]:
    """The whole table at this moment, every hand included (the fields as the views name
    them)."""
    pending = state.pending_give
    sides = state.sides
    return {
        "phase": state.phase,
        "turn": state.turn,
        "first_player": state.first_player,
        "free_symbiosis_available": state.phase == "programming" and not state.free_symbiosis_used,
        **table_cards(state),
        "pending_give": {"from": pending["from"], "to": pending["to"]} if pending else None,
        "winnable": state.is_winnable(),
        "result": dict(state.result) if state.result else None,
        "players": [
            {
                "seat": seat,
                "hand": list(state.hands[seat]),
                "programmed": state.programmed[seat],
                "ready": state.ready[seat],
                "symbiosis_cards": state.symbiosis_cards[seat],
                "side": sides[seat],
            }
            for seat in range(state.num_players)
        ],
    }


def table_shape(setup: dict[str, Any]) -> dict[str, Any]:
    """What does not change during a game: ``layout``, ``webs``, ``max_discards``,
    ``deck_size`` (as the views say them)."""
    from .state import State

    state = State.replay(setup, [])
    config = state.game.config
    return {
        "layout": config.main_layout,
        "webs": [name for name, _ in config.webs()],
        "max_discards": state.max_discards(),
        "deck_size": state.game.deck_size,
    }


class _Steps:
    """Collects the steps of one action: a step closes at each moment the reveal pipeline
    reports (when events happened since the last one), and the last at the action's end.
    Only the steps of the page (``wanted(index)``) draw their table; all are counted."""

    def __init__(self, state: State, seat: int, action: dict[str, Any], index: int,
                 wanted: Callable[[int], bool]) -> None:  # fmt: skip
        self.state = state
        self.seat = seat
        self.action = action
        self.index = index  # of the next step
        self.wanted = wanted
        self.start = len(state.log)
        self.first = True
        self.found: list[dict[str, Any]] = []
        self.next_kind: str | None = None  # the kind of the step under way, once known
        self.next_seat: int | None = seat

    def moment(self, kind: str, seat: int | None) -> None:
        """Called by the reveal pipeline: a card of ``seat`` is about to be revealed
        (``reveal``) or the turn to end (``turn_end``)."""
        if len(self.state.log) > self.start:
            self.close()
        if self.next_kind is None:
            self.next_kind, self.next_seat = kind, seat

    def close(self) -> None:
        state = self.state
        if self.wanted(self.index):
            events = [omniscient(e) for e in state.log[self.start :]]
            self.found.append(
                {
                    "index": self.index,
                    "kind": self.next_kind or "action",
                    "turn": events[0]["turn"] if events else state.turn,
                    "seat": self.seat if self.first else self.next_seat,
                    "action": self.action if self.first else None,
                    "events": events,
                    "state": frame(state),
                }
            )
        self.index += 1
        self.first = False
        self.start = len(state.log)
        self.next_kind, self.next_seat = None, None


def replay_steps(
    setup: dict[str, Any],
    actions: Iterable[dict[str, Any]],
    offset: int = 0,
    limit: int | None = None,
) -> tuple[list[dict[str, Any]], int]:
    """``([{index, kind, turn, seat, action, events, state}, ..], total)``: the game
    before any action (``start``), then after each action (``action``), each reveal
    (``reveal``) and each end of turn (``turn_end``). ``action`` is set on the first step
    of each action; ``state`` is the whole table (every hand) after that step.

    Only the steps ``offset`` to ``offset + limit`` are drawn (the others are counted in
    ``total``), so a page costs memory for its own steps."""
    from .state import State

    stop = None if limit is None else offset + limit

    def wanted(index: int) -> bool:
        return offset <= index and (stop is None or index < stop)

    state = State.replay(setup, [])
    steps: list[dict[str, Any]] = []
    if wanted(0):
        steps.append(
            {"index": 0, "kind": "start", "turn": state.turn, "seat": None, "action": None,
             "events": [omniscient(e) for e in state.log], "state": frame(state)}
        )  # fmt: skip
    total = 1
    try:
        for entry in actions:
            collector = _Steps(state, entry["seat"], entry["action"], total, wanted)
            state._observer = collector.moment
            state.apply(entry["seat"], entry["action"])
            collector.close()
            steps += collector.found
            total = collector.index
    finally:
        state._observer = None
    return steps, total
