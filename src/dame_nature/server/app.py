"""``create_app(settings)``: the FastAPI application (REST + websocket API, pages, static).

Every error a client can cause answers ``{"error": {"code", "message"}}`` with a 4xx.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from .. import __version__
from ..engine import EngineError
from .assets import STATIC_DIR, TEMPLATES_DIR
from .clients import client_address
from .errors import Refused, refusal
from .gcpauses import CollectorPauses
from .jsonio import loads
from .models import ErrorPublic, Health
from .notify.notifier import Notifier
from .ratelimit import Rate, RateLimiter
from .rooms import RoomManager
from .rooms.coordination import make_coordination
from .routes import (
    admin,
    daily,
    hints,
    lessons,
    metrics,
    notify,
    pages,
    play_from,
    replay,
    review,
    rooms,
    stats,
    ws,
)
from .security import (
    DOCS_ASSETS,
    SecurityHeadersMiddleware,
    docs_router,
    install_log_filter,
)
from .settings import Settings
from .socket_front import SocketFront
from .store import open_store

log = logging.getLogger("dame_nature.server")


HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    403: "forbidden",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
    415: "unsupported_media_type",
    422: "invalid_request",
    429: "rate_limited",
}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": message}}, status_code=status)


async def _send_error(
    send: Send, status: int, code: str, message: str, *, retry_after: int | None = None
) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if retry_after is not None:
        headers.append((b"retry-after", str(retry_after).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def _is_json(content_type: bytes | None) -> bool:
    """``application/json`` (any parameters, any case)."""
    if content_type is None:
        return False
    media = content_type.split(b";", 1)[0].strip().lower()
    return media == b"application/json"


class GuardMiddleware:
    """The API's front door, before any parsing: the rate of each client address (429),
    room creations per address (429; both on the one ``RateLimiter``), body size (413),
    ``application/json`` on writes that carry a body (415: a cross-site form or
    ``text/plain`` request cannot), and JSON too deep or malformed (400).

    The body is read whole before the app sees it, so an over-long body never reaches a
    handler."""

    def __init__(self, app: ASGIApp, settings: Settings, limiter: RateLimiter) -> None:
        self.app = app
        self.settings = settings
        self.limiter = limiter
        self.requests = Rate("requests", settings.rate_limit_per_second, settings.rate_limit_burst)
        self.creates = Rate("creates", settings.create_rate_per_second, settings.create_rate_burst)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        if not await self.limiter.hit(self.requests, address):
            wait = self.requests.retry_after
            await _send_error(
                send, 429, "rate_limited", "Too many requests: slow down.", retry_after=wait
            )
            return
        method = scope["method"]
        path = scope["path"].rstrip("/")
        creating = method == "POST" and (
            path in ("/api/rooms", "/api/daily") or path.endswith("/play_from")
        )
        if creating and not await self.limiter.hit(self.creates, address):
            wait = self.creates.retry_after
            await _send_error(
                send,
                429,
                "rate_limited",
                f"Too many rooms created from your address: try again in {wait} s.",
                retry_after=wait,
            )
            return
        limit = self.settings.max_message_bytes
        content_type = None
        has_body = False
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = limit + 1
                if declared > limit:
                    await _send_error(
                        send, 413, "body_too_large", f"A request body may hold {limit} bytes."
                    )
                    return
                has_body = has_body or declared > 0
            elif name == b"transfer-encoding":
                has_body = True
            elif name == b"content-type":
                content_type = value
        if method in WRITE_METHODS and has_body and not _is_json(content_type):
            await _send_error(
                send,
                415,
                "unsupported_media_type",
                "Send the body as JSON with 'Content-Type: application/json'.",
            )
            return
        chunks: list[bytes] = []
        size = 0
        more = True
        while more:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > limit:
                await _send_error(
                    send, 413, "body_too_large", f"A request body may hold {limit} bytes."
                )
                return
            chunks.append(chunk)
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if body.strip():
            if method in WRITE_METHODS and not _is_json(content_type):
                await _send_error(
                    send,
                    415,
                    "unsupported_media_type",
                    "Send the body as JSON with 'Content-Type: application/json'.",
                )
                return
            try:
                loads(body)
            except (ValueError, UnicodeDecodeError):
                await _send_error(send, 400, "invalid_json", "The body is not valid JSON.")
                return
            if method not in WRITE_METHODS:
                # a GET's body is never read: whatever its type, it changes nothing
                headers = [(k, v) for k, v in scope["headers"] if k != b"content-type"]
                scope = {**scope, "headers": [*headers, (b"content-type", b"application/json")]}
        sent = False

        async def replay() -> Message:
            nonlocal sent
            if not sent:
                sent = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


def _validation_message(exc: RequestValidationError) -> tuple[str, str]:
    errors = exc.errors()
    if not errors:
        return "invalid_request", "The request is not valid."
    first = errors[0]
    if first.get("type") == "json_invalid":
        return "invalid_json", "The body is not valid JSON."
    loc = [str(p) for p in first.get("loc", ()) if p != "body"]
    where = ".".join(loc)
    message = str(first.get("msg", "invalid"))
    return "invalid_request", f"{message} at '{where}'." if where else f"{message}."


#: the cyclic collector's thresholds while serving. Each pass stops every socket of the
#: node for as long as it walks its objects: a young pass once 2,500 more objects were
#: made than freed (each action builds a few hundred short-lived ones, which reference
#: counting frees anyway), so young passes are short; a middle pass after 40 young ones
#: (every 100,000 objects, as with 10,000 and 10); a full pass after 10 middle ones and
#: once the old generation grew by a quarter (docs/benchmarks.md, "Memory and the
#: collector").
GC_THRESHOLDS = (2_500, 40, 10)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The application; ``settings`` default to the environment (``DAME_NATURE_*``)."""
    settings = settings or Settings()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        install_log_filter()  # again: uvicorn configured its logging after create_app
        restored = manager.restore()
        if not coordination.shared:
            log.info("restored %d rooms from %s", restored, settings.db)
        await manager.serve()
        # Everything loaded so far (FastAPI, pydantic schemas, the card catalogue, the
        # restored rooms) lives as long as the process: keep it out of the collector's
        # full passes, and collect with ``GC_THRESHOLDS``.
        gc.collect()
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        pauses = CollectorPauses() if settings.gc_pause_stats else None
        if pauses is not None:
            pauses.install()
            manager.metrics.registry.register(pauses)
        sweeper = asyncio.create_task(manager.run_sweeper())
        clocks = asyncio.create_task(manager.run_turn_clocks())
        try:
            yield
        finally:
            if pauses is not None:
                pauses.remove()
                log.warning("the cyclic collector: %s", pauses.summary())
            for task in (sweeper, clocks):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await manager.close()
            store.close()

    app = FastAPI(
        title="Dame Nature Online",
        version=__version__,
        description="Rooms, seats and live per-seat views of the cooperative card game "
        "Dame Nature. The reference is `docs/api.md` in the repository; errors are always "
        '`{"error": {"code", "message"}}` with a 4xx status.',
        lifespan=lifespan,
        docs_url=None,  # served by ``docs_router``, from this origin
        redoc_url=None,
    )
    install_log_filter()
    store = open_store(settings.db, settings.db_wait_seconds)
    coordination = make_coordination(settings, store)  # one node, or several
    manager = RoomManager(settings, store, coordination)
    manager.notifier = app.state.notifier = Notifier(
        settings, store, may_send=coordination.may_drive_bots, visible=manager.page_visible
    )
    # the per-client limits: shared by the nodes of a cluster through its Redis
    limiter = RateLimiter(settings.redis if store.shared else None)
    app.state.rate_limiter = limiter
    app.state.settings = settings
    app.state.store = store
    app.state.manager = manager
    app.state.templates = Jinja2Templates(directory=str(TEMPLATES_DIR))

    def refused(status: int, code: str, message: str) -> JSONResponse:
        manager.metrics.refused(code)
        return error_response(status, code, message)

    @app.exception_handler(Refused)
    async def api_error(request: Request, exc: Refused) -> JSONResponse:
        return refused(exc.status, exc.code, exc.message)

    @app.exception_handler(EngineError)
    async def engine_refusal(request: Request, exc: EngineError) -> JSONResponse:
        err = refusal(exc)
        return refused(err.status, err.code, err.message)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        code, message = _validation_message(exc)
        if code == "invalid_json":
            return refused(400, code, message)
        if request.url.path.endswith("/actions"):
            code = "invalid_action"
        return refused(422, code, message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        status = exc.status_code if 400 <= exc.status_code < 500 else 400
        code = HTTP_CODES.get(status, "bad_request")
        message = exc.detail if isinstance(exc.detail, str) else "The request was refused."
        if status == 404:
            message = "There is nothing at this address."
        if status == 405:
            message = "This address does not take this method."
        response = error_response(status, code, message)
        for name, value in (exc.headers or {}).items():  # a 405's ``Allow``
            response.headers[name] = value
        return response

    @app.exception_handler(Exception)
    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.exception("unexpected error on %s", request.url.path)
        return error_response(500, "internal_error", "Something went wrong on the server.")

    @app.get(
        "/healthz",
        response_model=Health,
        responses={503: {"model": ErrorPublic}},
        tags=["health"],
    )
    async def healthz() -> Any:
        """Health: 503 ``store_unavailable`` while the store cannot be written (a SQLite
        file that cannot be written, checked once a second) or reached (a node of a
        cluster: the load balancer then sends players elsewhere); else 200."""
        try:
            await store.call(store.ping)
        except Exception:
            return error_response(
                503, "store_unavailable", "The database cannot be reached or written."
            )
        return {"status": "ok", "rooms": len(manager.rooms)}

    app.include_router(rooms.router)
    app.include_router(notify.router)
    app.include_router(replay.router)
    app.include_router(hints.router)
    app.include_router(review.router)
    app.include_router(play_from.router)
    app.include_router(metrics.router)
    app.include_router(admin.router)
    app.include_router(stats.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(lessons.router)
    app.include_router(daily.router)
    if DOCS_ASSETS is not None:
        app.include_router(docs_router)
        app.mount("/docs/assets", StaticFiles(directory=str(DOCS_ASSETS)), name="docs-assets")
    app.mount("/static", StaticFiles(directory=str(STATIC_DIR)), name="static")
    app.add_middleware(GuardMiddleware, settings=settings, limiter=limiter)
    # the client behind a trusted reverse proxy (X-Forwarded-For, X-Forwarded-Proto), for
    # the guard and the routes: before them
    app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxy_hosts)
    app.add_middleware(SecurityHeadersMiddleware)  # on every response
    # outermost: a room's websocket goes straight to its handler (``socket_front.py``)
    app.add_middleware(SocketFront, route=ws.route, trusted_hosts=settings.trusted_proxy_hosts)
    return app
