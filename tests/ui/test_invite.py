"""The lobby's invite link: the server's ``--public-url`` when it has one; a link that
only opens on this computer (loopback) comes with a hint on how to serve friends."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from benchmarks._support.live_server import ServerProcess


@pytest.fixture(scope="module")
def public_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"DAME_NATURE_PUBLIC_URL": "https://dn.example.org"}
    server = ServerProcess(tmp_path_factory.mktemp("public") / "rooms.sqlite3", env).start()
    yield server
    server.stop()


def test_invite_link_of_a_server_with_a_public_url(open_page, public_server):
    room = httpx.post(f"{public_server.url}/api/rooms", json={}).json()["room"]
    page = open_page()
    page.goto(f"{public_server.url}/r/{room}")
    expect(page.locator("#invite-link")).to_have_value(f"https://dn.example.org/r/{room}")
    expect(page.locator("#invite-local")).to_be_hidden()


def test_a_loopback_invite_link_says_how_to_serve_friends(open_page, ui_server: Any):
    room = httpx.post(f"{ui_server.url}/api/rooms", json={}).json()["room"]
    page = open_page()
    page.goto(f"/r/{room}")
    expect(page.locator("#invite-link")).to_have_value(f"{ui_server.url}/r/{room}")
    expect(page.locator("#invite-local")).to_be_visible()
    expect(page.locator("#invite-local")).to_contain_text("--host 0.0.0.0")
