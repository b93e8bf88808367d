"""The lessons in Chromium, at 1280x800 and 390x844: each played through to its win by
clicking, step after step, the element the lesson itself points at; a wrong move
explained and taken back; progress remembered in the browser; the glossary a click
away."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from dame_nature.lessons import LESSONS

SIZES = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}


def follow_one(page: Any, keyboard: bool = False) -> None:
    """Click the element the lesson points at (``keyboard``: press Enter on the focused
    one, which must be it) and wait until the lesson points elsewhere."""
    target = page.locator(".lesson-target")
    target.wait_for(state="visible")
    assert page.locator("#coach-text").inner_text().strip()
    target.evaluate("el => el.setAttribute('data-clicked', '1')")
    if keyboard:
        page.wait_for_function(
            "() => document.activeElement && document.activeElement.hasAttribute('data-clicked')"
        )
        page.keyboard.press("Enter")
    else:
        target.click()
    page.wait_for_function(
        "() => { const el = document.querySelector('[data-clicked]');"
        " return !el || !el.classList.contains('lesson-target')"
        " || !document.getElementById('lesson-end').hidden; }"
    )
    page.evaluate(
        "() => document.querySelectorAll('[data-clicked]')"
        ".forEach(el => el.removeAttribute('data-clicked'))"
    )


def wait_progress(page: Any, text: str) -> None:
    page.wait_for_function(
        "text => document.getElementById('lesson-progress').textContent.includes(text)", arg=text
    )


def play_through(page: Any, limit: int = 200, keyboard: bool = False) -> None:
    for _ in range(limit):
        if page.locator("#lesson-end").is_visible():
            return
        page.wait_for_function(
            "() => document.querySelector('.lesson-target')"
            " || !document.getElementById('lesson-end').hidden"
        )
        if page.locator("#lesson-end").is_visible():
            return
        follow_one(page, keyboard)
    raise AssertionError("the lesson did not end")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_lesson_played_by_its_own_instructions(open_page, size, lesson_id):
    page = open_page(viewport=SIZES[size])
    page.goto("/learn")
    page.locator(f'button[data-open="{lesson_id}"]').click()
    page.locator("#coach-text").wait_for(state="visible")
    play_through(page)
    assert page.locator("#lesson-end-title").inner_text() == "Lesson won!"
    assert page.locator('.species-node.installed[data-species="species-aigle-royal"]').count() == 1
    # the discard counter says the team stayed within what it may discard
    assert "of 2 allowed" in page.locator("#lesson-discard-count").inner_text()
    page.locator("#lesson-end-back").click()
    item = page.locator(f'.lesson-item[data-lesson="{lesson_id}"]')
    assert "done" in (item.get_attribute("class") or "")
    # replayable: it starts again from its first step
    item.locator("button").click()
    wait_progress(page, "1 of")


def test_wrong_move_explained_and_taken_back(open_page):
    page = open_page(viewport=SIZES["desktop"])
    page.goto("/learn#first-turns")
    target = page.locator(".lesson-target")
    target.wait_for(state="visible")
    before = page.locator("#lesson-progress").inner_text()
    page.locator('#lesson-hand button[data-card="cond-green-2"]').click()
    page.locator("#coach-wrong").wait_for(state="visible")
    assert "has a place now too" in page.locator("#coach-wrong").inner_text()
    assert page.locator("#lesson-progress").inner_text() == before
    assert "No card programmed" in page.locator("#lesson-programmed").inner_text()
    # the lesson goes on: the right move is accepted
    page.locator(".lesson-target").click()
    page.locator("#coach-wrong").wait_for(state="hidden")
    wait_progress(page, "Step 2")


def test_progress_remembered_and_french(open_page):
    page = open_page(viewport=SIZES["phone"])
    page.goto("/learn")
    page.locator('button[data-open="symbioses"]').click()
    # program, then Show (the Symbiosis button, the kind, the card), then Ready
    while "Step 4 " not in page.locator("#lesson-progress").inner_text():
        follow_one(page)
    assert "known by Ana, Basile, Chloé" in page.locator("#lesson-hand").inner_text()
    page.reload()
    wait_progress(page, "Step 4")
    page.locator("#lesson-back").click()
    assert page.locator('button[data-open="symbioses"]').inner_text() == "Resume"
    # on a touch phone as on a desktop: what to choose, not where to click
    assert "what to choose" in page.locator("#lessons-intro").inner_text()
    # French: the lesson's own texts and the page's words
    page.select_option("#lang-select", "fr")
    page.wait_for_load_state()
    page.locator('button[data-open="symbioses"]').wait_for(state="visible")
    assert page.locator('button[data-open="symbioses"]').inner_text() == "Reprendre"
    assert "quoi choisir" in page.locator("#lessons-intro").inner_text()
    page.locator('button[data-open="symbioses"]').click()
    wait_progress(page, "Étape 4")
    assert "Ortie" in page.locator("#coach-text").inner_text()
    assert "connue d'Ana, Basile, Chloé" in page.locator("#lesson-hand").inner_text()


def test_french_colons_in_a_lessons_reveals(open_page):
    """A reveal of the lesson in French: "Vous\u00a0: Condition hydrique [H] → …", the
    non-breaking space before the colon as everywhere in French."""
    page = open_page(viewport=SIZES["phone"], locale="fr-FR")
    page.goto("/learn")
    page.locator('button[data-open="first-turns"]').click()
    while not page.locator("#lesson-reveals .lesson-record").count():
        follow_one(page)
    records = page.locator("#lesson-reveals .lesson-record").all_inner_texts()
    assert records[0].startswith("Vous\u00a0: "), records
    bare = [r for r in records if re.search(r"[^\u00a0]:", r)]
    assert not bare, f"a French colon without its non-breaking space: {bare}"


def test_glossary_a_click_away(open_page):
    page = open_page(viewport=SIZES["phone"])
    page.goto("/learn")
    page.locator("header a[href='/glossary']").click()
    page.wait_for_url("**/glossary")
    assert "Symbiosis" in page.locator("#glossary").inner_text()
    assert "Joker" in page.locator("#glossary").inner_text()


def test_keyboard_only(open_page):
    """The focus follows what the lesson points at: Enter alone plays the Symbioses
    lesson through (its Show, swap and Give go through the Symbiosis panel)."""
    page = open_page(viewport=SIZES["desktop"])
    page.goto("/learn#symbioses")
    play_through(page, keyboard=True)
    assert page.locator("#lesson-end-title").inner_text() == "Lesson won!"


def test_learn_pages_pass_axe(open_page):
    from dn_ui import assert_accessible

    for size in SIZES.values():
        page = open_page(viewport=size)
        page.goto("/learn")
        page.locator(".lesson-item").first.wait_for()
        assert_accessible(page, f"lesson list {size}")
        page.goto("/learn#symbioses")
        follow_one(page)  # program: the Symbiosis step comes next
        page.locator("#lesson-symbiosis").click()
        page.locator("#lesson-panel button[data-kind]").first.wait_for()
        page.locator("#lesson-panel button[data-kind='give']").click()
        page.locator("#coach-wrong").wait_for(state="hidden")
        assert_accessible(page, f"lesson with its Symbiosis panel {size}")
        page.locator("#lesson-panel button[data-pick]").first.click()
        page.locator("#lesson-panel button[data-to]").first.click()
        page.locator("#coach-wrong").wait_for(state="visible")  # a Give is not the step
        assert_accessible(page, f"lesson with a wrong move explained {size}")
        page.goto("/glossary")
        page.locator("#glossary dt").first.wait_for()
        assert_accessible(page, f"glossary {size}")


def test_reveal_order_shown(open_page):
    page = open_page(viewport=SIZES["desktop"])
    page.goto("/learn#jokers-and-order")
    page.locator(".lesson-target").wait_for()
    # Ana is first player: she reveals first, you last
    assert "reveals 1st" in page.locator('.lesson-partner[data-seat="1"]').inner_text()
    assert "reveals 4th" in page.locator('.lesson-partner[data-seat="0"]').inner_text()


def test_each_lessons_button_names_its_lesson(open_page):
    """Tabbing through the list, a screen reader hears which lesson each button opens,
    not "Start" four times; in French too."""
    page = open_page(viewport=SIZES["desktop"])
    page.goto("/learn")
    expect(page.get_by_role("button", name="Start 1. A turn", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Start 3. Symbioses", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Start", exact=True)).to_have_count(0)
    page.select_option("#lang-select", "fr")
    page.wait_for_load_state()
    first = page.get_by_role("button", name="Commencer 1. Un tour de jeu", exact=True)
    expect(first).to_be_visible()
