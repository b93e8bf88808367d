"""``GET /api/rooms/{room}/review``: could the deal have been won, and where it slipped."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ...engine.replay import replay_steps, table_shape
from ..deps import ManagerDep, RoomDep
from ..errors import Refused
from ..models import ReplaySteps
from .replay import MAX_STEPS_PER_PAGE, Limit, Offset
from .replay import _building as building
from .rooms import ERRORS, GameNumber

router = APIRouter(prefix="/api", tags=["learn"])


class TurningPoint(BaseModel):
    turn: int = Field(description="the first turn from whose start the game could not be won")


class Review(BaseModel):
    status: Literal["pending", "done"]
    verdict: Literal["won", "lost", "unknown"] = Field(
        description="`won`: a team seeing every hand could have won this deal (`line`); "
        "`lost`: no team could have (proven); `unknown`: not decided within the budget "
        "(and while `pending`)"
    )
    line: list[dict[str, Any]] = Field(
        description="a winning line when `won`: `bots.solver.apply_line(state, line, "
        "sides)` replays it on the deal's first state"
    )
    sides: list[str | None] | None = Field(
        description="the side of each seat the line chose (Species biodiversity), or null"
    )
    turning_point: TurningPoint | None


@router.get("/rooms/{room}/review", response_model=Review, responses=ERRORS)
async def review(room: RoomDep, manager: ManagerDep, game: GameNumber = None) -> dict[str, Any]:
    """Any seat or spectator, once the game is over (409 `game_not_over` before): the
    solver's look at the deal with every hand open. `pending` while it thinks (it
    started when the game ended; ask again in a few seconds), then `done`, stored
    with the game. ``game``: an earlier game of the room."""
    return await manager.review(room, game)


@router.get("/rooms/{room}/review/steps", response_model=ReplaySteps, responses=ERRORS)
async def review_steps(
    room: RoomDep,
    manager: ManagerDep,
    game: GameNumber = None,
    offset: Offset = 0,
    limit: Limit = MAX_STEPS_PER_PAGE,
) -> dict[str, Any]:
    """Once the review says `won`: the winning line played on the deal, step by step with
    every hand visible, in the shape (and pages) of `/replay/steps` (409 `no_winning_line`
    while the review is pending or when it found none)."""
    replay = await manager.replay(room, game)
    found = await manager.review(room, game)
    if found["status"] != "done" or found["verdict"] != "won":
        raise Refused("no_winning_line", "The review has no winning line for this game.")
    names = {p["seat"]: p["name"] for p in manager.public_info(room)["players"]}
    async with building:  # replaying the line: off the event loop, bounded as the replays
        return await run_in_threadpool(_line_steps, replay, found, names, offset, limit)


def _line_steps(
    replay: dict[str, Any],
    found: dict[str, Any],
    names: dict[int, str],
    offset: int,
    limit: int,
) -> dict[str, Any]:
    from ...bots.solver import apply_line
    from ...engine.game import get_game
    from ...engine.state import State

    setup = {k: v for k, v in replay["setup"].items() if k != "deal_chosen_by_host"}
    state = State.new(get_game(setup["num_players"], tuple(setup["modes"])), setup)
    apply_line(state, found["line"], found["sides"])
    steps, total = replay_steps(replay["setup"], state.history, offset, limit)
    return {
        "room": replay["room"],
        "game": replay["game"],
        "modes": list(setup["modes"]),
        "players": [{"seat": s, "name": names.get(s, "")} for s in range(setup["num_players"])],
        "result": state.result,
        "campaign": None,
        **table_shape(setup),
        "steps": steps,
        "total_steps": total,
        "offset": offset,
        "next_offset": offset + limit if offset + limit < total else None,
    }
