"""A short, deterministic 3-player game for the browser tests, planned with the engine.

Every card of the web is played once, in an order where each reveal is placed (no
discard); the 3 Jokers stay in hand, one per player. The web completes on the 30th
reveal (turn 10), so the game is won. ``PLAN.turns[t][seat]`` is the card seat programs
on turn ``t + 1``; ``PLAN.choices`` lists the reveals where the engine asks its player
(several legal slots) and the slot the test clicks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from dame_nature.engine import CATALOGUE, Game

PLAYERS = 3
FIRST_PLAYER = 0


@dataclass
class Plan:
    hands: list[list[str]]
    turns: list[dict[int, str]] = field(default_factory=list)
    #: (turn, seat, card, slot): the reveals where the player picks the slot
    choices: list[tuple[int, int, str, str]] = field(default_factory=list)

    def deal(self) -> dict[str, Any]:
        return {"hands": [list(h) for h in self.hands], "first_player": FIRST_PLAYER}


def _sequence() -> list[str]:
    """The 30 web cards in an order that places each one when revealed."""
    game = Game(PLAYERS)
    topo = game.topology
    web = topo.empty_web()
    cards = [c for c in CATALOGUE.in_set("base") if c.startswith(("cond-", "species-"))]
    cards = [
        c
        for c in cards
        if PLAYERS in (CATALOGUE.card(c).players or [PLAYERS]) or c.startswith("species-")
    ]
    remaining = sorted(cards)
    order: list[str] = []
    while remaining:
        best = None
        for c in remaining:
            card = CATALOGUE.card(c)
            if card.is_species:
                if topo.has_species(c) and topo.can_install(web, c):
                    best = (0, c, c)
                    break
                continue
            slots = topo.open_condition_slots(web, card.colour)
            if slots and (best is None or len(slots) < best[0]):
                best = (len(slots), c, slots[0])
        assert best is not None, (order, remaining)
        _, c, slot = best
        web[slot] = c
        order.append(c)
        remaining.remove(c)
    return order


@lru_cache(maxsize=1)
def plan() -> Plan:
    seq = _sequence()
    assert len(seq) == 30 and seq[-1] == "species-aigle-royal"
    turns: list[dict[int, str]] = []
    for t in range(10):
        fp = (FIRST_PLAYER + t) % PLAYERS
        turns.append({(fp + i) % PLAYERS: seq[3 * t + i] for i in range(PLAYERS)})
    jokers = ["joker-1", "joker-2", "joker-3"]
    hands = [[turns[t][s] for t in range(10)] + [jokers[s]] for s in range(PLAYERS)]
    result = Plan(hands=hands, turns=turns)
    # replay with the engine: record where a choice is asked, and check the win
    state = Game(PLAYERS).new_initial_state(deal=result.deal())
    for t, programmed in enumerate(turns):
        for seat in range(PLAYERS):
            state.apply(seat, {"type": "program", "card": programmed[seat]})
        for seat in range(PLAYERS):
            state.apply(seat, {"type": "ready"})
        while state.phase == "reveal":
            seat, kind = state.awaited()
            assert kind == "reveal"
            option = state.legal_actions(seat)[0]
            result.choices.append((t + 1, seat, state.programmed[seat], option["slot"]))
            state.apply(seat, option)
    assert state.result == {"outcome": "won", "discards": 0}, state.result
    return result


if __name__ == "__main__":  # pragma: no cover
    p = plan()
    for t, programmed in enumerate(p.turns):
        print(t + 1, programmed)
    print(p.choices)
