"""The daily deal (``daily.py``): today's deals, a room of one, and the results of
every table once your own has finished."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, BeforeValidator, Field

from ..clients import client_address
from ..daily import PLAYER_COUNTS
from ..deps import ManagerDep, TokenDep
from ..models import Flag, _Body, whole
from .rooms import ERRORS

router = APIRouter(prefix="/api", tags=["daily"])


class DailyDeal(BaseModel):
    players: int
    finished: int = Field(description="the tables whose game of this deal is over")
    won: int = Field(description="the tables that won it")


class DailyToday(BaseModel):
    date: str = Field(description="today, `YYYY-MM-DD` (UTC)")
    modes: list[str] = Field(description="the advanced rules of the daily deals (none)")
    next_in: int = Field(description="seconds until the next day's deals (midnight UTC)")
    deals: list[DailyDeal] = Field(description="one deal per player count, 3 to 6")


class DailyCreate(_Body):
    players: Annotated[
        int,
        Field(strict=True, ge=min(PLAYER_COUNTS), le=max(PLAYER_COUNTS)),
        BeforeValidator(whole),
    ] = Field(description="the player count of the deal: the room seats exactly that many")
    hints: Flag = Field(
        default=False,
        description="hints from the expert for every seat (else only when one person plays)",
    )


class DailyCreated(BaseModel):
    room: str
    url: str
    host_token: str
    date: str
    players: int


class DailyTable(BaseModel):
    won: bool
    placed: int = Field(description="cards in the web of life at the end")
    slots: int = Field(description="the web's places")
    discards: int
    turns: int
    people: int = Field(description="seats played by people")
    bots: int = Field(description="seats played by bots from the start")
    stand_in_moves: int = Field(description="moves a bot played for a person who left")
    hints: int = Field(description="hints from the expert the table took")
    mine: bool = Field(description="the table of the room that asks")


class DailyVerdict(BaseModel):
    status: Literal["pending", "done"]
    verdict: Literal["won", "lost", "unknown"] = Field(
        description="`won`: a team seeing every hand can win this deal; `lost`: none can "
        "(proven); `unknown`: not decided within the solver's budget (and while pending)"
    )
    turns: int | None = Field(description="the turns of the winning line found, when `won`")


class DailyResults(BaseModel):
    date: str
    players: int
    finished: int
    won: int
    tables: list[DailyTable] = Field(description="every table that finished, first first")
    verdict: DailyVerdict


DayPath = Annotated[str, Path(max_length=10, description="`YYYY-MM-DD`")]
PlayersPath = Annotated[int, Path(ge=0, le=1000)]
RoomQuery = Annotated[
    str,
    Query(
        min_length=8,
        max_length=64,
        pattern="^[A-Za-z0-9_-]+$",
        description="the code of your room of this deal",
    ),
]


@router.get("/daily", response_model=DailyToday, responses=ERRORS)
async def daily_today(manager: ManagerDep) -> dict[str, Any]:
    """Today's deals, one per player count (no card of them): how many tables finished
    and won each so far."""
    return await manager.daily.summary()


@router.post("/daily", status_code=201, response_model=DailyCreated, responses=ERRORS)
async def daily_room(body: DailyCreate, manager: ManagerDep, request: Request) -> dict[str, Any]:
    """A room of today's deal for `players` (answered as `POST /api/rooms`): then the
    lobby as usual, friends and bots up to exactly `players` seats. Its first game is
    the deal; a rematch is a new ordinary deal."""
    room = await manager.daily.create(body.players, body.hints, client_address(request.scope))
    daily = room.daily
    assert daily is not None
    return {
        "room": room.code,
        "url": f"/r/{room.code}",
        "host_token": room.host_token,
        "date": daily["date"],
        "players": daily["players"],
    }


@router.get("/daily/{date}/{players}/results", response_model=DailyResults, responses=ERRORS)
async def daily_results(
    date: DayPath, players: PlayersPath, room: RoomQuery, token: TokenDep, manager: ManagerDep
) -> dict[str, Any]:
    """With a seat token (or the host token) of `room`, a room of this deal: once its
    game of the deal is over, how every table that finished it did, and the solver's
    verdict on the deal (`pending` while it thinks). 409 `daily_not_finished` before."""
    return await manager.daily.results(date, players, room, token)
