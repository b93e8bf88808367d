"""No-leak property: a seat's view is the same whatever the other players' hidden cards are.

From states reached by random play, the cards a seat is not entitled to know (in other
players' hands or programmed, and not in its ``known`` list) are shuffled among their
places; the seat's view, and the spectator's, must not change.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, Game, State
from dame_nature.engine.state import PUBLIC


def hidden_places(state: State, viewer: int) -> list[tuple[str, int, int]]:
    """(where, seat, index) of every card ``viewer`` may not know."""
    known = {(owner, card) for owner, card in state.known[viewer]}
    revealing = state.reveal_queue[0] if state.phase == "reveal" and state.reveal_queue else None
    places = []
    for seat in range(state.num_players):
        if viewer != PUBLIC and seat == viewer:
            continue
        for i, card in enumerate(state.hands[seat]):
            if (seat, card) not in known:
                places.append(("hand", seat, i))
        card = state.programmed[seat]
        if card is not None and (seat, card) not in known and seat != revealing:
            places.append(("programmed", seat, 0))
    return places


def shuffle_hidden(state: State, viewer: int, rng: random.Random) -> State:
    other = state.clone()
    places = hidden_places(state, viewer)

    def get(s: State, place: tuple[str, int, int]) -> str:
        where, seat, i = place
        return s.hands[seat][i] if where == "hand" else s.programmed[seat]

    cards = [get(state, p) for p in places]
    rng.shuffle(cards)
    for (where, seat, i), card in zip(places, cards, strict=True):
        if where == "hand":
            other.hands[seat][i] = card
        else:
            other.programmed[seat] = card
    return other


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(3, 6),
    modes=st.lists(st.sampled_from(MODES), unique=True),
    seed=st.integers(0, 2**31),
    stops=st.lists(st.integers(0, 200), min_size=1, max_size=4),
)
def test_views_do_not_depend_on_hidden_cards(n, modes, seed, stops) -> None:
    state = Game(n, modes).new_initial_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    for stop in sorted(set(stops)):
        while step < stop and not state.is_over:
            state.apply(*random_step(state, rng))
            step += 1
        for viewer in [PUBLIC, *range(n)]:
            seat = None if viewer == PUBLIC else viewer
            for _ in range(3):
                other = shuffle_hidden(state, viewer, rng)
                assert other.view(seat) == state.view(seat), (
                    f"seat {seat} sees hidden cards: seed={seed} modes={modes} step={step}"
                )


def test_spectator_and_seats_never_see_other_hands() -> None:
    state = Game(4, ["first_predator"]).new_initial_state(seed=11)
    rng = random.Random(11)
    while not state.is_over:
        for seat in [None, 0, 1, 2, 3]:
            view = state.view(seat)
            visible = {k["card"] for k in view["known"]}
            for other in range(4):
                if other == seat:
                    continue
                secret = set(state.hands[other]) - visible
                # slot ids name species: look at what the web holds, not at its keys
                shown = {k: v for k, v in view.items() if k not in ("log", "web")}
                text = repr([shown, list(view["web"].values())])
                assert not any(f"'{card}'" in text for card in secret)
        state.apply(*random_step(state, rng))
