"""FastAPI dependencies as ``Annotated`` aliases: ``ManagerDep``, ``RoomDep``, ``TokenDep``,
``SeatDep`` (a player's seat from its Bearer token) and ``ViewerDep`` (a seat or a
spectator); ``SeatRefDep`` and ``ViewerRefDep`` check the token at once, like them, and
give the room's commands a ``SeatRef`` that reads the seat again under the room's lock
(what acts and what reads a view use: seats move in the lobby)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Header, Request

from .errors import Refused
from .rooms import Room, RoomManager
from .rooms.play import SeatRef, by_token
from .settings import Settings


async def get_manager(request: Request) -> RoomManager:
    manager: RoomManager = request.app.state.manager
    return manager


async def get_settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


ManagerDep = Annotated[RoomManager, Depends(get_manager)]
SettingsDep = Annotated[Settings, Depends(get_settings)]


async def get_room(room: str, manager: ManagerDep) -> Room:
    return await manager.get(room)


RoomDep = Annotated[Room, Depends(get_room)]


async def get_token(
    authorization: Annotated[
        str | None, Header(description="`Bearer <token>`: a seat token or the host token")
    ] = None,
) -> str | None:
    """The Bearer token, if any (a malformed header is refused)."""
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise Refused("invalid_token", "Send the token as 'Authorization: Bearer <token>'.")
    return token


TokenDep = Annotated[str | None, Depends(get_token)]


async def get_viewer(room: RoomDep, token: TokenDep) -> int | None:
    """The seat of the token, or ``None`` (a spectator) without a token."""
    return by_token(token)(room)


ViewerDep = Annotated[int | None, Depends(get_viewer)]


async def get_seat(room: RoomDep, token: TokenDep) -> int:
    """The seat of the token; a token is required."""
    if token is None:
        raise Refused("missing_token", "This needs your seat token (Authorization: Bearer).")
    seat = await get_viewer(room, token)
    assert seat is not None
    return seat


SeatDep = Annotated[int, Depends(get_seat)]


async def get_viewer_ref(room: RoomDep, token: TokenDep) -> SeatRef | None:
    """Who reads: ``None`` (a spectator) without a token, else the token's seat, checked
    now (401 at once) and read again under the room's lock, where it is used (the seats
    may move meanwhile)."""
    if token is None:
        return None
    await get_viewer(room, token)
    return by_token(token)


async def get_seat_ref(room: RoomDep, token: TokenDep) -> SeatRef:
    """``get_viewer_ref`` where a token is required."""
    await get_seat(room, token)
    return by_token(token)


ViewerRefDep = Annotated[SeatRef | None, Depends(get_viewer_ref)]
SeatRefDep = Annotated[SeatRef, Depends(get_seat_ref)]
