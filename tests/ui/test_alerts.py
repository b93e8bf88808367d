"""Turn alerts: the tab's title and icon say when the table waits for you; an
optional sound and, when the tab is hidden, an opt-in desktop notification; the choices
are remembered. WebAudio and notifications are stubbed in the page to count them."""

from __future__ import annotations

import pytest
from dn_rest import RestTable
from dn_ui import program, ready
from dn_ui_plan import plan
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

STUBS = """
window.__tones = 0; window.__notes = []; window.__hidden = false;
window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createOscillator() {
    const start = () => { window.__tones += 1; };
    return { type: "", frequency: { value: 0 }, connect: (g) => g, start, stop() {} };
  }
  createGain() {
    return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} }, connect: (d) => d };
  }
};
window.Notification = class {
  constructor(title, options) { window.__notes.push([title, options.body]); }
  static requestPermission() { return Promise.resolve("granted"); }
};
window.Notification.permission = "granted";
Object.defineProperty(document, "hidden", { get: () => window.__hidden });
"""


def test_turn_alerts_title_icon_sound_and_notification(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    page = open_page()
    page.add_init_script(STUBS)
    alice = table.page(lambda **_: page, seat=0)
    expect(alice).to_have_title("● Program a card · Turn 1 · Dame Nature Online")
    icon = alice.locator("#favicon")
    expect(icon).to_have_attribute("href", "/static/img/favicon-alert.svg")

    alice.click("#alerts-btn")
    dialog = alice.locator("#alerts-dialog")
    expect(dialog).to_be_visible()
    dialog.locator("#alert-sound").check()
    dialog.locator("#alert-notify").check()
    expect(dialog.locator("#alert-notify")).to_be_checked()
    dialog.locator("#alerts-close").click()
    expect(dialog).to_be_hidden()
    tones = alice.evaluate("window.__tones")
    assert tones >= 2  # checking the sound plays it once

    program(alice, p.turns[0][0])
    expect(alice).to_have_title("● Say Ready · Turn 1 · Dame Nature Online")
    ready(alice)
    expect(alice).to_have_title("Turn 1 · Dame Nature Online")
    expect(icon).to_have_attribute("href", "/static/img/favicon.svg")

    # the others play turn 1 while Alice's tab is hidden: turn 2 waits for her again
    alice.evaluate("window.__hidden = true")
    for seat in (1, 2):
        table.act(seat, {"type": "program", "card": p.turns[0][seat]})
        table.act(seat, {"type": "ready"})
    table.choose_until()
    expect(alice).to_have_title("● Program a card · Turn 2 · Dame Nature Online")
    expect(icon).to_have_attribute("href", "/static/img/favicon-alert.svg")
    assert alice.evaluate("window.__tones") > tones
    notes = alice.evaluate("window.__notes")
    assert notes and notes[-1][1] == "Program a card", notes

    # remembered in this browser
    alice.reload()
    alice.click("#alerts-btn")
    expect(alice.locator("#alert-sound")).to_be_checked()
    expect(alice.locator("#alert-notify")).to_be_checked()
