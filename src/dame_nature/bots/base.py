"""What every bot shares: the ``Bot`` interface and the legal actions read off a view.

A view is the dict ``State.view(seat)`` builds (the server may add fields; they are
ignored). Nothing here touches a ``State``.
"""

from __future__ import annotations

import random
from typing import Any

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


#: the Symbioses' action types
EXCHANGES = frozenset(("show", "give", "swap_discard"))


def may_exchange(view: View) -> bool:
    """Whether the view lets its seat make a Symbiosis now (show, give or swap)."""
    return bool(EXCHANGES.intersection(view.get("legal_types", ())))


def legal_actions(view: View) -> list[Action]:
    """Every action the seat may send now, as the engine lists them in the view
    (``legal_actions``, each as it is posted): no bot derives the rules again."""
    if view.get("seat") is None:
        return []
    return [dict(action) for action in view.get("legal_actions", ())]
