"""The table as new players met it: each case a snag they hit, seen in the browser at the
moment it happened; the games are set up and played through the REST API."""

from __future__ import annotations

import re

import pytest
from dn_rest import RestTable
from dn_ui_plan import plan
from playwright.sync_api import expect

from dame_nature.engine import Game

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

NAMES = ["Alice", "Bob", "Chloé"]
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_reveal_panel_reload_and_symbols_name_one_turn(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), NAMES)
    table.program_all(p.turns[0])
    table.choose_until()
    # turn 2: the first revealer (Bob) must choose where his card goes
    table.program_all(p.turns[1])
    view = table.view()
    assert view["phase"] == "reveal" and view["awaiting"]["seat"] == 1
    assert view["revealed_this_turn"] == []
    watcher = table.page(open_page)
    reveals = watcher.locator("#reveals")
    expect(watcher.locator("#reveal-title")).to_have_text("Reveal of turn 2")
    expect(reveals.locator(".reveal-item.waiting")).to_contain_text("1. Bob")
    expect(reveals.locator(".reveal-item")).to_have_count(1)  # not last turn's cards

    table.choose_until()
    for turn in p.turns[2:4]:  # turn 4 reveals cond-yellow-3, an associated Condition
        table.program_all(turn)
        table.choose_until()
    late = table.page(open_page)
    # the last turn's reveal is shown at once, not replayed, and its places are filled
    expect(late.locator("#reveal-title")).to_have_text("Reveal of turn 4")
    expect(late.locator("#reveals .reveal-item")).to_have_count(3)
    expect(late.locator("#reveals .reveal-item.new")).to_have_count(0)
    expect(late.locator("#webs .appearing")).to_have_count(0)
    placed = [slot for slot, card in table.view()["web"].items() if card]
    conditions = sum(1 for slot in placed if ":" in slot)
    expect(late.locator("#webs .cslot.filled")).to_have_count(conditions)
    expect(late.locator("#webs .species-node.installed")).to_have_count(len(placed) - conditions)
    # the base game: no symbol named in the log or the reveal
    for where in ("#log", "#reveals", "#discard"):
        text = late.locator(where).inner_text()
        assert not re.search(r"associated|dependent|temporary", text, re.I), text
    expect(late.locator("#log")).to_contain_text("Thermal Condition [T]")


def test_programming_by_keyboard_keeps_focus_and_a_double_click_acts_once(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), NAMES)
    alice = table.page(open_page, seat=0)
    first = alice.locator("#hand button.hand-card").first
    first.focus()
    programmed = first.get_attribute("data-card")
    alice.keyboard.press("Enter")
    expect(alice.locator(f'#programmed [data-card="{programmed}"]')).to_be_visible()
    # focus stays in the hand, on the card that took the place of the programmed one
    expect(alice.locator("#hand button.hand-card").first).to_be_focused()

    # a double click at human speed on a hand card programs that card only
    target = alice.locator("#hand button.hand-card").nth(2)
    card = target.get_attribute("data-card")
    target.scroll_into_view_if_needed()
    box = target.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    alice.mouse.click(x, y)
    alice.wait_for_timeout(200)
    alice.mouse.click(x, y)
    expect(alice.locator(f'#programmed [data-card="{card}"]')).to_be_visible()
    alice.wait_for_timeout(600)
    expect(alice.locator(f'#programmed [data-card="{card}"]')).to_be_visible()
    assert table.view(0)["programmed"] == card
    # and on Ready: ready once, not ready-then-not-ready
    alice.locator("#ready-btn").scroll_into_view_if_needed()
    box = alice.locator("#ready-btn").bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    alice.mouse.click(x, y)
    alice.wait_for_timeout(200)
    alice.mouse.click(x, y)
    expect(alice.locator("#unready-btn")).to_be_visible()
    alice.wait_for_timeout(600)
    expect(alice.locator("#unready-btn")).to_be_visible()
    assert table.view(0)["players"][0]["ready"] is True


def test_phone_first_player_name_is_readable(open_page, ui_server):
    p = plan()
    long_names = ["Alexandrine-Marguerite Dupont", "Bob", "Chloé"]
    table = RestTable(ui_server.url, p.deal(), long_names)
    bob = table.page(open_page, seat=1, **PHONE)
    head = bob.locator('#others .player[data-seat="0"] .player-head')
    expect(head.locator(".badge.first")).to_be_visible()
    name = head.locator(".pname")
    width = name.evaluate("e => e.getBoundingClientRect().width")
    assert width >= 80, f"the first player's name is squeezed to {width}px"
    assert bob.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def swap_setup() -> tuple[dict, dict[int, str]]:
    """A deal with Species Reintroductions where Alice plays a Pollution on turn 7 (the 4
    plants are installed by then): the planned game with the three Pollutions added."""
    p = plan()
    hands = [list(h) for h in p.hands]
    for seat, pollution in enumerate(["pollution-1", "pollution-2", "pollution-3"]):
        hands[seat].append(pollution)
    deal = {"hands": hands, "first_player": 0}
    Game(3, ["species_reintroductions"]).check_deal(deal)
    return deal, {**p.turns[6], 0: "pollution-1"}


def test_discard_swap_offers_only_cards_that_can_be_taken(open_page, ui_server):
    p = plan()
    deal, turn7 = swap_setup()
    table = RestTable(ui_server.url, deal, NAMES, modes=["species_reintroductions"])
    for turn in p.turns[:6]:
        table.program_all(turn)
        table.choose_until()
    table.program_all(turn7)
    view = table.choose_until()
    assert "pollution-1" in view["discard"], view["discard"]
    takeable = {
        a["take"]
        for a in table.get(f"/rooms/{table.code}/legal_actions", table.tokens[1])["actions"]
        if a["type"] == "swap_discard"
    }
    assert "pollution-1" not in takeable and takeable  # the removed Condition can be taken
    bob = table.page(open_page, seat=1)  # first player of turn 8: a free Symbiosis
    bob.click("#sym-btn")
    dialog = bob.locator("#sym-dialog")
    dialog.locator('label.radio:has(input[name="kind"][value="swap_discard"])').click()
    expect(dialog.locator('input[name="take"][value="pollution-1"]')).to_be_disabled()
    expect(dialog.locator("#sym-take-fs")).to_contain_text("cannot be taken")
    for card in takeable:
        expect(dialog.locator(f'input[name="take"][value="{card}"]')).to_be_enabled()
    dialog.locator("#sym-cancel").click()

    # the discard pile says who discarded each card and why (hover, focus, tap)
    pollution = bob.locator('#discard .discard-card:has([data-card="pollution-1"])')
    expect(pollution).to_have_attribute("aria-label", re.compile(r"Played by Alice, turn 7"))
    removed = next(e["card"] for e in table.get(f"/rooms/{table.code}/log")["events"]
                   if e["type"] == "removed_from_web")  # fmt: skip
    removed_card = bob.locator(f'#discard .discard-card:has([data-card="{removed}"])')
    expect(removed_card).to_have_attribute(
        "aria-label", re.compile(r"Removed from the web, turn 7: removed by Pollution")
    )
    expect(removed_card.locator(".tip")).to_be_hidden()
    removed_card.focus()
    expect(removed_card.locator(".tip")).to_be_visible()

    # the whole log of the game, not only the views' last 60 events
    events = table.get(f"/rooms/{table.code}/log", table.tokens[1])["events"]
    assert len(events) > len(table.view(1)["log"]) == 60
    expect(bob.locator("#log li").first).to_have_text("Turn 1 begins; Alice is first player.")
    told = bob.locator("#log li")
    expect(bob.locator("#log-count")).to_have_text(f"({told.count()} events)")


def test_a_hint_when_the_programmed_card_has_no_place_now(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), NAMES)
    alice = table.page(open_page, seat=0)
    hint = alice.locator("#programmed-hint")
    alice.click('#hand button[data-card="species-aubepine"]')
    expect(hint).to_be_visible()
    expect(hint).to_contain_text("No place for it now: its Conditions are not all in place")
    alice.click(f'#hand button[data-card="{p.turns[0][0]}"]')  # a Condition with a free slot
    expect(alice.locator(f'#programmed [data-card="{p.turns[0][0]}"]')).to_be_visible()
    expect(hint).to_be_hidden()


def test_the_log_counts_the_lines_it_shows(open_page, ui_server):
    """The log's count is of its lines: a card programmed or a seat ready is an event
    the log keeps but does not tell, so it is not counted."""
    p = plan()
    table = RestTable(ui_server.url, p.deal(), NAMES)
    table.program_all({seat: p.turns[0][seat] for seat in range(3)})
    table.choose_until()
    bob = table.page(open_page, seat=1)
    lines = bob.locator("#log li")
    expect(lines.last).to_contain_text("Turn 2 begins")
    assert len(table.view(1)["log"]) > lines.count()  # programmed and ready are not told
    expect(bob.locator("#log-count")).to_have_text(f"({lines.count()} events)")


def test_phone_first_badge_stays_in_its_card_in_french(open_page, ui_server):
    """On a phone the first player's badge wraps inside its narrow card ("Premier ·
    Symbiose gratuite") instead of running out of it, cut at "Symbiose gr"."""
    table = RestTable(ui_server.url, plan().deal(), NAMES)
    page = open_page(locale="fr-FR", **PHONE)
    bob = table.page(lambda **_: page, seat=1)
    badge = bob.locator('#others .player[data-seat="0"] .badge.first')
    expect(badge).to_have_text("Premier · Symbiose gratuite")
    right, card = badge.evaluate(
        "e => [e.getBoundingClientRect().right, e.closest('.player').getBoundingClientRect().right]"
    )
    assert right <= card, f"the badge runs {right - card:.0f}px out of its card"
