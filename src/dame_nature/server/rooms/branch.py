""" "Play from here": a new solo room that starts where a finished game's replay stood.

The new room's first game has the old game's deal and begins with its first ``actions``
actions, stored as its own first actions (the log stays the truth: the new game replays
from its setup and actions like any other). The person takes ``seat``; every other seat
is a bot. Hints are on (no other person plays).
"""

from __future__ import annotations

import time
from typing import Any

from ...engine import EngineError, State
from ..errors import Refused
from ..settings import Settings
from . import lobby
from .commit import Commit
from .model import Player, Room
from .registry import Registry


def starting_point(
    replay: dict[str, Any], actions: int, seat: int, level: str
) -> tuple[State, list[dict[str, Any]]]:
    """The game ``replay`` after its first ``actions`` actions and those actions, for a
    person at ``seat`` and bots of ``level``: every refusal of "Play from here", made
    before anything is (a client at its cap of games with bots still hears what is
    wrong with its request)."""
    setup = {k: v for k, v in replay["setup"].items() if k != "deal_chosen_by_host"}
    played = replay["actions"]
    if not 0 <= actions <= len(played):
        raise Refused("invalid_request", f"This game has {len(played)} actions.")
    if not 0 <= seat < setup["num_players"]:
        raise Refused("seat_not_found", f"This game has no seat {seat}.")
    lobby.check_level(level)
    prefix = played[:actions]
    try:
        state = State.replay(setup, prefix)
    except EngineError as err:  # a stored game today's engine no longer replays
        raise Refused("invalid_request", err.message) from None
    if state.is_over:
        raise Refused("invalid_request", "The game is over at this step: pick an earlier one.")
    return state, prefix


async def play_from(
    commit: Commit,
    registry: Registry,
    settings: Settings,
    state: State,
    prefix: list[dict[str, Any]],
    seat: int,
    name: str,
    level: str,
) -> tuple[Room, Player]:
    """A new room playing ``state`` (``starting_point``: its game after the actions
    ``prefix``), the person at ``seat``; the room and the person's seat."""
    rules = lobby.RulesChoice(modes=list(state.setup["modes"]))
    room = await lobby.create(commit, registry, settings, rules)
    person: Player | None = None
    for s in range(state.num_players):
        if s == seat:
            person = await lobby.join(commit, room, name)
        else:
            await lobby.add_bot(commit, room, room.host_token, level)
    assert person is not None

    async def change() -> None:
        if room.status != "lobby":
            raise Refused("game_started", "The game has already started.")
        now = time.time()
        await commit.save(
            room,
            commit.store.start_game,
            room.code,
            1,
            state.setup,
            campaign=None,
            now=now,
            actions=prefix,
        )
        room.game_no, room.state, room.status = 1, state, "playing"
        commit.changed(room, now)

    await commit.attempt(room, change)
    return room, person
