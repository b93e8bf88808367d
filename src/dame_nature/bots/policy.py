"""Heuristics the bots and the solver share: which cards behave alike, and how good a
reveal looks on its own (the greedy score that orders the searches)."""

from __future__ import annotations

from functools import cache

from .model import INFO, Outcome, Record, Rules, Sim

SYMBOL_MODES = {
    "associated": "associated",
    "dependent": "dependent",
    "temporary": "temporary",
}


@cache
def _symbol_live(rules: Rules, symbol: str | None) -> bool:
    if symbol is None:
        return False
    return bool(getattr(rules, SYMBOL_MODES.get(symbol, ""), False))


def card_key(card: str, rules: Rules | None = None) -> str:
    """Cards with the same key behave alike in every position (under ``rules``)."""
    info = INFO[card]
    if info.type == "species":
        return card
    if info.type == "condition":
        symbol = info.symbol if rules is None or _symbol_live(rules, info.symbol) else None
        return f"{info.colour}:{symbol or ''}"
    return info.type  # joker, cat, pollution, reintroduction


def reveal_score(sim: Sim, seat: int, card: str, outcome: Outcome, prev: Record | None) -> float:
    """How good this reveal looks right now (higher is better), ignoring what follows."""
    info = INFO[card]
    rules = sim.rules
    if outcome.discard:
        return -100.0
    if outcome.special:
        if info.type == "cat":
            if prev is not None and INFO[prev[0]].type == "species" and prev[2]:
                return -90.0
            return -80.0 if sim.in_play else 20.0
        if info.type == "reintroduction":
            return 10.0
        return 30.0 if outcome.target is None else -20.0
    if info.type == "species":
        return 100.0 + rules.column[card]
    slot = outcome.slot
    assert slot is not None
    sp = rules.slot_species[slot]
    a, b = rules.conds[sp]
    other = b if slot == a else a
    score = 60.0 + (15.0 if sim.web[other] is not None else 0.0)
    if info.type == "joker":
        score -= 20.0
    return score


def best_outcome(sim: Sim, seat: int, card: str, prev: Record | None) -> tuple[float, Outcome]:
    """The best-looking way ``card`` can resolve now, and its score."""
    best: tuple[float, Outcome] | None = None
    for outcome in sim.outcomes(seat, card, prev):
        score = reveal_score(sim, seat, card, outcome, prev)
        if best is None or score > best[0]:
            best = (score, outcome)
    assert best is not None
    return best


def greedy_move(sim: Sim, seat: int, prev: Record | None) -> tuple[str, Outcome]:
    """The card (and its outcome) that looks best for ``seat`` to reveal now."""
    best: tuple[float, str, Outcome] | None = None
    seen: set[str] = set()
    for card in sim.hands[seat]:
        key = card_key(card, sim.rules)
        if key in seen:
            continue
        seen.add(key)
        score, outcome = best_outcome(sim, seat, card, prev)
        if best is None or score > best[0]:
            best = (score, card, outcome)
    assert best is not None
    return best[1], best[2]


def program_choice(sim: Sim, seat: int) -> str:
    """The shared base policy: the card ``seat`` programs, seeing only its own hand and
    the web at the start of the turn (what every partner is assumed to run)."""
    prev = None
    best: tuple[float, str] | None = None
    seen: set[str] = set()
    for card in sim.hands[seat]:
        key = card_key(card, sim.rules)
        if key in seen:
            continue
        seen.add(key)
        score, _ = best_outcome(sim, seat, card, prev)
        if best is None or score > best[0]:
            best = (score, card)
    assert best is not None
    return best[1]


def value(sim: Sim) -> float:
    """A finished (or abandoned) rollout: a win counts far more than the cards placed."""
    placed = len(sim.rules.slots) - sim.empty_slots()
    return placed + (60.0 if sim.won else 0.0)


def rollout_value(
    sim: Sim, programs: dict[int, str], mid_turn_order: list[int] | None = None
) -> float:
    """Reveal this turn's ``programs`` (in seat order from the first player, or in
    ``mid_turn_order`` when the turn is under way), then play the game out greedily with
    every hand open; the final ``value``."""
    order = sim.order() if mid_turn_order is None else mid_turn_order
    for seat in order:
        if sim.over:
            break
        card = programs.get(seat)
        if card is None or card not in sim.hands[seat]:
            continue
        prev = sim.turn_records[-1] if sim.turn_records else None
        _, outcome = best_outcome(sim, seat, card, prev)
        sim.resolve(seat, card, outcome)
    if not sim.over:
        sim.end_turn()
    while not sim.over:
        if not sim.winnable():
            break
        for seat in sim.order():
            if sim.over:
                break
            prev = sim.turn_records[-1] if sim.turn_records else None
            card, outcome = greedy_move(sim, seat, prev)
            sim.resolve(seat, card, outcome)
        if not sim.over:
            sim.end_turn()
    return value(sim)
