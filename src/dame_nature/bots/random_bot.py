"""The ``random`` level: a legal move at random, read off the view.

It programs a random card, sometimes makes a random Symbiosis (so partners meet
shown and given cards), says ready, answers what it is asked at random, and ends a
game the view says cannot be won. It never loops: each call moves the game on or
returns ``None``.
"""

from __future__ import annotations

from .base import Action, Bot, View, awaiting_me, my_cards, symbiosis_actions

SYMBIOSIS_CHANCE = 0.1  # per decision, before saying ready


class RandomBot(Bot):
    level = "random"

    def decide(self, view: View) -> Action | None:
        if not view["winnable"]:
            return {"type": "end_game"}
        awaiting = awaiting_me(view)
        if awaiting is not None:
            return dict(self.rng.choice(awaiting["options"]))
        if view["phase"] != "programming" or not my_cards(view):
            return None
        if view["programmed"] is None:
            return {"type": "program", "card": self.rng.choice(view["hand"])}
        if view["players"][self.seat]["ready"]:
            return None
        if self.rng.random() < SYMBIOSIS_CHANCE:
            unknown = {c for c in view["discard"] if c.startswith("pollution")}
            options = symbiosis_actions(view, unknown)
            if options:
                return dict(self.rng.choice(options))
        return {"type": "ready"}
