"""A greedy player who follows none of the bots' conventions: the partner a person
often is, for measuring how the experts do beside someone else.

It programs what looks best on its own hand and the web alone (the shared base policy,
``policy.program_choice``, knowing nothing of its partners), places a revealed card where
it looks best right now, never shows, gives or swaps (it gives back the card it would
least like to play), and picks its side by its Species. It is not a level players pick
(``LEVELS``); ``benchmarks/bots.py`` and the tests seat it beside experts.

>>> from dame_nature.engine import Game
>>> from dame_nature.bots.arena import play_game
>>> state = Game(4).new_initial_state(seed=3)
>>> play_game(state, [GreedyBot(s, seed=s) for s in range(4)]).is_over
True
"""

from __future__ import annotations

from typing import Any

from .base import Action, View
from .expert import ExpertBot
from .policy import best_outcome, program_choice, reveal_score
from .simulator import INFO, Outcome


class GreedyBot(ExpertBot):
    level = "greedy"

    def __init__(self, seat: int, *, seed: int | None = None) -> None:
        super().__init__(seat, seed=seed, worlds=0)

    def _choose_program(self, view: View, know: Any) -> str:
        sim = know.base.copy()
        sim.start_turn()
        return program_choice(sim, self.seat)

    def _symbiosis(self, view: View) -> Action | None:
        return None

    def _answer(self, view: View, awaiting: dict[str, Any]) -> Action:
        options: list[Action] = awaiting["options"]
        kind = awaiting["kind"]
        if kind == "choose_side" or len(options) == 1:
            return super()._answer(view, awaiting)
        sim, me = self.knowledge(view).base, self.seat
        if kind == "reveal":
            card = view["programmed"]
            special = INFO[card].type in ("cat", "pollution", "reintroduction")
            prev = sim.turn_records[-1] if sim.turn_records else None

            def score(option: Action) -> float:
                outcome = Outcome(
                    slot=option.get("slot"),
                    colour=option.get("colour"),
                    target=option.get("target"),
                    special=special,
                    discard=option.get("slot") is None and not special,
                )
                return reveal_score(sim, me, card, outcome, prev)

            best = max(options, key=score)
            return dict(best)
        if kind == "give_back":
            return dict(min(options, key=lambda o: best_outcome(sim, me, o["card"], None)[0]))
        return dict(options[0])
