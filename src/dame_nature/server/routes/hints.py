"""``GET /api/rooms/{room}/hint``: the expert's choice for the token's seat, and why."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from ..clients import client_address
from ..deps import ManagerDep, RoomDep, SeatRefDep
from .rooms import ERRORS

router = APIRouter(prefix="/api", tags=["learn"])


class Hint(BaseModel):
    action: dict[str, Any] = Field(
        description="one of the seat's legal actions now (as `/legal_actions` lists them)"
    )
    reason: str = Field(description="one sentence why, in English")
    reason_fr: str = Field(description="the same sentence in French")


@router.get("/rooms/{room}/hint", response_model=Hint, responses={**ERRORS, 503: ERRORS[409]})
async def hint(
    request: Request, room: RoomDep, seat: SeatRefDep, manager: ManagerDep
) -> dict[str, Any]:
    """With the seat token: the expert bot's choice for your seat, computed from your
    seat's view only, with one sentence why. On in rooms where every other seat is a
    bot; in rooms of people when the host switched `hints` on in the rules (else 403
    `hints_off`). 409 `nothing_to_do` when the seat has nothing to do. Each hint taken
    counts in `hints_taken`, shown to every seat."""
    return await manager.hint(room, seat, client_address(request.scope))
