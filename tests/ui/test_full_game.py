"""Three players create, join and start a room with an explicit deal, then play a whole
game to the end screen by clicking the UI only."""

from __future__ import annotations

import re

import pytest
from dn_ui import create_room, join_room, program, start_game, take_seat
from dn_ui_plan import plan
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def test_three_players_play_a_whole_game(open_page):
    p = plan()
    pages = [open_page() for _ in range(3)]
    host = pages[0]
    code = create_room(host, deal=p.deal())
    take_seat(host, "Alice")
    join_room(pages[1], code, "Bob")
    join_room(pages[2], code, "Chloé")
    start_game(host, 3)
    for page in pages:
        expect(page.locator("#game-view")).to_be_visible()
        expect(page.locator("#turn-info")).to_have_text("Turn 1 of 11")
    # everyone sees their own 11 cards, and the others' hand sizes
    expect(pages[1].locator("#hand button.hand-card")).to_have_count(11)
    expect(pages[1].locator('#others .player[data-seat="2"]')).to_contain_text("11 in hand")

    for t, programmed in enumerate(p.turns, start=1):
        for seat, page in enumerate(pages):
            program(page, programmed[seat])
        for page in pages:
            page.click("#ready-btn")
        # the next clicks may land where these did: leave the double-click window (the
        # table ignores the second half of a double click)
        pages[0].wait_for_timeout(650)
        for turn, seat, _card, slot in p.choices:
            if turn != t:
                continue
            chooser = pages[seat]
            target = chooser.locator(f'#webs button.target[data-slot="{slot}"]')
            expect(target).to_be_visible()
            target.click()
        if t < len(p.turns):
            for page in pages:
                expect(page.locator("#turn-info")).to_have_text(re.compile(rf"^Turn {t + 1} of "))

    for page in pages:
        expect(page.locator("#end-view")).to_be_visible()
        expect(page.locator("#end-title")).to_contain_text("you won")
        expect(page.locator("#end-text")).to_contain_text("0 cards discarded (at most 3")
    expect(host.locator("#rematch-btn")).to_be_visible()
    expect(pages[1].locator("#rematch-btn")).to_be_hidden()
