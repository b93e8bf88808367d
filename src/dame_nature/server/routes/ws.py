"""``GET /api/rooms/{room}/ws?token=..``: the live view of a seat (no token: a spectator).

The server sends ``{"type": "state", "view": ..}`` on connect and after every change;
the client sends ``{"type": "action", "action": ..}`` (or ``{"type": "ping"}``) and gets
``{"type": "error", "error": {"code", "message"}}`` on refusal, the connection staying
open. Fatal errors (unknown room, bad token, message too large) are sent as an error
message, then the socket is closed with a 44xx code (1009 for a message too large).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import ValidationError

from ..connections import Connection
from ..errors import ApiError
from ..jsonio import dumps, loads
from ..models import WsAction, WsClientAdapter, action_to_engine
from ..rooms import Room, RoomManager
from ..settings import Settings

router = APIRouter()

CLOSE_CODES = {401: 4401, 403: 4403, 404: 4404, 409: 4409, 429: 4429}


def error_message(code: str, message: str) -> str:
    return dumps({"type": "error", "error": {"code": code, "message": message}})


@router.websocket("/api/rooms/{room}/ws")
async def room_socket(websocket: WebSocket, room: str, token: str | None = None) -> None:
    manager: RoomManager = websocket.app.state.manager
    settings: Settings = websocket.app.state.settings
    await websocket.accept()
    try:
        found = await manager.get(room)
        seat = None
        if token is not None:
            seat = found.seat_for_token(token)
            if seat is None:
                raise ApiError(401, "invalid_token", "This token is not a seat of this room.")
    except ApiError as err:
        await websocket.send_text(error_message(err.code, err.message))
        await websocket.close(CLOSE_CODES.get(err.status, 4400))
        return
    conn = Connection(websocket, seat, settings)
    try:
        await manager.connect(found, conn)
    except ApiError as err:
        await websocket.send_text(error_message(err.code, err.message))
        await websocket.close(CLOSE_CODES.get(err.status, 4400))
        return
    try:
        await _serve(websocket, manager, settings, found, conn)
    except WebSocketDisconnect:
        pass
    finally:
        await manager.disconnect(found, conn)


async def _serve(
    websocket: WebSocket, manager: RoomManager, settings: Settings, room: Room, conn: Connection
) -> None:
    limit = settings.max_message_bytes
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        raw: Any = message.get("text")
        if raw is None:
            raw = message.get("bytes") or b""
        size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
        if size > limit:
            conn.push(error_message("message_too_large", f"A message may hold {limit} bytes."))
            await conn.flush()
            await websocket.close(1009)
            return
        if not conn.bucket.take():
            conn.push(error_message("rate_limited", "Too many messages: slow down."))
            continue
        try:
            data = loads(raw)
        except (ValueError, UnicodeDecodeError):
            conn.push(error_message("invalid_json", "A message is one JSON object."))
            continue
        try:
            parsed = WsClientAdapter.validate_python(data)
        except ValidationError as err:
            conn.push(error_message("invalid_message", _first_problem(err)))
            continue
        if not isinstance(parsed, WsAction):
            conn.push(dumps({"type": "pong"}))
            continue
        if conn.seat is None:
            conn.push(error_message("not_a_player", "A spectator cannot play."))
            continue
        try:
            await manager.act(room, conn.seat, action_to_engine(parsed.action))
        except ApiError as err:
            conn.push(error_message(err.code, err.message))


def _first_problem(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    at = f" at '{where}'" if where else ""
    return f"Invalid message: {first['msg']}{at}."
