"""``provenance.state_digest`` reads the state's JSON data in place: the same digest as
the SHA-256 of ``State.to_json``'s copy serialised with sorted keys, which the stored
games' digests were taken from (a stored game whose digest differed would be refused)."""

from __future__ import annotations

import hashlib
import random

import orjson
import pytest

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, Game
from dame_nature.server.provenance import state_digest


def copied_digest(state) -> str:
    data = orjson.dumps(state.to_json(), option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(data).hexdigest()[:32]


@pytest.mark.parametrize("modes", [(), *((mode,) for mode in MODES), MODES])
@pytest.mark.parametrize("players", [3, 5])
def test_digest_of_the_data_in_place_is_the_copy_s(modes, players):
    """Along random games of each advanced rule alone and all of them, every few
    actions and at the end."""
    game = Game(players, modes)
    for seed in range(2):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        steps = 0
        while not state.is_over:
            if steps % 7 == 0:
                assert state_digest(state) == copied_digest(state), (seed, steps)
            state.apply(*random_step(state, rng))
            steps += 1
        assert state_digest(state) == copied_digest(state), seed
        before = state.to_json()
        state_digest(state)
        assert state.to_json() == before  # read, not changed
