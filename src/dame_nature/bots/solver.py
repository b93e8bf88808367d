"""A perfect-information solver: with every hand known, is there a winning line?

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=5)
>>> result = solve(state, node_budget=2_000)
>>> result.status in ("won", "lost", "unknown")
True

The search plays the reveals one by one in turn order (first player first): at each
reveal, the revealing seat picks one of its cards (all that it holds: with every hand
known, programming and revealing are one decision) and, when there is a choice, where it
goes. It is a depth-first search with

- pruning: a line is dropped as soon as it discards more cards than the game allows, or
  fewer cards are left than the web still needs;
- symmetry: cards that behave alike (two plain blue Conditions, two Cats, ...) are tried
  once;
- move ordering: the bots' greedy choice first, so won deals are found quickly;
- a transposition table of positions already proven lost at the start of a turn;
- a node budget and a time budget: beyond them the answer is ``unknown``.

``won`` comes with the line (the reveals in order, each ``{"turn", "seat", "card",
"slot", "colour", "target"}``), which replays on the engine; ``lost`` is a proof over
every line without Symbioses.

Symbioses (Show, Give, discard swaps) are **excluded**: with every hand known, Show
tells nothing, but a Give or a discard swap moves cards and could save a deal the solver
calls ``lost``. ``lost`` therefore means "lost without exchanging cards"; the benchmark
reports it as the ceiling of play without exchanges. Species-specific biodiversity: when
sides are not chosen yet, the solver tries each assignment of sides (most promising
first) within the same budget.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .policy import card_key, reveal_score
from .simulator import INFO, Outcome, Sim, get_rules

if TYPE_CHECKING:
    from ..engine.state import State

__all__ = ["SolverResult", "apply_line", "can_win", "sim_from_state", "solve", "solve_sim"]


@dataclass
class SolverResult:
    status: str  # won | lost | unknown
    line: list[dict[str, Any]] = field(default_factory=list)
    nodes: int = 0
    seconds: float = 0.0
    sides: list[str] | None = None


class _OutOfBudget(Exception):
    pass


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


def solve(
    state: State, *, node_budget: int = 200_000, time_budget: float | None = 10.0
) -> SolverResult:
    """Search ``state`` (every hand known) for a winning line; see the module doc."""
    if state.is_over:
        won = state.result is not None and state.result["outcome"] == "won"
        return SolverResult("won" if won else "lost")
    return solve_sim(sim_from_state(state), node_budget=node_budget, time_budget=time_budget)


def solve_sim(
    sim: Sim, *, node_budget: int = 200_000, time_budget: float | None = 10.0
) -> SolverResult:
    """``solve`` on a model position at the start of a turn."""
    search = _Search(sim, node_budget, time_budget)
    start = time.perf_counter()
    status = "unknown"
    sides_won: list[str] | None = None
    try:
        status = "lost"
        for sides in _side_assignments(sim):
            trial = sim.copy()
            trial.sides = sides
            trial.start_turn() if not sim.turn_records else None
            if search.run(trial):
                status = "won"
                sides_won = sides if None in sim.sides else None
                break
    except _OutOfBudget:
        status = "unknown"
    return SolverResult(
        status,
        search.line if status == "won" else [],
        search.nodes,
        time.perf_counter() - start,
        sides_won,
    )


def apply_line(state: State, line: list[dict[str, Any]], sides: list[str] | None = None) -> State:
    """Play a solver ``line`` on the engine (in place): sides if the line chose them,
    then each turn every seat programs its card and says ready, and each reveal with a
    choice goes where the line says. Raises ``IllegalAction`` if the line does not fit."""
    if state.phase == "choosing_sides":
        assert sides is not None, "the line was found for given sides"
        while state.phase == "choosing_sides":
            seat, _ = state.awaited() or (0, "")
            state.apply(seat, {"type": "choose_side", "side": sides[seat]})
    turns: dict[int, list[dict[str, Any]]] = {}
    for step in line:
        turns.setdefault(step["turn"], []).append(step)
    for turn in sorted(turns):
        steps = turns[turn]
        for step in steps:
            if state.programmed[step["seat"]] != step["card"]:
                state.apply(step["seat"], {"type": "program", "card": step["card"]})
        playing = {step["seat"] for step in steps}
        for seat in range(state.num_players):  # seats after a winning reveal: any card
            if seat not in playing and state.has_cards(seat) and state.programmed[seat] is None:
                state.apply(seat, {"type": "program", "card": state.hands[seat][0]})
        for seat in range(state.num_players):
            if state.phase == "programming" and state.has_cards(seat) and not state.ready[seat]:
                state.apply(seat, {"type": "ready"})
        for step in steps:
            awaited = state.awaited()
            if awaited is not None and awaited == (step["seat"], "reveal"):
                action = {k: step[k] for k in ("slot", "colour", "target")}
                state.apply(step["seat"], {"type": "reveal", **action})
    return state


def can_win(sim: Sim, node_budget: int) -> bool | None:
    """Whether the position (at the start of a turn, sides chosen) can still be won:
    ``True`` (a line found), ``False`` (proven lost) or ``None`` (out of budget)."""
    search = _Search(sim, node_budget, None)
    try:
        return search.run(sim)
    except _OutOfBudget:
        return None


def _side_assignments(sim: Sim) -> list[list[Any]]:
    if not sim.rules.sides or None not in sim.sides:
        return [list(sim.sides)]
    free = [s for s, side in enumerate(sim.sides) if side is None]
    options = []
    for combo in itertools.product(("plant", "animal"), repeat=len(free)):
        sides = list(sim.sides)
        for seat, side in zip(free, combo, strict=True):
            sides[seat] = side
        # most promising first: species each seat holds that match its side
        fit = sum(
            INFO[c].kind == sides[s]
            for s in range(sim.rules.n)
            for c in sim.hands[s]
            if INFO[c].type == "species"
        )
        options.append((-fit, combo, sides))
    options.sort(key=lambda o: (o[0], o[1]))
    return [o[2] for o in options]


class _Search:
    def __init__(self, sim: Sim, node_budget: int, time_budget: float | None) -> None:
        self.node_budget = node_budget
        self.deadline = None if time_budget is None else time.perf_counter() + time_budget
        self.nodes = 0
        self.lost: set[Any] = set()
        self.path: set[Any] = set()
        self.line: list[dict[str, Any]] = []
        self.turn = 0
        self.max_discards = sim.rules.max_discards

    def run(self, sim: Sim) -> bool:
        self.line = []
        return self._turn(sim, 0)

    def _key(self, sim: Sim) -> Any:
        return (
            tuple(None if c is None else card_key(c, sim.rules) for c in sim.web.values()),
            tuple(tuple(sorted(card_key(c, sim.rules) for c in h)) for h in sim.hands),
            sim.first,
            sim.discards,
            sim.specials_played,
            sim.cats_out,
            sim.after_reintro,
            tuple(sim.sides),
        )

    def _turn(self, sim: Sim, depth: int) -> bool:
        """Search from the start of a turn."""
        if sim.over:
            return sim.won
        if not self._alive(sim):
            return False
        key = self._key(sim)
        if key in self.lost or key in self.path:
            return False  # lost already, or a loop (Cats coming back every turn)
        self.path.add(key)
        try:
            if self._reveal(sim, sim.order(), 0, depth):
                return True
        finally:
            self.path.discard(key)
        self.lost.add(key)
        return False

    def _alive(self, sim: Sim) -> bool:
        return sim.discards <= self.max_discards and sim.feasible()

    def _reveal(self, sim: Sim, order: list[int], i: int, depth: int) -> bool:
        self.nodes += 1
        if self.nodes > self.node_budget or (
            self.deadline is not None
            and self.nodes % 512 == 0
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfBudget
        if i == len(order):
            nxt = sim.copy()
            nxt.end_turn()
            return self._turn(nxt, depth + 1)
        seat = order[i]
        prev = sim.turn_records[-1] if sim.turn_records else None
        moves: list[tuple[float, str, Outcome]] = []
        seen: set[Any] = set()
        for card in sim.hands[seat]:
            k = card_key(card, sim.rules)
            if k in seen:
                continue
            seen.add(k)
            for outcome in sim.outcomes(seat, card, prev):
                moves.append((reveal_score(sim, seat, card, outcome, prev), card, outcome))
        moves.sort(key=lambda m: -m[0])
        for _, card, outcome in moves:
            nxt = sim.copy()
            nxt.resolve(seat, card, outcome)
            if nxt.discards > self.max_discards or not nxt.feasible():
                continue
            self.line.append(
                {
                    "turn": depth,
                    "seat": seat,
                    "card": card,
                    "slot": outcome.slot,
                    "colour": outcome.colour,
                    "target": outcome.target,
                }
            )
            if nxt.over:
                if nxt.won:
                    return True
            elif self._reveal(nxt, order, i + 1, depth):
                return True
            self.line.pop()
        return False
