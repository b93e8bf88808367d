"""``POST /api/rooms/{room}/replay/play_from``: "Play from here", a new solo room that
starts at a step of a finished game's replay."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, BeforeValidator, Field

from ..bot_driver import default_level
from ..clients import client_address
from ..deps import ManagerDep, RoomDep
from ..models import PlayerName, Seat, _Body, whole
from .rooms import ERRORS

router = APIRouter(prefix="/api", tags=["learn"])


class PlayFrom(_Body):
    game: Annotated[int, Field(strict=True, ge=1, le=1_000_000), BeforeValidator(whole)] | None = (
        Field(default=None, description="the game of the room (default: the current one, over)")
    )
    actions: Annotated[int, Field(strict=True, ge=0, le=100_000), BeforeValidator(whole)] = Field(
        description="how many of the game's actions are played before you take over "
        "(the number of steps with an `action` up to the replay's step)"
    )
    seat: Seat = Field(description="the seat you play; every other seat is a bot")
    name: PlayerName = "Player"
    level: Annotated[str, Field(min_length=1, max_length=32)] | None = None


class PlayedFrom(BaseModel):
    room: str
    url: str
    host_token: str
    seat: int
    token: str


@router.post(
    "/rooms/{room}/replay/play_from", status_code=201, response_model=PlayedFrom, responses=ERRORS
)
async def play_from(
    room: RoomDep, body: PlayFrom, manager: ManagerDep, request: Request
) -> dict[str, Any]:
    """No token, once the game is over: a new room with this game's deal, already played
    up to `actions` actions, you at `seat` and bots (`level`) at every other seat,
    started at once. Keep the `token` (your seat) and `host_token`."""
    new, person = await manager.play_from(
        room,
        body.game,
        body.actions,
        body.seat,
        body.name,
        body.level or default_level(),
        client_address(request.scope),
    )
    return {
        "room": new.code,
        "url": f"/r/{new.code}",
        "host_token": new.host_token,
        "seat": person.seat,
        "token": person.token,
    }
