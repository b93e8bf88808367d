"""The last turns, searched exactly on sampled deals: which program keeps the game won.

Near the end of a game few cards are left in hands and a wrong card is seldom mended: two
Conditions of a colour with one slot left collide, a Species kept for the last turn is
revealed before its Conditions. The rollouts of ``expert`` play partners by the shared
base policy, which knows neither. When every player holds at most ``ENDGAME_CARDS``
cards, the expert asks instead, on each sampled deal and for each card it may program:
can the team still win, every player programming the card that serves the team (its
partners' programs shown this turn fixed), this turn and the last ones, without more
exchanges (``win_shares``)? The card kept winnable on the most deals is the program;
cards that tie are left to the usual search. Partners doing the same on their own samples
converge on the programs that win on most deals consistent with what they know.

>>> from dame_nature.bots.simulator import get_rules, Sim
>>> sim = Sim.empty(get_rules(4, ()), first=0, hands=[["cond-blue-1"], [], [], []])
>>> turn_wins(sim, {0: "cond-blue-1"}, 100)
False
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .knowledge import Knowledge
from .policy import distinct_cards
from .simulator import Outcome, Sim
from .solver.search import OutOfBudget, Search

#: the exact search runs once every player holds at most this many cards
ENDGAME_CARDS = 3
#: sampled deals a decision of the last turns looks at
ENDGAME_WORLDS = 40
#: search nodes a sampled deal and card may take (out of budget: counts half a win)
ENDGAME_NODES = 4_000
#: search nodes a decision may take, all its deals together (the time it takes), at
#: ``ENDGAME_WORLDS`` deals (a bot looking at fewer deals takes a share of it)
DECISION_NODES = 3_000
#: search nodes an exchange's decision (a Give, a give-back) may take at
#: ``ENDGAME_WORLDS`` deals: its candidates are many (cards times partners times
#: give-backs) and it comes once a turn at most
EXCHANGE_NODES = 8_000
#: what share of the sampled deals a Give must keep won beyond keeping the hand
GIVE_SHARE_MARGIN = 0.05
#: the most players at which exchanges are judged by the exact search (at 6, a Give's
#: candidates, cards times five partners times give-backs, take a decision past 300 ms)
EXCHANGE_PLAYERS = 5
#: the advanced rules under which the exchanges of the last turns are left to the usual
#: search (their conventions, which decide first under every rule, aside)
EXCHANGE_OFF_MODES: frozenset[str] = frozenset()

#: an exchange, on a sampled deal: the hands it may leave (copies; the team picks)
Exchange = Callable[[Sim], list[Sim]]


def applies(know: Knowledge) -> bool:
    """Whether the decision is one of the last turns (``ENDGAME_CARDS``)."""
    return 0 < max(know.sizes) <= ENDGAME_CARDS


def exact_exchanges(know: Knowledge) -> bool:
    """Whether the exchanges of this decision are judged by the exact search: in the last
    turns (``applies``) at up to ``EXCHANGE_PLAYERS`` players, under no rule of
    ``EXCHANGE_OFF_MODES``."""
    rules = know.rules
    return (
        applies(know)
        and rules.n <= EXCHANGE_PLAYERS
        and not EXCHANGE_OFF_MODES.intersection(rules.modes)
    )


def win_shares(
    know: Knowledge,
    cards: list[str],
    rng: random.Random,
    worlds: int = ENDGAME_WORLDS,
    nodes: int = ENDGAME_NODES,
    budget: int = DECISION_NODES,
) -> dict[str, float]:
    """For each of ``cards`` (the bot's candidate programs), the share of sampled deals
    (``worlds`` of them, fewer once ``budget`` search nodes are spent) in which the
    team can still win with the bot programming it this turn, the partners programming
    what serves the team (those who showed their program this turn, that program), and no
    more exchanges."""

    def attempt(world: Sim, search: Search, i: int) -> bool:
        return turn_wins(world, {**know.programs, know.seat: cards[i]}, search)

    shares = _shares(know, rng, worlds, nodes, budget, len(cards), attempt, start_turn=True)
    return dict(zip(cards, shares, strict=True))


def reveal_shares(
    know: Knowledge,
    card: str,
    outcomes: list[Outcome],
    rest: list[int],
    rng: random.Random,
    worlds: int = ENDGAME_WORLDS,
    nodes: int = ENDGAME_NODES,
    budget: int = DECISION_NODES,
) -> list[float]:
    """For each of ``outcomes`` (where the bot's revealed ``card`` may go), the share of
    sampled deals in which the team can still win after it, the seats of ``rest``
    revealing the rest of the turn (each the card that serves the team among those it
    may have programmed), without more exchanges."""

    def attempt(world: Sim, search: Search, i: int) -> bool:
        after = world.copy()
        after.resolve(know.seat, card, outcomes[i])
        search.nodes = 0
        return _rest_wins(search, after, rest, know.programs)

    return _shares(know, rng, worlds, nodes, budget, len(outcomes), attempt, start_turn=False)


def exchange_shares(
    know: Knowledge,
    exchanges: list[Exchange],
    rng: random.Random,
    worlds: int = ENDGAME_WORLDS,
    nodes: int = ENDGAME_NODES,
    budget: int = EXCHANGE_NODES,
) -> list[float]:
    """For each of ``exchanges`` (each gives, from a sampled deal at the start of the
    turn, the hands it may leave: one for a discard swap or a give-back, one a give-back
    for a Give), the share of sampled deals in which the team can still win after it:
    with the best of those hands, every player programming the card that serves the team
    (partners who showed their program this turn, that program; the bot free to program
    again), and no more exchanges."""
    fixed = {seat: card for seat, card in know.programs.items() if seat != know.seat}

    def attempt(world: Sim, search: Search, i: int) -> bool:
        search.nodes = 0
        hands = exchanges[i](world)
        return any(_reveal(search, after, after.order(), 0, fixed) for after in hands)

    return _shares(know, rng, worlds, nodes, budget, len(exchanges), attempt, start_turn=True)


def _shares(
    know: Knowledge,
    rng: random.Random,
    worlds: int,
    nodes: int,
    budget: int,
    count: int,
    attempt: Callable[[Sim, Search, int], bool],
    *,
    start_turn: bool,
) -> list[float]:
    """The share of sampled deals on which ``attempt`` wins, for each of ``count``
    choices. A choice out of its ``nodes`` counts half a win; a deal the decision's
    ``budget`` of nodes runs out in does not count."""
    wins = [0.0] * count
    spent = 0
    done = 0
    while done < worlds and spent < budget:
        world = know.sample(rng)
        if start_turn:
            world.start_turn()
        search = Search(world, nodes, None)
        found: list[float] = []
        for i in range(count):
            search.node_budget = left = min(nodes, budget - spent)
            try:
                found.append(float(attempt(world, search, i)))
            except OutOfBudget:
                if left < nodes:
                    return _mean(wins, done)  # the decision's budget ran out
                found.append(0.5)
            finally:
                spent += search.nodes
        wins = [w + f for w, f in zip(wins, found, strict=True)]
        done += 1
    return _mean(wins, done)


def _mean(wins: list[float], done: int) -> list[float]:
    return [won / max(1, done) for won in wins]


def _rest_wins(search: Search, sim: Sim, rest: list[int], fixed: dict[int, str]) -> bool:
    if sim.over:
        return sim.won
    if sim.discards > sim.rules.max_discards or not sim.feasible():
        return False
    return _reveal(search, sim, rest, 0, fixed)


def turn_wins(sim: Sim, fixed: dict[int, str], search: Search | int) -> bool:
    """Whether the team wins from ``sim`` (the start of a turn, every hand open), the
    seats of ``fixed`` programming those cards this turn and the others free, without
    exchanges. ``search``: the search to use (its memory of lost positions kept), or a
    budget of nodes; raises ``OutOfBudget`` past it."""
    if isinstance(search, int):
        search = Search(sim, search, None)
    search.nodes = 0
    return _reveal(search, sim, sim.order(), 0, fixed)


def _reveal(search: Search, sim: Sim, order: list[int], i: int, fixed: dict[int, str]) -> bool:
    search.tick()
    if i == len(order):
        nxt = sim.copy()
        nxt.end_turn()
        if nxt.over:
            return nxt.won
        return search.run(nxt)
    seat = order[i]
    prev = sim.turn_records[-1] if sim.turn_records else None
    program = fixed.get(seat)
    choices = [program] if program in sim.hands[seat] else distinct_cards(sim, seat)
    limit = sim.rules.max_discards
    for card in choices:
        for outcome in sim.outcomes(seat, card, prev):
            nxt = sim.copy()
            nxt.resolve(seat, card, outcome)
            if nxt.over:
                if nxt.won:
                    return True
                continue
            if nxt.discards > limit or not nxt.feasible():
                continue  # lost, whatever follows
            if _reveal(search, nxt, order, i + 1, fixed):
                return True
    return False


class Endgame:
    """One bot's searches of the last turns: deals drawn from a generator of their own (so
    the bot's other decisions meet the same deals with or without them), twice as many as
    the bot samples for its other decisions, at most ``ENDGAME_WORLDS``, and a budget of
    search nodes in proportion (a bot on a small budget, as in the tests' sweeps, searches
    on a small one too)."""

    def __init__(self, seed: int | None, worlds: int) -> None:
        self.rng = random.Random(None if seed is None else f"endgame:{seed}")
        self.worlds = min(ENDGAME_WORLDS, 2 * worlds)
        self.budget = DECISION_NODES * self.worlds // ENDGAME_WORLDS

    def programs(self, know: Knowledge, cards: list[str]) -> list[str]:
        """The ``cards`` that keep the game won on the most sampled deals, in the last
        turns (``applies``); else all of them."""
        if not self.worlds or len(cards) < 2 or not applies(know):
            return cards
        shares = win_shares(know, cards, self.rng, self.worlds, budget=self.budget)
        top = max(shares.values())
        return [card for card in cards if shares[card] >= top]

    def places(
        self, know: Knowledge, card: str, outcomes: list[Outcome], rest: list[int]
    ) -> list[int]:
        """The indices of the ``outcomes`` of ``card`` that keep the game won on the most
        sampled deals (``rest``: the seats still to reveal this turn), in the last turns
        (``applies``); else all of them."""
        if not self.worlds or len(outcomes) < 2 or not applies(know):
            return list(range(len(outcomes)))
        shares = reveal_shares(
            know, card, outcomes, rest, self.rng, self.worlds, budget=self.budget
        )
        return [i for i, share in enumerate(shares) if share >= max(shares)]

    def exchanges(self, know: Knowledge, exchanges: list[Exchange]) -> list[float] | None:
        """The share of sampled deals each of ``exchanges`` keeps won
        (``exchange_shares``), in the last turns (``applies``) of the base game at up to
        ``EXCHANGE_PLAYERS`` players, under no rule of ``EXCHANGE_OFF_MODES``; else
        ``None``."""
        if not self.worlds or len(exchanges) < 2 or not exact_exchanges(know):
            return None
        budget = EXCHANGE_NODES * self.worlds // ENDGAME_WORLDS
        return exchange_shares(know, exchanges, self.rng, self.worlds, budget=budget)


__all__ = [
    "ENDGAME_CARDS",
    "EXCHANGE_OFF_MODES",
    "EXCHANGE_PLAYERS",
    "Endgame",
    "Exchange",
    "applies",
    "exact_exchanges",
    "exchange_shares",
    "reveal_shares",
    "turn_wins",
    "win_shares",
]
