"""A game as a screen reader hears it: the live regions say each change of the table once,
in the page's language (a Symbiosis of another player too, not only the reveals), the
status line is not said again by views that leave its words as they are, and the focus
stays in the dock when the hand is put away for a reveal's choice."""

from __future__ import annotations

import json

import pytest
from dn_rest import RestTable
from dn_ui import create_room
from dn_ui_plan import plan
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

# every change of the status line and of the assertive live region, as a screen reader
# is told of them
RECORD = """
window.__said = [];
document.addEventListener('DOMContentLoaded', () => {
  for (const id of ['status', 'live']) {
    const el = document.getElementById(id);
    new MutationObserver(() => window.__said.push([id, el.textContent]))
      .observe(el, {childList: true, subtree: true, characterData: true});
  }
});
"""


def said(page: Page, region: str) -> list[str]:
    return [text for r, text in page.evaluate("window.__said.splice(0)") if r == region]


def listened(open_page, table: RestTable, seat: int, lang: str = "en") -> Page:
    """The room page of ``seat`` in ``lang`` (chosen on this browser), what its status
    line and live region say recorded from the start."""
    page = open_page()
    page.add_init_script(f"localStorage.setItem('dameNature.lang', {json.dumps(lang)});")
    page.add_init_script(RECORD)
    return table.page(lambda **context: page, seat=seat)


def test_the_status_line_is_said_again_only_when_its_words_change(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    bob = listened(open_page, table, 1)
    expect(bob.locator("#status")).to_contain_text("Programming")
    said(bob, "status")
    # a view that leaves Bob's status as it is (Chloé programs): nothing said again
    table.act(2, {"type": "program", "card": p.turns[0][2]})
    expect(bob.get_by_role("img", name="Chloé has programmed a card")).to_be_visible()
    assert said(bob, "status") == []
    table.act(1, {"type": "program", "card": p.turns[0][1]})
    expect(bob.locator("#status")).to_contain_text("Say Ready")
    assert said(bob, "status") == ["Say Ready when you are sure (you can still replace your card)."]


def test_another_players_symbiosis_is_said_in_the_page_language(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    bob = listened(open_page, table, 1)
    chloe = listened(open_page, table, 2, "fr")
    expect(chloe.locator("#status")).to_contain_text("Programmation")
    table.act(0, {"type": "show", "card": "joker-1"})
    expect(bob.locator("#live")).to_have_text("Alice shows Joker to everyone (free Symbiosis).")
    expect(chloe.locator("#live")).to_have_text(
        "Alice montre le Joker à tout le monde (Symbiose gratuite)."
    )
    # said once: the next view (Chloé programs) says nothing more
    table.act(2, {"type": "program", "card": p.turns[0][2]})
    expect(bob.get_by_role("img", name="Chloé has programmed a card")).to_be_visible()
    assert said(bob, "live") == ["Alice shows Joker to everyone (free Symbiosis)."]


def test_focus_stays_in_the_dock_when_the_hand_is_put_away(open_page, ui_server):
    """A keyboard on the hand strip (idle while Alice chooses where her Joker goes) is
    moved to Bob's own choice when it comes, not dropped on the page."""
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    bob = table.page(open_page, seat=1)
    table.program_all({0: "joker-1", 1: "joker-2", 2: p.turns[0][2]})
    expect(bob.locator("#status")).to_contain_text("Alice chooses")
    hand = bob.locator("#hand")
    expect(hand).to_have_attribute("tabindex", "0")
    hand.focus()
    table.choose_until(lambda view: view["awaiting"]["seat"] == 1)
    expect(bob.locator("#prompt .option").first).to_be_focused()


def test_focus_comes_back_to_the_dock_when_the_give_back_dialog_closes(open_page, ui_server):
    """The give-back dialog opens when the card arrives, under a hand redrawn with it: the
    hand card that had the focus is gone when Escape closes the dialog."""
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    bob = table.page(open_page, seat=1)
    bob.locator("#hand .hand-card").nth(3).focus()
    table.act(0, {"type": "give", "card": "joker-1", "to": 1})
    dialog = bob.locator("#giveback-dialog")
    expect(dialog).to_be_visible()
    bob.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(bob.locator("#open-giveback")).to_be_focused()


def test_a_side_chosen_before_the_first_turn_is_said(open_page, ui_server):
    """Species-specific biodiversity: the sides are chosen before any event of the game,
    so the first view's log is empty; the side chosen next is still said."""
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"],
                      modes=["species_biodiversity"])  # fmt: skip
    bob = listened(open_page, table, 1)
    expect(bob.locator("#status")).to_contain_text("Waiting for Alice to choose a side")
    table.act(0, {"type": "choose_side", "side": "plant"})
    expect(bob.locator("#live")).to_have_text("Alice chooses the Plant side.")


def test_the_focus_follows_the_seat_taken_and_the_game_started(open_page, ui_server):
    """By keyboard: Take a seat puts the focus on the sentence saying the seat (the form
    is gone), Start the game on the hand (the lobby is gone), not on <body>."""
    alice, bob, chloe = open_page(), open_page(), open_page()
    code = create_room(alice)
    for page, name in ((alice, "Alice"), (bob, "Bob"), (chloe, "Chloé")):
        if page is not alice:
            page.goto(f"/r/{code}")
        page.fill("#player-name", name)
        page.focus("#join-btn")
        page.keyboard.press("Enter")
        expect(page.locator("#seated-note")).to_be_focused()
        expect(page.locator("#seated-note")).to_contain_text(f"You are seated as {name}")
    expect(alice.locator("#start-btn")).to_be_enabled()
    alice.focus("#start-btn")
    alice.keyboard.press("Enter")
    for page in (alice, bob):
        expect(page.locator("#game-view")).to_be_visible()
        expect(page.locator("#hand .hand-card").first).to_be_focused()
