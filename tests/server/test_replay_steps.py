"""``GET /api/rooms/{room}/replay/steps``: a finished game step by step with every hand,
for the replay viewer; refused while the game is played (no hand may leak)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from dame_nature.bots.random_play import play_random_game
from dame_nature.engine import MODES, Game
from dame_nature.engine.replay import replay_steps as build_steps


def cards_on_table(state: dict[str, Any]) -> Counter[str]:
    """Every card the frame places somewhere (a card is in one place at a time)."""
    found: Counter[str] = Counter()
    for player in state["players"]:
        found.update(player["hand"])
        if player["programmed"]:
            found[player["programmed"]] += 1
    found.update(c for c in state["web"].values() if c)
    found.update(state["discard"])
    found.update(entry["card"] for entry in state["in_play"])
    return found


def test_replay_steps_of_a_finished_game(api):
    table = api.table(3, seed=11, modes=["climate_change"])
    room = table["room"]
    early = api.http.get(f"/api/rooms/{room}/replay/steps")
    assert early.status_code == 409 and early.json()["error"]["code"] == "game_not_over"
    final = api.play_out(table)
    answer = api.http.get(f"/api/rooms/{room}/replay/steps")
    assert answer.status_code == 200, answer.text
    data = answer.json()
    replay = api.replay(room).json()
    steps = data["steps"]
    assert [p["name"] for p in data["players"]] == ["P0", "P1", "P2"]
    assert data["result"] == final["result"] and data["modes"] == ["climate_change"]
    # the start: every hand as dealt
    start = steps[0]
    assert start["kind"] == "start" and start["action"] is None
    assert [p["hand"] for p in start["state"]["players"]] == replay["setup"]["hands"]
    # every action once, in order, with its seat
    played = [{"seat": s["seat"], "action": s["action"]} for s in steps if s["action"]]
    assert played == replay["actions"]
    assert [s["index"] for s in steps] == list(range(len(steps)))
    # reveal by reveal: a step per card revealed, then the end of each turn
    reveals = [s for s in steps if s["kind"] == "reveal"]
    revealed = [e for s in steps for e in s["events"] if e["type"] == "revealed"]
    assert len(reveals) == len(revealed) > 0
    assert any(s["kind"] == "turn_end" for s in steps)
    # the end is the game's end
    assert steps[-1]["state"]["web"] == final["web"]
    assert steps[-1]["state"]["discard"] == final["discard"]
    assert steps[-1]["state"]["result"] == final["result"]
    assert data["total_steps"] == len(steps) and data["next_offset"] is None
    # pages of any size give the same steps
    for size in (1, 7, len(steps) - 1):
        paged, offset = [], 0
        while offset is not None:
            page = api.http.get(
                f"/api/rooms/{room}/replay/steps", params={"offset": offset, "limit": size}
            ).json()
            assert len(page["steps"]) <= size and page["offset"] == offset
            paged += page["steps"]
            offset = page["next_offset"]
        assert paged == steps, size
    too_big = api.http.get(f"/api/rooms/{room}/replay/steps", params={"limit": 100_000})
    assert too_big.status_code == 422
    # the same answer again (cached), and a card is never in two places
    assert api.http.get(f"/api/rooms/{room}/replay/steps").json() == data
    for step in steps:
        assert max(cards_on_table(step["state"]).values()) == 1, step["index"]


@pytest.mark.parametrize("modes", [list(MODES), ["first_predator", "species_reintroductions"]])
def test_frames_between_reveals_keep_every_card_in_one_place(modes):
    """Random games with the rules that move cards around most."""
    for seed in range(6):
        state = Game(4, modes).new_initial_state(seed=seed)
        play_random_game(state, random.Random(seed))
        steps, _ = build_steps(state.setup, state.history)
        dealt = Counter(c for hand in state.setup["hands"] for c in hand)
        for step in steps:
            seen = cards_on_table(step["state"])
            assert max(seen.values()) == 1, (seed, step["index"])
            assert set(seen) <= set(dealt), (seed, step["index"])
        webs = [s["state"]["web"] for s in steps if s["kind"] == "reveal"]
        assert all(isinstance(w, dict) for w in webs)
        assert steps[-1]["state"]["web"] == state.view(None)["web"]


def test_an_earlier_game_stays_replayable_after_a_rematch(api):
    table = api.table(3, seed=5)
    room = table["room"]
    api.play_out(table)
    first, first_steps = api.replay(room).json(), api.replay_steps(room).json()
    assert first["game"] == 1
    assert api.rematch(room, table["host"]).status_code == 200
    # game 2 is played: its replay is refused, game 1's is the same as before
    assert api.replay(room).status_code == 409
    assert api.replay(room, game=1).json() == first
    assert api.replay_steps(room, game=1).json() == first_steps
    for game, status in ((2, 409), (3, 404), (0, 422)):
        for answer in (api.replay(room, game=game), api.replay_steps(room, game=game)):
            assert answer.status_code == status, (game, answer.text)
    assert api.replay(room, game=3).json()["error"]["code"] == "game_not_found"
    # once game 2 is over, both are there
    final = api.play_out(table)
    second = api.replay(room, game=2).json()
    assert second == api.replay(room).json() and second["result"] == final["result"]
    assert second["actions"] != first["actions"]  # a new deal
    assert second["deal_chosen_by_host"] is False and first["deal_chosen_by_host"] is True
    assert api.replay(room, game=1).json() == first
