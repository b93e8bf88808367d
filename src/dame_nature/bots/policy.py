"""Heuristics the bots and the solver share: which cards behave alike, and how good a
reveal looks on its own (the greedy score that orders the searches)."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from .shows import chain_length, shown_to_all
from .simulator import INFO, PLAIN_KEY, Outcome, Record, Rules, Sim

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
    cache = _KEYS.setdefault(rules, {})
    key = cache.get(card)
    if key is None:
        info = INFO[card]
        if info.type == "species":
            key = card
        elif info.type == "condition":
            live = rules is None or _symbol_live(rules, info.symbol)
            key = f"{info.colour}:{info.symbol if live and info.symbol else ''}"
        else:
            key = info.type  # joker, cat, pollution, reintroduction
        cache[card] = key
    return key


_KEYS: dict[Rules | None, dict[str, str]] = {}


#: what a place in the aquatic web (the Wetland) adds to a reveal's score
AQUATIC = 50.0


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
            return -150.0 if premature(sim, card) else 10.0
        return 30.0 if outcome.target is None else -150.0
    slot = outcome.slot
    assert slot is not None
    # the aquatic web takes a card only right after a blue one: a chance not to miss
    aquatic = AQUATIC if slot in rules.aquatic else 0.0
    if info.type == "species":
        return 100.0 + rules.column[card] + aquatic
    sp = rules.slot_species[slot]
    a, b = rules.conds[sp]
    other = b if slot == a else a
    score = 60.0 + (15.0 if sim.web[other] is not None else 0.0)
    if info.type == "joker":
        score -= 20.0
    return score + aquatic


def premature(sim: Sim, card: str) -> bool:
    """A Special card revealed too early, at a cost that can lose the game: a Species
    reintroduction while Conditions are still to be placed (every Condition revealed
    after it is discarded until an animal Species is revealed, and the animals wait for
    their Conditions, so it can lock the web); a Pollution while a placed Condition is
    uncovered (it takes that Condition to the discard pile with it)."""
    kind = INFO[card].type
    web = sim.web
    rules = sim.rules
    if kind == "reintroduction":
        return any(web[slot] is None for slot in rules.slot_colour)
    if kind == "pollution":
        return any(
            web[slot] is not None and web[rules.slot_species[slot]] is None
            for slot in rules.slot_colour
        )
    return False


#: the cards whose best outcome only the web decides when the reveals are plain
PLAIN_TYPES = frozenset(("condition", "joker", "species"))


def best_outcome(sim: Sim, seat: int, card: str, prev: Record | None) -> tuple[float, Outcome]:
    """The best-looking way ``card`` can resolve now, and its score."""
    plain = sim.rules.plain_reveals and INFO[card].type in PLAIN_TYPES
    if plain:
        found = sim.best_reveals.get(PLAIN_KEY[card])
        if found is not None:
            return found
    best: tuple[float, Outcome] | None = None
    for outcome in sim.outcomes(seat, card, prev):
        score = reveal_score(sim, seat, card, outcome, prev)
        if best is None or score > best[0]:
            best = (score, outcome)
    assert best is not None
    if plain:
        sim.best_reveals[PLAIN_KEY[card]] = best
    return best


def distinct_cards(sim: Sim, seat: int) -> list[str]:
    """``seat``'s cards, one of each kind that plays alike (``card_key``), in hand order."""
    rules = sim.rules
    keys = _KEYS.get(rules, {})
    kinds: dict[str, str] = {}
    for card in sim.hands[seat]:
        key = keys.get(card)
        kinds.setdefault(card_key(card, rules) if key is None else key, card)
    return list(kinds.values())


def greedy_move(sim: Sim, seat: int, prev: Record | None) -> tuple[str, Outcome]:
    """The card (and its outcome) that looks best for ``seat`` to reveal now."""
    best: tuple[float, str, Outcome] | None = None
    lead = wetland_lead_wanted(sim, seat, prev, look_ahead=True)
    cats = sim.rules.cats
    for card in distinct_cards(sim, seat):
        score, outcome = best_outcome(sim, seat, card, prev)
        if cats and cat_first(sim, seat, card, prev):
            score += CAT_FIRST
        elif lead and blue_lead(card, outcome):
            score += WETLAND_LEAD
        if best is None or score > best[0]:
            best = (score, card, outcome)
    assert best is not None
    return best[1], best[2]


def is_safe(sim: Sim, seat: int, card: str, prev: Record | None, unknown_before: int) -> bool:
    """Whether ``card`` is placed for sure, whatever the ``unknown_before`` players who
    reveal before this seat (their cards unknown) play. The convention all bots share:
    a colour with k open slots is left to the first k players who reveal, so a Condition
    is safe when its colour has more open slots than unknown players before it."""
    info = INFO[card]
    if info.type == "cat":  # another Cat this turn sends it back: sure only first (below)
        return cat_first(sim, seat, card, prev) and unknown_before == 0
    if prev is None and after_condition(sim, card, unknown_before):
        prev = CONDITION_BEFORE
    placed = [o for o in sim.outcomes(seat, card, prev) if not o.discard]
    if not placed:
        return False
    if not info.is_condition_like or unknown_before == 0:
        return True
    per_colour: dict[str | None, int] = {}
    for o in placed:
        colour = o.colour or info.colour
        per_colour[colour] = per_colour.get(colour, 0) + 1
    return max(per_colour.values()) > unknown_before


UNSAFE = 150.0  # what the base policy takes off a card that may collide

#: the First Predator: what a Cat scores for the first revealer of a turn (above any
#: placement: see ``cat_first``)
CAT_FIRST = 200.0


def cat_first(sim: Sim, seat: int, card: str, prev: Record | None) -> bool:
    """The First Predator's convention: the first player reveals its Cat first in the
    turn (and shows it), and any other Cat counts as unsafe (``is_safe``), so each Cat
    tends to go alone to the discard pile, early, and the next revealer keeps its Species
    back. Held to the end, Cats come back together and lock the game."""
    return (
        sim.rules.cats
        and prev is None
        and seat == sim.first
        and not sim.turn_records
        and not sim.in_play
        and INFO[card].type == "cat"
    )


def program_choice(sim: Sim, seat: int, prev: Record | None = None, unknown_before: int = 0) -> str:
    """The shared base policy: the card ``seat`` programs, seeing only its own hand and
    the web (and ``prev``, the card revealed just before it, when it knows it), with
    ``unknown_before`` players revealing before it whose cards it does not know."""
    best: tuple[float, str] | None = None
    lead = unknown_before == 0 and wetland_lead_wanted(sim, seat, prev)
    held = species_held_back(sim, seat, prev, unknown_before)
    for card in distinct_cards(sim, seat):
        score, outcome = best_outcome(sim, seat, card, prev)
        if not outcome.discard and not is_safe(sim, seat, card, prev, unknown_before):
            score -= UNSAFE
        elif unknown_before == 0 and cat_first(sim, seat, card, prev):
            score += CAT_FIRST
        elif lead and blue_lead(card, outcome):
            score += WETLAND_LEAD
        if held and INFO[card].type == "species":
            score -= SPECIES_HELD
        if best is None or score > best[0]:
            best = (score, card)
    assert best is not None
    return best[1]


#: Associated Conditions: what a Species loses for a revealer in the middle of the turn
#: (``species_held_back``)
SPECIES_HELD = 50.0
#: what the revealer before an associated Condition plays by the convention (a Condition:
#: its colour is no matter, green touches no other rule's test)
CONDITION_BEFORE: Record = ["cond-green-1", "green", True, None]


def species_held_back(
    sim: Sim,
    seat: int,
    prev: Record | None,
    unknown_before: int,
    others: Iterable[str] | None = None,
    order: list[int] | None = None,
) -> bool:
    """Associated Conditions' convention: while an associated Condition may be in a
    partner's hand, a revealer in the middle of the turn (neither the first, whose
    program its free Symbiosis shows, nor the last) holds its Species back and reveals a
    Condition or a Joker when it has one, so the revealer after it can count on a
    Condition just before its associated Condition (``after_condition``). ``others``:
    the cards partners may hold, ``order`` the turn's reveal order (by default, as the
    hands on ``sim`` give them)."""
    if not sim.rules.associated:
        return False
    if prev is None and unknown_before == 0:
        return False  # first in the turn
    order = sim.order() if order is None else order
    if seat not in order or order[-1] == seat:
        return False  # last in the turn
    if others is None:
        others = (c for s in order if s != seat for c in sim.hands[s])
    return any(INFO[c].symbol == "associated" for c in others)


def after_condition(sim: Sim, card: str, unknown_before: int) -> bool:
    """Whether ``card``, an associated Condition revealed after ``unknown_before`` players
    whose cards are unknown, may count on a Condition or a Joker just before it: the
    revealer before it is then in the middle of the turn, and holds its Species back
    (``species_held_back``); the first revealer's program is known when it is shown."""
    return (
        sim.rules.associated
        and unknown_before > 0
        and INFO[card].symbol == "associated"
        and len(sim.turn_records) + unknown_before >= 2
    )


#: the Wetland: what a blue card placed first in the turn scores (``wetland_lead_wanted``)
WETLAND_LEAD = 45.0


def wetland_lead_wanted(
    sim: Sim, seat: int, prev: Record | None, *, look_ahead: bool = False
) -> bool:
    """The Wetland's convention: the first player, whose program everyone sees (its free
    Symbiosis shows it), leads with a blue card placed in the web while the aquatic web
    is incomplete, so the next revealer, who saw it, can place an aquatic card right
    after a blue one. With ``look_ahead`` (every hand open: the rollouts) only when the
    next revealer holds a card the aquatic web would take after a blue one."""
    rules = sim.rules
    if not rules.wetland or prev is not None or sim.turn_records or seat != sim.first:
        return False
    if all(sim.web[s] is not None for s in rules.aquatic):
        return False
    if not look_ahead:
        return True
    order = sim.order()
    if len(order) < 2 or order[0] != seat:
        return False
    after = order[1]
    blue: Record = ["cond-blue-1", "blue", True, None]
    return any(
        o.slot in rules.aquatic
        for card in distinct_cards(sim, after)
        for o in sim.outcomes(after, card, blue)
    )


#: a blue Condition revealed just before (the aquatic web's test)
BLUE_BEFORE: Record = ["cond-blue-1", "blue", True, None]


def aquatic_relay(sim: Sim, seat: int, card: str) -> bool:
    """The Wetland's second show: ``seat`` reveals second in the turn, just after the
    first player's blue lead (shown to all; ``sim``: the turn with that lead revealed),
    and ``card`` goes into the aquatic web as a blue card, with an aquatic place still
    open after it: the revealer shows it too (its Symbiosis card), so the
    third revealer, who then knows a blue card is just before it, places a card in the
    aquatic web as well. Two aquatic cards a turn, where the lead alone makes one."""
    rules = sim.rules
    records = sim.turn_records
    if not rules.wetland or len(records) != 1 or not INFO[records[0][0]].is_condition_like:
        return False
    if records[0][1] != "blue" or INFO[card].type == "species":
        return False
    _, outcome = best_outcome(sim, seat, card, records[0])
    if outcome.slot not in rules.aquatic or not blue_lead(card, outcome):
        return False
    return sum(1 for s in rules.aquatic if sim.web[s] is None) > 1


def blue_lead(card: str, outcome: Outcome) -> bool:
    """A card that, revealed as ``outcome``, opens the aquatic web to the next revealer:
    a blue Condition or a Joker given blue, placed in the web."""
    info = INFO[card]
    if outcome.discard or outcome.special or not info.is_condition_like:
        return False
    return (outcome.colour or info.colour) == "blue"


def side_quota(n: int, kind: str) -> int:
    """How many of ``n`` players take ``kind``'s side under Species-specific
    biodiversity: as the Species are shared (4 plants, 6 animals), at least one each."""
    plants = max(1, round(n * 0.4))
    return plants if kind == "plant" else n - plants


#: the rollouts search exactly once every player holds at most this many cards
ENDGAME_CARDS = 2
ENDGAME_NODES = 200


#: what a card in the aquatic web (the Wetland) adds to a rollout's value, beyond one
AQUATIC_VALUE = 2.0
#: what a win adds to a rollout's value, beyond its cards placed
WIN_VALUE = 60.0


def value(sim: Sim) -> float:
    """A finished (or abandoned) rollout: a win counts far more than the cards placed."""
    rules = sim.rules
    placed: float = len(rules.slots) - sim.empty_slots()
    if rules.wetland:  # an aquatic place is open only right after a blue card: scarce
        placed += AQUATIC_VALUE * sum(1 for s in rules.aquatic if sim.web[s] is not None)
    return placed + (WIN_VALUE if sim.won else 0.0)


def won_value(rules: Rules) -> float:
    """What ``value`` gives a won game under ``rules``."""
    aquatic = AQUATIC_VALUE * len(rules.aquatic) if rules.wetland else 0.0
    return len(rules.slots) + aquatic + WIN_VALUE


def rollout_value(
    sim: Sim, programs: dict[int, str], mid_turn_order: list[int] | None = None
) -> float:
    """Reveal this turn's ``programs`` (in seat order from the first player, or in
    ``mid_turn_order`` when the turn is under way), then ``play_out`` the game."""
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
    return play_out(sim)


def play_out(sim: Sim) -> float:
    """Play the game out from the start of a turn, each turn as its players would program
    it (``play_turn``: the show chain greedily, the others by the base policy, blind to
    the reveals before them they were not shown), until it is won or cannot be won any
    more; the ``value`` reached. The last cards are searched exactly (``ENDGAME_CARDS``)."""
    limit = sim.rules.max_discards
    turns_left = sim.cards_left() + 1  # Cats that come back cannot loop for ever
    while not sim.over and turns_left > 0:
        turns_left -= 1
        if sim.discards > limit or not sim.feasible():
            break  # lost: how far it got is the measure
        if ENDGAME_CARDS and sim.cards_left() <= ENDGAME_CARDS * sim.rules.n:
            from .solver import can_win

            found = can_win(sim.copy(), ENDGAME_NODES)
            if found is not None:
                return won_value(sim.rules) if found else value(sim)
        play_turn(sim)
        if not sim.over and sim.discards <= limit:
            sim.end_turn()
    return value(sim)


@cache
def _chain(rules: Rules) -> tuple[int, bool]:
    return chain_length(rules.n, rules.modes), shown_to_all(rules.modes)


def play_turn(sim: Sim) -> dict[int, str]:
    """Reveal a turn from its start (in place) as the players would program it, every
    hand open to the rollout but not to them; the programs. The show chain's revealers
    (``shows.chain_length``) play greedily, their programs shown: every player sees them
    (under Privileged Symbioses only the next revealer sees the first player's). Each
    other seat programs by the base policy (``program_choice``) seeing the web at the
    start of the turn, the shown programs revealed on it, and the card just before it
    only when that card was shown to it: the reveals before it that were not shown to it
    are unknown cards (``unknown_before``). Stops early when the game is over or past
    its discard limit."""
    order = sim.order()
    chain, to_all = _chain(sim.rules)
    chain = min(chain, len(order))
    limit = sim.rules.max_discards
    programs: dict[int, str] = {}
    if not to_all and chain:
        # the first player shows to the next revealer only: the later ones see the web
        # as the turn began, with two unknown revealers before the third
        for i, seat in enumerate(order[2:], start=2):
            programs[seat] = program_choice(sim, seat, None, i)
    for seat in order[:chain]:
        prev = sim.turn_records[-1] if sim.turn_records else None
        card, outcome = greedy_move(sim, seat, prev)
        programs[seat] = card
        sim.resolve(seat, card, outcome)
        if sim.over or sim.discards > limit:
            return programs
    rest = order[chain:]
    for i, seat in enumerate(rest):
        if seat not in programs:
            prev = sim.turn_records[-1] if i == 0 and sim.turn_records else None
            programs[seat] = program_choice(sim, seat, prev, i)
    for seat in rest:
        if sim.over or sim.discards > limit:
            break
        card = programs[seat]
        prev = sim.turn_records[-1] if sim.turn_records else None
        _, outcome = best_outcome(sim, seat, card, prev)
        sim.resolve(seat, card, outcome)
    return programs


def turn_programs(sim: Sim) -> dict[int, str]:
    """What each seat programs in the turn ``sim`` starts (``play_turn``, on a copy)."""
    return play_turn(sim.copy())
