"""A game of a path (campaign) that can no longer be won: the banner says why and offers to end it,
the end screen says it is lost and shows the campaign, and the host's rematch starts the
path again from stage 1 for the same seats, its header saying which attempt it is (in
English and French)."""

from __future__ import annotations

import re

import pytest
from dn_ui import program, seat_table
from dn_ui_plan import plan
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def species_of(hand: list[str]) -> list[str]:
    return [c for c in hand if c.startswith("species-") and c != "species-ortie"]


def test_unwinnable_game_ends_and_rematches(open_page):
    p = plan()
    pages = seat_table(open_page, p.deal(), ["Alice", "Bob", "Chloé"], path=1)
    expect(pages[1].locator("#status")).to_be_visible()
    expect(pages[0].locator("#stage-info")).to_have_text("Path 1, stage 1/3")
    # two turns of Species revealed before any Condition: 6 discards, 3 allowed
    hands = [species_of(h) for h in p.hands]
    for t in range(2):
        for seat, page in enumerate(pages):
            program(page, hands[seat][t])
        for page in pages:
            page.click("#ready-btn")
        expect(pages[0].locator("#reveals li.reveal-item.discarded")).to_have_count(3)
        # the next turn's clicks land where these did: leave the double-click window
        pages[0].wait_for_timeout(650)
        expect(pages[0].locator("#reveals")).to_contain_text("its Conditions are not all in place")
    bob = pages[1]
    expect(bob.locator("#banner")).to_contain_text("can no longer be won")
    # the banner says why, from what everyone sees: the count and the Species thrown away
    expect(bob.locator("#banner .lost-reason")).to_contain_text("Not enough cards are left")
    expect(bob.locator("#banner .lost-reason")).to_contain_text("(6 cards discarded, 3 at most")
    expect(bob.locator("#banner .lost-reason")).to_contain_text("is in the discard pile")
    expect(bob.locator("#discard .card")).to_have_count(6)
    bob.click("#end-game-btn")
    for page in pages:
        expect(page.locator("#end-view")).to_be_visible()
        expect(page.locator("#end-title")).to_have_text("The game is lost")
        end_text = page.locator("#end-text")
        expect(end_text).to_contain_text("Not enough cards are left")
        expect(end_text).to_contain_text("(6 cards discarded, 3 at most to win)")
        expect(end_text).to_contain_text("Every web is a lesson: try again!")
        # the discards are said once, in the reason (and counted in the stats below)
        assert end_text.inner_text().count("discarded") == 1, end_text.inner_text()
        expect(page.locator("#end-stats dd").first).to_have_text(re.compile(r"^6\s*/ 3 max$"))
    expect(pages[0].locator("#end-players")).to_contain_text("Alice, Bob, Chloé")
    expect(pages[0].locator("#end-campaign")).to_contain_text("Path 1")
    expect(pages[0].locator("#end-campaign .stage.lost")).to_have_count(1)
    expect(pages[0].locator("#rematch-btn")).to_have_text("Try path 1 again from stage 1")
    # Chloé looks at the final table, then goes back to the result
    pages[2].click("#see-table-btn")
    expect(pages[2].locator("#end-view")).to_be_hidden()
    expect(pages[2].locator("#log")).to_contain_text(
        "ends the game, which could no longer be won. Not enough cards are left"
    )
    pages[2].click("#back-end")
    expect(pages[2].locator("#end-view")).to_be_visible()
    # only the host may start the next game
    expect(bob.locator("#rematch-btn")).to_be_hidden()
    pages[0].click("#rematch-btn")
    for page in pages:
        expect(page.locator("#end-view")).to_be_hidden()
        expect(page.locator("#turn-info")).to_have_text("Turn 1 of 11")
        expect(page.locator("#hand button.hand-card")).to_have_count(11)
        expect(page.locator("#discard .card")).to_have_count(0)
        # the header says this is the path's second attempt (the view's campaign.attempt)
        expect(page.locator("#stage-info")).to_have_text("Path 1, stage 1/3, attempt 2")
    french = open_page(locale="fr-FR", viewport={"width": 360, "height": 740})  # a spectator
    french.goto(pages[0].url)
    expect(french.locator("#stage-info")).to_have_text("Parcours 1, étape 1/3, essai 2")
