"""What a seat's view tells so that no client re-derives a rule: ``legal_actions``,
``reveal_order`` and ``no_place``, held to the engine's own play on random games with
random advanced rules."""

from __future__ import annotations

import random

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, Game, State, pace
from dame_nature.engine.cards import CATALOGUE, COLOURS
from dame_nature.engine.reveal import outcomes
from dame_nature.engine.rules.base import RevealContext
from dame_nature.engine.view import (
    build_view,
    public_part,
    seat_cards,
    seat_knowledge,
    seat_no_place,
    seat_part,
    seat_piece_stamps,
    seat_stamp,
)
from tests.engine.helpers import new_state, play_turn

#: a card of each kind that may be revealed before another (Jokers with each colour)
BEFORE = [
    *({"card": f"cond-{c}-1", "colour": c} for c in COLOURS),
    *({"card": "joker-1", "colour": c} for c in COLOURS),
    {"card": "species-ortie", "colour": None},  # a plant
    {"card": "species-campagnol", "colour": None},  # an animal
    {"card": "cat-1", "colour": None},
    {"card": "reintroduction-1", "colour": None},
    {"card": "pollution-1", "colour": None},
]


def _discarded_after(state: State, seat: int, card: str, before: dict) -> bool:
    """Whether ``card`` revealed by ``seat`` right after ``before`` is discarded, in the
    web as it is now."""
    record = {**before, "seat": -1, "result": "placed", "slot": None, "reason": None}
    ctx = RevealContext(state, seat, CATALOGUE.cards[card], record)
    return all(o.reason is not None and o.rule is None for o in outcomes(state, ctx))


def _first_reveal(state: State, seat: int, card: str, rng: random.Random) -> dict:
    """Play the turn from ``state`` with ``seat`` (revealing first) programming ``card``
    and placing it if it can: what its reveal did."""
    play = state.clone()
    if play.programmed[seat] != card:
        play.apply(seat, {"type": "program", "card": card})
    for other in play.to_act():
        if play.programmed[other] is None:
            play.apply(other, {"type": "program", "card": rng.choice(play.hands[other])})
    for other in range(play.num_players):
        if play.phase == "programming" and play.programmed[other] and not play.ready[other]:
            play.apply(other, {"type": "ready"})
    if play.phase == "reveal" and play.reveal_queue[0] == seat:
        options = play.legal_options(seat, "reveal")
        placed = [o for o in options if o["slot"] is not None or o["target"] is not None]
        play.apply(seat, rng.choice(placed or options))
    # the event logged at the reveal (a record may change later in the turn: a card placed,
    # then removed by a rule)
    return next(e for e in reversed(play.log) if e["type"] == "revealed" and e["seat"] == seat)


def check_view(state: State, seat: int, rng: random.Random) -> None:
    view = state.view(seat)
    assert view["legal_actions"] == state.legal_actions(seat)
    order = view["reveal_order"]
    if state.phase == "reveal":
        assert order == [r["seat"] for r in state.revealed_this_turn] + state.reveal_queue
    if state.phase != "programming":
        assert view["no_place"] == {}
        return
    assert list(view["no_place"]) == state.cards_of(seat)
    for card, reason in view["no_place"].items():
        if order[0] != seat:
            if reason is not None:  # whatever is revealed before it
                assert all(_discarded_after(state, seat, card, b) for b in BEFORE), card
        elif state.pending_give is None and (
            state.programmed[seat] == card or pace.may_change(state, seat)
        ):  # (a seat that used its changes this turn keeps its card: nothing to try)
            record = _first_reveal(state, seat, card, rng)
            if reason is None:
                assert record["result"] != "discarded", card
            elif card.startswith("joker-"):  # the reason of the colour its player chose
                assert record["result"] == "discarded", card
            else:
                assert (record["result"], record["reason"]) == ("discarded", reason), card


@settings(max_examples=40, deadline=None, derandomize=True)  # the same examples each run
@given(
    n=st.integers(3, 6),
    modes=st.lists(st.sampled_from(MODES), unique=True),
    seed=st.integers(0, 2**31),
)
def test_the_view_tells_what_the_engine_does(n: int, modes: list[str], seed: int) -> None:
    rng = random.Random(seed)
    state = Game(n, modes).new_initial_state(seed=seed)
    order_before = None
    step = 0
    while not state.is_over:
        if step % 7 == 0:
            for seat in range(n):
                check_view(state, seat, rng)
        spectator = state.view(None)
        assert spectator["legal_actions"] == [] and spectator["no_place"] == {}
        if state.phase == "programming":
            order_before = state.view(None)["reveal_order"]
        seat, action = random_step(state, rng)
        for event in state.apply(seat, action):
            if event["type"] == "reveal_started":
                assert event["order"] == order_before
        step += 1
    assert state.view(0)["reveal_order"] == [] and state.view(0)["legal_actions"] == []


def test_no_place_gives_the_reason_the_first_revealer_meets() -> None:
    """The Wetland, 3 players: once the main web's green slots are full, a green
    Condition revealed first has no place (the aquatic web needs a blue card just before),
    but revealed later it may follow a blue one; a Gardon without Charagne has none."""
    state = new_state(
        3,
        ["wetland"],
        plays={0: ["cond-green-1", "cond-violet-1"], 1: ["cond-green-2", "cond-green-4"],
               2: ["cond-green-3", "wet-green-1", "species-gardon"]},
    )  # fmt: skip
    assert state.view(0)["no_place"]["cond-violet-1"] is None
    play_turn(state, [("cond-green-1", {"slot": "species-aubepine:2"}),
                      ("cond-green-2", {"slot": "species-chene:1"}), "cond-green-3"])  # fmt: skip
    assert state.view(0)["reveal_order"] == [1, 2, 0]
    assert state.view(1)["no_place"]["cond-green-4"] == "aquatic"
    seat2 = state.view(2)["no_place"]
    assert seat2["wet-green-1"] is None
    assert seat2["species-gardon"] == "species_not_open"
    assert state.view(None)["no_place"] == {} and state.view(None)["legal_actions"] == []


@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    n=st.integers(3, 6),
    modes=st.lists(st.sampled_from(MODES), unique=True),
    seed=st.integers(0, 2**31),
    watched=st.sets(st.integers(0, 5)),
    every=st.sampled_from([1, 2, 41]),  # views every ``every`` actions
)
def test_views_built_from_kept_parts_equal_fresh_views(
    n: int, modes: list[str], seed: int, watched: set[int], every: int
) -> None:
    """Views keep what they can from one version to the next (each seat's log tail, its
    action listings, ``no_place``'s answers): at every version, for seats viewed at each
    one and seats viewed now and then, after one action or after many (the log's tail may
    have moved past all it kept), each view is byte for byte the view a fresh copy of the
    state builds, which keeps nothing."""
    rng = random.Random(seed)
    state = Game(n, modes).new_initial_state(seed=seed)
    step = 0
    while not state.is_over:
        fresh = state.clone()
        for seat in [None, *range(n)]:
            if step % every == 0 and (
                seat is None or seat in watched or (step // every) % 3 == seat % 3
            ):
                assert orjson.dumps(state.view(seat)) == orjson.dumps(fresh.view(seat))
        state.apply(*random_step(state, rng))
        step += 1
    for seat in [None, *range(n)]:
        assert orjson.dumps(state.view(seat)) == orjson.dumps(state.clone().view(seat))


def test_a_version_keeps_the_previous_versions_unchanged_lists():
    """The shared part of a version holds the previous version's lists where they did not
    change (fewer new objects for the cyclic collector at each action), and every view
    is still the one a fresh copy of the state builds."""
    rng = random.Random(5)
    state = Game(4, ("privileged_symbioses",)).new_initial_state(seed=5)
    before = public_part(state)
    kept = 0
    while not state.is_over:
        state.apply(*random_step(state, rng))
        part = public_part(state)
        for new, old in ((part.head, before.head), (part.tail, before.tail)):
            for key, value in new.items():
                if type(value) is list and value == old[key]:
                    assert value is old[key], key
                    kept += 1
        assert part.to_act is before.to_act or part.to_act != before.to_act
        fresh = State.from_json(state.to_json())
        for seat in [None, *range(4)]:
            assert build_view(state, seat) == build_view(fresh, seat)
        before = part
    assert kept > 0


def test_a_seat_parts_stamp_holds_while_only_other_seats_program():
    """During programming a seat's part keeps its stamp (``seat_stamp``: the version at
    which it last changed) while other seats only program and say they are ready; a Show,
    which tells the table a card, gives every part a new one; each view is the fresh
    state's, and parts with one stamp are equal."""
    state = Game(4).new_initial_state(seed=3)
    seats = [None, *range(4)]

    def stamps() -> dict[int | None, int]:
        fresh = state.clone()
        for seat in seats:
            assert orjson.dumps(state.view(seat)) == orjson.dumps(fresh.view(seat))
        part = public_part(state)
        return {seat: seat_stamp(state, seat, part) for seat in seats}

    before = stamps()
    parts_before = {s: seat_part(state, s, public_part(state), with_log=False) for s in seats}
    actor = (state.first_player + 1) % 4
    state.apply(actor, {"type": "program", "card": state.hands[actor][0]})
    state.apply(actor, {"type": "ready"})
    after = stamps()
    assert [after[s] == before[s] for s in seats] == [s != actor for s in seats]
    assert after[actor] == len(state.log)
    for s in seats:
        if s != actor:
            assert seat_part(state, s, public_part(state), with_log=False) == parts_before[s]
    shower = state.first_player
    show = state.legal_options(shower, "show")[0]
    state.apply(shower, show)
    shown = stamps()
    assert all(shown[s] == len(state.log) != after[s] for s in seats)


def test_a_seat_parts_pieces_keep_their_stamps_while_they_hold():
    """When a seat's part changes during programming, ``seat_piece_stamps`` tells which of
    its pieces did not: its own ``ready`` keeps its cards and knowledge, a card it
    programs keeps its knowledge, a card given between two other seats keeps its cards,
    and its knowledge unless it knew a card of the giver; pieces with one stamp are
    equal."""
    state = Game(4).new_initial_state(seed=3)
    seats = [None, *range(4)]

    Pieces = dict[int | None, tuple[int, int, object, object]]

    def pieces() -> Pieces:
        """Each seat's two stamps, its cards with its ``no_place``, and its knowledge."""
        part = public_part(state)
        found: Pieces = {}
        for seat in seats:
            seat_stamp(state, seat, part)
            cards, knows = seat_piece_stamps(part, seat)
            no_place = {} if seat is None else seat_no_place(state, seat, part)
            knowledge = seat_knowledge(state, seat)
            found[seat] = (cards, knows, (seat_cards(state, seat), no_place), knowledge)
        return found

    def kept(before: Pieces, after: Pieces, seat: int | None) -> tuple[bool, bool]:
        """Whether the seat's cards and its knowledge kept their stamps (then, their
        pieces are as they were)."""
        same = (after[seat][0] == before[seat][0], after[seat][1] == before[seat][1])
        for holds, old, new in zip(same, before[seat][2:], after[seat][2:], strict=True):
            assert not holds or old == new
        return same

    actor = (state.first_player + 1) % 4
    start = pieces()
    state.apply(actor, {"type": "program", "card": state.hands[actor][0]})
    programmed = pieces()
    assert kept(start, programmed, actor) == (False, True)
    state.apply(actor, {"type": "ready"})
    ready = pieces()
    assert kept(programmed, ready, actor) == (True, True)
    giver, receiver = state.first_player, (state.first_player + 2) % 4
    state.apply(giver, {"type": "give", "card": state.hands[giver][0], "to": receiver})
    given = pieces()
    for seat in seats:  # (no seat knew a card of the giver: the third seats know as they did)
        assert kept(ready, given, seat) == (seat not in (giver, receiver),) * 2
    state.apply(receiver, {"type": "give_back", "card": state.hands[receiver][0]})
    given_back = pieces()
    # the first giver knows the card it gave is the receiver's, and the receiver gives
    third = (receiver + 1) % 4
    state.apply(receiver, {"type": "give", "card": state.hands[receiver][0], "to": third})
    given_again = pieces()
    for seat in seats:
        others = seat not in (receiver, third)
        assert kept(given_back, given_again, seat) == (others, others and seat != giver)


def test_views_share_fixed_listings_and_keep_the_logs_events():
    """Objects the cyclic collector would walk are not made for each view: a type whose
    options are the same for every seat (``ready``, ``unready``) is listed by its one
    ``ActionSpec.listing``, and the log tail's entries are the log's events themselves
    (no tuple per event with a private part)."""
    from dame_nature.engine.actions import ACTIONS

    state = Game(4).new_initial_state(seed=3)
    seat = state.first_player
    state.apply(seat, {"type": "program", "card": state.hands[seat][0]})
    part = public_part(state)
    mine = seat_part(state, seat, part)
    ready = mine.listings[mine.legal_types.index("ready")]
    assert ready is ACTIONS["ready"].listing
    state.apply(seat, {"type": "ready"})
    part = public_part(state)
    mine = seat_part(state, seat, part)
    assert mine.listings[mine.legal_types.index("unready")] is ACTIONS["unready"].listing
    assert all(
        entry is event
        for entry, event in zip(part.log_entries, state.log[part.log_start :], strict=True)
    )
    assert any("_private" in entry for entry in part.log_entries)


def test_the_programming_step_follows_to_act_as_seats_become_ready_or_not():
    """During programming the shared part is brought in place from one version to the
    next; its ``to_act`` follows each seat's readiness: a seat leaves it when it says it
    is ready and comes back when it programs another card (which takes its "ready" back),
    and stays as it was when it programs a card while not ready."""
    state = Game(4).new_initial_state(seed=3)
    part = public_part(state)
    seat = (state.first_player + 1) % 4
    moves = [
        {"type": "program", "card": state.hands[seat][0]},
        {"type": "program", "card": state.hands[seat][1]},
        {"type": "ready"},
        {"type": "program", "card": state.hands[seat][0]},
        {"type": "ready"},
    ]
    seen = []
    for move in moves:
        state.apply(seat, move)
        assert public_part(state) is part  # (brought in place)
        assert part.to_act == state.to_act() == sorted(state.current_players())
        fresh = state.clone()
        for viewer in [None, *range(4)]:
            assert orjson.dumps(state.view(viewer)) == orjson.dumps(fresh.view(viewer))
        seen.append(seat in part.to_act)
    assert seen == [True, True, False, True, False]


def test_a_symbiosis_brings_the_shared_part_in_place():
    """A Symbiosis that moves cards only between hands (a card given, given back, shown)
    brings the programming phase's shared part in place: the free Symbiosis used, the
    card given waiting, the seats no longer ready and ``to_act`` follow, the views are
    those of a fresh state, and the dicts whose fields did not change are kept."""
    state = Game(4).new_initial_state(seed=3)
    first = state.first_player
    other = (first + 1) % 4
    third = (first + 2) % 4
    state.apply(third, {"type": "program", "card": state.hands[third][0]})
    state.apply(third, {"type": "ready"})
    part = public_part(state)
    moves = [
        (first, {"type": "give", "card": state.hands[first][0], "to": other}),
        (other, {"type": "give_back", "card": state.hands[other][0]}),
        (third, {"type": "show", "card": state.hands[third][0]}),
    ]
    for seat, move in moves:
        head, tail, rest = part.head, part.tail, part.rest
        state.apply(seat, move)
        assert public_part(state) is part  # (brought in place)
        fresh = state.clone()
        for viewer in [None, *range(4)]:
            assert orjson.dumps(state.view(viewer)) == orjson.dumps(fresh.view(viewer))
        assert part.to_act == state.to_act()
        assert (part.head is head) == (move["type"] != "give")  # (the free Symbiosis)
        assert (part.tail is tail) == (move["type"] not in ("give", "give_back"))
        assert part.rest is rest
