"""The browser side of the server hardening: the page's websocket retries a
4429 (too many connections) instead of going "Offline" for good, carries the seat token
as a subprotocol (never in the URL), every seat is told of a deal the host chose, and
``/docs`` renders from this origin under the Content-Security-Policy."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import PageOpener
from dn_ui import create_room, join_room, start_game, take_seat
from playwright.sync_api import expect
from websockets.sync.client import connect

from benchmarks._support.live_server import ServerProcess


@pytest.fixture
def crowded(tmp_path: Path, browser: Any) -> Any:
    """A server of its own whose rooms take one spectator; a page opener for it."""
    server = ServerProcess(
        tmp_path / "crowded.sqlite3", {"DAME_NATURE_MAX_SPECTATORS_PER_ROOM": "1"}
    ).start()
    opener = PageOpener(browser, server.url)
    yield server, opener
    for ctx in opener.contexts:
        ctx.close()
    server.stop()
    errors = opener.unexpected_errors()
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)


def test_a_refused_socket_is_retried_until_it_gets_in(crowded: Any) -> None:
    server, open_page = crowded
    room = httpx.post(f"{server.url}/api/rooms", json={}).json()["room"]
    ws_url = f"{server.ws_url}/api/rooms/{room}/ws"
    with connect(ws_url) as first:  # the only spectator place
        json.loads(first.recv())
        page = open_page()
        open_page.allow(r"WebSocket connection to .* failed|4429")
        page.goto(f"/r/{room}")
        # refused after 2 s (time for an ``auth`` message), then retried with backoff
        conn = page.locator("#conn")
        expect(conn).to_have_attribute("data-state", "reconnecting", timeout=15_000)
        page.wait_for_timeout(1500)  # refused again meanwhile: still retrying, not "Offline"
        expect(conn).not_to_have_attribute("data-state", "closed")
    expect(page.locator("#conn")).to_have_attribute("data-state", "open", timeout=20_000)
    # and a seat always gets in, spectators or not: the page's seat by subprotocol
    token = httpx.post(f"{server.url}/api/rooms/{room}/players", json={"name": "Ada"}).json()
    with connect(ws_url) as _:
        seated = open_page()
        seated.goto("/")
        memory = {room: {"seat": token["seat"], "token": token["token"], "name": "Ada"}}
        seated.evaluate(
            f"localStorage.setItem('dameNature.rooms', {json.dumps(json.dumps(memory))})"
        )
        with seated.expect_websocket() as opened:
            seated.goto(f"/r/{room}")
        assert "token" not in opened.value.url  # the token is not in the URL
        expect(seated.locator("#conn")).to_have_attribute("data-state", "open")
        expect(seated.locator("#seated-note")).to_contain_text("Ada")


def test_every_seat_sees_that_the_host_chose_the_deal(open_page: Any) -> None:
    host, guest, third = open_page(), open_page(), open_page()
    code = create_room(host, seed=42)
    take_seat(host, "Host")
    join_room(guest, code, "Guest")
    join_room(third, code, "Third")
    expect(guest.locator("#deal-chosen")).to_contain_text("the host may know every hand")
    start_game(host, 3)
    for page in (host, guest, third):
        expect(page.locator("#game-view")).to_be_visible()
        expect(page.locator("#deal-info")).to_be_visible()
        told = "The host chose this game's deal (a seed): the host may know every hand."
        expect(page.locator("#deal-info")).to_have_attribute("title", told)


def test_docs_render_under_the_content_security_policy(open_page: Any) -> None:
    page = open_page()
    page.goto("/docs")
    expect(page.locator(".swagger-ui .info .title")).to_contain_text("Dame Nature Online")
    expect(page.locator(".opblock").first).to_be_visible()
