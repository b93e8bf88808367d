"""Bots in the browser: Play solo from the home page, then a whole game to the end screen
by clicking (the person plays; the bots, level random, act at once); the lobby's seat
controls (add and remove a bot, leave a seat) on a phone-sized screen, and a bot taking
over the seat of a player who left, who takes it back by coming back; axe-core finds no
serious or critical violation in the Play solo panel nor in the host's bot controls."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import httpx
import pytest
from dn_ui import assert_accessible, create_room, no_horizontal_scroll, take_seat
from playwright.sync_api import Page, expect

from benchmarks._support.live_server import ServerProcess

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def play_my_turns(page: Page, limit: float = 180.0) -> None:
    """Click through the game like a person in a hurry: answer what the table asks, else
    program the first card of the hand and say ready, until the end screen."""
    end = page.locator("#end-view")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if end.is_visible():
            return
        option = page.locator("#prompt [data-opt]").first
        ready = page.locator("#ready-btn")
        card = page.locator("#hand button.hand-card").first
        giveback = page.locator("#giveback-dialog[open]")
        try:
            if giveback.count():
                # the card is chosen by its label (the radio itself is hidden under it)
                page.locator("#giveback-form label.card-choice").first.click(timeout=2000)
                page.locator('#giveback-form [type="submit"]').click(timeout=2000)
            elif page.locator("#open-giveback").is_visible():
                page.click("#open-giveback", timeout=2000)  # the prompt reopens the dialog
            elif option.is_visible():
                option.click(timeout=2000)
            elif page.locator("#end-game-btn").is_visible():
                page.click("#end-game-btn", timeout=2000)
            elif page.locator("#programmed [data-card]").count() == 0 and card.is_visible():
                card.click(timeout=2000)
            elif ready.is_visible() and ready.is_enabled():
                ready.click(timeout=2000)
            else:
                page.wait_for_timeout(50)  # the bots are playing
                continue
            # like a person: never two clicks on one spot within the double-click window
            # (the table ignores the second half of a double click)
            page.wait_for_timeout(650)
        except Exception:  # the table changed under the click: look again
            page.wait_for_timeout(50)
    status = page.locator("#status").inner_text()
    turn = page.locator("#turn-info").inner_text()
    raise AssertionError(f"the solo game did not reach the end screen ({turn}: {status})")


def wait_for_the_bots(page: Page) -> None:
    """Wait until both bots have said ready and wait for the person, answering first a
    give-back a bot asks of her (its dialog opens in front of the table, a moment after
    the bot's note "is waiting for a card back"): a random bot that said ready does
    nothing more until the person acts, so the table then stays still."""
    for _ in range(6):  # (each give spends a Symbiosis: a few a turn at most)
        page.wait_for_function(
            """() => document.querySelector('#giveback-dialog[open]') !== null
                || (document.querySelectorAll('#others .ready-state.is-ready').length === 2
                    && document.querySelector('#others .pending-note') === null)"""
        )
        if not page.locator("#giveback-dialog[open]").count():
            return
        page.locator("#giveback-form label.card-choice").first.click()
        page.locator('#giveback-form [type="submit"]').click()
        expect(page.locator("#giveback-dialog")).to_be_hidden()
    raise AssertionError("the bots did not say ready")


def test_play_solo_then_a_whole_game_by_clicking(open_page):
    page = open_page()
    page.goto("/")
    page.fill("#solo-name", "Ada")
    page.select_option("#solo-bots", "2")
    page.click(".solo-more > summary")  # the level is folded under the default, expert
    page.select_option("#solo-level", "random")  # quick bots: the test is about the page
    assert_accessible(page, "home, Play solo filled in")
    page.click("#solo-btn")
    page.wait_for_url("**/r/*")
    expect(page.locator("#game-view")).to_be_visible()
    others = page.locator("#others .player")
    expect(others).to_have_count(2)
    for i in range(2):
        expect(others.nth(i).locator(".badge.bot")).to_contain_text("bot · Random")
    wait_for_the_bots(page)  # nothing opens in front of the help meanwhile
    page.click("#help-btn")  # the help tells how to play beside the bots
    expect(page.locator("#help-body")).to_contain_text("Playing with bots")
    expect(page.locator("#help-body")).to_contain_text("give back a card it can place now")
    page.click("#help-close")
    expect(page.locator("#help-dialog")).to_be_hidden()  # nothing left in front of the table
    play_my_turns(page)
    expect(page.locator("#end-title")).to_be_visible()


def test_lobby_seat_controls_on_a_phone_and_a_bot_taking_over(open_page):
    phone = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
    host = open_page(**phone)
    code = create_room(host)
    take_seat(host, "Ada")
    host.select_option("#bot-level", "random")
    host.click("#add-bot-btn")
    rows = host.locator("#lobby-players li")
    expect(rows).to_have_count(2)
    expect(rows.nth(1).locator(".badge.bot")).to_contain_text("bot · Random")
    no_horizontal_scroll(host)
    assert_accessible(host, "lobby, host with a bot seated (phone)")

    bo = open_page()
    bo.goto(f"/r/{code}")
    take_seat(bo, "Bo")
    expect(rows).to_have_count(3)
    bo.click("#leave-btn")  # Bo leaves his seat, and the room keeps the seats compact
    expect(rows).to_have_count(2)
    expect(bo.locator("#join-form")).to_be_visible()
    take_seat(bo, "Bo")
    expect(rows).to_have_count(3)
    host.click('#lobby-players .remove-seat[data-seat="2"]')  # the host removes Bo...
    expect(rows).to_have_count(2)
    expect(bo.locator("#join-form")).to_be_visible()  # ...who watches, and may sit again
    take_seat(bo, "Bo")
    expect(rows).to_have_count(3)
    host.click('#lobby-players .remove-seat[data-seat="1"]')  # the host removes the bot
    expect(rows).to_have_count(2)
    expect(bo.locator("#lobby-players .badge.bot")).to_have_count(0)
    host.click("#add-bot-btn")
    expect(rows).to_have_count(3)
    host.click("#start-btn")
    expect(host.locator("#game-view")).to_be_visible()
    expect(bo.locator("#game-view")).to_be_visible()
    no_horizontal_scroll(host)

    saved = bo.context.storage_state()  # Bo's browser remembers his seat
    bo.context.close()  # Bo leaves mid-game: the host hands his seat to a bot
    takeover = host.locator('#others .takeover[data-seat="1"]')
    expect(takeover).to_be_visible()
    takeover.click()
    bo_seat = host.locator('#others .player[data-seat="1"]')
    expect(bo_seat.locator(".badge.bot")).to_be_visible()
    expect(takeover).to_have_count(0)

    # Bo comes back with the same browser: opening the link takes his seat back
    bo = open_page(storage_state=saved)
    bo.goto(f"/r/{code}")
    expect(bo.locator("#game-view")).to_be_visible()
    expect(bo_seat.locator(".badge.bot")).to_have_count(0)
    expect(bo_seat).not_to_have_class("offline")
    expect(bo.locator("#hand button.hand-card").first).to_be_visible()


def test_a_render_while_the_bot_levels_load_sets_up_the_controls(open_page):
    """The lobby renders again (a seat taken) while the first render still waits for the
    bot levels: no page error, and "Add a bot" is there and usable once they arrive."""
    host = open_page()
    held: list = []
    host.route("**/api/bots", lambda route: held.append(route))  # the levels answer late
    create_room(host)
    take_seat(host, "Ada")  # a second render of the lobby, the levels not loaded yet
    expect(host.locator("#add-bot-btn")).to_have_count(0)
    for route in held:
        route.continue_()
    expect(host.locator("#add-bot-btn")).to_be_enabled()
    host.click("#add-bot-btn")
    expect(host.locator("#lobby-players li")).to_have_count(2)


@pytest.fixture(scope="module")
def one_bot_game(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """A server where an address has one game with bots in play at most, and whose rooms
    an admin lists."""
    env = {"DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": "1", "DAME_NATURE_ADMIN_TOKEN": "admin-t"}
    db = tmp_path_factory.mktemp("one-bot-game") / "rooms.sqlite3"
    server = ServerProcess(db, env).start()
    yield server
    server.stop()


def rooms_made(server: ServerProcess) -> int:
    auth = {"Authorization": "Bearer admin-t"}
    rooms = httpx.get(f"{server.url}/api/admin/rooms", headers=auth, timeout=20).json()["rooms"]
    return len(rooms)


def remembered(page: Page) -> list[str]:
    return list(json.loads(page.evaluate("localStorage.getItem('dameNature.rooms')") or "{}"))


def test_a_bot_game_past_the_cap_makes_no_room_and_says_what_to_do(open_page, one_bot_game):
    """Play solo and the daily deal's "play with bots" ask first whether the address may
    start one more game with bots: at its cap they make no room (a start refused would
    leave one in its lobby) and say to finish a game, with a link to the rooms listed."""
    page = open_page(base_url=one_bot_game.url)
    page.goto("/")
    page.click(".solo-more > summary")
    page.select_option("#solo-level", "random")
    page.click("#solo-btn")
    page.wait_for_url("**/r/*")  # a game with bots in play: no one plays the person's seat
    expect(page.locator("#game-view")).to_be_visible()
    assert rooms_made(one_bot_game) == 1
    page.goto("/")
    expect(page.locator("#my-rooms-list li")).to_have_count(1)
    page.click("#solo-btn")
    error = page.locator("#solo-error")
    expect(error).to_contain_text(
        "Your address already has 1 game with bots in play, as many as it may: "
        "finish it, then try again."
    )
    expect(error.locator('a[href="/#my-rooms"]')).to_have_text("Your rooms on this device")
    expect(page.locator("#solo-btn")).to_be_enabled()
    assert page.url.endswith("/")
    assert rooms_made(one_bot_game) == 1 and len(remembered(page)) == 1

    french = open_page(base_url=one_bot_game.url, locale="fr-FR")  # the same address
    french.goto("/daily")
    french.click('button[data-play="bots"][data-players="3"]')
    expect(french.locator("#daily-error")).to_contain_text(
        "Votre adresse a déjà 1 partie avec des bots en cours, autant qu'elle le peut\u00a0: "
        "terminez-la, puis réessayez."
    )
    expect(french.locator('#daily-error a[href="/#my-rooms"]')).to_have_text(
        "Vos salles sur cet appareil"
    )
    assert rooms_made(one_bot_game) == 1 and remembered(french) == []
    french.click('button[data-play="friends"][data-players="3"]')  # people only: made
    french.wait_for_url("**/r/*")
    assert rooms_made(one_bot_game) == 2
