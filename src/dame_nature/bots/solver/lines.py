"""Playing a solver line on the engine."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...engine.state import State

__all__ = ["apply_line"]


def apply_line(state: State, line: list[dict[str, Any]], sides: list[str] | None = None) -> State:
    """Play a solver ``line`` on the engine (in place): sides if the line chose them,
    then each turn its Symbioses (a Give and its answer, a discard swap), every seat
    programs its card and says ready, and each reveal with a choice goes where the line
    says. Raises ``IllegalAction`` if the line does not fit."""
    if state.phase == "choosing_sides":
        assert sides is not None, "the line was found for given sides"
        while state.phase == "choosing_sides":
            seat, _ = state.awaited() or (0, "")
            state.apply(seat, {"type": "choose_side", "side": sides[seat]})
    turns: dict[int, list[dict[str, Any]]] = {}
    for step in line:
        turns.setdefault(step["turn"], []).append(step)
    for turn in sorted(turns):
        if state.is_over:
            break
        steps = turns[turn]
        for step in steps:
            kind = step.get("type", "reveal")
            if kind == "give":
                state.apply(step["seat"], {"type": "give", "card": step["card"], "to": step["to"]})
                state.apply(step["to"], {"type": "give_back", "card": step["back"]})
            elif kind == "swap_discard":
                action = {"type": "swap_discard", "card": step["card"], "take": step["take"]}
                state.apply(step["seat"], action)
        reveals = [s for s in steps if s.get("type", "reveal") == "reveal"]
        for step in reveals:
            if state.programmed[step["seat"]] != step["card"]:
                state.apply(step["seat"], {"type": "program", "card": step["card"]})
        playing = {step["seat"] for step in reveals}
        for seat in range(state.num_players):  # seats after a winning reveal: any card
            if seat not in playing and state.has_cards(seat) and state.programmed[seat] is None:
                state.apply(seat, {"type": "program", "card": state.hands[seat][0]})
        for seat in range(state.num_players):
            if state.phase == "programming" and state.has_cards(seat) and not state.ready[seat]:
                state.apply(seat, {"type": "ready"})
        for step in reveals:
            awaited = state.awaited()
            if awaited is not None and awaited == (step["seat"], "reveal"):
                action = {k: step[k] for k in ("slot", "colour", "target")}
                state.apply(step["seat"], {"type": "reveal", **action})
    return state
