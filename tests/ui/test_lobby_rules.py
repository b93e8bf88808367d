"""The host picks the rules in the lobby: the others see them change, and the game starts
with them."""

from __future__ import annotations

import pytest
from dn_ui import create_room, join_room, open_rules_editor, start_game, take_seat
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def test_host_changes_the_rules_in_the_lobby(open_page):
    host, guest, third = open_page(), open_page(), open_page()
    code = create_room(host, modes=["wetland"])
    take_seat(host, "Alice")
    join_room(guest, code, "Bob")
    join_room(third, code, "Chloé")
    expect(guest.locator("#lobby-rules")).to_contain_text("The Wetland")
    expect(guest.locator("#rules-editor")).to_be_hidden()  # only the host edits

    open_rules_editor(host)
    expect(host.locator('#lobby-picker input[name="mode"][value="wetland"]')).to_be_checked()
    host.uncheck('#lobby-picker input[name="mode"][value="wetland"]')
    host.check('#lobby-picker input[name="mode"][value="climate_change"]')
    host.click("#rules-save")
    expect(host.locator("#rules-editor")).not_to_have_attribute("open", "")
    expect(guest.locator("#lobby-rules")).to_contain_text("Climate Change")
    expect(guest.locator("#lobby-rules")).not_to_contain_text("The Wetland")

    open_rules_editor(host)
    host.check('#lobby-picker input[name="kind"][value="path"]')
    host.check('#lobby-picker input[name="path"][value="4"]')
    host.click("#rules-save")
    expect(third.locator("#lobby-rules")).to_contain_text("Path 4")
    expect(third.locator("#lobby-rules")).to_contain_text("Invasive Species")

    start_game(host, 3)
    expect(guest.locator("#game-view")).to_be_visible()
    expect(guest.locator("#webs")).to_contain_text("Renouée du Japon")  # the lettered web
