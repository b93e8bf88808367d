"""Replay steps (``engine/replay.py``): each frame is the engine's own state at that
moment of the game, every hand visible."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from dame_nature.bots.random_play import play_random_game
from dame_nature.engine import MODES, Game
from dame_nature.engine.replay import frame, replay_steps


@pytest.mark.parametrize("modes", [[], list(MODES), ["first_predator", "climate_change"]])
def test_every_frame_holds_every_card_once_and_agrees_with_itself(modes):
    """Every card dealt is in exactly one place in every frame (a Reintroduction played
    leaves the game), Cats going back to their hands included; a frame in the reveal has
    no free Symbiosis; the last frame is the final state's."""
    for seed in range(5):
        state = Game(4, modes).new_initial_state(seed=seed)
        play_random_game(state, random.Random(seed))
        steps, total = replay_steps(state.setup, state.history)
        assert (
            total == len(steps) and replay_steps(state.setup, state.history, 3, 4)[0] == steps[3:7]
        )
        dealt = Counter(c for hand in state.setup["hands"] for c in hand)
        for step in steps:
            table = step["state"]
            seen: Counter[str] = Counter()
            for player in table["players"]:
                seen.update(player["hand"] + [c for c in [player["programmed"]] if c])
            seen.update(c for c in table["web"].values() if c)
            seen.update(table["discard"])
            seen.update(entry["card"] for entry in table["in_play"])
            gone = {c for c in dealt if c.startswith("reintroduction-") and c not in seen}
            assert seen == dealt - Counter(gone), (seed, step["index"])
            if table["phase"] != "programming":
                assert not table["free_symbiosis_available"], (seed, step["index"])
            placed = [r for r in table["revealed_this_turn"] if r["result"] == "placed"]
            assert all(table["web"][r["slot"]] == r["card"] for r in placed), (seed, step)
        assert steps[-1]["state"] == frame(state)
        assert [s["action"] for s in steps if s["action"]] == [a["action"] for a in state.history]
