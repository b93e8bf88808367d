"""A perfect-information solver: with every hand known, can the team still win?

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=5)
>>> result = solve(state, node_budget=2_000)
>>> result.status in ("won", "lost", "unknown")
True

``solve(state)`` answers ``won`` with a line that replays on the engine
(``apply_line(state, result.line, result.sides)``), ``lost`` when no line can win,
Symbioses included, or ``unknown`` when the budget ran out first. It tries, in order:

1. the bounds of ``bounds``, true whatever Symbioses are made (cards left against the
   empty slots, Species and colours left in hands or in the discard pile, Symbioses left
   to fetch them): a position failing one is ``lost``;
2. the search without Symbioses (``search``), which finds many wins quickly;
3. the search with Gives and discard swaps made for the card revealed the same turn,
   a limited discrepancy search: first the lines that take the preferred choice at
   every reveal, then those that depart from it once, twice, ...;
4. with the budget left (half of it kept when no hand holds more than
   ``exact.EXACT_CARDS`` cards), the exact search (``exact``), which tries every
   exchange the Symbioses left allow, so its ``lost`` is a proof.

A line is a list of steps in play order, each with the engine ``turn`` it belongs to:
``{"type": "reveal", "turn", "seat", "card", "slot", "colour", "target"}``,
``{"type": "give", "turn", "seat", "to", "card", "back"}`` (``seat`` gives ``card`` to
``to``, who gives ``back`` back) and ``{"type": "swap_discard", "turn", "seat", "card",
"take"}``. The Symbioses of a turn are made in its programming phase, before any card is
revealed. With Species-specific biodiversity, a side not chosen yet is fixed by the
first Species its seat places (``Search.outcomes``), and ``sides`` says the choice the
line needs. ``review`` (in ``review``) asks the solver about a finished game.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..simulator import INFO, Sim, get_rules
from .bounds import lost_for_certain, symbioses_left
from .lines import apply_line
from .search import UNLIMITED, OutOfBudget, Search

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = [
    "SolverResult",
    "apply_line",
    "can_win",
    "review",
    "sim_from_state",
    "solve",
    "solve_sim",
]

#: share of the budget the search without Symbioses gets before the one with them
PLAIN_SHARE = 0.15
#: the limits of the search with exchanges: choices other than the first along a line
DISCREPANCIES = (0, 1, 2, 3, 4, 6, 8, 12, 16, 24, 32, UNLIMITED)


@dataclass
class SolverResult:
    status: str  # won | lost | unknown
    line: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    sides: list[str] | None = None
    proof: str | None = None  # for lost: "bounds" or "exact"


@dataclass
class Position:
    """What the solver needs of a ``State``: the model position, the Symbioses left and
    the cards a discard swap could take back."""

    sim: Sim
    cards: tuple[int, ...]
    free_used: bool
    universe: list[str]
    first_turn: int


def sim_from_state(state: State) -> Sim:
    """The model of an engine ``State`` in its programming (or side choice) phase, every
    hand known; programmed cards count as still in hand."""
    if state.phase not in ("programming", "choosing_sides"):
        raise ValueError("the solver starts from a programming phase (or the side choice)")
    rules = get_rules(state.num_players, tuple(state.game.modes))
    hands = [state.cards_of(s) for s in range(state.num_players)]
    sim = Sim.empty(rules, state.first_player, hands)
    sim.web = {s: state.web[s] for s in rules.slots}
    sim.discards = len(state.discard)
    sim.sides = list(state.sides)
    data = state.rule_data.get("species_reintroductions")
    if data is not None:
        sim.after_reintro = bool(data["after_reintroduction"])
        sim.specials_played = len(data["played"])
        sim.plants_start = bool(data["plants_at_turn_start"])
    sim.cats_out = sum(c.startswith("cat-") for c in state.discard)
    sim.played_pollutions = sum(1 for c in state.discard if c.startswith("pollution"))
    return sim


def position_from_state(state: State) -> Position:
    """The solver's start from an engine ``State`` (see ``sim_from_state``)."""
    sim = sim_from_state(state)
    universe = [
        c
        for c in [*itertools.chain.from_iterable(sim.hands), *sim.web.values(), *state.discard]
        if c is not None and (INFO[c].type == "species" or INFO[c].is_condition_like)
    ]
    if state.pending_give is not None:
        raise ValueError("the solver starts when no card given waits for its answer")
    first_turn = state.turn if state.phase == "programming" else state.turn + 1
    # Give and discard swap are allowed by every rule set (Incomplete Symbioses removes Show)
    cards = tuple(state.symbiosis_cards)
    return Position(sim, cards, state.free_symbiosis_used, universe, first_turn)


def solve(
    state: State, *, node_budget: int = 200_000, time_budget: float | None = 10.0
) -> SolverResult:
    """Search ``state`` (every hand known) for a winning line; see the module doc."""
    if state.is_over:
        won = state.result is not None and state.result["outcome"] == "won"
        return SolverResult("won" if won else "lost", proof=None if won else "bounds")
    return solve_position(position_from_state(state), node_budget, time_budget)


def solve_sim(
    sim: Sim, *, node_budget: int = 200_000, time_budget: float | None = 10.0
) -> SolverResult:
    """The search without Symbioses on a model position at the start of a turn: ``lost``
    means lost without exchanging cards."""
    start = time.perf_counter()
    search = Search(sim, node_budget, time_budget, lazy_sides=True)
    status, sides = _each_side(sim, lambda trial: search.run(trial), search)
    return SolverResult(
        status,
        search.line if status == "won" else [],
        search.nodes,
        time.perf_counter() - start,
        sides,
    )


def solve_position(pos: Position, node_budget: int, time_budget: float | None) -> SolverResult:
    from .exact import EXACT_CARDS, exact_verdict

    start = time.perf_counter()
    sim = pos.sim
    nodes = 0

    def result(
        status: str,
        line: list[dict[str, Any]] | None = None,
        sides: Any = None,
        proof: str | None = None,
    ) -> SolverResult:
        return SolverResult(status, line or [], nodes, time.perf_counter() - start, sides, proof)

    def left() -> float | None:
        return (
            None if time_budget is None else max(0.0, time_budget - (time.perf_counter() - start))
        )

    # 1. bounds, true for every choice of sides and every exchange
    plain = Search(
        sim,
        int(node_budget * PLAIN_SHARE),
        None if time_budget is None else time_budget * PLAIN_SHARE,
        first_turn=pos.first_turn,
        lazy_sides=True,
    )
    probe = Search(sim, 1, None, symbioses=True, universe=pos.universe)
    if all(
        lost_for_certain(trial, probe.pile(trial), symbioses_left(trial, pos.cards, pos.free_used))
        for trial in _trials(sim)
    ):
        return result("lost", proof="bounds")
    # 2. without Symbioses
    status, sides = _each_side(sim, lambda trial: plain.run(trial), plain)
    nodes += plain.nodes
    if status == "won":
        return result("won", plain.line, sides)
    # 3. the search with exchanges, then the exact search near the end of the game
    share = 0.5 if max(len(h) for h in sim.hands) <= EXACT_CARDS else 1.0  # keep some for 4.
    rest = left()
    swaps = Search(
        sim,
        max(1, int((node_budget - nodes) * share)),
        None if rest is None else rest * share,
        symbioses=True,
        universe=pos.universe,
        first_turn=pos.first_turn,
        lazy_sides=True,
    )
    try:
        for limit in DISCREPANCIES:
            cut = False
            for trial in _trials(sim):
                if swaps.run(trial, pos.cards, pos.free_used, limit):
                    nodes += swaps.nodes
                    return result("won", swaps.line, _sides(sim, swaps))
                cut = cut or swaps.cut
            if not cut:
                break  # every line of this search tried
    except OutOfBudget:
        pass
    nodes += swaps.nodes
    exact = exact_verdict(pos, node_budget - nodes, left())
    if exact is not None:
        nodes += exact.nodes
        if exact.status != "unknown":
            return result(exact.status, exact.line, exact.sides, exact.proof)
    return result("unknown")


def _trials(sim: Sim) -> list[Sim]:
    """The position to search (a list, for the callers that search several)."""
    trial = sim.copy()
    trial.sides = list(sim.sides)
    if not sim.turn_records:
        trial.start_turn()
    return [trial]


def _sides(sim: Sim, search: Search) -> list[str] | None:
    """The sides a line found needs (``None`` when they were chosen already): each
    seat the side of the Species it placed first, ``plant`` for the others."""
    if not sim.rules.sides or None not in sim.sides:
        return None
    return [side or "plant" for side in search.sides]


def _each_side(sim: Sim, run: Any, search: Search | None = None) -> tuple[str, list[str] | None]:
    """``won`` with the sides the line needs, ``lost`` when the search fails,
    ``unknown`` out of budget."""
    try:
        for trial in _trials(sim):
            if run(trial):
                return "won", (_sides(sim, search) if search is not None else None)
    except OutOfBudget:
        return "unknown", None
    return "lost", None


def can_win(sim: Sim, node_budget: int) -> bool | None:
    """Whether the position (at the start of a turn, sides chosen) can still be won
    without exchanging cards: ``True`` (a line found), ``False`` (proven lost without
    exchanges) or ``None`` (out of budget)."""
    search = Search(sim, node_budget, None)
    try:
        return search.run(sim)
    except OutOfBudget:
        return None


from .review import review  # noqa: E402  (review uses solve)
