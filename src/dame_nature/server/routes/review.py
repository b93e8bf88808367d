"""``GET /api/rooms/{room}/review``: could the deal have been won, and where it slipped."""

from __future__ import annotations

from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ..deps import ManagerDep, RoomDep
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
