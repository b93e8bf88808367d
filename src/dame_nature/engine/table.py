"""Where the cards on the table are, as the views and the replays list them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .state import State
    from .view import RevealRecord


def table_cards(state: State) -> dict[str, Any]:
    """Where the cards on the table are: ``web``, ``joker_colours``, ``discard``,
    ``in_play``, ``revealed_this_turn``, ``last_turn`` (as the views give them)."""
    return {
        "web": dict(state.web),
        "joker_colours": dict(state.joker_colours),
        "discard": list(state.discard),
        "in_play": [{"seat": s, "card": c} for s, c in state.in_play],
        "revealed_this_turn": [_record(r) for r in state.revealed_this_turn],
        "last_turn": [_record(r) for r in state.last_turn],
    }


def _record(record: dict[str, Any]) -> RevealRecord:
    return {
        "seat": record["seat"],
        "card": record["card"],
        "result": record["result"],
        "slot": record["slot"],
        "colour": record["colour"],
        "reason": record["reason"],
        "target": record.get("target"),
    }
