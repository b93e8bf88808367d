"""``docs/api.md`` is kept in step with the application: every call it names exists, every
call of the app is documented, and its actions, view fields, events, discard reasons and
error codes are those the server and the engine really use.

When one of these tests fails after you add a call, a field or an error code: document
it in ``docs/api.md`` (the failure names what is missing).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.routing import APIRoute
from fastapi.testclient import TestClient
from starlette.routing import WebSocketRoute

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, REASONS, Game
from dame_nature.server.app import HTTP_CODES, create_app
from dame_nature.server.errors import STATUS
from dame_nature.server.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DOC_PATH = ROOT / "docs" / "api.md"
DOC = DOC_PATH.read_text(encoding="utf-8")
SRC = ROOT / "src" / "dame_nature"

HEADING = re.compile(r"^### `(GET|POST|PATCH|PUT|DELETE|WS) (/[^`\s]*)`", re.M)
MENTION = re.compile(r"`(GET|POST|PATCH|PUT|DELETE|WS) (/[^`\s]*)")
FRAMEWORK_PAGES = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc"}


def section(title: str) -> str:
    """The text of the ``## title`` section (up to the next ``## ``)."""
    start = DOC.index(f"\n## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def table_keys(text: str) -> set[str]:
    """The backticked first cell of every table row of ``text``."""
    keys: set[str] = set()
    for cells in re.findall(r"^\| ([^|]+) \|", text, re.M):
        keys.update(re.findall(r"`([a-z_]+)`", cells))
    return keys


def _walk(routes: list[Any]) -> list[Any]:
    found: list[Any] = []
    for route in routes:
        inner = getattr(route, "original_router", None)  # an included router (FastAPI)
        if inner is not None:
            found += _walk(inner.routes)
        else:
            found.append(route)
    return found


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    return create_app(Settings(db=str(tmp_path_factory.mktemp("doc") / "doc.sqlite3")))


@pytest.fixture(scope="module")
def routes(app) -> dict[tuple[str, str], bool]:
    """``{(method, path): in the API schema}`` of every route of the app (``WS`` for a
    websocket); pages (left out of the schema) are ``False``."""
    found: dict[tuple[str, str], bool] = {}
    for route in _walk(app.routes):
        if isinstance(route, WebSocketRoute):  # FastAPI's, or an ASGI app's
            found[("WS", route.path)] = True
        elif isinstance(route, APIRoute):
            for method in route.methods:
                found[(method, route.path)] = route.include_in_schema
        elif getattr(route, "path", None) in FRAMEWORK_PAGES:
            found[("GET", route.path)] = False
    return found


def test_every_call_the_doc_names_exists(routes):
    mentions = set(MENTION.findall(DOC))
    assert mentions, "docs/api.md names its calls as `METHOD /path`"
    mounted = ("/static/",)
    missing = [
        f"{m} {p}" for m, p in mentions if (m, p) not in routes and not p.startswith(mounted)
    ]
    assert not missing, f"docs/api.md names calls the app does not have: {missing}"


def test_every_call_of_the_app_has_its_own_heading_in_the_doc(app, routes):
    documented = set(HEADING.findall(DOC))
    api = {key for key, in_schema in routes.items() if in_schema}
    missing = sorted(f"{m} {p}" for m, p in api - documented)
    assert not missing, f"add a '### `METHOD /path`' section to docs/api.md for: {missing}"
    # the same from the OpenAPI schema clients read
    for path, operations in app.openapi()["paths"].items():
        for method in operations:
            assert (method.upper(), path) in documented, f"{method.upper()} {path}"
    # the pages are at least named
    pages = section("Browser pages")
    for (method, path), in_schema in routes.items():
        if not in_schema and path not in FRAMEWORK_PAGES:
            assert f"`{method} {path}`" in pages, f"name the page {method} {path} in docs/api.md"


def test_actions_are_the_engines_with_their_fields(app):
    schemas = app.openapi()["components"]["schemas"]
    body = schemas["ActionBody"]
    mapping = body.get("discriminator", {}).get("mapping", {})
    assert mapping, "the action body is told apart by 'type'"
    rows = {
        m.group(1): m.group(2)
        for m in re.finditer(r"^\| `([a-z_]+)` \|([^|]*)\|", section("Actions"), re.M)
    }
    rows.pop("type", None)  # the header row
    assert set(rows) == set(mapping), "docs/api.md's action table lists every action type"
    engine_types = {a["type"] for a in _every_legal_action()}
    assert engine_types <= set(rows), engine_types - set(rows)
    for kind, ref in mapping.items():
        fields = set(schemas[ref.rsplit("/", 1)[-1]]["properties"]) - {"type"}
        named = set(re.findall(r"`([a-z_]+)`", rows[kind]))
        assert fields <= named, f"action {kind}: document its fields {fields - named}"


def _every_legal_action() -> list[dict[str, Any]]:
    game = Game(4, list(MODES))
    actions: list[dict[str, Any]] = []
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            for seat in state.current_players():
                actions += state.legal_actions(seat)
            seat, action = random_step(state, rng)
            state.apply(seat, action)
    return actions


def _random_views_and_events() -> tuple[list[dict[str, Any]], set[str]]:
    """Views and event types of random games with every rule on, and a few rule subsets."""
    views: list[dict[str, Any]] = []
    events: set[str] = set()
    setups = [list(MODES), ["climate_change", "temporary_conditions"], ["first_predator"], []]
    for i, modes in enumerate(setups):
        for seed in range(4):
            state = Game(3 + i % 3, modes).new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_over:
                seat, action = random_step(state, rng)
                events.update(e["type"] for e in state.apply(seat, action))
            views.append(state.view(0))
            views.append(state.view(None))
    return views, events


def test_view_fields_events_and_reasons_are_documented(app):
    fields = table_keys(section("The view"))
    views, events = _random_views_and_events()
    # the server's view of a real room, lobby and table
    with TestClient(app) as client:
        room = client.post("/api/rooms", json={"seed": 3}).json()
        lobby = client.get(f"/api/rooms/{room['room']}/state").json()
        tokens = [
            client.post(f"/api/rooms/{room['room']}/players", json={"name": n}).json()["token"]
            for n in ("Ada", "Bo", "Cy")
        ]
        headers = {"Authorization": f"Bearer {room['host_token']}"}
        assert client.post(f"/api/rooms/{room['room']}/start", headers=headers).status_code == 200
        table = client.get(
            f"/api/rooms/{room['room']}/state", headers={"Authorization": f"Bearer {tokens[0]}"}
        ).json()
    for view in [lobby, table, *views]:
        missing = set(view) - fields
        assert not missing, f"document the view fields {missing} in docs/api.md"
    players_row = next(line for line in DOC.splitlines() if line.startswith("| `players` |"))
    for key in table["players"][0]:
        assert f"{key}" in players_row, f"document players[].{key}"
    record_text = DOC[DOC.index("A **reveal record**") :][:200]
    for view in views:
        for record in view["last_turn"] + view["revealed_this_turn"]:
            for key in record:
                assert re.search(rf"\b{key}\b", record_text), f"document reveal records' {key}"
    documented_events = table_keys(section("The view").split("### Events")[1])
    assert events <= documented_events, f"document the events {events - documented_events}"
    reasons = set(re.findall(r"`([a-z_]+)`", DOC[DOC.index("**Discard reasons**") :][:800]))
    assert set(REASONS) <= reasons, f"document the discard reasons {set(REASONS) - reasons}"


def _codes_in(paths: list[Path], pattern: str) -> set[str]:
    regex = re.compile(pattern, re.S)
    return {code for path in paths for code in regex.findall(path.read_text(encoding="utf-8"))}


def test_every_error_code_the_server_and_engine_raise_is_documented():
    errors = section("Errors") + section("Websocket")
    server = sorted((SRC / "server").rglob("*.py"))
    engine = sorted((SRC / "engine").rglob("*.py"))
    codes = _codes_in(server, r"Refused\(\s*\"([a-z_]+)\"")
    assert codes <= set(STATUS), f"give {sorted(codes - set(STATUS))} a status in errors.STATUS"
    codes |= set(STATUS)
    codes |= _codes_in(server, r"error_message\(\s*\"([a-z_]+)\"")
    codes |= _codes_in(server, r"error_response\(\s*\d{3},\s*\"([a-z_]+)\"")
    codes |= _codes_in(server, r"_send_error\(\s*\w+,\s*\d{3},\s*\"([a-z_]+)\"")
    codes |= set(HTTP_CODES.values())
    engine_codes = _codes_in(
        engine,
        r"(?:IllegalAction|InvalidSetup|EngineError)\((?:[^()]|\([^()]*\))*?,\s*\"([a-z_]+)\"\s*,?\s*\)",
    )
    engine_codes |= _codes_in(engine, r"^\s+code = \"([a-z_]+)\"")
    assert len(engine_codes) > 10, "the engine's codes are found in its source"
    documented = set(re.findall(r"`([a-z_]+)`", errors))
    missing = sorted((codes | engine_codes) - documented)
    assert not missing, f"document the error codes {missing} in docs/api.md (## Errors)"


def test_links_of_the_doc_lead_to_files_of_the_repository():
    for target in re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", DOC):
        assert (DOC_PATH.parent / target).exists(), target
    for anchor in re.findall(r"\]\(#([^)]+)\)", DOC):
        titles = re.findall(r"^#+ (.+)$", DOC, re.M)
        slugs = {re.sub(r"[^a-z0-9 -]", "", t.lower()).replace(" ", "-") for t in titles}
        assert anchor in slugs, f"no section for #{anchor}"


def test_openapi_describes_every_refusal_with_the_errors_body(app):
    """The schema clients generate code from describes a refusal as the server sends it,
    ``{"error": {"code", "message"}}``: never FastAPI's own ``{"detail": [..]}``
    (``HTTPValidationError``), which this server never answers; a call that takes a
    token names its 401, and ``/healthz`` its 503."""
    schema = app.openapi()
    framework = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            responses = operation["responses"]
            for status, response in responses.items():
                if "HTTPValidationError" in str(response):
                    framework.append(f"{method.upper()} {path} {status}")
            takes_token = any(p["name"] == "authorization" for p in operation.get("parameters", []))
            if takes_token:
                assert "401" in responses, f"{method.upper()} {path}: its 401"
                assert "ErrorPublic" in str(responses["401"]), f"{method.upper()} {path}"
    assert not framework, f"declared with FastAPI's validation body: {framework}"
    assert "HTTPValidationError" not in schema["components"]["schemas"]
    assert "ErrorPublic" in str(schema["paths"]["/healthz"]["get"]["responses"]["503"])
