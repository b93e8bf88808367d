"""Golden replays: whole games stored as files replay to the same final state and views."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dame_nature.engine import State

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.json"))


def test_there_are_golden_games_and_one_is_won() -> None:
    assert len(GOLDEN) >= 4
    outcomes = {json.loads(p.read_text("utf-8"))["result"]["outcome"] for p in GOLDEN}
    assert outcomes == {"won", "lost"}


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_game_replays_identically(path: Path) -> None:
    game = json.loads(path.read_text("utf-8"))
    state = State.replay(game["setup"], game["actions"])
    assert state.result == game["result"]
    assert state.to_json() == game["final_state"]
    for seat, view in game["final_views"].items():
        assert state.view(None if seat == "None" else int(seat)) == view


def test_the_random_golden_games_are_those_the_random_player_plays() -> None:
    """``regenerate.py`` plays every golden game again, action for action: the random
    player (``dame_nature.bots.random_play``, the bots' ``choose_among``) still draws what the
    engine's own player drew when the files were written."""
    from tests.engine.golden.regenerate import GAMES, record

    for path in GOLDEN:
        if path.stem in GAMES:
            stored = json.loads(path.read_text("utf-8"))
            assert record(path.stem)["actions"] == stored["actions"], path.stem
