"""Hints and the review in the browser: on a solo game (every other seat a bot) the Hint
button shows the expert's choice and why, marking the card it names; at the end the end
screen counts the hints taken and shows the solver's verdict on the deal."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from test_bots_ui import play_my_turns

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def ask_for_a_hint(page: Page) -> None:
    """Click Hint once, like a person: when a partner's Give opened the give-back dialog
    over the table first (the random bots may Give on the first turn), answer it, then
    ask."""
    giveback = page.locator("#giveback-dialog[open]")
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline, "the Hint button could never be clicked"
        if giveback.count():
            page.locator("#giveback-form label.card-choice").first.click()
            page.locator('#giveback-form [type="submit"]').click()
            expect(giveback).to_have_count(0)
        try:
            page.click("#hint-btn", timeout=2000)
            return
        except PlaywrightTimeout:
            if not giveback.count():  # not the dialog in the way: a real failure
                raise


def test_hint_on_a_solo_game_then_the_review_on_the_end_screen(open_page):
    page = open_page()
    page.goto("/")
    page.fill("#solo-name", "Ada")
    page.select_option("#solo-bots", "2")
    page.click(".solo-more > summary")  # the level is folded under the default, expert
    page.select_option("#solo-level", "random")
    page.click("#solo-btn")
    page.wait_for_url("**/r/*")
    expect(page.locator("#game-view")).to_be_visible()
    expect(page.locator("#hint-btn")).to_be_enabled()
    ask_for_a_hint(page)
    text = page.locator("#hint-text")
    expect(text).to_be_visible()
    expect(text.locator("strong")).not_to_be_empty()
    action = text.get_attribute("data-action")
    assert action and '"type"' in action, text.inner_text()
    if '"card"' in action:  # the card it names is marked in the hand
        expect(page.locator("#hand .hinted, #programmed .hinted")).to_have_count(1)
    play_my_turns(page)
    expect(page.locator("#end-hints")).to_contain_text("Hints taken: Ada 1")
    review = page.locator("#end-review")
    expect(review).to_have_attribute("data-status", "done", timeout=120_000)
    expect(review).to_contain_text("this deal")
    # the replay shows the same verdict; a winning line is stepped through in the viewer
    verdict = review.get_attribute("data-verdict")
    page.click("#replay-link")
    box = page.locator("#rp-review")
    expect(box).to_have_attribute("data-verdict", verdict)
    expect(page.locator("#rp-hints")).to_contain_text("Hints taken: Ada 1")
    if verdict == "won":
        page.click("#rp-show-line")
        expect(page.locator("#replay-view")).to_have_attribute("data-showing", "line")
        page.keyboard.press("End")
        expect(page.locator("#rp-step-text")).to_contain_text("won")
        page.click("#rp-show-played")
        expect(page.locator("#replay-view")).to_have_attribute("data-showing", "played")
    # "Play from here": a few steps in, a new solo room where this seat plays on
    page.keyboard.press("Home")
    for _ in range(6):
        page.keyboard.press("ArrowRight")
    page.click("#rp-from-btn")
    page.wait_for_url("**/r/*")
    expect(page.locator("#game-view")).to_be_visible()
    expect(page.locator("#me-title")).to_contain_text("Ada")  # this seat is ours
    expect(page.locator("#hint-box")).to_be_visible()


def test_the_hint_button_keeps_the_focus(open_page):
    """By keyboard: Enter on Hint shows the hint and leaves the focus on the button (it
    was disabled while the hint was asked, which dropped the focus to the page)."""
    page = open_page()
    page.goto("/")
    page.fill("#solo-name", "Ada")
    page.click("#solo-btn")
    page.wait_for_url("**/r/*")
    button = page.locator("#hint-btn")
    expect(button).to_be_enabled()
    button.focus()
    page.keyboard.press("Enter")
    # the hint came (a bot's move may hide it at once: it was for the position before).
    # It waits its turn in the bots' worker, which the game's first bot moves may be
    # starting: the server bounds it by the worker's start (START_SECONDS, 60 s) and the
    # hint's own budget (DAME_NATURE_HINT_SECONDS, 3 s), not by 5 s
    expect(page.locator("#hint-text[data-action]")).to_have_count(1, timeout=65_000)
    expect(button).to_be_focused()
