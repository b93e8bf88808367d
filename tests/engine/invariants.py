"""Invariants that hold after every action of every game, whatever the rules."""

from __future__ import annotations

import json
from collections import Counter

from dame_nature.engine import CATALOGUE, REASONS, Result, State


def all_cards(state: State) -> Counter[str]:
    setup = state.setup
    return Counter([c for hand in setup["hands"] for c in hand] + list(setup["set_aside"]))


def cards_in_places(state: State) -> Counter[str]:
    places: list[str] = []
    for hand in state.hands:
        places += hand
    places += [c for c in state.programmed if c is not None]
    places += [c for c in state.web.values() if c is not None]
    places += state.discard
    places += [c for _, c in state.in_play]
    places += state.out_of_game
    places += state.set_aside
    return Counter(places)


def expected_card_counts(state: State) -> list[int]:
    """Cards each seat holds (hand + programmed): dealt, less revealed, plus Cats returned,
    adjusted by a pending exchange."""
    counts = [len(h) for h in state.setup["hands"]]
    for event in state.log:
        if event["type"] == "revealed":
            counts[event["seat"]] -= 1
        elif event["type"] == "cats_returned":
            for cat in event["cats"]:
                counts[cat["seat"]] += 1
    if state.pending_give is not None:
        counts[state.pending_give["from"]] -= 1
        counts[state.pending_give["to"]] += 1
    return counts


def check_invariants(state: State) -> None:
    # every card in exactly one place
    assert cards_in_places(state) == all_cards(state)
    assert max(cards_in_places(state).values()) == 1
    # hands as the rules say
    assert [len(state.cards_of(s)) for s in range(state.num_players)] == expected_card_counts(state)
    # the web only holds cards where they fit
    topo = state.game.topology
    for slot_id, card in state.web.items():
        if card is None:
            continue
        slot = topo.slots[slot_id]
        if slot.is_species_slot:
            assert card == slot.species
        else:
            info = CATALOGUE.card(card)
            assert info.is_condition_like
            colour = state.joker_colours[card] if info.is_joker else info.colour
            assert colour == slot.colour
    # turn count bounded: a turn needs a card from each player still holding one
    returned = sum(len(e["cats"]) for e in state.log if e["type"] == "cats_returned")
    assert state.turn <= max(len(h) for h in state.setup["hands"]) + returned
    # reveal records: a known result, and a reason exactly when discarded
    for record in state.revealed_this_turn + state.last_turn:
        assert record["result"] in {r.value for r in Result}
        assert (record["reason"] is not None) == (record["result"] == "discarded")
        assert record["reason"] is None or record["reason"] in REASONS
    # phase consistency
    assert (state.result is not None) == (state.phase == "over")
    if state.phase == "programming":
        assert state.reveal_queue == []
    if state.phase == "reveal":
        assert state.reveal_queue and all(state.programmed[s] for s in state.reveal_queue)


def check_round_trip(state: State) -> None:
    data = state.to_json()
    again = State.from_json(json.loads(json.dumps(data)))
    assert again.to_json() == data
    for seat in [None, *range(state.num_players)]:
        assert again.view(seat) == state.view(seat)


def check_queries_agree(state: State) -> None:
    """The fast queries agree with the complete ones: ``to_act`` and the view's
    ``to_act`` with ``current_players``, ``legal_action_types`` and ``legal_options``
    with ``legal_actions_by_type``, ``clone`` with a JSON round trip, a cached view with
    one built afresh."""
    assert state.to_act() == sorted(state.current_players())
    fresh = State.from_json(state.to_json())
    assert state.clone().to_json() == state.to_json()
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        assert view["to_act"] == state.to_act()
        assert view == fresh.view(seat)
        if seat is None:
            continue
        by_type = state.legal_actions_by_type(seat)
        assert list(by_type) == state.legal_action_types(seat) == view["legal_types"]
        assert all(by_type.values())
        for kind, group in by_type.items():
            assert state.legal_options(seat, kind) == group
