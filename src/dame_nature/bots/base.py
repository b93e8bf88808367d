"""What every bot shares: the ``Bot`` interface and the legal actions read off a view.

A view is the dict ``State.view(seat)`` builds (the server may add fields; they are
ignored). Nothing here touches a ``State``.
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.cards import CATALOGUE

Action = dict[str, Any]
View = dict[str, Any]


class Bot:
    """A player at one seat. Subclasses implement ``decide``.

    ``act(view)`` returns the action to send now, or ``None`` when there is nothing to
    do (not this seat's move, already ready, game over).
    """

    level: str = ""

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        self.seat = seat
        self.seed = seed
        self.rng = random.Random(seed)

    def act(self, view: View) -> Action | None:
        if view.get("phase") in (None, "over", "lobby"):
            return None
        if view.get("seat") != self.seat:
            raise ValueError(f"this bot plays seat {self.seat}, not {view.get('seat')!r}")
        return self.decide(view)

    def decide(self, view: View) -> Action | None:  # pragma: no cover - abstract
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seat={self.seat} seed={self.seed}>"


def my_cards(view: View) -> list[str]:
    """The seat's hand and its programmed card."""
    prog = view.get("programmed")
    return list(view["hand"]) + ([prog] if prog is not None else [])


def awaiting_me(view: View) -> dict[str, Any] | None:
    awaiting = view.get("awaiting")
    if awaiting and awaiting.get("seat") == view["seat"]:
        return awaiting
    return None


def can_use_symbiosis(view: View) -> bool:
    seat = view["seat"]
    if view["phase"] != "programming" or view.get("pending_give") is not None:
        return False
    free = view.get("free_symbiosis_available") and view["first_player"] == seat
    return bool(free) or view["players"][seat]["symbiosis_cards"] > 0


def played_specials(view: View) -> set[str]:
    """Pollution cards the view shows as played (they cannot be taken back by a swap)."""
    played: set[str] = set()
    for record in [*view.get("last_turn", []), *view.get("revealed_this_turn", [])]:
        if record["card"].startswith("pollution") and record.get("reason") is None:
            played.add(record["card"])
    for event in view.get("log", []):
        if (
            event.get("type") == "revealed"
            and str(event.get("card", "")).startswith("pollution")
            and event.get("reason") is None
        ):
            played.add(event["card"])
    return played


def symbiosis_actions(view: View, unknown_takeable: set[str] | None = None) -> list[Action]:
    """The Symbioses the seat may make now (empty when it may not)."""
    if not can_use_symbiosis(view):
        return []
    seat = view["seat"]
    mine = my_cards(view)
    others = [p["seat"] for p in view["players"] if p["seat"] != seat]
    kinds = view["symbiosis_kinds"]
    actions: list[Action] = []
    if "show" in kinds:
        if view.get("show_names_one_player"):
            actions += [{"type": "show", "card": c, "to": t} for c in mine for t in others]
        else:
            actions += [{"type": "show", "card": c} for c in mine]
    if "give" in kinds:
        actions += [{"type": "give", "card": c, "to": t} for c in mine for t in others]
    if "swap_discard" in kinds:
        blocked = played_specials(view) | (unknown_takeable or set())
        takeable = [c for c in view["discard"] if not (c.startswith("pollution") and c in blocked)]
        actions += [
            {"type": "swap_discard", "card": c, "take": t}
            for c in mine
            if CATALOGUE.card(c).is_condition_like
            for t in takeable
            if t != c
        ]
    return actions


def legal_actions(view: View) -> list[Action]:
    """Every action the view shows its seat may send now (a Pollution in the discard pile
    whose fate the view no longer shows is left out of swaps, to be safe)."""
    if view.get("phase") in (None, "over", "lobby") or view.get("seat") is None:
        return []
    actions: list[Action] = []
    awaiting = awaiting_me(view)
    if awaiting is not None:
        actions += awaiting["options"]
    if view["phase"] == "programming":
        actions += [{"type": "program", "card": c} for c in view["hand"]]
        if view["programmed"] is not None:
            me = view["players"][view["seat"]]
            actions.append({"type": "unready" if me["ready"] else "ready"})
        # an unplayed Pollution cannot be told apart from a played one without the log:
        # treat every Pollution in the discard pile as not takeable
        unknown = {c for c in view["discard"] if c.startswith("pollution")}
        actions += symbiosis_actions(view, unknown)
    if not view["winnable"]:
        actions.append({"type": "end_game"})
    return actions
