"""``GET /api/rooms/{room}/ws``: the live view of a seat (no token: a spectator).

The seat token is given, best first, as the subprotocol ``dame-nature.token.<token>``
offered next to ``dame-nature`` (the server answers ``dame-nature``, never the token), or
as a first message ``{"type": "auth", "token": ..}``, or (older clients) as ``?token=``
in the URL, which the logs never show.

The server sends ``{"type": "state", "view": ..}`` on connect and after every change;
the client sends ``{"type": "action", "action": ..}`` (or ``{"type": "ping"}``) and gets
``{"type": "error", "error": {"code", "message"}}`` on refusal, the connection staying
open. Fatal errors (unknown room, bad token, too many connections) are sent as an error
message, then the socket is closed with a 44xx code; a message too large closes it
with 1009; a client that floods it or does not read what it asked for, with 1008.
"""

from __future__ import annotations

import asyncio
import contextlib
import resource
from collections import deque
from collections.abc import Awaitable, Coroutine, Generator
from typing import Any

from fastapi import APIRouter
from pydantic import ValidationError
from starlette.datastructures import State
from starlette.routing import WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect

from ..clients import client_address
from ..connections import Connection
from ..errors import Refused, close_code_of
from ..jsonio import dumps, loads
from ..models import (
    WsAction,
    WsAuth,
    WsClientAdapter,
    WsVisibility,
    action_to_engine,
    plain_ws_action,
)
from ..ratelimit import Rate, RateLimiter
from ..rooms import Room, RoomManager
from ..settings import Settings
from ..socket_front import AsgiSocket, query_param
from ..transport import Incoming, default_connection_cap

PROTOCOL = "dame-nature"
TOKEN_PROTOCOL = "dame-nature.token."


def error_message(code: str, message: str) -> str:
    return dumps({"type": "error", "error": {"code": code, "message": message}})


class SocketGuard:
    """Per-client limits of websockets: sockets open per address, connects per address
    and per seat token (a flapping client is refused 4429 and retries later), spectator
    sockets per address and on the whole node (a part of the connection slots, so a
    crowd of spectators never leaves a player without one)."""

    def __init__(self, settings: Settings, limiter: RateLimiter) -> None:
        self.settings = settings
        self.limiter = limiter
        self.open: dict[str, int] = {}
        #: the spectator sockets of each address, oldest first
        self.watchers: dict[str, dict[Connection, None]] = {}
        self.spectators = 0
        slots = settings.limit_concurrency or default_connection_cap(
            resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        )
        self.max_spectators = settings.max_spectators or max(1, slots // 2)
        self.by_address = Rate(
            "connects",
            settings.connect_address_rate_per_second,
            settings.connect_address_rate_burst,
        )
        self.by_token = Rate(
            "seat_connects", settings.connect_rate_per_second, settings.connect_rate_burst
        )

    async def check_address(self, address: str, seated: bool = False) -> None:
        """``too_many_connections`` past the address's open sockets, unless a player
        (``seated``: it brings a seat token) needs one while the address's spectators hold
        them: then its oldest spectator socket is closed (4429) to make room."""
        if self.open.get(address, 0) >= self.settings.max_connections_per_address:
            # a spectator that has since said who it is (``auth``) plays: never closed
            watching = self.watchers.get(address, {})
            oldest = next((conn for conn in watching if conn.seat is None), None)
            if not seated or oldest is None:
                raise Refused("too_many_connections", "Too many connections from your address.")
            self.unwatch(address, oldest)
            oldest.abort(close_code_of("too_many_connections"))
        if not await self.limiter.hit(self.by_address, address):
            raise Refused("too_many_connects", "Reconnecting too often: wait a moment.")

    async def check_token(self, token: str) -> None:
        if not await self.limiter.hit(self.by_token, token):
            raise Refused("too_many_connects", "Reconnecting too often: wait a moment.")

    def check_watch(self, address: str) -> None:
        """``too_many_spectators`` when this address, or this node, has as many spectator
        sockets as it may (a player with a seat token is never counted here)."""
        if len(self.watchers.get(address, ())) >= self.settings.max_spectators_per_address:
            raise Refused("too_many_spectators", "Your address watches as many games as it may.")
        if self.spectators >= self.max_spectators:
            raise Refused(
                "too_many_spectators", "This server has as many spectators as it can take."
            )

    def watch(self, address: str, conn: Connection) -> None:
        """``conn``, a spectator socket of ``address``, opened."""
        self.watchers.setdefault(address, {})[conn] = None
        self.spectators += 1

    def unwatch(self, address: str, conn: Connection) -> None:
        """``conn`` stops being counted as a spectator (closed, or closed to make room)."""
        conns = self.watchers.get(address)
        if conns is None or conn not in conns:
            return
        del conns[conn]
        self.spectators -= 1
        if not conns:
            del self.watchers[address]

    def opened(self, address: str) -> None:
        self.open[address] = self.open.get(address, 0) + 1

    def closed(self, address: str) -> None:
        left = self.open.get(address, 0) - 1
        if left > 0:
            self.open[address] = left
        else:
            self.open.pop(address, None)


def socket_guard(state: State) -> SocketGuard:
    guard: SocketGuard | None = getattr(state, "socket_guard", None)
    if guard is None:
        guard = state.socket_guard = SocketGuard(state.settings, state.rate_limiter)
    return guard


def refusal(manager: RoomManager, code: str, message: str) -> str:
    """An ``error`` message, counted in the metrics' refusals."""
    manager.metrics.refused(code)
    return error_message(code, message)


async def refuse(websocket: AsgiSocket, err: Refused) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(error_message(err.code, err.message))
        await websocket.close(err.close_code)


async def seat_of(room: Room, guard: SocketGuard, token: str) -> int:
    await guard.check_token(token)
    seat = room.seat_for_token(token)
    if seat is None:
        raise Refused("invalid_token", "This token is not a seat of this room.")
    return seat


class RoomSocket:
    """The route's ASGI app (an instance, not a function: Starlette calls it as it is,
    with no ``WebSocket`` session around it). ``SocketFront`` calls it ahead of the
    middlewares; the router, in an app without the front. It hands back
    ``room_socket``'s coroutine: no frame of its own stays suspended."""

    def __call__(self, scope: Scope, receive: Receive, send: Send) -> Awaitable[None]:
        return room_socket(scope, receive, send)


#: ``SocketFront`` hands the sockets this route matches straight to its app
route = WebSocketRoute("/api/rooms/{room}/ws", RoomSocket(), name="room_socket")
router = APIRouter()
router.routes.append(route)


async def room_socket(scope: Scope, receive: Receive, send: Send) -> None:
    """A room's websocket: the room code from the path, the seat token from the query
    string (as FastAPI read them) or a subprotocol."""
    state: State = scope["app"].state
    websocket = AsgiSocket(receive, send)
    room: str = scope["path_params"]["room"]
    token = query_param(scope, "token")
    manager: RoomManager = state.manager
    settings: Settings = state.settings
    guard = socket_guard(state)
    address = client_address(scope)
    offered: list[str] = list(scope.get("subprotocols") or [])
    for protocol in offered:
        if protocol.startswith(TOKEN_PROTOCOL) and token is None:
            token = protocol[len(TOKEN_PROTOCOL) :]
    await websocket.accept(subprotocol=PROTOCOL if PROTOCOL in offered else None)
    try:
        await guard.check_address(address, seated=token is not None)
        found = await manager.get(room)
        seat = await seat_of(found, guard, token) if token is not None else None
    except Refused as err:
        await refuse(websocket, err)
        return
    guard.opened(address)
    conn = Connection(websocket, seat, settings, manager.metrics.outbox_drops.inc)
    try:
        try:
            if seat is None:
                guard.check_watch(address)
            await manager.connect(found, conn, token)
            if seat is None:  # counted as a spectator of its address until it closes
                guard.watch(address, conn)
        except Refused as err:
            if seat is not None or err.code != "too_many_spectators":
                raise
            # the spectator places are taken: this may be a player about to say who it is
            await _auth_first(websocket, manager, settings, guard, found, conn, err)
        how = await Receiver(websocket, manager, guard, found, conn).serve()
        await _end_reading(websocket, conn, how)
    except Refused as err:
        await refuse(websocket, err)
    except WebSocketDisconnect:
        pass
    finally:
        guard.unwatch(address, conn)
        guard.closed(address)
        await manager.disconnect(found, conn)


async def _auth_first(
    websocket: AsgiSocket,
    manager: RoomManager,
    settings: Settings,
    guard: SocketGuard,
    room: Room,
    conn: Connection,
    full: Refused,
) -> None:
    """Wait (briefly) for an ``auth`` message, then attach the socket to its seat
    (``full``, the spectators' refusal, if none comes)."""
    try:
        message = await asyncio.wait_for(
            websocket.receive(), timeout=settings.ws_auth_timeout_seconds
        )
    except TimeoutError:
        raise full from None
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    try:
        parsed = WsClientAdapter.validate_python(loads(_raw(message)))
    except (ValueError, UnicodeDecodeError, ValidationError):
        raise full from None
    if not isinstance(parsed, WsAuth):
        raise full
    conn.seat = await seat_of(room, guard, parsed.token)
    await manager.connect(room, conn, parsed.token)


def _raw(message: Any) -> Incoming:
    raw: Incoming | None = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
    return raw


#: how a socket's reading ended (``Receiver.ended``): the client's end came (it closed,
#: went away, or the server closed it); it flooded (1008, once told so); the server
#: closes it (1008: its outbox overflowed); its message was too large (1009)
GONE, FLOODED, CLOSING, TOO_LARGE = "gone", "flooded", "closing", "too_large"


class Receiver:
    """A room socket's messages from the client, each handled in the order it came.

    Where the server can (``AsgiSocket.listen``), each message is handed over as it is
    parsed and handled at once: a ping, a visibility, a refusal (the rate, a bad
    message) need no ``await``. An action or an ``auth`` runs at once too, as far as it
    goes without waiting (on SQLite, with its room's lock free, an action is saved and
    broadcast without waiting at all); only the rest of one that waits runs in a task,
    ending with it; while it runs, reading is paused and the messages already read
    wait in ``pending`` (the mirror of a ``Connection``'s outbox and sender). Between
    two messages the socket keeps no task and no wait of its own: its handler waits on
    ``ended`` for its whole life.
    Elsewhere (another server, a middleware around ``send``), ``serve`` awaits each
    message from the ASGI ``receive`` and hands it over the same way.

    ``ended`` is resolved once: with how the reading ended (``GONE``, ``FLOODED``,
    ``CLOSING``, ``TOO_LARGE``), or with the exception a message's handling raised
    (``Refused`` for a bad ``auth`` token: the socket is closed with its code), once no
    message is being handled any more.
    """

    __slots__ = (
        "websocket",
        "manager",
        "guard",
        "room",
        "conn",
        "pending",
        "task",
        "gone",
        "ended",
    )

    def __init__(
        self,
        websocket: AsgiSocket,
        manager: RoomManager,
        guard: SocketGuard,
        room: Room,
        conn: Connection,
    ) -> None:
        self.websocket = websocket
        self.manager = manager
        self.guard = guard
        self.room = room
        self.conn = conn
        #: messages read while one was being handled, oldest first (made when needed)
        self.pending: deque[Incoming] | None = None
        #: the handling of a message that awaits, and of those that came meanwhile
        self.task: asyncio.Task[None] | None = None
        #: the socket's end came (its reading ends once no message is being handled)
        self.gone = False
        self.ended: asyncio.Future[str] = asyncio.get_running_loop().create_future()

    async def serve(self) -> str:
        """Handle the socket's messages until its reading ends: how it ended."""
        try:
            if not self._listen():
                return await self._receive_each()
            return await self.ended
        finally:
            if self.task is not None:  # cancelled (the server stopped waiting)
                self.task.cancel()

    def _listen(self) -> bool:
        """Take the messages as they are parsed, those queued so far first; False when
        the server cannot hand them over."""
        queued = self.websocket.listen(self)
        if queued is None:
            return False
        for message in queued:
            if message["type"] == "websocket.disconnect":
                self.on_end(message)
            else:
                self.on_message(_raw(message))
        if self.task is None:
            self.websocket.resume_reading()
        return True

    async def _receive_each(self) -> str:
        """``serve`` on the ASGI ``receive``: the next message is awaited once the
        previous one is handled."""
        while not self.ended.done():
            message = await self.websocket.receive()
            if message["type"] == "websocket.disconnect":
                self.on_end(message)
                break
            self.on_message(_raw(message))
            if self.task is not None:
                await asyncio.wait((self.task,))
        return await self.ended

    def on_message(self, raw: Incoming) -> None:
        """A message from the client: handled now, or after those before it."""
        if self.ended.done():
            return
        if self.task is not None:
            if self.pending is None:
                self.pending = deque()
            self.pending.append(raw)
            return
        try:
            work = self._handle_now(raw)
            if work is None:
                return
            # run at once, as far as it goes without waiting: an action on SQLite
            # (the lock free, the commit inline) ends here, with no task made, no turn
            # of the event loop and reading never paused
            waiting = work.send(None)
        except StopIteration:  # handled, with nothing awaited
            return
        except Exception as err:  # as an exception of the handler: the socket ends
            self._end(err)
            return
        # it waits (the room's lock taken, a store on a thread): the rest in a task
        self.websocket.pause_reading()
        self.task = asyncio.get_running_loop().create_task(self._finish(work, waiting))

    def on_end(self, message: Any) -> None:
        """The socket's ``websocket.disconnect``."""
        self.gone = True
        if self.task is None:
            self._end(GONE)

    def _end(self, outcome: str | Exception) -> None:
        ended = self.ended
        if ended.done():
            return
        # nothing more is read from the client until the server closes it (then only
        # its close frame, ``transport``'s guard cutting off one that keeps sending)
        self.websocket.pause_reading()
        if isinstance(outcome, str):
            ended.set_result(outcome)
        else:
            ended.set_exception(outcome)

    async def _finish(self, work: Coroutine[Any, Any, None], waiting: Any) -> None:
        """The rest of a message's handling, which waits for ``waiting`` (``on_message``
        ran it until then), then the handling of those read meanwhile."""
        try:
            await _resumed(work, waiting)
            while self.pending and not self.ended.done():
                work_next = self._handle_now(self.pending.popleft())
                if work_next is not None:
                    await work_next
        except Exception as err:
            self._end(err)
        finally:
            self.task = None
            self.pending = None
            if self.gone:
                self._end(GONE)
            elif not self.ended.done():
                self.websocket.resume_reading()

    def _handle_now(self, raw: Incoming) -> Coroutine[Any, Any, None] | None:
        """One message: handled now, or what is left to await (an action, an ``auth``)."""
        conn, manager = self.conn, self.manager
        if conn.close_code is not None:  # the outbox overflowed: stop reading
            self._end(CLOSING)
            return None
        verdict = conn.admit()  # before anything else: refused messages cost nothing
        if verdict != "ok":
            if verdict == "close":
                self._end(FLOODED)
            elif verdict == "notice":
                conn.push(refusal(manager, "rate_limited", "Too many messages: slow down."))
            return None
        limit = manager.settings.max_message_bytes
        if len(raw) > limit or (isinstance(raw, str) and len(raw.encode("utf-8")) > limit):
            conn.push(refusal(manager, "message_too_large", f"A message may hold {limit} bytes."))
            self._end(TOO_LARGE)
            return None
        return _handle(manager, self.guard, self.room, conn, raw)


class _Again:
    """Awaited, yields ``waiting`` to the task once: what a coroutine yielded to
    whatever drove it (a future it waits for, or None for a bare turn of the loop)."""

    __slots__ = ("waiting",)

    def __init__(self, waiting: Any) -> None:
        self.waiting = waiting

    def __await__(self) -> Generator[Any, None, None]:
        yield self.waiting


async def _resumed(work: Coroutine[Any, Any, None], waiting: Any) -> None:
    """The rest of ``work``, whose last step yielded ``waiting``, driven as its own task
    would drive it: each yield handed to this task, then ``work`` resumed with
    ``send(None)`` or with what the task was woken with (a failed future, a
    cancellation) thrown into it."""
    while True:
        try:
            await _Again(waiting)
        except BaseException as err:
            try:
                waiting = work.throw(err)
            except StopIteration:
                return
        else:
            try:
                waiting = work.send(None)
            except StopIteration:
                return


async def _end_reading(websocket: AsgiSocket, conn: Connection, how: str) -> None:
    """Close a socket whose reading ended ``how`` (nothing to do when the client went)."""
    if how == GONE:
        return
    if how == TOO_LARGE:
        await conn.flush()
        await websocket.close(1009)
        return
    if how == FLOODED:  # what it was told (the notice) goes first
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(conn.flush(), timeout=1)
        conn.abort(1008)
    # closed by the server (1008): the close frame goes out unless the client does not
    # read at all; either way the handler ends now and uvicorn drops what comes next
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(conn.close_code or 1008), timeout=0.5)


def _handle(
    manager: RoomManager, guard: SocketGuard, room: Room, conn: Connection, raw: Incoming
) -> Coroutine[Any, Any, None] | None:
    """One message admitted from the client, handled now if it can be; else what is left
    to await. What it parses to lives only as long as its handling (no container left
    for the cyclic collector to walk)."""
    try:
        data = loads(raw)
    except (ValueError, UnicodeDecodeError):
        conn.push(refusal(manager, "invalid_json", "A message is one JSON object."))
        return None
    action = plain_ws_action(data)  # the usual action, as the models would take it
    if action is None:
        try:
            parsed = WsClientAdapter.validate_python(data)
        except ValidationError as err:
            conn.push(refusal(manager, "invalid_message", _first_problem(err)))
            return None
        if isinstance(parsed, WsAuth):
            return _auth(manager, guard, room, conn, parsed.token)
        if isinstance(parsed, WsVisibility):
            manager.set_visible(room, conn, parsed.visible)
            return None
        if not isinstance(parsed, WsAction):
            conn.push(dumps({"type": "pong"}))
            return None
        action = action_to_engine(parsed.action)
    if conn.seat is None:
        conn.push(refusal(manager, "not_a_player", "A spectator cannot play."))
        return None
    return _play(manager, room, conn, action)


async def _play(manager: RoomManager, room: Room, conn: Connection, action: Any) -> None:
    try:
        await manager.play(room, conn, action)
    except Refused as err:
        conn.push(refusal(manager, err.code, err.message))


async def _auth(
    manager: RoomManager, guard: SocketGuard, room: Room, conn: Connection, token: str
) -> None:
    """``{"type": "auth", "token": ..}`` on an open socket: a spectator becomes the
    token's seat (a bad token closes the socket, 4401, as in the URL)."""
    seat = await seat_of(room, guard, token)  # raises: the caller closes the socket
    if conn.seat == seat:
        manager.send_view(room, conn)
        return
    if conn.seat is not None:
        conn.push(error_message("already_seated", "This connection already plays a seat."))
        return
    await manager.take_seat(room, conn, token)


def _first_problem(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"])
    at = f" at '{where}'" if where else ""
    return f"Invalid message: {first['msg']}{at}."
