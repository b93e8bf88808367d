"""The depth-first search over reveals, with or without Symbioses.

Positions are searched turn by turn; in a turn the reveals come one by one in seat order
from the first player, and the revealing seat picks one of its cards (with every hand
known, programming and revealing are one choice) and where it goes.

With Symbioses on, a seat may also reveal a card it does not hold yet:

- a card of another seat, swapped by a Give (the other seat gets one card of the
  revealing seat's hand back);
- a card of the discard pile (as it was when the turn started), taken by a discard swap
  against a Condition or Joker of its hand.

Both are made during the programming phase of that turn, before any reveal, and paid as
the engine pays them: the first player's free Symbiosis when the first player makes it
and has not used it this turn, else a Symbiosis card of the seat that makes it. The
search only makes exchanges for a card revealed in the same turn, so a failure to find a
win with Symbioses on proves nothing (the bounds and the exact search prove losses).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

from ..policy import AQUATIC, card_key, reveal_score, side_quota
from ..simulator import INFO, Outcome, Sim
from .bounds import lost_for_certain, symbioses_left

Step = dict[str, Any]


UNLIMITED = 1 << 30


class OutOfBudget(Exception):
    pass


class Search:
    """One search's budget, memory and line. ``symbioses``: with exchanges (``cards``
    holds each seat's Symbiosis cards; ``universe`` every card of the deal a discard swap
    could take back), else none, as in the search the bots use on their own samples.
    ``lazy_sides``: a side not chosen yet is fixed by the seat's first Species placed
    (else, as in the bots' samples, a seat without a side places no Species)."""

    def __init__(
        self,
        sim: Sim,
        node_budget: int,
        time_budget: float | None,
        *,
        symbioses: bool = False,
        universe: list[str] | None = None,
        first_turn: int = 0,
        lazy_sides: bool = False,
    ) -> None:
        self.node_budget = node_budget
        self.deadline = None if time_budget is None else time.perf_counter() + time_budget
        self.nodes = 0
        self.lost: dict[Any, int] = {}  # position -> discrepancies left when it failed
        self.left = UNLIMITED  # discrepancies this line may still take (see ``run``)
        self.cut = False  # whether the limit of discrepancies cut a line
        self.path: set[Any] = set()
        self.line: list[Step] = []
        self.max_discards = sim.rules.max_discards
        self.symbioses = symbioses
        self.universe = universe or []
        self.first_turn = first_turn
        self.exact = False
        self.lazy_sides = lazy_sides
        self.sides: list[str | None] = list(sim.sides)  # at the end of the line found

    # ---------------------------------------------------------------- entry
    def run(
        self,
        sim: Sim,
        cards: tuple[int, ...] = (),
        free_used: bool = False,
        discrepancies: int = UNLIMITED,
    ) -> bool:
        """Whether a line from ``sim`` wins, trying at most ``discrepancies`` choices
        other than the first along a line (limited discrepancy search; ``cut`` says
        whether the limit cut a line, so that a failure is not final)."""
        self.line = []
        self.left = discrepancies
        self.cut = False
        return self._turn(sim, 0, cards, free_used)

    def pile(self, sim: Sim) -> list[str]:
        """The cards of the discard pile a discard swap may take (Species, Conditions and
        Jokers; not the cards of the advanced rules)."""
        out = list(self.universe)
        for hand in sim.hands:
            for card in hand:
                if card in out:
                    out.remove(card)
        for placed in sim.web.values():
            if placed is not None and placed in out:
                out.remove(placed)
        return out

    def key(self, sim: Sim, cards: tuple[int, ...]) -> Any:
        rules = sim.rules
        return (
            tuple(None if c is None else card_key(c, rules) for c in sim.web.values()),
            tuple(tuple(sorted(card_key(c, rules) for c in h)) for h in sim.hands),
            sim.first,
            sim.discards,
            sim.specials_played,
            sim.cats_out,
            sim.after_reintro,
            tuple(sim.sides),
            cards,
        )

    def outcomes(self, sim: Sim, seat: int, card: str, prev: Any) -> list[Outcome]:
        """``sim.outcomes``; with Species-specific biodiversity, a seat whose side is
        not chosen yet (``None``) takes the side of the first Species it places: the
        sides are chosen before the first turn, but only a Species revealed binds them,
        so any other choice plays alike. (The exact search also tries the other side,
        which discards that Species.)"""
        if (
            not self.lazy_sides
            or sim.sides[seat] is not None
            or not sim.rules.sides
            or INFO[card].type != "species"
        ):
            return sim.outcomes(seat, card, prev)
        kept = sim.sides
        sim.sides = [*kept]
        sim.sides[seat] = INFO[card].kind
        try:
            found = sim.outcomes(seat, card, prev)
        finally:
            sim.sides = kept
        if self.exact and not found[0].discard:
            found = [*found, Outcome(discard=True)]
        return found

    def score(self, sim: Sim, seat: int, card: str, outcome: Outcome, prev: Any) -> float:
        """The order moves are tried in: the bots' greedy score; with exchanges, a place
        in the aquatic web (open only right after a blue card) first while it lasts (the
        bots' score prefers it too: without exchanges it waits its turn), and one Cat a
        turn as early as it is safe."""
        score = reveal_score(sim, seat, card, outcome, prev)
        rules = sim.rules
        if not self.symbioses and outcome.slot is not None and outcome.slot in rules.aquatic:
            score -= AQUATIC
        if self.symbioses and score == 20.0 and INFO[card].type == "cat":
            score += 50.0  # one Cat a turn, early: the last turns cannot take them all
        if rules.sides and sim.sides[seat] is None and outcome.slot is not None:
            kind = INFO[card].kind
            if kind is not None and sim.sides.count(kind) >= side_quota(rules.n, kind):
                score -= 60.0  # sides shared as the Species are: 4 plants, 6 animals
        return score

    # ---------------------------------------------------------------- turns
    def _alive(self, sim: Sim, cards: tuple[int, ...], free_used: bool) -> bool:
        if not self.symbioses:
            return sim.discards <= self.max_discards and sim.feasible()
        return not lost_for_certain(sim, self.pile(sim), symbioses_left(sim, cards, free_used))

    def _prune(self, sim: Sim) -> bool:
        """Whether a line is dead after a reveal."""
        if sim.discards > self.max_discards or not sim.winnable():
            return True
        return not self.symbioses and not sim.feasible()

    def _turn(self, sim: Sim, depth: int, cards: tuple[int, ...], free_used: bool) -> bool:
        if sim.over:
            if sim.won:
                self.sides = list(sim.sides)
            return sim.won
        if not self._alive(sim, cards, free_used):
            return False
        key = (self.key(sim, cards), free_used)
        if self.lost.get(key, -1) >= self.left or key in self.path:
            return False  # lost already, or a loop (Cats coming back every turn)
        self.path.add(key)
        try:
            if self._turn_lines(sim, depth, cards, free_used):
                return True
        finally:
            self.path.discard(key)
        self.lost[key] = max(self.lost.get(key, -1), self.left)
        return False

    def _turn_lines(self, sim: Sim, depth: int, cards: tuple[int, ...], free_used: bool) -> bool:
        """Whether a line wins from the start of this turn (its reveals, from here)."""
        pile = self.pile(sim) if self.symbioses else []
        return self._reveal(sim, sim.order(), 0, depth, cards, free_used, pile)

    def tick(self) -> None:
        """Count one node of the search; ``OutOfBudget`` once past its budget of nodes or
        its deadline (the last checked every 256 nodes)."""
        self.nodes += 1
        if self.nodes > self.node_budget or (
            self.deadline is not None
            and self.nodes % 256 == 0
            and time.perf_counter() > self.deadline
        ):
            raise OutOfBudget

    # ---------------------------------------------------------------- reveals
    def _reveal(
        self,
        sim: Sim,
        order: list[int],
        i: int,
        depth: int,
        cards: tuple[int, ...],
        free_used: bool,
        pile: list[str],
    ) -> bool:
        self.tick()
        if i == len(order):
            nxt = sim.copy()
            nxt.end_turn()
            return self._turn(nxt, depth + 1, cards, False)
        seat = order[i]
        prev = sim.turn_records[-1] if sim.turn_records else None
        own: list[tuple[float, str, Outcome]] = []
        seen: set[str] = set()
        rules = sim.rules
        for card in sim.hands[seat]:
            k = card_key(card, rules)
            if k in seen:
                continue
            seen.add(k)
            for outcome in self.outcomes(sim, seat, card, prev):
                own.append((self.score(sim, seat, card, outcome, prev), card, outcome))
        own.sort(key=lambda m: -m[0])
        for index, (after, card, outcome, steps, cards2, free2, pile2) in enumerate(
            self._moves(sim, seat, prev, own, seen, depth, cards, free_used, pile)
        ):
            cost = 1 if index else 0  # a choice other than the first: one discrepancy
            if cost > self.left:
                self.cut = True
                break
            self.left -= cost
            try:
                if self._play(
                    after, order, i, depth, cards2, free2, pile2, seat, card, outcome, steps
                ):
                    return True
            finally:
                self.left += cost
        return False

    def _moves(
        self,
        sim: Sim,
        seat: int,
        prev: Any,
        own: list[tuple[float, str, Outcome]],
        seen: set[str],
        depth: int,
        cards: tuple[int, ...],
        free_used: bool,
        pile: list[str],
    ) -> Iterator[tuple[Any, ...]]:
        """The reveals of ``seat`` in the order they are tried, each as (position before
        the reveal, card, outcome, steps of its exchange, cards, free, pile)."""
        if not self.symbioses:
            for _, card, outcome in own:
                yield sim, card, outcome, [], cards, free_used, pile
            return
        # with Symbioses: the seat's own placements, then exchanges, then discards
        for _, card, outcome in own:
            if not outcome.discard:
                yield sim, card, outcome, [], cards, free_used, pile
        turn = self.first_turn + depth
        for exchange in self._exchanges(sim, seat, prev, seen, cards, free_used, pile, turn):
            card, outcome, steps, after, cards2, free2, pile2 = exchange
            yield after, card, outcome, steps, cards2, free2, pile2
        for _, card, outcome in own:
            if outcome.discard:
                yield sim, card, outcome, [], cards, free_used, pile

    def _play(
        self,
        sim: Sim,
        order: list[int],
        i: int,
        depth: int,
        cards: tuple[int, ...],
        free_used: bool,
        pile: list[str],
        seat: int,
        card: str,
        outcome: Outcome,
        steps: list[Step],
    ) -> bool:
        nxt = sim.copy()
        nxt.resolve(seat, card, outcome)
        if (
            nxt.rules.sides
            and nxt.sides[seat] is None
            and outcome.slot is not None
            and INFO[card].type == "species"
        ):  # the seat's side, chosen by this Species
            nxt.sides = [*nxt.sides]
            nxt.sides[seat] = INFO[card].kind
        if self._prune(nxt):
            return False
        mark = len(self.line)
        self.line.extend(steps)
        self.line.append(
            {
                "turn": self.first_turn + depth,
                "type": "reveal",
                "seat": seat,
                "card": card,
                "slot": outcome.slot,
                "colour": outcome.colour,
                "target": outcome.target,
            }
        )
        if nxt.over:
            if nxt.won:
                self.sides = list(nxt.sides)
                return True
        elif self._reveal(nxt, order, i + 1, depth, cards, free_used, pile):
            return True
        del self.line[mark:]
        return False

    def _payer(
        self, sim: Sim, seats: tuple[int, ...], cards: tuple[int, ...], free_used: bool
    ) -> tuple[int, tuple[int, ...], bool] | None:
        """Who makes a Symbiosis between ``seats`` and what is left after it."""
        if not free_used and sim.first in seats:
            return sim.first, cards, True
        best = max(seats, key=lambda s: cards[s])
        if cards[best] <= 0:
            return None
        left = list(cards)
        left[best] -= 1
        return best, tuple(left), free_used

    def _exchanges(
        self,
        sim: Sim,
        seat: int,
        prev: Any,
        seen: set[str],
        cards: tuple[int, ...],
        free_used: bool,
        pile: list[str],
        turn: int,
    ) -> Iterator[tuple[Any, ...]]:
        """Reveals of a card ``seat`` does not hold, got by a Give or a discard swap
        made this turn, best first, each as (card, outcome, steps, position, cards,
        free, pile); the positions are built only when asked for."""
        rules = sim.rules
        backs: dict[str, str] = {}
        for card in sim.hands[seat]:
            backs.setdefault(card_key(card, rules), card)
        found: list[tuple[float, int, str, Outcome, int, Any]] = []
        wanted: set[str] = set()
        for other in range(rules.n):
            if other == seat or not sim.hands[other]:
                continue
            paid = self._payer(sim, (seat, other), cards, free_used)
            if paid is None:
                continue
            for card in sim.hands[other]:
                k = card_key(card, rules)
                if k in seen or k in wanted:
                    continue
                wanted.add(k)
                for outcome in self.outcomes(sim, seat, card, prev):
                    if not outcome.discard:
                        score = self.score(sim, seat, card, outcome, prev) - 5
                        found.append((score, len(found), card, outcome, other, paid))
        take: tuple[int, tuple[int, ...], bool] | None = None
        gives = [c for c in backs.values() if INFO[c].is_condition_like]
        if pile and gives:
            take = self._payer(sim, (seat,), cards, free_used)
        if take is not None:
            for card in dict.fromkeys(pile):
                k = card_key(card, rules)
                if k in seen or k in wanted:
                    continue
                wanted.add(k)
                for outcome in self.outcomes(sim, seat, card, prev):
                    if not outcome.discard:
                        score = self.score(sim, seat, card, outcome, prev) - 10
                        found.append((score, len(found), card, outcome, -1, take))
        found.sort(key=lambda f: (-f[0], f[1]))
        for _, _, card, outcome, other, (maker, cards2, free2) in found:
            if other >= 0:
                for back in backs.values():
                    after = sim.copy()
                    after.hands[other].remove(card)
                    after.hands[other].append(back)
                    after.hands[seat].remove(back)
                    after.hands[seat].append(card)
                    if maker == seat:
                        step = {
                            "turn": turn,
                            "type": "give",
                            "seat": seat,
                            "to": other,
                            "card": back,
                            "back": card,
                        }
                    else:
                        step = {
                            "turn": turn,
                            "type": "give",
                            "seat": other,
                            "to": seat,
                            "card": card,
                            "back": back,
                        }
                    yield card, outcome, [step], after, cards2, free2, pile
            else:
                pile2 = list(pile)
                pile2.remove(card)
                for give in gives:
                    after = sim.copy()
                    after.hands[seat].remove(give)
                    after.hands[seat].append(card)
                    step = {
                        "turn": turn,
                        "type": "swap_discard",
                        "seat": seat,
                        "card": give,
                        "take": card,
                    }
                    yield card, outcome, [step], after, cards2, free2, pile2
