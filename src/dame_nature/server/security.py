"""What every response carries and what never reaches a log.

- ``SecurityHeadersMiddleware``: a strict Content-Security-Policy (nothing but this
  origin, no inline script or style, no framing), ``nosniff``, ``no-referrer``, and
  ``Cache-Control: no-store`` on answers that may hold a token or a hand.
- ``RedactTokens``: a logging filter that blanks ``token=...`` (however its name is
  escaped) in uvicorn's access and websocket log lines (old clients still put the seat
  token in the websocket URL).
- ``docs_router``: Swagger UI at ``/docs`` from the assets the ``fastapi-offline`` wheel
  ships (nothing from a CDN), started by a script of this origin (the CSP forbids inline
  ones); without that package there is no ``/docs``, only ``/openapi.json``.
"""

from __future__ import annotations

import logging
import re
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


NO_STORE = (b"cache-control", b"no-store")


def holds_secret(scope: Scope) -> bool:
    """Whether the answer may carry a token or a seat's hand: a write of the API (a
    room's host token, a seat's token, a seat's view) or a request with a token."""
    if not scope["path"].startswith("/api/"):
        return False
    if scope["method"] not in ("GET", "HEAD"):
        return True
    if any(name == b"authorization" for name, _ in scope.get("headers", ())):
        return True
    query = scope.get("query_string", b"").decode("latin-1")
    return "=" in query and redact(query) != query


class SecurityHeadersMiddleware:
    """Adds ``HEADERS`` to every HTTP response (pages, API, static files, errors), and
    ``Cache-Control: no-store`` to the answers that may hold a secret."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = [*HEADERS, NO_STORE] if holds_secret(scope) else HEADERS

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in headers if k not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


#: a query parameter: its name (percent-escaped or not) and its value
PARAM_RE = re.compile(r"([?&;]|\b)([A-Za-z0-9%._~+-]*?)(=)([^&\s\"']*)")


def _is_token(name: str) -> bool:
    return unquote_plus(name).strip().lower() == "token"


def redact(text: str) -> str:
    """The value of a ``token`` query parameter becomes ``[redacted]``, however its
    name is escaped (``tok%65n=`` is ``token=`` to the server, so to the log too).

    >>> redact('GET /api/rooms/abc/ws?token=s3cr3t&x=1 HTTP/1.1')
    'GET /api/rooms/abc/ws?token=[redacted]&x=1 HTTP/1.1'
    >>> redact('GET /api/rooms/abc/ws?a=1&tok%65n=s3cr3t HTTP/1.1')
    'GET /api/rooms/abc/ws?a=1&tok%65n=[redacted] HTTP/1.1'
    """
    return PARAM_RE.sub(
        lambda m: m.group(1) + m.group(2) + "=[redacted]" if _is_token(m.group(2)) else m.group(0),
        text,
    )


class RedactTokens(logging.Filter):
    """Blanks seat tokens in a log record's message and arguments."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "=" in record.msg:
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple) and record.args:
            record.args = tuple(
                redact(arg) if isinstance(arg, str) and "=" in arg else arg for arg in record.args
            )
        return True


LOGGERS = ("uvicorn.access", "uvicorn.error", "uvicorn", "dame_nature.server")


def install_log_filter() -> None:
    """Put ``RedactTokens`` on uvicorn's loggers and their handlers (once)."""
    for name in LOGGERS:
        logger = logging.getLogger(name)
        targets: list[Any] = [logger, *logger.handlers]
        for target in targets:
            if not any(isinstance(f, RedactTokens) for f in target.filters):
                target.addFilter(RedactTokens())


# ---------------------------------------------------------------------- /docs
try:
    import fastapi_offline

    DOCS_ASSETS: Path | None = Path(fastapi_offline.__file__).resolve().parent / "static"
except ImportError:  # pragma: no cover - the package is a dependency
    DOCS_ASSETS = None

DOCS_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Dame Nature Online - API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
<link rel="icon" href="/docs/assets/favicon.png">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
"""

DOCS_INIT = """window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  layout: "BaseLayout",
  presets: [SwaggerUIBundle.presets.apis],
});
"""

docs_router = APIRouter(include_in_schema=False)


@docs_router.get("/docs")
async def docs_page(request: Request) -> HTMLResponse:
    return HTMLResponse(DOCS_HTML)


@docs_router.get("/docs/init.js")
async def docs_init() -> Response:
    return Response(DOCS_INIT, media_type="text/javascript")
