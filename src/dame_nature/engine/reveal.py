"""The reveal pipeline and the turn cycle: from the last "ready" to the next turn.

Once every player holding cards has programmed one and said ready, the cards are
revealed one by one in seat order from the first player. For each, the active rules say
every way it can resolve (``outcomes``): a card with one outcome resolves at once; with
several, the game waits for its player's ``reveal`` action. Then the end-of-turn rules
run, the First Player card passes, and the next turn starts, unless the game is won or
every card has been played.

Every function takes the ``State`` and changes it in place; only ``actions.py`` and the
state call them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import knowledge
from .cards import CATALOGUE, COLOURS
from .enums import Phase, Reason, Result
from .rules import RULES
from .rules.base import Outcome, RevealContext

if TYPE_CHECKING:
    from .state import State

# plain strings for the state (an enum's ``.value`` is slow to read in a hot loop)
PROGRAMMING, REVEAL, OVER = Phase.PROGRAMMING.value, Phase.REVEAL.value, Phase.OVER.value
PLACED, DISCARDED = Result.PLACED.value, Result.DISCARDED.value
NO_SLOT, JOKER_NO_SLOT = Reason.NO_SLOT.value, Reason.JOKER_NO_SLOT.value
ALREADY_INSTALLED, SPECIES_NOT_OPEN = Reason.ALREADY_INSTALLED.value, Reason.SPECIES_NOT_OPEN.value
CONDITIONS_MISSING = Reason.CONDITIONS_MISSING.value

#: the core's discard reasons (each rule declares its own: ``Rule.reasons``)
CORE_REASONS: dict[str, tuple[str, str]] = {
    Reason.NO_SLOT.value: (
        "no open slot for it in the web",
        "aucun emplacement libre dans le réseau",
    ),
    Reason.JOKER_NO_SLOT.value: (
        "no open slot of the colour chosen for the Joker",
        "aucun emplacement libre de la couleur choisie pour le Joker",
    ),
    Reason.CONDITIONS_MISSING.value: (
        "its Conditions are not all in place",
        "ses Conditions ne sont pas toutes en place",
    ),
    Reason.SPECIES_NOT_OPEN.value: (
        "the Species it depends on are not installed",
        "les Espèces dont dépend sa place ne sont pas installées",
    ),
    Reason.ALREADY_INSTALLED.value: (
        "this Species is already installed",
        "cette Espèce est déjà installée",
    ),
}


#: every discard reason with the sentence players read (the core's and each rule's)
REASONS: dict[str, str] = {
    code: texts[0]
    for source in (CORE_REASONS, *(rule.reasons for rule in RULES.values()))
    for code, texts in source.items()
}
#: the same in French
REASONS_FR: dict[str, str] = {
    code: texts[1]
    for source in (CORE_REASONS, *(rule.reasons for rule in RULES.values()))
    for code, texts in source.items()
}


# ------------------------------------------------------------------ outcomes
def context(state: State, seat: int) -> RevealContext:
    programmed = state.programmed[seat]
    assert programmed is not None, "only a programmed card is revealed"
    revealed = state.revealed_this_turn
    return RevealContext(
        state, seat, CATALOGUE.cards[programmed], revealed[-1] if revealed else None
    )


def outcomes(state: State, ctx: RevealContext) -> list[Outcome]:
    """Every way the card ``ctx.seat`` reveals can resolve now."""
    special = _special_outcomes(state, ctx)
    if special is not None:
        return special
    card = ctx.card
    if card.is_joker:
        found: list[Outcome] = []
        for colour in COLOURS:
            found += _colour_outcomes(state, ctx, colour, JOKER_NO_SLOT)
        return found
    return _colour_outcomes(state, ctx, card.colour, None)


def _special_outcomes(state: State, ctx: RevealContext) -> list[Outcome] | None:
    """The outcomes of the first rule that resolves the card its own way, if any."""
    for rule in state.game.hooks.special_outcomes:
        special = rule.special_outcomes(ctx)
        if special is not None:
            return special
    return None


def discard_reason(state: State, ctx: RevealContext) -> str | None:
    """Why the card ``ctx.seat`` reveals would be discarded whatever is chosen for it
    (a Joker discarded whatever its colour, each colour for another reason:
    ``JOKER_NO_SLOT``), or None when an outcome places it or a rule plays it its own
    way: what ``outcomes`` tells of it, without listing the outcomes."""
    special = _special_outcomes(state, ctx)
    if special is not None:
        reason = special[0].reason
        if reason is None or not all(o.reason is not None and o.rule is None for o in special):
            return None
        return JOKER_NO_SLOT if any(o.reason != reason for o in special) else reason
    card = ctx.card
    if not card.is_joker:
        return _placement(state, ctx, card.colour, None)[1]
    reasons = []
    for colour in COLOURS:
        _, reason = _placement(state, ctx, colour, JOKER_NO_SLOT)
        if reason is None:
            return None
        reasons.append(reason)
    return reasons[0] if all(r == reasons[0] for r in reasons) else JOKER_NO_SLOT


def awaited_outcomes(state: State, seat: int) -> list[Outcome]:
    """The outcomes of the card the game waits for ``seat`` to place (computed once per
    wait: the state cannot change while the game waits for it)."""
    if state._awaited_at == _awaited_key(state, seat):
        found = state._awaited
        assert found is not None
        return found
    found = outcomes(state, context(state, seat))
    _await(state, seat, found)
    return found


def _awaited_key(state: State, seat: int) -> int:
    """Which wait ``state._awaited`` holds the outcomes of: the log's length and the seat
    in one int (a seat is under 8), which the cyclic collector neither tracks nor counts,
    where a tuple holding them and the list would be one more object a wait."""
    return len(state.log) * 8 + seat


def _await(state: State, seat: int, found: list[Outcome]) -> None:
    state._awaited = found
    state._awaited_at = _awaited_key(state, seat)


#: the core's outcomes, made once for the process and shared by every game (a
#: ``NamedTuple``, which the cyclic collector never stops tracking, is not made again at
#: each reveal), by ``(slot, colour, reason)``: a placement has a slot and a Joker's
#: colour (else ``None``), a discard a Joker's colour and its reason
_CORE_OUTCOMES: dict[tuple[str | None, str | None, str | None], Outcome] = {}


def _core_outcome(slot: str | None, colour: str | None, reason: str | None) -> Outcome:
    key = (slot, colour, reason)
    found = _CORE_OUTCOMES.get(key)
    if found is None:
        found = _CORE_OUTCOMES[key] = Outcome(slot=slot, colour=colour, reason=reason)
    return found


def _colour_outcomes(
    state: State, ctx: RevealContext, colour: str | None, no_slot: str | None
) -> list[Outcome]:
    """Where the card goes given its colour (a Joker's chosen one): the legal slots, or
    the one discard outcome with its reason."""
    joker_colour = colour if ctx.card.is_joker else None
    slots, reason = _placement(state, ctx, colour, no_slot)
    if reason is None:
        return [_core_outcome(sid, joker_colour, None) for sid in slots]
    return [_core_outcome(None, joker_colour, reason)]


def _placement(
    state: State, ctx: RevealContext, colour: str | None, no_slot: str | None
) -> tuple[list[str], str | None]:
    """``_colour_outcomes`` without the outcomes: ``(the legal slots, None)``, or ``([],
    the reason the card is discarded)``."""
    reason = None
    if ctx.unsure:  # a card revealed later: only the reasons that hold whatever comes before
        for rule in state.game.hooks.certain_discard:
            reason = rule.certain_discard(ctx, colour)
            if reason is not None:
                break
    else:
        for rule in state.game.hooks.discard_reason:
            reason = rule.discard_reason(ctx, colour)
            if reason is not None:
                break
    if reason is None:
        slots = _slots(state, ctx, colour)
        if slots:
            return slots, None
        reason = _refusal(state, ctx, colour) or no_slot or _no_slot_reason(state, ctx)
    return [], reason


def _candidates(state: State, ctx: RevealContext, colour: str | None) -> list[str]:
    """The empty slots the card could take by its colour and the web alone."""
    topo = state.game.topology
    card = ctx.card
    if card.is_species:
        if not topo.has_species(card.id) or not topo.can_install(state.web, card.id):
            return []
        return [card.id]
    assert colour is not None, "a Condition or a Joker given a colour"
    return topo.open_condition_slots(state.web, colour)


def _slots(state: State, ctx: RevealContext, colour: str | None) -> list[str]:
    candidates = _candidates(state, ctx, colour)
    rules = state.game.hooks.allows_slot
    if not rules or not candidates:
        return candidates
    slots = state.game.topology.slots
    return [
        sid
        for sid in candidates
        if all(rule.allows_slot(ctx, colour, slots[sid]) for rule in rules)
    ]


def _refusal(state: State, ctx: RevealContext, colour: str | None) -> str | None:
    """When the web has an empty slot for the card but the rules refuse them all: the
    reason of the first rule refusing the first of them (``Rule.refusal``)."""
    candidates = _candidates(state, ctx, colour)
    if not candidates:
        return None
    slot = state.game.topology.slots[candidates[0]]
    for rule in state.game.hooks.allows_slot:
        if not rule.allows_slot(ctx, colour, slot):
            return rule.refusal
    return None


def _no_slot_reason(state: State, ctx: RevealContext) -> str:
    card = ctx.card
    if not card.is_species:
        return NO_SLOT
    if state.web.get(card.id) is not None:
        return ALREADY_INSTALLED
    if not state.game.topology.is_open(state.web, card.id):
        return SPECIES_NOT_OPEN
    return CONDITIONS_MISSING


# ------------------------------------------------------------------ what a seat's view tells
def reveal_order(state: State) -> list[int]:
    """The seats in the order their cards are revealed this turn: during the reveal, those
    revealed then those to come; before it, the seats holding a card (or waiting for one
    given back), from the first player; none once the game is over."""
    phase = state.phase
    if phase == REVEAL:
        return [record["seat"] for record in state.revealed_this_turn] + state.reveal_queue
    if phase == OVER:
        return []
    n = state.num_players
    first = state.first_player
    hands, programmed, pending = state.hands, state.programmed, state.pending_give
    giver = pending["from"] if pending is not None else None
    order = []
    for i in range(n):
        seat = (first + i) % n
        if hands[seat] or programmed[seat] is not None or seat == giver:
            order.append(seat)
    return order


#: ``no_place``'s key prefixes, ``"seat unsure"``, by whether the seat is unsure to reveal
#: first, then by seat (a seat is under 8), made once for the process
_NO_PLACE_PREFIXES = [[f"{seat} {unsure:d}" for seat in range(8)] for unsure in (False, True)]

#: ``card id -> what its discard reason depends on besides the web`` when no rule reads
#: the reveal (no rule resolves a card its own way, gives a discard reason or refuses a
#: slot): a Condition its colour, every Joker the same (each colour tried), any other
#: card itself (a Species its own slots)
PLACEMENT_CLASS: dict[str, str] = {
    card.id: (
        f"colour {card.colour}" if card.is_condition else "joker" if card.is_joker else card.id
    )
    for card in CATALOGUE.cards.values()
}


def no_place(
    state: State, seat: int, order: list[int], known: dict[Any, Any]
) -> dict[str, str | None]:
    """During programming, for each card ``seat`` holds (hand, then the programmed card):
    the reason it would be discarded if revealed this turn, in the web as it is now,
    whatever is revealed before it (``None``: it may find a place, or it is played its
    own way: a Cat, a Reintroduction, a Pollution). ``order`` is ``reveal_order``;
    ``known`` keeps the answers of this turn's programming (``no_place_answers``); a new
    dict at each call."""
    key = no_place_key(state, seat, order)
    if key is None:
        return {}
    reasons = no_place_answers(state, seat, key, known)
    return {card: reasons[card] for card in state.cards_of(seat)}


def no_place_key(state: State, seat: int, order: list[int]) -> str | None:
    """During programming, the key in ``no_place``'s ``known`` of the answers for
    ``seat`` (``order`` is ``reveal_order``): when a rule reads the reveal, the seat and
    whether it is unsure to reveal first (``"seat unsure"``), else ``""``, one dict for
    every seat; None outside programming. A card's answer under a key, once there, holds
    for the turn (nothing it depends on changes until the reveal: the web, the rules'
    data, the first player), so a reader may keep what it made of it by the key."""
    if state.phase != PROGRAMMING:
        return None
    hooks = state.game.hooks
    # (``Hooks.certain_discard`` holds every rule with a ``discard_reason`` too)
    if not (hooks.special_outcomes or hooks.certain_discard or hooks.allows_slot):
        return ""  # no rule reads the reveal: the same answers for every seat
    return _NO_PLACE_PREFIXES[not order or order[0] != seat][seat]


def no_place_answers(
    state: State, seat: int, key: str, known: dict[Any, Any]
) -> dict[str, str | None]:
    """The answers ``known`` keeps under ``key`` (``no_place_key``), with those of every
    card ``seat`` holds added: the dict kept, not a copy (read only). Keyed by a string,
    which the cyclic collector does not track (a tuple it walks until a pass finds it
    untrackable), a dict of strings (untracked too). Under ``""`` they are filled from
    the answers by ``PLACEMENT_CLASS`` (the cards of a colour share theirs)."""
    reasons: dict[str, str | None] | None = known.get(key)
    if reasons is None:
        reasons = known[key] = {}
    cards = state.cards_of(seat)
    if key:
        unsure = key.endswith("1")
        for card in cards:
            if card not in reasons:
                ctx = RevealContext(state, seat, CATALOGUE.cards[card], None, unsure)
                reasons[card] = discard_reason(state, ctx)
    else:
        by_class: dict[str, str | None] | None = known.get("class")
        if by_class is None:
            by_class = known["class"] = {}
        for card in cards:
            if card not in reasons:
                placement = PLACEMENT_CLASS[card]
                if placement not in by_class:
                    ctx = RevealContext(state, seat, CATALOGUE.cards[card], None, True)
                    by_class[placement] = discard_reason(state, ctx)
                reasons[card] = by_class[placement]
    return reasons


# ------------------------------------------------------------------ resolving a reveal
def resolve(state: State, seat: int, outcome: Outcome, ctx: RevealContext | None = None) -> None:
    """Carry out ``outcome`` for the card ``seat`` reveals; record it; check the goal.
    ``ctx``: the reveal's ``context``, when made already for this state."""
    if state._observer is not None:
        state._observer("reveal", seat)
    if ctx is None:
        ctx = context(state, seat)
    card = ctx.card.id
    state.programmed[seat] = None
    state.reveal_queue.pop(0)
    knowledge.forget_card(state.known, seat, card)
    result: str
    if outcome.rule is not None:
        result = outcome.rule.resolve_special(ctx, outcome)
    elif outcome.slot is not None:
        state.web[outcome.slot] = card
        if ctx.card.is_joker and outcome.colour is not None:
            state.joker_colours[card] = outcome.colour
        result = PLACED
    else:
        state.discard.append(card)
        result = DISCARDED
    record: dict[str, Any] = {
        "seat": seat,
        "card": card,
        "result": result,
        "slot": outcome.slot,
        "colour": outcome.colour if outcome.colour is not None else ctx.card.colour,
        "reason": outcome.reason if result == DISCARDED else None,
        "target": outcome.target,
    }
    state.revealed_this_turn.append(record)
    state.event("revealed", record)
    for rule in state.game.hooks.after_reveal:
        rule.after_reveal(ctx, record)
    if state.is_goal_met():
        finish(state, "won")


def maybe_start(state: State) -> None:
    """Start the reveal once every player holding cards has programmed and is ready."""
    if state.pending_give is not None:
        return
    hands, programmed, ready = state.hands, state.programmed, state.ready
    for s in range(state.num_players):
        if programmed[s] is None:
            if hands[s]:
                return
        elif not ready[s]:
            return
    n = state.num_players
    first = state.first_player
    queue = state.reveal_queue  # (empty: changed in place, as the lists below)
    for i in range(n):
        seat = (first + i) % n
        if programmed[seat] is not None:
            queue.append(seat)
    state.phase = REVEAL
    state.event("reveal_started", {"order": list(state.reveal_queue)})
    advance(state)


def advance(state: State) -> None:
    """Resolve reveals that need no choice; stop at the first real choice."""
    while state.phase == REVEAL and state.reveal_queue:
        seat = state.reveal_queue[0]
        ctx = context(state, seat)
        found = outcomes(state, ctx)
        if len(found) > 1:
            state.event("awaiting_reveal", {"seat": seat, "card": state.programmed[seat]})
            _await(state, seat, found)
            return
        resolve(state, seat, found[0], ctx)
    if state.phase == REVEAL:
        end_turn(state)


# ------------------------------------------------------------------ turns
def start_turn(state: State) -> None:
    state.turn += 1
    state.phase = PROGRAMMING
    state.clear_ready()
    state.free_symbiosis_used = False
    for rule in state.game.hooks.start_of_turn:
        rule.start_of_turn(state)
    state.event("turn_started", {"turn": state.turn, "first_player": state.first_player})


def end_turn(state: State) -> None:
    for rule in state.game.hooks.end_of_turn:
        rule.end_of_turn(state)
    if state._observer is not None:
        state._observer("turn_end", None)
    # the turn's records become the last turn's; the last turn's list, emptied, is this
    # turn's (no list made a turn: the cyclic collector would walk it)
    records = state.last_turn
    records.clear()
    state.last_turn = state.revealed_this_turn
    state.revealed_this_turn = records
    state.reveal_queue.clear()
    state.event("turn_ended", {"turn": state.turn})
    if state.is_goal_met():
        finish(state, "won")
        return
    if state.cards_left() == 0:
        finish(state, "lost")
        return
    state.first_player = (state.first_player + 1) % state.num_players
    start_turn(state)


def finish(state: State, outcome: str) -> None:
    state.phase = OVER
    state.reveal_queue.clear()
    state.result = {"outcome": outcome, "discards": len(state.discard)}
    state.event("game_over", state.result)
