"""The reviews a node keeps in memory: the latest ``MEMORY`` ones, a cache of the store's
(every review is stored with its game and read from there when it is not in memory),
whose memory stays within its bound however many games end: a node's memory is flat once
it is full, and it fills within minutes of play, not hours."""

from __future__ import annotations

import copy
from typing import Any

from benchmarks._support.heap_probe import deep_size
from dame_nature.bots import make_bot
from dame_nature.engine.game import get_game
from dame_nature.server.reviews import MEMORY, Reviews, review_game
from dame_nature.server.settings import Settings
from dame_nature.server.store import open_store

#: what the reviews kept in memory may take at most, all of them
BUDGET = 1024 * 1024


def finished_game(seed: int) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A 4-player game the random bots played to its end: its setup and actions."""
    state = get_game(4, ()).new_initial_state(seed=seed)
    bots = [make_bot("random", seat, seed=seed * 4 + seat) for seat in range(4)]
    while not state.is_over:
        seat = min(state.to_act())
        state.apply(seat, bots[seat].act(state.view(seat)))
    return state.setup, state.history


def test_the_reviews_kept_in_memory_stay_within_their_bound(tmp_path: Any) -> None:
    setup, actions = finished_game(seed=3)
    # the solver's budget in positions, not in seconds: the same review on any machine
    one = review_game(setup, actions, time_budget=600, node_budget=20_000)
    assert one["line"], one
    store = open_store(str(tmp_path / "reviews.sqlite3"))
    try:
        reviews = Reviews(Settings(db=str(tmp_path / "reviews.sqlite3")), store)
        for game_no in range(1, 3 * MEMORY + 1):  # reviews of games ending one by one
            # each game's review its own objects, as unpickled from the worker
            reviews._remember(("room", game_no), copy.deepcopy(one))
        kept = reviews._done
        assert len(kept) == MEMORY
        assert list(kept)[-1] == ("room", 3 * MEMORY)  # the latest are kept
        size = deep_size(kept, stop=set())
        assert size <= BUDGET, f"{size / 1024:.0f} KiB for {len(kept)}"
    finally:
        store.close()
