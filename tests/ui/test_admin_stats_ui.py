"""The admin page, the statistics page and "your games" in headless Chromium, against a
real server with an admin token: an admin on a phone signs in, sees a room with its
player, sends a message every table shows, removes a seat and closes a room (the
player's page says so), and reads the admin log; a browser that sat at a game finds it
in "your games" with a link to its replay; the statistics page shows the games played.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from benchmarks._support.live_server import ServerProcess
from dame_nature.bots import make_bot
from tests.server.conftest import Api
from tests.ui.conftest import PageOpener
from tests.ui.dn_ui import assert_accessible, join_room, no_horizontal_scroll

TOKEN = "admin-token-of-the-browser-tests-42"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}


@pytest.fixture(scope="module")
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """This module's pages are served with an admin token (``open_page`` opens them)."""
    env = {"DAME_NATURE_ADMIN_TOKEN": TOKEN, "DAME_NATURE_STATS_CACHE_SECONDS": "0",
           "DAME_NATURE_ADMIN_RATE_BURST": "1000"}  # fmt: skip
    proc = ServerProcess(tmp_path_factory.mktemp("admin-ui") / "rooms.sqlite3", env).start()
    yield proc
    proc.stop()


@pytest.fixture
def api(ui_server: ServerProcess) -> Iterator[Api]:
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        yield Api(http, ui_server.ws_url)


def seat_token(page: Page, code: str) -> str:
    rooms = json.loads(page.evaluate("localStorage.getItem('dameNature.rooms')"))
    return str(rooms[code]["token"])


def sign_in(page: Page, label: str) -> None:
    page.goto("/admin")
    page.fill("#admin-token", TOKEN)
    page.fill("#admin-label", label)
    page.click("#token-form button[type=submit]")
    expect(page.locator("#admin-work")).to_be_visible()
    expect(page.locator("#admin-status")).to_contain_text(label)


def test_the_admin_page_on_a_phone(open_page: PageOpener, api: Api) -> None:
    created = api.create().json()
    code, host = created["room"], created["host_token"]
    player = open_page()
    join_room(player, code, "Ada")
    admin = open_page(**PHONE)
    admin.goto("/admin")
    expect(admin.locator("#admin-work")).to_be_hidden()
    admin.fill("#admin-token", "not-the-token")
    admin.click("#token-form button[type=submit]")
    expect(admin.locator("#admin-error")).to_contain_text("not the admin token")
    open_page.allow(r"status of 40[13]")  # the refused sign-in, as Chromium logs it
    sign_in(admin, "Ops Zoë 管理")
    # the token stays in this tab only, never in the address or in localStorage
    assert admin.evaluate("sessionStorage.getItem('dameNature.adminToken')") == TOKEN
    assert TOKEN not in admin.evaluate("JSON.stringify(localStorage)")
    assert TOKEN not in admin.url
    row = admin.locator("#rooms tbody tr", has_text=code)
    expect(row).to_contain_text("Ada")
    expect(row).to_contain_text("Lobby")
    expect(row).to_contain_text("connected")
    no_horizontal_scroll(admin)
    assert_accessible(admin, "the admin page")

    # a message to every table: the player's page shows it
    admin.fill("#announce-text", "The server restarts at 22:00")
    admin.click("#announce-form button[type=submit]")
    expect(admin.locator("#admin-status")).to_contain_text("Message sent to")
    expect(player.locator("#announcement")).to_be_visible()
    expect(player.locator("#announcement")).to_contain_text("The server restarts at 22:00")
    player.click("#announcement-close")
    expect(player.locator("#announcement")).to_be_hidden()

    # remove the player's seat: their page says so and watches
    admin.click(f'#rooms button[data-remove="{code}"][data-seat="0"]')
    expect(admin.locator("#confirm")).to_be_visible()
    admin.click("#confirm-ok")
    expect(admin.locator("#admin-status")).to_contain_text("Seat 1 removed")
    expect(player.locator("#toast")).to_contain_text("Your seat was removed")
    expect(player.locator("#join-form")).to_be_visible()

    # close the room with a message: the player's page says why
    api.join(code, "Bo")
    admin.click("#rooms-refresh")
    admin.click(f'#rooms button[data-close="{code}"]')
    admin.fill("#confirm-message", "Closed for spam")
    admin.click("#confirm-ok")
    expect(admin.locator("#admin-status")).to_contain_text(f"Room {code} closed")
    expect(player.locator("#error-view")).to_be_visible()
    expect(player.locator("#error-text")).to_contain_text("Closed for spam")
    expect(admin.locator("#rooms tbody tr", has_text=code)).to_have_count(0)
    assert api.info(code).status_code == 404 and host

    log = admin.locator("#admin-log tbody tr")
    expect(log).to_have_count(3)
    expect(log.nth(0)).to_contain_text("Closed the room")
    expect(log.nth(0)).to_contain_text("Ops Zoë 管理")
    expect(log.nth(1)).to_contain_text("Removed a seat")
    expect(log.nth(2)).to_contain_text("Sent a message to every table")

    admin.click("#sign-out")
    expect(admin.locator("#admin-work")).to_be_hidden()
    assert admin.evaluate("sessionStorage.getItem('dameNature.adminToken')") is None


def play_seat_to_the_end(api: Api, code: str, token: str, seat: int) -> dict[str, Any]:
    """Play ``seat`` with the random policy over a websocket while the server's bots
    play the others; the last view."""
    person = make_bot("random", seat, seed=5)
    acted_on = -1
    with api.socket(code, token) as ws:
        for _ in range(5000):
            message = ws.receive(timeout=60)
            if message["type"] != "state":
                continue
            view = message["view"]
            if view["phase"] == "over":
                return view  # type: ignore[no-any-return]
            action = person.act(view)
            if action is not None and view["version"] > acted_on:
                acted_on = view["version"]
                ws.send({"type": "action", "action": action})
    raise AssertionError("the game did not end")


def test_your_games_and_the_statistics_page(open_page: PageOpener, api: Api) -> None:
    created = api.create(seed=9).json()
    code, host = created["room"], created["host_token"]
    page = open_page()
    join_room(page, code, "Ada")
    for _ in range(2):
        assert api.add_bot(code, host, "random").status_code == 201
    assert api.start(code, host).status_code == 200
    expect(page.locator("#game-view")).to_be_visible()
    final = play_seat_to_the_end(api, code, seat_token(page, code), 0)
    expect(page.locator("#end-view")).to_be_visible()

    page.goto("/games")
    rows = page.locator("#games tbody tr")
    expect(rows).to_have_count(1)
    outcome = "Won" if final["result"]["outcome"] == "won" else "Lost"
    expect(rows.first).to_contain_text(outcome)
    expect(rows.first).to_contain_text("3 players (2 bots)")
    expect(rows.first).to_contain_text("The base game")
    expect(page.locator("#games-summary")).to_contain_text("1 game")
    assert_accessible(page, "your games")
    page.click("#games tbody a")
    page.wait_for_url(f"**/r/{code}/replay?game=1")
    expect(page.locator("main")).to_contain_text("Ada")

    # the statistics page, on a phone and in French
    phone = open_page(**PHONE, locale="fr-FR")
    phone.goto("/stats")
    expect(phone.locator("#stats-title")).to_have_text("Statistiques")
    expect(phone.locator("#stats-total")).to_contain_text("partie")
    expect(phone.locator("#by-players tbody tr", has_text="3 joueurs")).to_contain_text("sur 1")
    expect(phone.locator("#by-rule tbody")).to_contain_text("Le jeu de base")
    expect(phone.locator("#per-day tbody tr").first).to_contain_text("1")
    no_horizontal_scroll(phone)
    assert_accessible(phone, "the statistics page")


def test_your_games_is_empty_on_a_new_browser(open_page: PageOpener) -> None:
    home = open_page()
    home.goto("/")
    home.click("text=Your games")
    expect(home.locator("#games-empty")).to_be_visible()
    expect(home.locator("#games")).to_be_hidden()
    home.click("text=Statistics")
    expect(home.locator("#stats-title")).to_be_visible()
