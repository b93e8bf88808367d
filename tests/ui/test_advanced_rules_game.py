"""A whole game with advanced rules on (Wetland, side choice, Species reintroductions,
the First Predator, ...), played through the UI by always taking the first choice
offered: the side prompt, Joker colours, Pollution targets, lit slots. It checks that
every kind of card and prompt renders without a console error, up to the end screen."""

from __future__ import annotations

import time

import pytest
from dn_ui import seat_table
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

MODES = ["wetland", "species_biodiversity", "species_reintroductions", "first_predator",
         "climate_change", "temporary_conditions"]  # fmt: skip


def click_if_there(control: Locator) -> bool:
    """Click ``control`` if the page shows it now; False if it is not there or went away
    before the click (the table re-renders as each seat's update arrives: a Ready just
    sent comes back as Not ready)."""
    if not control.count():
        return False
    try:
        control.click(timeout=2000)
    except PlaywrightTimeout:
        if control.count():
            raise  # still there, yet it could not be clicked: a real failure
        return False
    return True


def act_once(page: Page) -> bool:
    """Do the one thing this player is asked to do now, if any; True if it acted."""
    if page.locator("#end-view").is_visible():
        return False
    if page.locator("#giveback-dialog").is_visible():
        page.locator("#giveback-dialog label.card-choice").first.click()
        page.click("#giveback-ok")
        return True
    if click_if_there(page.locator("#prompt:visible button.option").first):
        return True
    if click_if_there(page.locator("#ready-btn:enabled")):
        return True
    if page.locator("#programmed .empty-slot").count():
        return click_if_there(page.locator("#hand button.hand-card:enabled").first)
    return False


def test_advanced_rules_game_to_the_end(open_page):
    from dame_nature.engine import Game

    state = Game(3, MODES).new_initial_state(seed=7)
    deal = {"hands": state.setup["hands"], "first_player": state.setup["first_player"]}
    pages = seat_table(open_page, deal, ["Alice", "Bob", "Chloé"], modes=MODES)
    for page in pages:
        page.on("dialog", lambda d: d.dismiss())
    expect(pages[0].locator('#webs .web[data-web="aquatic"]')).to_be_visible()
    idle = 0
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if all(page.locator("#end-view").is_visible() for page in pages):
            break
        acted = False
        for page in pages:
            acted = act_once(page) or acted
        if acted:
            idle = 0
            continue
        idle += 1
        # 10 s with nothing to do: the game is stuck (lost for sure): end it
        banner_end = pages[0].locator("#end-game-btn")
        if idle > 100 and banner_end.count():
            banner_end.click()
        pages[0].wait_for_timeout(100)
    for page in pages:
        expect(page.locator("#end-view")).to_be_visible()
        expect(page.locator("#end-stats")).to_contain_text("Cards discarded")
    log = pages[0].locator("#log")
    for seen in ("Cat, played", "Species reintroduction, played", "Joker as", "Pollution"):
        expect(log).to_contain_text(seen)
