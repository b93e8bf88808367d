"""``GET /api/rooms/{room}/replay/steps``: a finished game step by step, every hand
visible, for the replay viewer (``GET /r/{code}/replay``), a page of steps at a time
(``?offset=&limit=``; the default page holds a whole game as people and bots play it).
Pages are built two at a time at most, off the event loop, and the last few are cached
(a finished game never changes)."""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Query
from starlette.concurrency import run_in_threadpool

from ...engine import replay as engine_replay
from ..deps import ManagerDep, RoomDep
from ..models import ReplaySteps
from .rooms import ERRORS, GameNumber

router = APIRouter(prefix="/api", tags=["rooms"])

#: the steps of a page, at most and by default
MAX_STEPS_PER_PAGE = 1000
#: the pages asked for last (a finished game never changes)
_CACHE: OrderedDict[tuple[str, int, int, int], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 16
_lock = threading.Lock()
#: pages built at once (each replays its game): more requests wait their turn
_building = asyncio.Semaphore(2)

Offset = Annotated[int, Query(ge=0, le=10_000_000, description="the first step of the page")]
Limit = Annotated[int, Query(ge=1, le=MAX_STEPS_PER_PAGE, description="the most steps in the page")]


@router.get("/rooms/{room}/replay/steps", response_model=ReplaySteps, responses=ERRORS)
async def replay_steps(
    room: RoomDep,
    manager: ManagerDep,
    game: GameNumber = None,
    offset: Offset = 0,
    limit: Limit = MAX_STEPS_PER_PAGE,
) -> dict[str, Any]:
    """Once the game is over: every step of it with the whole table (every hand, the
    web, the discard pile) after each action, each reveal and each end of turn, a page
    at a time (``offset``, ``limit``; ``next_offset`` is the next page's).
    ``game``: an earlier game of the room."""
    replay = await manager.replay(room, game)  # 409 game_not_over while it is played
    key = (room.code, int(replay["game"]), offset, limit)
    with _lock:
        cached = _CACHE.get(key)
        if cached is not None:
            _CACHE.move_to_end(key)
    if cached is None:
        names = {p["seat"]: p["name"] for p in manager.public_info(room)["players"]}
        async with _building:  # building the steps replays the game: off the event loop
            cached = await run_in_threadpool(_answer, replay, names, key)
    # the campaign is the room's, kept for its current game only: not cached
    return {**cached, "campaign": replay["campaign"]}


def _answer(
    replay: dict[str, Any], names: dict[int, str], key: tuple[str, int, int, int]
) -> dict[str, Any]:
    setup = replay["setup"]
    offset, limit = key[2], key[3]
    steps, total = engine_replay.replay_steps(setup, replay["actions"], offset, limit)
    answer = {
        "room": replay["room"],
        "game": replay["game"],
        "modes": list(setup["modes"]),
        "players": [{"seat": s, "name": names.get(s, "")} for s in range(setup["num_players"])],
        "result": replay["result"],
        **engine_replay.table_shape(setup),
        "steps": steps,
        "total_steps": total,
        "offset": offset,
        "next_offset": offset + limit if offset + limit < total else None,
    }
    with _lock:
        _CACHE[key] = answer
        while len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return answer
