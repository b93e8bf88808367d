"""``GET /api/rooms/{room}/replay/steps``: a finished game step by step, every hand
visible, for the replay viewer (``GET /r/{code}/replay``)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter
from starlette.concurrency import run_in_threadpool

from ..deps import ManagerDep, RoomDep
from ..models import ReplaySteps
from ..replay import build_steps, table_shape
from .rooms import ERRORS, GameNumber

router = APIRouter(prefix="/api", tags=["rooms"])

#: the steps of the last few games asked for (a finished game never changes)
_CACHE: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 16
_lock = threading.Lock()


@router.get("/rooms/{room}/replay/steps", response_model=ReplaySteps, responses=ERRORS)
async def replay_steps(
    room: RoomDep, manager: ManagerDep, game: GameNumber = None
) -> dict[str, Any]:
    """Once the game is over: every step of it with the whole table (every hand, the
    web, the discard pile) after each action, each reveal and each end of turn.
    ``game``: an earlier game of the room."""
    replay = await manager.replay(room, game)  # 409 game_not_over while it is played
    key = (room.code, int(replay["game"]))
    with _lock:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE.move_to_end(key)
    if cached is None:
        names = {p["seat"]: p["name"] for p in manager.public_info(room)["players"]}
        # building the steps replays the game: off the event loop
        cached = await run_in_threadpool(_answer, replay, names, key)
    # the campaign is the room's, kept for its current game only: not cached
    return {**cached, "campaign": replay["campaign"]}


def _answer(replay: dict[str, Any], names: dict[int, str], key: tuple[str, int]) -> dict[str, Any]:
    setup = replay["setup"]
    answer = {
        "room": replay["room"],
        "game": replay["game"],
        "modes": list(setup["modes"]),
        "players": [{"seat": s, "name": names.get(s, "")} for s in range(setup["num_players"])],
        "result": replay["result"],
        **table_shape(setup),
        "steps": build_steps(setup, replay["actions"]),
    }
    with _lock:
        _CACHE[key] = answer
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return answer
