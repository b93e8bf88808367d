"""The lobby as new players met it: each case a snag they hit, seen in the browser."""

from __future__ import annotations

import json
import re

import httpx
import pytest
from dn_ui import create_room, join_room, open_rules_editor, start_game, take_seat
from dn_ui_plan import plan
from playwright.sync_api import expect

from dame_nature.engine import Game

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_saving_the_rules_keeps_the_seed_and_shows_it(open_page):
    host, guest, third = open_page(), open_page(), open_page()
    host.goto("/")
    host.click("#rules-fold > summary")
    host.click("details.advanced summary")
    host.fill("#seed", "42")
    host.click("#create-btn")
    host.wait_for_url("**/r/*")
    code = host.url.rsplit("/r/", 1)[1]
    take_seat(host, "Alice")
    join_room(guest, code, "Bob")
    join_room(third, code, "Chloé")
    expect(host.locator("#lobby-rules")).to_contain_text("seed 42")
    open_rules_editor(host)
    expect(host.locator("#lobby-picker #seed")).to_have_value("42")
    host.check('#lobby-picker input[name="mode"][value="first_predator"]')
    host.click("#rules-save")
    expect(guest.locator("#lobby-rules")).to_contain_text("First Predator")
    expect(host.locator("#lobby-rules")).to_contain_text("seed 42")
    start_game(host, 3)
    expected = Game(3, ["first_predator"]).new_initial_state(seed=42).hands[0]
    shown = host.locator("#hand button.hand-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    assert sorted(shown) == sorted(expected)


def test_saving_the_rules_keeps_an_explicit_deal(open_page):
    open_page.allow("status of 422")  # the deal refused for the Wetland, on purpose
    host = open_page()
    deal = plan().deal()
    create_room(host, deal=deal)
    expect(host.locator("#lobby-rules")).to_contain_text("explicit deal")
    open_rules_editor(host)
    host.check('#lobby-picker input[name="mode"][value="wetland"]')
    host.click("#rules-save")
    expect(host.locator("#rules-error")).to_contain_text("missing")  # the deal is checked
    host.uncheck('#lobby-picker input[name="mode"][value="wetland"]')
    host.check('#lobby-picker input[name="mode"][value="climate_change"]')
    host.click("#rules-save")
    expect(host.locator("#lobby-rules")).to_contain_text("Climate Change")
    expect(host.locator("#lobby-rules")).to_contain_text("explicit deal")
    host.reload()
    expect(host.locator("#lobby-rules")).to_contain_text("explicit deal")  # the rules read
    open_rules_editor(host)
    assert '"first_player":0' in host.locator("#lobby-picker #deal").input_value()
    assert deal["hands"][0][0] in host.locator("#lobby-picker #deal").input_value()


def test_the_rules_editor_opens_once_the_rules_are_read(open_page):
    """Opened before the host's ``GET /rules`` answers, the editor would show no deal, and
    saving would drop the room's explicit deal: it stays shut (busy) until then."""
    host = open_page()
    deal = plan().deal()
    create_room(host, deal=deal)
    expect(host.locator("#lobby-rules")).to_contain_text("explicit deal")
    rules = re.compile(r"/api/rooms/[^/]+/rules$")
    held = []  # the host's read of the rules, answered when the test says
    host.route(rules, lambda route: held.append(route))
    with host.expect_request(rules):
        host.reload()
    expect(host.locator("#lobby-view")).to_be_visible()
    host.click("#rules-editor summary")  # refused while the rules are read
    expect(host.locator("#rules-editor")).not_to_have_attribute("open", "")
    expect(host.locator("#rules-editor")).to_have_attribute("aria-busy", "true")
    assert len(held) == 1
    held[0].continue_()
    host.unroute(rules)
    expect(host.locator("#lobby-rules")).to_contain_text("explicit deal")
    open_rules_editor(host)
    assert deal["hands"][0][0] in host.locator("#lobby-picker #deal").input_value()
    host.check('#lobby-picker input[name="mode"][value="climate_change"]')
    host.click("#rules-save")
    expect(host.locator("#lobby-rules")).to_contain_text("Climate Change")
    expect(host.locator("#lobby-rules")).to_contain_text("explicit deal")


def test_names_with_joined_emoji_and_long_names(open_page):
    host, farmer, rainbow = open_page(), open_page(), open_page(**PHONE)
    code = create_room(host)
    take_seat(host, "Alexandrine-Marguerite Dupont")  # 29 characters
    join_room(farmer, code, "🧑‍🌾 Farmer")
    join_room(rainbow, code, "🏳️‍🌈")
    expect(host.locator("#lobby-players")).to_contain_text("🧑‍🌾 Farmer")
    expect(host.locator("#lobby-players")).to_contain_text("🏳️‍🌈")
    # on the phone, every lobby row keeps within its box
    rows = rainbow.locator("#lobby-players li")
    expect(rows).to_have_count(3)
    for i in range(3):
        fits = rows.nth(i).evaluate("li => li.scrollWidth <= li.clientWidth")
        assert fits, rows.nth(i).inner_text()
    assert rainbow.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # control characters and empty names are refused, with a reason
    fourth = open_page()
    fourth.goto(f"/r/{code}")
    fourth.fill("#player-name", "Bell\u0007")
    fourth.click("#join-btn")
    expect(fourth.locator("#join-error")).to_contain_text("control character")
    fourth.fill("#player-name", "\u200d")
    fourth.click("#join-btn")
    expect(fourth.locator("#join-error")).not_to_be_empty()
    expect(fourth.locator("#join-form")).to_be_visible()


def test_a_full_room_says_so_and_offers_to_watch(open_page, ui_server):
    # a lobby only: the 3 seats of a 3-hand deal, all taken
    api = httpx.Client(base_url=ui_server.url + "/api")
    code = api.post("/rooms", json={"deal": plan().deal()}).json()["room"]
    for name in ("Alice", "Bob", "Chloé"):
        assert api.post(f"/rooms/{code}/players", json={"name": name}).status_code == 201
    late = open_page()
    late.goto(f"/r/{code}")
    expect(late.locator("#lobby-view")).to_be_visible()
    expect(late.locator("#seated-note")).to_contain_text("full")
    expect(late.locator("#join-form")).to_be_hidden()
    expect(late.locator("#seated-note")).to_contain_text("watch")


def _lobby_as_host(open_page, ui_server, names, deal=None):
    """A lobby made through the REST API with ``names`` seated; the host's page (the host
    holds no seat). The page, the API client and the room's path and host token."""
    api = httpx.Client(base_url=ui_server.url + "/api", timeout=10)
    created = api.post("/rooms", json={"deal": deal} if deal else {}).json()
    code, host_token = created["room"], created["host_token"]
    for name in names:
        assert api.post(f"/rooms/{code}/players", json={"name": name}).status_code == 201
    host = open_page()
    memory = json.dumps({code: {"host_token": host_token}})
    host.add_init_script(f"localStorage.setItem('dameNature.rooms', {json.dumps(memory)});")
    host.goto(f"/r/{code}")
    expect(host.locator("#lobby-players li")).to_have_count(len(names))
    return host, api, f"/rooms/{code}", host_token


def test_start_refused_after_a_player_left_keeps_the_button_off(open_page, ui_server):
    open_page.allow("status of 409")  # the start refused, on purpose
    host, api, room, host_token = _lobby_as_host(open_page, ui_server, ["Alice", "Bob", "Chloé"])
    held = []
    host.route("**/start", lambda route: held.append(route))  # the start request waits for the test
    start = host.locator("#start-btn")
    expect(start).to_be_enabled()
    start.click()
    expect(start).to_be_disabled()
    # while it is on its way, Chloé leaves: the lobby redraws with two players...
    auth = {"Authorization": f"Bearer {host_token}"}
    assert api.delete(f"{room}/players/2", headers=auth).status_code == 200
    expect(host.locator("#lobby-players li")).to_have_count(2)
    expect(start).to_be_disabled()  # ...and the request still runs
    held[0].continue_()
    expect(host.locator("#start-error")).to_contain_text("3 to 6 players")
    # the answer came: the button follows the room (two players), it is not forced back on
    expect(start).to_be_disabled()
    expect(start).to_contain_text("1 more player needed")
    # a third player comes: the room decides again
    assert api.post(f"{room}/players", json={"name": "Dora"}).status_code == 201
    expect(start).to_be_enabled()


def test_a_deal_for_four_needs_four_players_to_start(open_page, ui_server):
    setup = Game(4).new_initial_state(seed=3).setup
    deal = {"hands": setup["hands"], "first_player": setup["first_player"]}
    host, api, room, _ = _lobby_as_host(open_page, ui_server, ["Alice", "Bob", "Chloé"], deal)
    start = host.locator("#start-btn")
    expect(start).to_be_disabled()
    expect(start).to_contain_text("1 more player needed")
    assert api.post(f"{room}/players", json={"name": "Dora"}).status_code == 201
    expect(start).to_be_enabled()
    expect(start).to_contain_text("4 players")
