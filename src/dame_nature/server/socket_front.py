"""The room websocket's short path through the ASGI stack.

A room's websocket lives as long as its player plays, and every frame of the ASGI stack
it went through stays suspended that long, with what those frames hold. Through the
whole stack that would be about 30 coroutines a socket (the HTTP middlewares, FastAPI's
exception and dependency layers, three levels of routers, Starlette's websocket
session) and their closures, a hundred objects more than on the short path for the
cyclic collector to walk at each of its passes, for every socket. ``SocketFront``, the
outermost of the app's own middlewares, hands ``/api/rooms/{room}/ws`` straight to its
handler instead; every other request and websocket goes through the whole stack.

What each layer does for a websocket, and where it is on the short path:

- FastAPI's and Starlette's outer layers (telemetry, server errors, the body limit):
  above ``SocketFront``, unchanged: an exception the handler lets out is logged by
  uvicorn ("Exception in ASGI application"), which closes the connection (a 500
  before the accept).
- ``SecurityHeadersMiddleware`` and ``GuardMiddleware``: HTTP only, nothing for a
  websocket (the websocket's own limits are ``routes.ws.SocketGuard``'s).
- uvicorn's ``ProxyHeadersMiddleware``: the same one, run on the socket's scope first
  (``X-Forwarded-For`` and ``X-Forwarded-Proto`` believed from a trusted proxy only),
  so the handler's limits count the real client.
- FastAPI's exception handlers, dependencies and routing: the handler takes its room
  code from the route (the same ``WebSocketRoute``, which the router also serves) and
  its ``token`` from the query string as FastAPI did, and catches what it refuses
  itself.
- Starlette's ``WebSocket``: ``AsgiSocket``, the few calls the handler makes.
"""

from __future__ import annotations

from typing import Any, cast

from starlette.datastructures import QueryParams
from starlette.routing import Match, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketDisconnect
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .transport import Listener, ListeningWebSocketProtocol, sansio_protocol, write_text_now


class AsgiSocket:
    """A websocket on its ASGI ``receive`` and ``send``: what the handler and its
    ``Connection`` use of Starlette's ``WebSocket``, with the same errors (a send to a
    peer gone raises ``WebSocketDisconnect(1006)``); ``send_now``, a text frame
    written at once when that can be done without waiting; and ``listen``, each
    message handed to a callback as it is parsed, when the server can."""

    __slots__ = ("receive", "_send", "_protocol")

    def __init__(self, receive: Receive, send: Send) -> None:
        #: the next message from the client (ASGI's own, no frame of ours around it)
        self.receive = receive
        self._send = send
        #: uvicorn's websocket protocol behind ``send`` (None: ``send_now`` never writes)
        self._protocol = sansio_protocol(send)

    async def accept(self, subprotocol: str | None = None) -> None:
        message = await self.receive()
        if message["type"] != "websocket.connect":
            raise WebSocketDisconnect(message.get("code", 1000))
        await self._send({"type": "websocket.accept", "subprotocol": subprotocol, "headers": []})

    async def _out(self, message: Message) -> None:
        try:
            await self._send(message)
        except OSError:  # uvicorn's ``ClientDisconnected``: the peer went away
            raise WebSocketDisconnect(1006) from None

    async def send_text(self, data: str) -> None:
        await self._out({"type": "websocket.send", "text": data})

    def send_now(self, data: str) -> bool:
        """Write ``data`` now, the frame ``send_text`` would write, if ``send_text``
        would write it without waiting (no task, no ``await``); False, nothing written,
        otherwise (the transport paused for writing, the socket closing or gone, or a
        server other than uvicorn's sans-I/O websocket): then ``send_text`` it."""
        protocol = self._protocol
        return protocol is not None and write_text_now(protocol, data)

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self._out({"type": "websocket.close", "code": code, "reason": reason or ""})

    def listen(self, listener: Listener) -> list[Message] | None:
        """Each message from now on to ``listener.on_message`` as it is parsed, the
        socket's end (its ``websocket.disconnect``) to ``listener.on_end``; the ASGI
        messages queued before, in order (``ListeningWebSocketProtocol.listen``): then
        ``receive`` is no longer called. None, nothing changed, when the server is not
        uvicorn's listening websocket (or a middleware wraps ``send``): then every
        message is ``receive``d."""
        protocol = self._protocol
        if not isinstance(protocol, ListeningWebSocketProtocol):
            return None
        return protocol.listen(listener)

    def pause_reading(self) -> None:
        """Read nothing more from the client for now (a listening socket only)."""
        if isinstance(self._protocol, ListeningWebSocketProtocol):
            self._protocol.pause_reading()

    def resume_reading(self) -> None:
        """Read from the client again (a listening socket only)."""
        if isinstance(self._protocol, ListeningWebSocketProtocol):
            self._protocol.resume_reading()


def query_param(scope: Scope, name: str) -> str | None:
    """A query parameter as FastAPI reads a scalar one (the last of its values).

    >>> query_param({"query_string": b"token=a&token=b%20c"}, "token")
    'b c'
    >>> query_param({"query_string": b""}, "token") is None
    True
    """
    return QueryParams(scope.get("query_string", b"")).get(name)


async def _nothing(scope: Scope, receive: Receive, send: Send) -> None:
    """The end of the proxy headers' pass on the scope (nothing is kept suspended)."""


class SocketFront:
    """Hands the websockets ``route`` matches straight to its handler, after the
    trusted proxy headers (as uvicorn's ``ProxyHeadersMiddleware`` reads them); every
    other request and websocket goes on to ``app``."""

    def __init__(self, app: ASGIApp, route: WebSocketRoute, trusted_hosts: list[str]) -> None:
        self.app = app
        self.route = route
        # uvicorn types the ASGI protocol with TypedDicts of its own, Starlette with
        # plain mappings: the same calls, so the middleware is used as Starlette's kind
        proxy = ProxyHeadersMiddleware(cast(Any, _nothing), trusted_hosts=trusted_hosts)
        self.proxy = cast(ASGIApp, proxy)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            match, child = self.route.matches(scope)
            if match is Match.FULL:
                scope.update(child)
                await self.proxy(scope, receive, send)  # rewrites the scope's client
                await self.route.app(scope, receive, send)
                return
        await self.app(scope, receive, send)
