"""No one absent freezes a table, in the browser: the host opens her seat on a second
device by its personal link (token in the fragment, gone from the address bar, a QR code
drawn in the page), then leaves; the others are told, and once her seat counts as absent
a player who is not the host hands it to a bot; the host role passes on, and the log says
a bot plays for her."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from dn_rest import RestTable
from dn_ui import create_room, join_room, start_game, take_seat
from dn_ui_plan import plan
from playwright.sync_api import expect

from benchmarks._support.live_server import ServerProcess

pytestmark = pytest.mark.browser

ABSENT = 2.0


@pytest.fixture(scope="module")
def absent_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    env = {"DAME_NATURE_ABSENT_SECONDS": str(ABSENT)}
    server = ServerProcess(tmp_path_factory.mktemp("absent-ui") / "rooms.sqlite3", env).start()
    yield server
    server.stop()


def test_a_seat_moves_to_a_phone_then_a_player_hands_it_to_a_bot(open_page, absent_server):
    base = {"base_url": absent_server.url}
    ada, bo, cy = open_page(**base), open_page(**base), open_page(**base)
    code = create_room(ada)
    take_seat(ada, "Ada")
    join_room(bo, code, "Bo")
    join_room(cy, code, "Cy")
    expect(bo.locator("#join-error")).to_have_text("")
    start_game(ada, 3)
    expect(cy.locator('#others .player[data-seat="0"] .host-badge')).to_be_visible()

    # Ada opens her seat on her phone: a link with the token in the fragment, and its QR
    ada.click("#device-btn")
    dialog = ada.locator("#device-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("svg.qr")).to_be_visible()
    expect(dialog).to_contain_text("Whoever has this link has your seat.")
    ada.click("#device-show")
    link = ada.locator("#device-link").input_value()
    assert f"/r/{code}#seat=" in link and "?" not in link
    ada.click("#device-close")
    phone = open_page(
        viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, **base
    )
    phone.goto(link)
    expect(phone.locator("#game-view")).to_be_visible()
    expect(phone.locator("#hand button.hand-card").first).to_be_visible()
    assert "#" not in phone.url and "seat=" not in phone.url  # the token left the address
    hand_on_laptop = ada.locator("#hand button.hand-card").first.get_attribute("data-card")
    hand_on_phone = phone.locator("#hand button.hand-card").first.get_attribute("data-card")
    assert hand_on_laptop == hand_on_phone  # the same seat, on both devices

    # Ada leaves on both devices: Bo is told, and once the seat counts as absent he (not
    # the host) may hand it to a bot
    ada.context.close()
    phone.context.close()
    expect(bo.locator("#log")).to_contain_text("Ada left the table.")
    takeover = bo.locator('#others .takeover[data-seat="0"]')
    expect(takeover).to_be_visible(timeout=ABSENT * 1000 + 15_000)
    takeover.click()
    ada_seat = cy.locator('#others .player[data-seat="0"]')
    expect(ada_seat.locator(".badge.bot")).to_be_visible()
    expect(cy.locator("#log")).to_contain_text("A bot plays for Ada until they come back.")
    # the host role passed to Bo, the person seated longest who is connected
    expect(cy.locator('#others .player[data-seat="1"] .host-badge')).to_be_visible()
    expect(cy.locator("#log")).to_contain_text("Bo is the host now.")


def test_a_name_taken_is_refused_in_the_lobby(open_page) -> None:
    ada, other = open_page(), open_page()
    code = create_room(ada)
    take_seat(ada, "Ada")
    other.goto(f"/r/{code}")
    expect(other.locator("#lobby-players li")).to_have_count(1)
    other.fill("#player-name", "ADA")
    other.click("#join-btn")  # refused before it is sent, with a free name offered
    expect(other.locator("#join-error")).to_contain_text("already called Ada")
    expect(other.locator("#join-error")).to_contain_text("ADA 2")
    take_seat(other, "ADA 2")


def test_the_log_says_a_bot_played_for_you_without_nested_brackets(open_page, ui_server) -> None:
    """The host hands Alice's seat to a bot before she ever connects; when she arrives,
    the reveal of the card the bot programmed for her says it was played for her, once."""
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    table.post(f"/rooms/{table.code}/bots", {"level": "random", "seat": 0}, table.host_token)
    others_play_turn_one(table)
    for locale, said in (
        ("en-US", "(a bot played for you)"),
        ("fr-FR", "(un bot a joué pour vous)"),
    ):
        page = table.page(open_page, 0, locale=locale)
        note = page.locator("#log li", has_text=said)
        expect(note).to_have_count(1)
        expect(note).not_to_contain_text("))")


def others_play_turn_one(table: RestTable) -> None:
    """Seats 1 and 2 play turn 1 by REST, the bot that took seat 0 with them."""
    deadline = time.monotonic() + 30
    while (view := table.view())["turn"] < 2:  # Bob and Chloé play turn 1, the bot with them
        assert time.monotonic() < deadline, "the bot did not play for Alice"
        waiting = view["awaiting"]
        seats = [waiting["seat"]] if waiting else view["to_act"]
        seat = next((s for s in seats if s != 0), None)
        if seat is None:
            time.sleep(0.1)
            continue
        mine = table.view(seat)
        legal = table.get(f"/rooms/{table.code}/legal_actions", table.tokens[seat])["actions"]
        if waiting:
            action = legal[0]
        elif mine["programmed"] is None:
            action = {"type": "program", "card": mine["hand"][0]}
        else:
            action = {"type": "ready"}
        # refused (409) only when the bot's move came first (a card given): asked again
        answer = table.http.post(
            f"/rooms/{table.code}/actions",
            json=action,
            headers={"Authorization": f"Bearer {table.tokens[seat]}"},
        )
        assert answer.status_code in (200, 409), answer.text


def test_what_a_bot_played_for_you_is_told_once_per_browser(open_page, ui_server) -> None:
    """Back on her seat, Alice is told which turns a bot played for her; opening the room
    again in the same browser does not tell it again (it covered the end screen's buttons
    on a phone after every reload)."""
    table = RestTable(ui_server.url, plan().deal(), ["Alice", "Bob", "Chloé"])
    table.post(f"/rooms/{table.code}/bots", {"level": "random", "seat": 0}, table.host_token)
    others_play_turn_one(table)
    page = table.page(open_page, 0)
    expect(page.locator("#toast")).to_contain_text("a bot played for you in turn")
    expect(page.locator("#log li", has_text="(a bot played for you)")).to_have_count(1)
    again = page.context.new_page()
    again.goto(f"/r/{table.code}")
    # the log drawn: the first view was read, and what it had to tell told before drawing
    # it (net.js: announceTableEvents, then render)
    expect(again.locator("#log li", has_text="(a bot played for you)")).to_have_count(1)
    assert again.locator("#toast").is_hidden()  # not expect(): the toast hides in 5 s
