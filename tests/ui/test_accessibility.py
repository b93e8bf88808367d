"""Accessibility: axe-core finds no serious or critical violation on any screen
(home, missing room, lobby as host and guest, the table on a desktop and a phone, each
dialog, a reveal choice, the end screen); every control is reachable by keyboard and has
a name; the reveal is announced in an ARIA live region."""

from __future__ import annotations

import pytest
from dn_rest import RestTable
from dn_ui import (
    assert_accessible,
    create_room,
    join_room,
    open_rules_editor,
    start_game,
    take_seat,
)
from dn_ui_plan import plan
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}

CONTROLS = "button, a[href], input, select, textarea, [tabindex]"
UNNAMED_CONTROLS = """(controls) => [...document.querySelectorAll(controls)]
  .filter((el) => el.offsetParent !== null && !el.disabled)
  .filter((el) => {
    const label = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby')
      || (el.labels && el.labels.length) || el.textContent.trim() || el.getAttribute('title');
    return !label;
  }).map((el) => el.outerHTML.slice(0, 120))"""


def assert_controls_named(page: Page, where: str) -> None:
    unnamed = page.evaluate(UNNAMED_CONTROLS, CONTROLS)
    assert not unnamed, f"{where}: controls without a name: {unnamed}"


def assert_reachable_by_tab(page: Page) -> None:
    """Tab from the top of the page reaches the header's buttons, the log, the hand and
    Symbiosis (Ready is disabled until a card is programmed)."""
    page.evaluate("document.querySelector('.skip-link').focus()")
    reached: list[str] = []
    for _ in range(80):
        page.keyboard.press("Tab")
        reached.append(
            page.evaluate(
                "(e => e.id || e.dataset.key || e.className || e.tagName)(document.activeElement)"
            )
        )
    for wanted in ("help-btn", "alerts-btn", "log", "sym-btn"):
        assert wanted in reached, (wanted, reached)
    assert any(str(r).startswith("hand-") for r in reached), reached


def test_every_screen_passes_axe(open_page, ui_server):
    open_page.allow("status of 404")  # the missing room, on purpose
    home = open_page()
    home.goto("/")
    assert_accessible(home, "home")
    home.goto("/r/NoSuchRoomHere")
    expect(home.locator("#error-view")).to_be_visible()
    assert_accessible(home, "room not found")

    p = plan()
    alice, bob, chloe = open_page(), open_page(**PHONE), open_page()
    code = create_room(alice, deal=p.deal())
    take_seat(alice, "Alice")
    join_room(bob, code, "Bob")
    open_rules_editor(alice)
    assert_accessible(alice, "lobby (host, rules editor open)")
    assert_controls_named(alice, "lobby (host)")
    assert_accessible(bob, "lobby (guest, phone)")
    join_room(chloe, code, "Chloé")
    start_game(alice, 3)
    assert_accessible(alice, "table (desktop)")
    assert_controls_named(alice, "table (desktop)")
    assert_reachable_by_tab(alice)
    assert_accessible(bob, "table (phone)")

    for button, dialog in (("#help-btn", "#help-dialog"), ("#alerts-btn", "#alerts-dialog")):
        alice.click(button)
        expect(alice.locator(dialog)).to_be_visible()
        assert_accessible(alice, dialog)
        alice.keyboard.press("Escape")
        expect(alice.locator(dialog)).to_be_hidden()
    alice.click("#sym-btn")
    sym = alice.locator("#sym-dialog")
    expect(sym.locator('input[name="kind"]').first).to_be_visible()
    assert_accessible(alice, "symbiosis dialog")
    sym.locator('label.radio:has(input[name="kind"][value="give"])').click()
    sym.locator('label.card-choice:has(input[name="card"][value="joker-1"])').click()
    sym.locator('label.radio:has(input[name="to"][value="1"])').click()
    sym.locator("#sym-ok").click()
    giveback = bob.locator("#giveback-dialog")
    expect(giveback).to_be_visible()
    assert_accessible(bob, "give-back dialog (phone)")
    giveback.locator('label.card-choice:has(input[name="giveback"][value="joker-1"])').click()
    giveback.locator("#giveback-ok").click()
    expect(giveback).to_be_hidden()


def test_reveal_choice_live_region_and_end_screen(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    bob = table.page(open_page, seat=1)
    alice = table.page(open_page, seat=0)
    chloe = table.page(open_page, seat=2, **PHONE)
    table.program_all(p.turns[0])  # Bob, second to reveal, chooses where his card goes
    expect(bob.locator("#prompt .option").first).to_be_visible()
    assert_accessible(bob, "reveal choice")
    # on a phone the hand is a strip wider than the screen, its cards idle while others
    # reveal: the strip itself takes the focus so that a keyboard can scroll it
    expect(chloe.locator("#hand .hand-card").first).to_be_disabled()
    assert chloe.evaluate("(h => h.scrollWidth > h.clientWidth)(document.getElementById('hand'))")
    assert_accessible(chloe, "reveal phase (phone, hand idle)")
    assert_controls_named(bob, "reveal choice")
    # the reveal is announced to screen readers
    live = alice.locator("#live")
    expect(live).to_have_attribute("aria-live", "assertive")
    expect(live).to_contain_text("Alice (you): Atmospheric Condition [A], placed")
    bob.locator("#prompt .option").first.focus()
    bob.keyboard.press("Enter")
    expect(bob.locator("#prompt")).to_be_hidden()
    # the choice made, the focus stays in the dock (not back at the top of the page)
    assert bob.evaluate("!!document.activeElement.closest('#me')")
    table.choose_until()
    expect(live).to_contain_text("Chloé")

    for turn in p.turns[1:]:
        table.program_all(turn)
        table.choose_until()
    expect(alice.locator("#end-view")).to_be_visible(timeout=30_000)  # 27 actions to catch up
    expect(alice.locator("#end-title")).to_be_focused()
    assert_accessible(alice, "end screen")
    alice.click("#see-table-btn")
    expect(alice.locator("#back-end")).to_be_focused()
    assert_accessible(alice, "final table")
