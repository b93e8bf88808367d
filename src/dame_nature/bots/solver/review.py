"""The review of a finished game: could a team seeing every hand have won the deal, and
from which turn could the game no longer be won?

>>> from dame_nature.bots.arena import play_game
>>> from dame_nature.bots import make_bot
>>> from dame_nature.engine import Game
>>> bots = [make_bot("random", s, seed=s) for s in range(3)]
>>> state = play_game(Game(3).new_initial_state(seed=3), bots)
>>> answer = review(state.setup, state.history, time_budget=2.0)
>>> sorted(answer)
['last_winnable_turn', 'line', 'sides', 'turning_point', 'verdict']
>>> answer["verdict"] in ("won", "lost", "unknown")
True
"""

from __future__ import annotations

import time
from typing import Any

from ...engine.changes import private_part
from ...engine.state import State

__all__ = ["played_line", "review", "turn_starts"]

#: share of the time budget spent on the deal itself; the rest goes to the turns
DEAL_SHARE = 0.5


def turn_starts(setup: dict[str, Any], actions: list[dict[str, Any]]) -> list[State]:
    """The game replayed from ``(setup, actions)``: its state at the start of each turn
    (before any Symbiosis or programming of that turn; the side choice, when the rules
    have one, comes first, as the start of turn 1) in order, and the final state last."""
    from ...engine.game import get_game

    game = get_game(setup["num_players"], tuple(setup["modes"]))
    state = State.new(game, setup)
    starts = [state.clone()]
    seen = {state.turn} if state.phase == "programming" else set()
    for step in actions:
        state.apply(step["seat"], step["action"])
        if state.phase == "programming" and state.turn not in seen:
            seen.add(state.turn)
            if starts[0].phase == "choosing_sides" and len(seen) == 1:
                continue  # turn 1 begins with the side choice, kept as its start
            starts.append(state.clone())
    starts.append(state)
    return starts


def review(
    setup: dict[str, Any],
    actions: list[dict[str, Any]],
    *,
    time_budget: float | None = 20.0,
    node_budget: int = 2_000_000,
) -> dict[str, Any]:
    """The solver's review of the game ``(setup, actions)`` (a finished game, or one
    still going: then the turning point is looked for among the turns played).

    Returns ``{"verdict", "line", "sides", "turning_point", "last_winnable_turn"}``:

    - ``verdict``: ``"won"`` (a line wins the deal with every hand open: ``line`` and
      ``sides`` replay it with ``apply_line`` on the deal's first state; when the deal's
      own search runs out of budget but a later turn start is won, the line is the
      game's own turns before it, then the line found there), ``"lost"`` (proven: no
      line wins, Symbioses included) or ``"unknown"`` (budget spent);
    - ``turning_point``: ``{"turn": N, "slipped_in": N - 1}``: the first turn from whose
      start the game could no longer be won (proven lost there), and the turn in which
      the last chance went (proven winnable at its start). When the game was lost in the
      very turn it could still be won from, ``turn`` is one past the game's last turn.
      ``None`` when the game was won, the deal was never winnable, or the budget did not
      settle it;
    - ``last_winnable_turn``: the last turn whose start was proven winnable, or ``None``.

    ``time_budget`` (seconds, wall clock; ``None``: the nodes only, so that the answer
    depends on the game only) and ``node_budget`` bound the whole review: half for the
    deal, the rest shared by the turns.
    """
    from . import solve

    start = time.perf_counter()
    starts = turn_starts(setup, actions)
    final = starts.pop()
    deal = solve(
        starts[0].clone(),
        node_budget=int(node_budget * DEAL_SHARE),
        time_budget=None if time_budget is None else time_budget * DEAL_SHARE,
    )
    answer: dict[str, Any] = {
        "verdict": deal.status,
        "line": deal.line if deal.status == "won" else [],
        "sides": deal.sides if deal.status == "won" else None,
        "turning_point": None,
        "last_winnable_turn": None,
    }
    won_game = final.is_over and final.result is not None and final.result["outcome"] == "won"
    if deal.status == "lost":
        return answer
    if won_game:
        answer["last_winnable_turn"] = final.turn
        return answer
    # from the last turn back: lost, lost, ..., then the last winnable one
    later_lost: int | None = None
    if final.is_over:
        later_lost = final.turn + 1  # the end of the game: lost
    rest = len(starts) - 1
    for index in range(len(starts) - 1, 0, -1):
        state = starts[index]
        left = None if time_budget is None else time_budget - (time.perf_counter() - start)
        if left is not None and left <= 0:
            break
        found = solve(
            state.clone(),
            node_budget=max(1, int(node_budget * (1 - DEAL_SHARE) / max(1, rest))),
            time_budget=None if left is None else left / index,
        )
        verdict = found.status
        if verdict == "lost":
            later_lost = state.turn
            continue
        if verdict == "won":
            if deal.status == "unknown":  # the game's own turns, then the line found
                _won_through(answer, setup, final, state.turn, found.line)
            answer["last_winnable_turn"] = state.turn
            if later_lost is not None:
                answer["turning_point"] = {"turn": later_lost, "slipped_in": state.turn}
        break
    else:
        if deal.status == "won":
            answer["last_winnable_turn"] = first = _first_turn(starts[0])
            if later_lost is not None:
                answer["turning_point"] = {"turn": later_lost, "slipped_in": first}
    return answer


def played_line(final: State, before_turn: int) -> list[dict[str, Any]]:
    """The game's own steps (Gives with their answers, discard swaps, reveals) of the
    turns before ``before_turn``, in the solver's line format, read from its log."""
    line: list[dict[str, Any]] = []
    given: dict[int, dict[str, Any]] = {}
    for event in final.log:
        turn, kind = event.get("turn", 0), event["type"]
        if turn >= before_turn:
            break
        private = private_part(event)
        if kind == "give":
            given[event["seat"]] = {
                "turn": turn,
                "type": "give",
                "seat": event["seat"],
                "to": event["to"],
                "card": private["card"],
            }
        elif kind == "give_back":
            step = given.pop(event["to"])
            line.append({**step, "back": private["card"]})
        elif kind == "swap_discard":
            line.append(
                {
                    "turn": turn,
                    "type": "swap_discard",
                    "seat": event["seat"],
                    "card": event["card"],
                    "take": event["take"],
                }
            )
        elif kind == "revealed":
            joker = event["card"].startswith("joker")
            line.append(
                {
                    "turn": turn,
                    "type": "reveal",
                    "seat": event["seat"],
                    "card": event["card"],
                    "slot": event["slot"],
                    "colour": event["colour"] if joker else None,
                    "target": event["target"],
                }
            )
    return line


def _won_through(
    answer: dict[str, Any], setup: dict[str, Any], final: State, turn: int, rest: list[Any]
) -> None:
    """The deal is won after all: the game's turns before ``turn``, then ``rest``
    (kept only if it replays to a win)."""
    from .lines import apply_line

    line = played_line(final, turn) + rest
    chosen = [side for side in final.sides if side is not None]
    sides = chosen if len(chosen) == len(final.sides) else None
    fresh = State.new(final.game, setup)
    try:
        apply_line(fresh, line, sides)
    except Exception:  # an engine refusal: keep "unknown"
        return
    if fresh.result is not None and fresh.result["outcome"] == "won":
        answer.update(verdict="won", line=line, sides=sides)


def _first_turn(state: State) -> int:
    return state.turn if state.phase == "programming" else state.turn + 1
