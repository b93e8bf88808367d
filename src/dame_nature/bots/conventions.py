"""Rule conventions that read the view: what a bot does, under an advanced rule, with a
program the first player showed (the lead). Each acts only under its rule; the choices
of cards they rest on are the shared base policy's (``policy``).

- **The Wetland's relay** (``relays``): after the first player's blue lead, the second
  revealer whose program goes into the aquatic web as a blue card shows it too, so the
  third revealer places a card in the aquatic web as well.
- **The Wetland's hand-over** (``aquatic_give``, ``aquatic_program``, ``keep_aquatic``):
  Charagne and the Gardon are installed only right after a blue card, and only the
  second revealer knows the card before it (the first player's program, shown). So an
  installable aquatic Species goes to the second revealer: the first player holding one
  leads with a blue card (``aquatic_lead``), gives the Species to the next revealer with
  its free Symbiosis (the Give tells it the lead is blue) and shows its lead with its
  Symbiosis card when it has one (``shows.handed_over``); a later revealer holding one
  after a shown blue lead gives it to the second revealer (its Symbiosis card), and so
  does one holding a Condition only the aquatic web takes (``aquatic_only``). The
  second revealer keeps it and reveals it after the blue lead.
- **The Wetland's hand-over in the middle of the turn** (``blue_offer``,
  ``blue_handover``, ``blue_kept``, ``blue_handed``, ``keep_handed``, ``misread_give``):
  a later revealer knows nothing of the card before its own, so a revealer (second or
  later, not last) holding an installable Charagne or Gardon and a Symbiosis card
  programs a blue Condition and gives the Species to the next revealer: the Give tells
  the taker that a blue card comes just before it. The giver keeps a blue program, the
  taker keeps the Species and reveals it; no other Give of the bots reads so.
- **Associated Conditions' held Species** (``hold_species``): the bot keeps the
  convention its partners count on (``policy.species_held_back``).
- **Dependent Conditions' hand-over** (``dependent_give``, ``keep_dependents``): a
  dependent Condition is placed only right after a Species, and only the second
  revealer knows the card before it (the lead, shown). When the lead is a Species that
  goes into the web, a later revealer holding a dependent Condition the web can take
  after it gives it to the second revealer (its Symbiosis card), who keeps it and
  reveals it there. The first player leads with a Species the web takes while a
  dependent Condition may be in the next revealer's hand (``dependent_lead``). Anywhere
  else a dependent Condition is a bet on the card before it (``dependent_bet``): it is
  programmed only when every other card is discarded for sure (``rule_candidates``).
- **Species Reintroductions' free Reintroduction** (``timely``,
  ``free_reintroduction``): a Reintroduction waits for the last Condition
  (``policy.premature``), unless a Reintroduction revealed last in the turn before
  still locks the web and the bot reveals first: the same animal ends both locks. A
  Special card waits only while the bot holds a card that may find a place or is no
  Species: a Species discarded for sure loses the game.
- **Species Reintroductions' hand-over** (``spread_specials``, ``keep_specials``): the
  first player holding two Special cards or more gives one, with its free Symbiosis,
  to the next player, who gives back another card.
"""

from __future__ import annotations

from .base import Action, View, my_cards
from .knowledge import Knowledge
from .policy import (
    BLUE_BEFORE,
    aquatic_relay,
    best_outcome,
    blue_lead,
    card_key,
    premature,
    species_held_back,
)
from .shows import handed_over, reveal_order
from .simulator import INFO, Outcome, Record, Sim


def free_reintroduction(view: View, seat: int, know: Knowledge, card: str) -> bool:
    """Whether ``card`` is a Reintroduction ``seat`` reveals at no cost, before the last
    Condition is placed: a Reintroduction revealed last locked the web (Conditions
    discarded until an animal Species comes) and ``seat`` reveals first in the turn, so
    the lock is still on when it reveals and the same animal ends both."""
    order = reveal_order(view)
    return (
        know.rules.reintro
        and INFO[card].type == "reintroduction"
        and know.base.after_reintro
        and bool(order)
        and order[0] == seat
    )


def timely(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """Of ``cards``, those whose moment has come (``policy.premature``: a Reintroduction
    waits for the last Condition, a Pollution for no uncovered Condition), or the first
    player's Reintroduction under a lock already on (``free_reintroduction``); all of
    them if none, or if each of those is a Species the view says is discarded whatever
    comes before it (``no_place``): a Species lost loses the game, a Special card played
    early only may."""
    kept = [
        c for c in cards if not premature(know.base, c) or free_reintroduction(view, seat, know, c)
    ]
    no_place = view.get("no_place") or {}
    if all(no_place.get(c) and INFO[c].type == "species" for c in kept):
        return cards
    return kept


def dependent_bet(view: View, seat: int, know: Knowledge, card: str) -> bool:
    """Whether ``card`` is a dependent Condition ``seat`` would reveal on a bet: the card
    revealed just before it is not known to be a Species (``seat`` reveals first, or the
    revealer before it showed no Species)."""
    if not know.rules.dependent or INFO[card].symbol != "dependent":
        return False
    order = reveal_order(view)
    position = order.index(seat) if seat in order else 0
    if position == 0:
        return True
    shown = know.programs.get(order[position - 1])
    return shown is None or INFO[shown].type != "species"


def dependent_lead(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """Dependent Conditions' Species lead: of ``cards``, the Species the web takes now,
    when ``seat`` reveals first, its free Symbiosis still to show its program, and a
    dependent Condition the web can take may be in the next revealer's hand (unseen, or
    known there); else none."""
    order = reveal_order(view)
    if (
        not know.rules.dependent
        or len(order) < 2
        or order[0] != seat
        or not view.get("free_symbiosis_available")
    ):
        return []
    sim = know.base
    maybe = [*know.unseen, *sim.hands[order[1]]]
    dependents = [INFO[c].colour or "" for c in maybe if INFO[c].symbol == "dependent"]
    if not any(sim.open_slots(colour) for colour in dependents):
        return []
    return [
        c
        for c in cards
        if INFO[c].type == "species" and any(not o.discard for o in sim.outcomes(seat, c, None))
    ]


def aquatic_species(sim: Sim, cards: list[str]) -> list[str]:
    """Of ``cards``, the aquatic Species (Charagne, the Gardon) the web could install now,
    right after a blue card (the Wetland)."""
    rules = sim.rules
    return [c for c in cards if c in rules.aquatic and INFO[c].is_species and sim.can_install(c)]


def _lead_cards(sim: Sim, seat: int, cards: list[str]) -> list[str]:
    """Of ``cards``, those ``seat`` could reveal first in the turn as a blue lead placed
    in the web (``policy.blue_lead``)."""
    return [c for c in cards if blue_lead(c, best_outcome(sim, seat, c, None)[1])]


def aquatic_lead(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """The Wetland's hand-over, the first player's part: of ``cards``, the blue leads,
    when ``seat`` reveals first and holds an installable aquatic Species it can hand to
    the next revealer (its free Symbiosis unspent) or already handed it over this turn
    (``shows.handed_over``); else none."""
    order = reveal_order(view)
    if not know.rules.wetland or len(order) < 2 or order[0] != seat:
        return []
    sim = know.base.copy()
    sim.start_turn()
    if handed_over(view, seat) is None and not _may_hand_over(view, seat, sim):
        return []
    return _lead_cards(sim, seat, cards)


def _may_hand_over(view: View, seat: int, sim: Sim) -> bool:
    """The first player ``seat`` can hand an installable aquatic Species over: its free
    Symbiosis unspent, Gives allowed. (The Give itself tells the next revealer that the
    lead is blue; a show of the lead, when ``seat`` has a Symbiosis card left, tells the
    others too.)"""
    return bool(
        view.get("free_symbiosis_available")
        and "give" in view["symbiosis_kinds"]
        and not view.get("pending_give")
        and aquatic_species(sim, my_cards(view))
    )


def aquatic_give(view: View, seat: int, know: Knowledge) -> Action | None:
    """The Wetland's hand-over, the giver's part: an installable aquatic Species of
    ``seat`` given to the second revealer, by the first player (with its free Symbiosis)
    once it programmed a blue lead, or by a later revealer (its Symbiosis card) after the
    first player showed a blue lead."""
    order = reveal_order(view)
    if not know.rules.wetland or len(order) < 2 or view.get("pending_give"):
        return None
    if "give" not in view["symbiosis_kinds"] or not view["players"][order[1]]["hand_size"]:
        return None
    sim = know.base.copy()
    sim.start_turn()
    if order[0] == seat:
        program = view["programmed"]
        if program is None or not _may_hand_over(view, seat, sim):
            return None
        if not _lead_cards(sim, seat, [program]):
            return None
        species = aquatic_species(sim, view["hand"])
    else:
        if seat not in order[2:] or view["players"][seat]["symbiosis_cards"] <= 0:
            return None
        if order[1] in know.programs:
            return None  # the second revealer showed its program: it keeps it
        if not blue_lead_shown(view, know):
            return None
        species = aquatic_species(sim, my_cards(view)) or aquatic_only(sim, seat, my_cards(view))
    return {"type": "give", "card": species[0], "to": order[1]} if species else None


def aquatic_only(sim: Sim, seat: int, cards: list[str]) -> list[str]:
    """Of ``cards``, the Conditions and Jokers the web takes only in the aquatic web,
    right after a blue card (none of the main web's places is open to them)."""
    aquatic = sim.rules.aquatic
    return [
        c
        for c in cards
        if INFO[c].is_condition_like
        and all(o.discard for o in sim.outcomes(seat, c, None))
        and any(o.slot in aquatic for o in sim.outcomes(seat, c, BLUE_BEFORE))
    ]


def blue_lead_shown(view: View, know: Knowledge) -> bool:
    """Whether the first player showed its program this turn (``after_lead``) and it is a
    blue lead placed in the web (``policy.blue_lead``)."""
    table = after_lead(view, know)
    return table is not None and blue_lead(table[0].turn_records[-1][0], _lead_of(table[0]))


def _lead_of(sim: Sim) -> Outcome:
    """The outcome of the lead revealed on ``sim`` (its only record this turn)."""
    card, colour, placed, slot = sim.turn_records[-1]
    if not placed:
        return Outcome(discard=True)
    return Outcome(slot=slot, colour=colour if INFO[card].type == "joker" else None)


def lead_places(
    view: View, seat: int, know: Knowledge, card: str, outcomes: list[Outcome], shown: str | None
) -> list[int]:
    """The shown lead kept (the Wetland, Dependent Conditions, Species Reintroductions,
    and every game of 5 players or more): of the places ``outcomes`` of the card ``seat``
    reveals first in the turn, having shown it, the one its partners read
    (``after_lead``: its best outcome on the web as the turn began), when it is among
    them. Partners chain on that reading: a later revealer installs the Species whose
    last Condition the lead is read to fill, programs a Condition for the place the lead
    is read to leave free, or reveals an aquatic Species after a Joker read blue (or is
    handed one: ``aquatic_give``), and a lead placed elsewhere loses that card. Under the
    Wetland a Joker read blue is at least given blue. Every place otherwise (at 4
    players the base game won fewer deals with the lead as read, and the other rules'
    30 deals each told nothing apart: ``docs/benchmarks.md``)."""
    every = list(range(len(outcomes)))
    order = reveal_order(view)
    rules = know.rules
    if (
        not (rules.wetland or rules.dependent or rules.reintro or rules.n >= 5)
        or shown != card
        or len(order) < 2
        or order[0] != seat
    ):
        return every
    sim = know.base.copy()
    sim.start_turn()
    read = best_outcome(sim, seat, card, None)[1]
    joker = INFO[card].type == "joker"
    exact = [
        i
        for i in every
        if outcomes[i].slot == read.slot
        and outcomes[i].discard == read.discard
        and (not joker or outcomes[i].colour == read.colour)
        and (read.target is None or outcomes[i].target == read.target)
    ]
    if exact:
        return exact
    if rules.wetland and blue_lead(card, read):
        return [i for i in every if blue_lead(card, outcomes[i])] or every
    return every


def aquatic_program(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """The Wetland's hand-over, the second revealer's part: of ``cards``, the aquatic
    Species the web installs right after the first player's blue lead (shown, or told by
    the Give of an aquatic Species: ``shows.handed_over``), when ``seat`` reveals
    second; else none."""
    order = reveal_order(view)
    if not know.rules.wetland or len(order) < 2 or order[1] != seat:
        return []
    table = after_lead(view, know)
    if table is None:
        if handed_over(view, order[0]) is None:
            return []
        # the first player handed an aquatic Species over: by the convention, with a
        # blue lead placed in the web (``aquatic_give``), shown or not
        sim, lead = know.base.copy(), BLUE_BEFORE
        sim.start_turn()
    else:
        sim = table[0]
        lead = sim.turn_records[-1]
        if not blue_lead(lead[0], _lead_of(sim)):
            return []
    return [
        c
        for c in aquatic_species(sim, cards)
        if any(not o.discard for o in sim.outcomes(seat, c, lead))
    ]


def keep_aquatic(view: View, seat: int, know: Knowledge, options: list[Action]) -> list[Action]:
    """The give-backs the second revealer may answer a Give with under the Wetland: no
    installable aquatic Species (the hand-over gives it one to reveal after the blue
    lead), unless it has no other card."""
    order = reveal_order(view)
    if not know.rules.wetland or len(order) < 2 or order[1] != seat:
        return options
    sim = know.base.copy()
    sim.start_turn()
    kept = [o for o in options if not aquatic_species(sim, [o["card"]])]
    if blue_lead_shown(view, know):
        kept = [o for o in kept if not aquatic_only(sim, seat, [o["card"]])]
    return kept or options


def handed_cards(sim: Sim, cards: list[str]) -> list[str]:
    """Of ``cards``, those the Wetland's hand-over in the middle of the turn passes on
    (``blue_handover``): the installable aquatic Species, lost (and the game with them)
    when revealed after a card their revealer cannot know. (Passing on the Conditions
    only the aquatic web takes as well placed fewer cards: ``docs/benchmarks.md``.)"""
    return aquatic_species(sim, cards)


def _given(view: View, giver: int, to: int) -> str | None:
    """The card ``giver`` gave ``to`` this turn (as ``view``'s log shows it), if any."""
    for event in view.get("log", []):
        if (
            event.get("type") == "give"
            and event.get("turn") == view["turn"]
            and event.get("seat") == giver
            and event.get("to") == to
        ):
            return str(event["card"]) if event.get("card") else ""
    return None


def _blue_condition(card: str) -> bool:
    """A blue Condition (a Joker's colour is chosen only at its reveal)."""
    info = INFO[card]
    return info.type == "condition" and info.colour == "blue"


def _handover_taker(view: View, seat: int, know: Knowledge) -> int | None:
    """The next revealer, when ``seat`` may make the Wetland's hand-over in the middle of
    the turn to it (``blue_handover``): ``seat`` reveals second or later, not last, no
    Give waits on it, it holds a Symbiosis card that may Give, and the next revealer has
    cards, has not shown its program and was handed nothing this turn; else ``None``."""
    order = reveal_order(view)
    if not know.rules.wetland or seat not in order[1:-1] or view.get("pending_give"):
        return None
    if "give" not in view["symbiosis_kinds"] or view["players"][seat]["symbiosis_cards"] <= 0:
        return None
    taker = order[order.index(seat) + 1]
    if not view["players"][taker]["hand_size"] or taker in know.programs:
        return None
    if any(_given(view, s, taker) is not None for s in range(len(view["players"]))):
        return None  # one hand-over a taker a turn
    return taker


def blue_handover(view: View, seat: int, know: Knowledge) -> Action | None:
    """The Wetland's hand-over in the middle of the turn, the giver's part: ``seat``
    reveals second or later, not last, has programmed a blue Condition, and holds an
    installable aquatic Species (``handed_cards``): it gives that Species to the next
    revealer (its Symbiosis card).
    The Give tells the next revealer that the card just before its own is blue (bots
    give the next revealer nothing else so under the Wetland), which it could not know
    otherwise (one free show a turn at 4 players). The giver keeps a blue program
    (``blue_kept``), the taker keeps the card and reveals it (``blue_handed``)."""
    program = view["programmed"]
    if program is None or not _blue_condition(program):
        return None
    taker = _handover_taker(view, seat, know)
    if taker is None:
        return None
    sim = know.base.copy()
    sim.start_turn()
    cards = handed_cards(sim, view["hand"])
    return {"type": "give", "card": cards[0], "to": taker} if cards else None


def misread_give(view: View, seat: int, know: Knowledge, card: str, to: int) -> bool:
    """Whether a Give of ``card`` by ``seat`` to ``to`` would read as the Wetland's
    hand-over in the middle of the turn (``blue_handover``) without being one: ``to``
    reveals right after ``seat`` (second or later), ``card`` is one the hand-over passes
    on, and ``seat``'s program is no blue Condition. Such a Give is not made."""
    order = reveal_order(view)
    if not know.rules.wetland or seat not in order[1:-1]:
        return False
    if order[order.index(seat) + 1] != to:
        return False
    program = view["programmed"]
    if program is not None and _blue_condition(program):
        return False
    sim = know.base.copy()
    sim.start_turn()
    return bool(handed_cards(sim, [card]))


def _handed_by_previous(view: View, seat: int) -> str | None:
    """The card the revealer just before ``seat`` (itself second or later) gave it this
    turn under the Wetland's hand-over (``blue_handover``), if any."""
    order = reveal_order(view)
    if seat not in order[2:]:
        return None
    return _given(view, order[order.index(seat) - 1], seat) or None


def blue_handed(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """The Wetland's hand-over in the middle of the turn, the taker's part: of ``cards``,
    the card the revealer just before ``seat`` gave it (``blue_handover``: that
    revealer's program is blue), when the aquatic web takes it after a blue card."""
    if not know.rules.wetland:
        return []
    given = _handed_by_previous(view, seat)
    if given is None:
        return []
    sim = know.base.copy()
    sim.start_turn()
    if not handed_cards(sim, [given]):
        return []
    key = card_key(given, know.rules)
    return [c for c in cards if card_key(c, know.rules) == key]


def blue_kept(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """The giver's part kept (``blue_handover``): of ``cards``, the blue Conditions,
    once ``seat`` (second or later in the turn) gave the next revealer a card this turn
    under the Wetland; else none."""
    order = reveal_order(view)
    if not know.rules.wetland or seat not in order[1:-1]:
        return []
    if _given(view, seat, order[order.index(seat) + 1]) is None:
        return []
    return [c for c in cards if _blue_condition(c)]


def blue_offer(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """The giver's part of the Wetland's hand-over in the middle of the turn, before it
    programs (``blue_handover``): of ``cards``, the blue Conditions with a place in the
    web, when ``seat`` reveals second or later, not last, holds a Symbiosis card and
    an installable Charagne or Gardon besides (``handed_cards``); else none."""
    if _handover_taker(view, seat, know) is None:
        return []
    sim = know.base.copy()
    sim.start_turn()
    if not handed_cards(sim, my_cards(view)):
        return []
    return [
        c
        for c in cards
        if _blue_condition(c) and any(not o.discard for o in sim.outcomes(seat, c, None))
    ]


def keep_handed(view: View, seat: int, know: Knowledge, options: list[Action]) -> list[Action]:
    """The give-backs the taker of the Wetland's hand-over in the middle of the turn may
    answer with (``blue_handover``): not the card it was handed, unless it has no other."""
    if not know.rules.wetland:
        return options
    given = _handed_by_previous(view, seat)
    if given is None:
        return options
    return [o for o in options if o["card"] != given] or options


def rule_candidates(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """Of ``cards``, those the rule conventions let ``seat`` program now: the Special
    cards whose moment has come (``timely``); the Species of Dependent Conditions' lead
    (``dependent_lead``) when it applies; the Wetland's hand-over (``aquatic_lead``,
    ``aquatic_program``); and no dependent Condition on a bet (``dependent_bet``: the
    revealer before it plays a Species about one time in three) while another card may
    find a place."""
    wetland = (
        aquatic_lead(view, seat, know, cards)
        or aquatic_program(view, seat, know, cards)
        or blue_handed(view, seat, know, cards)
        or blue_kept(view, seat, know, cards)
        or blue_offer(view, seat, know, cards)
    )
    if wetland:
        return wetland
    cards = timely(view, seat, know, cards)
    lead = dependent_lead(view, seat, know, cards)
    if lead:
        return lead
    kept = [c for c in cards if not dependent_bet(view, seat, know, c)]
    no_place = view.get("no_place") or {}
    if kept and not all(no_place.get(c) for c in kept):
        return kept
    return cards


def after_lead(view: View, know: Knowledge) -> tuple[Sim, list[int]] | None:
    """The table this turn once the first player's shown program is revealed (and the
    reveal order), or ``None`` when the first player showed nothing."""
    order = reveal_order(view)
    if len(order) < 2 or order[0] not in know.programs or view["phase"] != "programming":
        return None
    sim = know.base.copy()
    sim.start_turn()
    lead, card = order[0], know.programs[order[0]]
    if card not in sim.hands[lead]:
        sim.hands[lead].append(card)
    sim.resolve(lead, card, best_outcome(sim, lead, card, None)[1])
    return sim, order


def relays(view: View, seat: int, know: Knowledge, card: str) -> bool:
    """Whether ``seat`` shows ``card`` as the Wetland's second show
    (``policy.aquatic_relay``): it reveals second, after the first player's blue lead,
    shown to all, and holds a Symbiosis card."""
    order = reveal_order(view)
    if (
        not know.rules.wetland
        or len(order) < 3
        or order[1] != seat
        or "show" not in view["symbiosis_kinds"]
        or view.get("show_names_one_player")
        or view["players"][seat]["symbiosis_cards"] <= 0
    ):
        return False
    table = after_lead(view, know)
    return table is not None and aquatic_relay(table[0], seat, card)


def _dependents_after_species(
    view: View, know: Knowledge, second: int, cards: list[str]
) -> list[str]:
    """Of ``cards``, the dependent Conditions the web takes from ``second`` right after
    the first player's lead, when that lead is a Species placed in the web."""
    if not know.rules.dependent:
        return []
    table = after_lead(view, know)
    if table is None:
        return []
    sim, order = table
    lead = sim.turn_records[-1]
    if order[1] != second or INFO[lead[0]].type != "species" or not lead[2]:
        return []
    return [
        c
        for c in cards
        if INFO[c].symbol == "dependent"
        and any(not o.discard for o in sim.outcomes(second, c, lead))
    ]


def dependent_give(view: View, seat: int, know: Knowledge) -> Action | None:
    """Dependent Conditions' hand-over: ``seat`` reveals third or later, after a Species
    lead, and holds a dependent Condition the second revealer could place right after
    it: a Give of it to the second revealer (a Symbiosis card)."""
    order = reveal_order(view)
    if (
        len(order) < 3
        or seat not in order[2:]
        or "give" not in view["symbiosis_kinds"]
        or view["players"][seat]["symbiosis_cards"] <= 0
        or view.get("pending_give")
    ):
        return None
    cards = _dependents_after_species(view, know, order[1], my_cards(view))
    return {"type": "give", "card": cards[0], "to": order[1]} if cards else None


#: the Special cards of Species Reintroductions
SPECIAL_TYPES = frozenset(("pollution", "reintroduction"))


def spread_specials(view: View, seat: int, know: Knowledge) -> Action | None:
    """Species Reintroductions' hand-over: the first player, its free Symbiosis unspent,
    holding two Special cards or more gives one to the next player, who gives back
    another card (``keep_specials``). Each Special card waits for its moment
    (``timely``) and a player reveals one card a turn, so Special cards held together
    come due together, in the last turns, where the places left are too few."""
    hand = [c for c in view["hand"] if INFO[c].type in SPECIAL_TYPES]
    if (
        not know.rules.reintro
        or len(hand) < 2
        or view["first_player"] != seat
        or not view.get("free_symbiosis_available")
        or "give" not in view["symbiosis_kinds"]
        or view.get("pending_give")
    ):
        return None
    partners = [p["seat"] for p in view["players"] if p["seat"] != seat and p["hand_size"] > 0]
    if not partners:
        return None
    to = min(partners, key=lambda s: (s - seat) % len(view["players"]))
    return {"type": "give", "card": hand[0], "to": to}


def rule_symbiosis(view: View, seat: int, know: Knowledge) -> Action | None:
    """The Symbiosis a rule convention asks of ``seat`` now, if any: the Wetland's relay
    (a show of its program), Dependent Conditions' hand-over or Species Reintroductions'
    (a Give)."""
    card = view["programmed"]
    if card is not None and relays(view, seat, know, card):
        return {"type": "show", "card": card}
    return (
        aquatic_give(view, seat, know)
        or blue_handover(view, seat, know)
        or dependent_give(view, seat, know)
        or spread_specials(view, seat, know)
    )


def keep_dependents(view: View, seat: int, know: Knowledge, options: list[Action]) -> list[Action]:
    """The give-backs ``seat``, the second revealer, may answer a Give with: none of
    the dependent Conditions it can place right after the Species the first player leads
    with (``dependent_give``), unless it has no other card."""
    kept = [o for o in options if not _dependents_after_species(view, know, seat, [o["card"]])]
    return kept or options


def keep_specials(know: Knowledge, options: list[Action]) -> list[Action]:
    """Species Reintroductions: the give-backs that are no Special card
    (``spread_specials``: a Special card given back would undo the hand-over), unless
    every card is one."""
    if not know.rules.reintro:
        return options
    return [o for o in options if INFO[o["card"]].type not in SPECIAL_TYPES] or options


def give_back_options(
    view: View, seat: int, know: Knowledge, options: list[Action]
) -> list[Action]:
    """The give-backs the rule conventions let ``seat`` answer a Give with
    (``keep_dependents``, ``keep_specials``)."""
    options = keep_handed(view, seat, know, keep_aquatic(view, seat, know, options))
    return keep_specials(know, keep_dependents(view, seat, know, options))


def hold_species(
    know: Knowledge, sim: Sim, prev: Record | None, position: int, safe: list[str]
) -> list[str]:
    """Associated Conditions' convention (``policy.species_held_back``) kept by the bot
    itself, whose partners count on it: of its ``safe`` cards, no Species while it
    reveals in the middle of the turn (``sim``: the turn after the programs shown;
    ``position``: the unknown revealers before it) and an associated Condition may be
    in a partner's hand, when it has another safe card."""
    me = know.seat
    order = know.order()
    others = [*know.unseen, *(c for s, hand in enumerate(sim.hands) if s != me for c in hand)]
    if not species_held_back(sim, me, prev, position, others, order):
        return safe
    return [c for c in safe if INFO[c].type != "species"] or safe
