"""A fixed policy for scripted seats, from a seat's view alone (tests and benchmarks)."""

from __future__ import annotations

from typing import Any


def scripted_action(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """Answer what is awaited with its first option, else program the first card of the
    hand, else say ready."""
    awaiting = view["awaiting"]
    if awaiting and awaiting["seat"] == view["seat"] and awaiting["options"]:
        return dict(awaiting["options"][0])
    kinds = {a["type"]: a for a in legal}
    if view["programmed"] is None and "program" in kinds:
        return {"type": "program", "card": view["hand"][0]}
    for kind in ("ready", "end_game", "give_back"):
        if kind in kinds:
            return dict(kinds[kind])
    return dict(legal[0])
