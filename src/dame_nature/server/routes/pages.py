"""HTML pages of the browser UI: the home page, the room page and the replay viewer.

Both pages are thin Jinja2 shells; the room page's lobby, table and end screen are drawn
by ``static/js/room.js`` from the websocket's views. Each page embeds the static data the
scripts need (card catalogue, web layouts, modes and paths), so the UI works without any
extra request before the websocket opens.
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse
from fastapi.templating import Jinja2Templates
from starlette.exceptions import HTTPException

from ...engine import PATHS, REASONS, REASONS_FR, RULES, french, raw_card_data
from ..addresses import invite_base
from ..assets import STATIC_DIR, TEMPLATES_DIR
from ..settings import Settings

router = APIRouter()

_fallback_templates: Jinja2Templates | None = None


def _templates(request: Request) -> Jinja2Templates:
    """The app's ``Jinja2Templates`` when the app factory set one, else our own."""
    global _fallback_templates
    found = getattr(request.app.state, "templates", None)
    if isinstance(found, Jinja2Templates):
        return found
    if _fallback_templates is None:
        _fallback_templates = Jinja2Templates(directory=str(TEMPLATES_DIR))
    return _fallback_templates


@lru_cache(maxsize=1)
def _boot_data() -> str:
    """JSON the page scripts read: cards, layouts, colours, modes (in rule order), paths,
    reasons, and the French grammar of the Species' names (``engine/french.py``)."""
    data = raw_card_data()
    modes: list[dict[str, Any]] = [
        {
            "mode": mode,
            "title": cls.title,
            "title_fr": cls.title_fr,
            "summary": cls.summary,
            "summary_fr": cls.summary_fr,
        }
        for mode, cls in RULES.items()
    ]
    boot = {
        "cards": {card["id"]: card for card in data["cards"]},
        "layouts": data["layouts"],
        "colours": data["colours"],
        "setup_by_players": data["setup_by_players"],
        "modes": modes,
        "paths": {str(p): list(m) for p, m in PATHS.items()},
        "reasons": {code: {"en": text, "fr": REASONS_FR[code]} for code, text in REASONS.items()},
        "french": french.grammar(),
    }
    # Safe inside <script type="application/json">: no "</" can close the element.
    return json.dumps(boot, ensure_ascii=False).replace("</", "<\\/")


def render_page(request: Request, page: str, **context: Any) -> HTMLResponse:
    """The page ``templates/{page}.html`` with the boot data every page reads."""
    return _templates(request).TemplateResponse(
        request, f"{page}.html", {"boot_json": _boot_data(), "page": page, **context}
    )


@router.get("/", response_class=HTMLResponse, include_in_schema=False)
def home(request: Request) -> HTMLResponse:
    return render_page(request, "home")


@router.get("/daily", response_class=HTMLResponse, include_in_schema=False)
def daily_page(request: Request) -> HTMLResponse:
    """Today's daily deals (``static/js/daily.js``)."""
    return render_page(request, "daily")


def _invite_base(request: Request) -> str:
    """Where invite links start (``""``: the address the page was opened at)."""
    settings: Settings | None = getattr(request.app.state, "settings", None)
    if settings is None:
        return ""
    url = request.url
    port = url.port or {"http": 80, "https": 443}.get(url.scheme)
    base = invite_base(settings.public_url, settings.host, settings.port, url.hostname, port)
    return base or ""


@router.get("/r/{code}", response_class=HTMLResponse, include_in_schema=False)
def room_page(request: Request, code: str) -> HTMLResponse:
    return render_page(request, "room", code=code, invite_base=_invite_base(request))


@router.get("/r/{code}/replay", response_class=HTMLResponse, include_in_schema=False)
def replay_page(request: Request, code: str) -> HTMLResponse:
    """The replay viewer of the room's finished game (``static/js/replay.js``)."""
    return render_page(request, "replay", code=code)


@router.get("/stats", response_class=HTMLResponse, include_in_schema=False)
def stats_page(request: Request) -> HTMLResponse:
    """The public statistics (``static/js/stats.js`` reads ``GET /api/stats``)."""
    return render_page(request, "stats")


@router.get("/games", response_class=HTMLResponse, include_in_schema=False)
def games_page(request: Request) -> HTMLResponse:
    """ "Your games": the games this browser sat at (its own storage, ``history.js``)."""
    return render_page(request, "games")


@router.get("/admin", response_class=HTMLResponse, include_in_schema=False)
def admin_page(request: Request) -> HTMLResponse:
    """The admin page (``static/js/admin.js``); none without an admin token (404)."""
    settings: Settings | None = getattr(request.app.state, "settings", None)
    if (
        settings is None
        or settings.admin_token is None
        or not settings.admin_token.get_secret_value()
    ):
        raise HTTPException(404)
    return render_page(request, "admin")


@router.get("/sw.js", include_in_schema=False)
def service_worker() -> FileResponse:
    """The service worker, served from the root so that it may control every page."""
    return FileResponse(
        STATIC_DIR / "sw.js",
        media_type="text/javascript",
        headers={"Cache-Control": "no-cache", "Service-Worker-Allowed": "/"},
    )


@router.get("/manifest.webmanifest", include_in_schema=False)
def manifest() -> FileResponse:
    """The web app manifest: the site installs as an app (push needs it on iOS)."""
    return FileResponse(STATIC_DIR / "manifest.webmanifest", media_type="application/manifest+json")
