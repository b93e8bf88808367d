"""The exact search for the last cards of a game: every exchange the Symbioses left
allow, so that a failure is a proof of loss.

At the start of each turn it lists every distribution of the cards the programming
phase can reach (each Give with any answer, each discard swap, as many as the
Symbioses left pay for, in any order; distributions that behave alike counted once),
then searches every reveal of the turn from each. Show tells nothing when every hand is
open, so Gives and discard swaps are all the Symbioses that matter. Used only where the
positions are few: at most ``EXACT_CARDS`` cards in each hand, and without the Cats and
the Pollution/Reintroduction cards (a discard swap could take those back, which the
model does not follow).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..policy import card_key
from ..simulator import INFO, Sim
from .search import Search, Step

if TYPE_CHECKING:
    from . import Position, SolverResult

__all__ = ["EXACT_CARDS", "ExactSearch", "exact_verdict"]

#: when no hand holds more cards than this, the exact search is kept half the budget
#: (it runs on any position with the budget the other searches leave)
EXACT_CARDS = 2


def exact_verdict(
    pos: Position, node_budget: int, time_budget: float | None
) -> SolverResult | None:
    """``won``/``lost``/``unknown`` by the exact search, or ``None`` where it does not
    apply (too many cards left, or rules it does not model)."""
    from . import SolverResult, _each_side

    sim = pos.sim
    rules = sim.rules
    if rules.cats or rules.reintro:
        return None
    if node_budget <= 0:
        return None
    search = ExactSearch(
        sim,
        node_budget,
        time_budget,
        universe=pos.universe,
        first_turn=pos.first_turn,
        lazy_sides=True,
    )
    status, sides = _each_side(
        sim, lambda trial: search.run(trial, pos.cards, pos.free_used), search
    )
    return SolverResult(
        status,
        search.line if status == "won" else [],
        search.nodes,
        0.0,
        sides,
        "exact" if status == "lost" else None,
    )


class ExactSearch(Search):
    """``Search`` with every exchange tried at the start of each turn, and only the
    bounds true whatever Symbioses are made as pruning."""

    def __init__(self, sim: Sim, node_budget: int, time_budget: float | None, **kw: Any) -> None:
        super().__init__(sim, node_budget, time_budget, symbioses=False, **kw)
        self.exact = True

    def _alive(self, sim: Sim, cards: tuple[int, ...], free_used: bool) -> bool:
        from .bounds import lost_for_certain, symbioses_left

        return not lost_for_certain(sim, self.pile(sim), symbioses_left(sim, cards, free_used))

    def _prune(self, sim: Sim) -> bool:
        return sim.discards > self.max_discards or not sim.winnable()

    def _turn_lines(self, sim: Sim, depth: int, cards: tuple[int, ...], free_used: bool) -> bool:
        order = sim.order()
        for after, cards2, free2, steps in self._programmings(sim, cards, free_used, depth):
            mark = len(self.line)
            self.line.extend(steps)
            if self._reveal(after, order, 0, depth, cards2, free2, []):
                return True
            del self.line[mark:]
        return False

    def _programmings(
        self, sim: Sim, cards: tuple[int, ...], free_used: bool, depth: int
    ) -> Iterator[tuple[Sim, tuple[int, ...], bool, list[Step]]]:
        """Every distribution of the cards this turn's Symbioses can reach, each with
        the steps that reach it: the one without any first, then those one exchange
        away, two, ... (made as they are asked for)."""
        turn = self.first_turn + depth
        rules = sim.rules
        n = rules.n
        start: tuple[Sim, tuple[int, ...], bool, list[Step]] = (sim, cards, free_used, [])
        yield start
        seen = {self._config_key(sim, cards, free_used)}
        frontier = [start]
        while frontier:
            nxt_frontier = []
            for cur, cur_cards, cur_free, steps in frontier:
                self.tick()
                pile = self.pile(cur)
                for maker in range(n):
                    if not cur.hands[maker]:
                        continue
                    if cur_free or maker != cur.first:
                        if not cur_cards or cur_cards[maker] <= 0:
                            continue
                        left = list(cur_cards)
                        left[maker] -= 1
                        paid: tuple[tuple[int, ...], bool] = (tuple(left), cur_free)
                    else:
                        paid = (cur_cards, True)
                    for after, step in self._exchanges_of(cur, maker, pile, turn):
                        key = self._config_key(after, *paid)
                        if key in seen:
                            continue
                        seen.add(key)
                        entry = (after, paid[0], paid[1], [*steps, step])
                        yield entry
                        nxt_frontier.append(entry)
            frontier = nxt_frontier

    def _exchanges_of(
        self, cur: Sim, maker: int, pile: list[str], turn: int
    ) -> Iterator[tuple[Sim, Step]]:
        """Each Give (with each answer) and discard swap ``maker`` can make."""
        rules = cur.rules
        mine = list(dict.fromkeys(cur.hands[maker]))
        for to in range(rules.n):
            if to == maker or not cur.hands[to]:
                continue
            for card in mine:
                for back in dict.fromkeys(cur.hands[to]):
                    if card_key(card, rules) == card_key(back, rules):
                        continue
                    after = cur.copy()
                    after.hands[maker].remove(card)
                    after.hands[to].append(card)
                    after.hands[to].remove(back)
                    after.hands[maker].append(back)
                    yield (
                        after,
                        {
                            "turn": turn,
                            "type": "give",
                            "seat": maker,
                            "to": to,
                            "card": card,
                            "back": back,
                        },
                    )
        for card in mine:
            if not INFO[card].is_condition_like:
                continue
            for take in dict.fromkeys(pile):
                if card_key(card, rules) == card_key(take, rules):
                    continue
                after = cur.copy()
                after.hands[maker].remove(card)
                after.hands[maker].append(take)
                yield (
                    after,
                    {
                        "turn": turn,
                        "type": "swap_discard",
                        "seat": maker,
                        "card": card,
                        "take": take,
                    },
                )

    def _config_key(self, sim: Sim, cards: tuple[int, ...], free_used: bool) -> Any:
        rules = sim.rules
        return (
            tuple(tuple(sorted(card_key(c, rules) for c in h)) for h in sim.hands),
            cards,
            free_used,
        )
