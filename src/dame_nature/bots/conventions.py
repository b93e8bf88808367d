"""Rule conventions that read the view: what a bot does, under an advanced rule, with a
program the first player showed (the lead). Each acts only under its rule; the choices
of cards they rest on are the shared base policy's (``policy``).

- **The Wetland's relay** (``relays``): after the first player's blue lead, the second
  revealer whose program goes into the aquatic web as a blue card shows it too, so the
  third revealer places a card in the aquatic web as well.
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
from .policy import aquatic_relay, best_outcome, premature, species_held_back
from .shows import reveal_order
from .simulator import INFO, Record, Sim


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


def rule_candidates(view: View, seat: int, know: Knowledge, cards: list[str]) -> list[str]:
    """Of ``cards``, those the rule conventions let ``seat`` program now: the Special
    cards whose moment has come (``timely``); the Species of Dependent Conditions' lead
    (``dependent_lead``) when it applies; and no dependent Condition on a bet
    (``dependent_bet``: the revealer before it plays a Species about one time in three)
    while another card may find a place."""
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
    return dependent_give(view, seat, know) or spread_specials(view, seat, know)


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
