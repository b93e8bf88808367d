"""``/api/admin/``: what a host does with the admin token: list the rooms, close one,
take a seat from its player, send a message to every table, read the admin log.

There is no such route unless ``DAME_NATURE_ADMIN_TOKEN`` is set (404, as for any
address that does not exist). Then every request is counted against the admin rate of
its client address first (429), and must carry ``Authorization: Bearer <the token>``
(401 without, 403 with another; compared in constant time). A token in the URL is
refused (400 ``token_in_url``: URLs end up in logs). Every change is written to the
admin log with who made it: the label the admin gives (``X-Admin-Label``), else the
token's fingerprint.
"""

from __future__ import annotations

import hashlib
import time
from typing import Annotated, Any
from urllib.parse import unquote

from fastapi import APIRouter, Depends, Header, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field
from starlette.exceptions import HTTPException

from ..clients import client_address
from ..deps import ManagerDep, RoomDep, SettingsDep, TokenDep
from ..errors import Refused
from ..ratelimit import Rate
from ..rooms.admin import MAX_MESSAGE
from ..rooms.model import same_secret
from .rooms import ERRORS

#: the longest label an admin gives themself
MAX_LABEL = 40


def fingerprint(token: str) -> str:
    """Who an unlabelled admin is in the log: the start of the token's SHA-256.

    >>> fingerprint("secret")
    'token:2bb80d537b1d'
    """
    return "token:" + hashlib.sha256(token.encode()).hexdigest()[:12]


async def get_admin(
    request: Request,
    settings: SettingsDep,
    token: TokenDep,
    label: Annotated[
        str | None,
        Header(
            alias="X-Admin-Label",
            description="who acts, for the admin log (40 characters; percent-encoded UTF-8)",
        ),
    ] = None,
) -> str:
    """Who acts with the admin token (its label, or the token's fingerprint)."""
    expected = settings.admin_token.get_secret_value() if settings.admin_token else ""
    if not expected:
        raise HTTPException(404)
    rate = Rate("admin", settings.admin_rate_per_second, settings.admin_rate_burst)
    limiter = request.app.state.rate_limiter
    if not await limiter.hit(rate, client_address(request.scope)):
        raise Refused("rate_limited", "Too many admin requests: wait a minute.")
    if any(key.lower() in ("token", "admin_token", "access_token") for key in request.query_params):
        raise Refused("token_in_url", "Send the admin token in the Authorization header only.")
    if token is None:
        raise Refused("missing_token", "This needs the admin token (Authorization: Bearer).")
    if not same_secret(token, expected):
        raise Refused("not_admin", "This is not the admin token.")
    given = " ".join(unquote(label or "").split())[:MAX_LABEL]
    return given if given.isprintable() and given else fingerprint(token)


AdminDep = Annotated[str, Depends(get_admin)]

# the token is checked before anything else (a room's existence is not told to others)
router = APIRouter(
    prefix="/api/admin", tags=["admin"], dependencies=[Depends(get_admin)], responses=ERRORS
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class Message(_Body):
    message: Annotated[str, Field(min_length=1, max_length=MAX_MESSAGE)]


class CloseRoom(_Body):
    message: Annotated[str, Field(max_length=MAX_MESSAGE)] = ""


class AdminSeat(BaseModel):
    seat: int
    name: str
    bot: str | None
    human: bool
    connected: bool | None = None


class AdminRoom(BaseModel):
    code: str
    status: str
    game_no: int
    created_at: float
    updated_at: float
    age_seconds: float
    players: list[AdminSeat]
    nodes: list[str]
    held_here: bool


class AdminRooms(BaseModel):
    node: str
    rooms: list[AdminRoom]


class AdminLogEntry(BaseModel):
    id: int
    at: float
    who: str
    action: str
    target: str | None
    detail: dict[str, Any] | None


class AdminLog(BaseModel):
    entries: list[AdminLogEntry]


def _entry(who: str, action: str, target: str | None, **detail: Any) -> dict[str, Any]:
    """An admin log entry, written with the action it tells of."""
    return {"who": who, "action": action, "target": target, "detail": detail}


@router.get("/rooms", response_model=AdminRooms)
async def rooms(
    manager: ManagerDep,
    settings: SettingsDep,
    who: AdminDep,
    limit: Annotated[int, Query(ge=1, le=500)] = 200,
) -> dict[str, Any]:
    """The stored rooms, newest first: status, seats, age, and the nodes their seats
    are connected to (``held_here``: this node has it in memory)."""
    store = manager.store
    found = await store.call(store.admin_rooms, limit)
    now = time.time()
    coordination = manager.coordination
    # a node of a cluster by the name it stores its presence under (generated when
    # DAME_NATURE_NODE is not set); the one node of a SQLite store has no stored name
    node = coordination.node if coordination.shared else settings.node or "this node"
    for room in found:
        held = manager.rooms.get(room["code"])
        room["held_here"] = held is not None
        room["age_seconds"] = round(now - room["created_at"], 1)
        if held is not None:
            for seat in room["players"]:
                seat["connected"] = held.connected(seat["seat"])
            if manager.hub.count(room["code"]) and node not in room["nodes"]:
                room["nodes"] = sorted({*room["nodes"], node})
    return {"node": node, "rooms": found}


@router.post("/rooms/{room}/close")
async def close_room(
    room: RoomDep, manager: ManagerDep, who: AdminDep, body: CloseRoom | None = None
) -> dict[str, Any]:
    """Close a room: its sockets get ``{"type": "room_closed", "message"}``, then close
    (4404); the room is deleted (its games' results stay in the statistics)."""
    message = body.message.strip() if body else ""
    entry = _entry(who, "close_room", room.code, message=message, status=room.status,
                   players=len(room.players))  # fmt: skip
    told = await manager.close_room(room, message, entry)
    return {"room": room.code, "closed": True, "sockets_told": told}


@router.delete("/rooms/{room}/seats/{seat}")
async def remove_seat(
    room: RoomDep, manager: ManagerDep, who: AdminDep, seat: Annotated[int, Path(ge=0, le=5)]
) -> dict[str, Any]:
    """Take a seat from its player: removed in the lobby (``removed``); during a game a
    bot plays it (``bot``) and the player's token stops working. Its sockets get
    ``seat_removed`` and watch."""
    outcome = await manager.revoke_seat(room, seat, _entry(who, "remove_seat", room.code))
    return {"room": room.code, "seat": seat, "outcome": outcome}


@router.post("/announce")
async def announce(body: Message, manager: ManagerDep, who: AdminDep) -> dict[str, Any]:
    """Send a message to every table: each socket (seats and spectators, every node)
    gets ``{"type": "announcement", "message", "at"}``."""
    store = manager.store
    # the other nodes hear it on the channels of the rooms they hold seats of
    codes = await store.call(store.connected_rooms) if store.shared else []
    message = " ".join(body.message.split())
    entry = _entry(who, "announce", None, message=message)
    told = await manager.announce(codes, message, entry)
    return {"sockets_told": told}


@router.get("/log", response_model=AdminLog)
async def admin_log(
    manager: ManagerDep, who: AdminDep, limit: Annotated[int, Query(ge=1, le=500)] = 200
) -> dict[str, Any]:
    """Every admin change, newest first: who, what, on which room, when."""
    store = manager.store
    return {"entries": await store.call(store.admin_log, limit)}
