"""The replay viewer (``/r/<code>/replay``): from the end screen and a shareable link, a
finished game step by step with every hand visible, forward and back with the buttons
and the keyboard (arrows, Page Up/Down, Home/End), on a desktop and on a phone."""

from __future__ import annotations

import re
import time
from typing import Any

import httpx
import pytest
from dn_ui import assert_accessible, no_horizontal_scroll
from playwright.sync_api import expect

from tests.server.conftest import Api

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def finished(ui_server: Any) -> dict[str, Any]:
    """A 3-player game with Climate Change played to its end through the API."""
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        api = Api(http)
        table = api.table(3, names=["Ada", "Bo", "Cy"], seed=5, modes=["climate_change"])
        final = api.play_out(table)
        steps = http.get(f"/api/rooms/{table['room']}/replay/steps").json()
        replay = http.get(f"/api/rooms/{table['room']}/replay").json()
    return {**table, "final": final, "steps": steps["steps"], "replay": replay}


def step_index(page: Any) -> int:
    return int(page.locator("#rp-range").input_value())


def test_replay_steps_forward_and_back_with_every_hand(open_page, finished):
    page = open_page()
    page.goto(f"/r/{finished['room']}/replay")
    page.wait_for_selector("#replay-view:not([hidden])")
    steps = finished["steps"]
    # the deal: every hand visible, as dealt
    hands = page.locator(".rp-player")
    assert hands.count() == 3
    dealt = finished["replay"]["setup"]["hands"]
    for seat in range(3):
        cards = hands.nth(seat).locator(".rp-hand [data-card]")
        shown = [cards.nth(i).get_attribute("data-card") for i in range(cards.count())]
        assert shown == dealt[seat]
    assert "Ada" in page.locator("#replay-summary").inner_text()
    assert "dealt" in page.locator("#rp-step-text").inner_text()
    # forward with the button and the arrow key, back with the arrow key
    page.click("#rp-next")
    assert step_index(page) == 1
    assert "programs" in page.locator("#rp-step-text").inner_text()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert step_index(page) == 3
    page.keyboard.press("ArrowLeft")
    assert step_index(page) == 2
    # next turn: the first step whose turn is the next one
    page.keyboard.press("PageDown")
    index = step_index(page)
    assert steps[index]["state"]["turn"] == 2 and steps[index - 1]["state"]["turn"] == 1
    page.keyboard.press("PageUp")
    assert step_index(page) == 0  # back to the first step of turn 1
    # reveal by reveal: the first reveal step says what became of the card
    first_reveal = next(s["index"] for s in steps if s["kind"] == "reveal")
    page.keyboard.press("Home")
    for _ in range(first_reveal):
        page.keyboard.press("ArrowRight")
    assert step_index(page) == first_reveal
    assert "reveals" in page.locator("#rp-step-text").inner_text()
    assert page.locator("#rp-reveals .reveal-item").count() >= 1
    # End: the final table, the same as the game's
    page.keyboard.press("End")
    assert step_index(page) == len(steps) - 1
    placed = page.locator("#rp-webs .cslot.filled, #rp-webs .species-node.installed").count()
    in_web = sum(1 for card in finished["final"]["web"].values() if card)
    assert placed == in_web
    assert page.locator("#rp-discard [data-card]").count() == len(finished["final"]["discard"])
    assert re.search(r"won|lost", page.locator("#rp-step-text").inner_text())
    assert_accessible(page, "replay viewer (the final table, every hand)")
    # the address names the step: a link to it opens there
    assert page.url.endswith(f"#step={len(steps) - 1}")
    other = open_page()
    other.goto(f"/r/{finished['room']}/replay#step=4")
    other.wait_for_selector("#replay-view:not([hidden])")
    assert step_index(other) == 4


def test_replay_on_a_phone_by_touch(open_page, finished):
    page = open_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.goto(f"/r/{finished['room']}/replay")
    page.wait_for_selector("#replay-view:not([hidden])")
    no_horizontal_scroll(page)
    page.tap("#rp-next")
    page.tap("#rp-next")
    assert step_index(page) == 2
    page.tap("#rp-end")
    assert step_index(page) == len(finished["steps"]) - 1
    no_horizontal_scroll(page)


def test_end_screen_links_to_the_replay_and_a_game_in_play_has_none(open_page, finished, ui_server):
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        playing = Api(http).table(3, seed=2)
    page = open_page()
    page.goto(f"/r/{playing['room']}/replay")
    page.wait_for_selector("#replay-error:not([hidden])")
    assert "once the game is over" in page.locator("#replay-error-text").inner_text()
    # the end screen of the finished game offers the replay
    page.goto(f"/r/{finished['room']}")
    link = page.locator("#end-view a#replay-link[href$='/replay?game=1']")
    link.wait_for()
    expect(page.locator("#end-replays")).to_be_hidden()  # no earlier game
    link.click()
    page.wait_for_selector("#replay-view:not([hidden])")
    assert page.url.split("#")[0].endswith(f"/r/{finished['room']}/replay?game=1")
    expect(page.locator("#rp-games")).to_be_hidden()  # the room's only game


def test_an_earlier_game_stays_replayable_after_a_rematch(open_page, ui_server):
    open_page.allow("status of 404")  # the game 3 asked for on purpose
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        api = Api(http)
        table = api.table(3, names=["Ada", "Bo", "Cy"], seed=9)
        room = table["room"]
        api.play_out(table)
        first = api.replay(room).json()
        assert api.rematch(room, table["host"]).status_code == 200
        # while game 2 is played, game 1's replay opens from its link
        page = open_page()
        page.goto(f"/r/{room}/replay?game=1")
        page.wait_for_selector("#replay-view:not([hidden])")
        expect(page.locator("#replay-summary")).to_contain_text("Game 1 of room")
        dealt = page.locator(".rp-player").first.locator(".rp-hand [data-card]")
        expect(dealt).to_have_count(len(first["setup"]["hands"][0]))
        assert dealt.first.get_attribute("data-card") == first["setup"]["hands"][0][0]
        page.goto(f"/r/{room}/replay")  # game 2 itself: not before its end
        page.wait_for_selector("#replay-error:not([hidden])")
        page.goto(f"/r/{room}/replay?game=3")
        page.wait_for_selector("#replay-error:not([hidden])")
        expect(page.locator("#replay-error-text")).to_have_text("This room has no game 3.")
        api.play_out(table)
    # the end screen of game 2: its replay, and game 1's
    page.goto(f"/r/{room}")
    expect(page.locator("#replay-link")).to_have_attribute("href", f"/r/{room}/replay?game=2")
    earlier = page.locator("#end-replays a")
    expect(earlier).to_have_count(1)
    expect(earlier).to_have_text("Game 1")
    assert_accessible(page, "the end screen with the earlier game's replay")
    earlier.click()
    page.wait_for_selector("#replay-view:not([hidden])")
    expect(page.locator("#replay-summary")).to_contain_text("Game 1 of room")
    # the replay lists both games, this one marked; on to game 2
    games = page.locator("#rp-games a")
    expect(games).to_have_count(2)
    expect(page.locator('#rp-games a[aria-current="page"]')).to_have_text("Game 1")
    games.nth(1).click()
    page.wait_for_selector("#replay-view:not([hidden])")
    expect(page.locator("#replay-summary")).to_contain_text("Game 2 of room")
    expect(page.locator('#rp-games a[aria-current="page"]')).to_have_text("Game 2")
    assert_accessible(page, "the replay of game 2 with the list of games")


def test_the_replay_controls_keep_their_words_on_a_french_phone(open_page, finished, ui_server):
    """On a 390 px phone in French, "Lecture" and "Pause" fit their button, on the one
    row of controls; the review's turning point puts the French space before its colon."""
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        for _ in range(240):  # the solver's review of the deal, done before the page opens
            review = http.get(f"/api/rooms/{finished['room']}/review").json()
            if review["status"] == "done":
                break
            time.sleep(0.5)
    assert review["turning_point"], review
    page = open_page(viewport=PHONE, has_touch=True, is_mobile=True)
    page.add_init_script("localStorage.setItem('dameNature.lang', 'fr')")
    page.goto(f"/r/{finished['room']}/replay")
    page.wait_for_selector("#replay-view:not([hidden])")
    turn = review["turning_point"]["turn"]
    expect(page.locator("#rp-turning")).to_have_text(f"Tournant\u00a0: Tour {turn}")
    play = page.locator("#rp-play")

    def fits() -> None:
        width, inner = play.evaluate("(b) => [b.scrollWidth, b.clientWidth]")
        assert width <= inner, f"{play.inner_text()!r} overflows its button: {width} > {inner}"
        tops = page.locator(".replay-controls .btn").evaluate_all(
            "(all) => all.map((b) => Math.round(b.getBoundingClientRect().top))"
        )
        assert len(set(tops)) == 1, f"the controls take more than one row: {tops}"

    expect(play).to_have_text("Lecture")
    fits()
    play.tap()
    expect(play).to_have_text("Pause")
    fits()
    play.tap()


def test_the_first_steps_say_the_deal_and_before_turn_1(open_page, ui_server):
    """The first step is the deal, not "turn 0"; in a game whose players choose their
    side first, the choices are "before turn 1" (turn 0 of the steps); in both languages."""
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        api = Api(http)
        table = api.table(3, names=["Ada", "Bo", "Cy"], seed=3, modes=["species_biodiversity"])
        api.play_out(table)
        steps = http.get(f"/api/rooms/{table['room']}/replay/steps").json()["steps"]
    assert steps[0]["turn"] == 0 and steps[1]["turn"] == 0, steps[:2]
    n = len(steps)
    first_turn = next(i for i, step in enumerate(steps) if step["turn"] == 1)
    words = {
        "en": (f"Step 1 of {n} · the deal", f"Step 2 of {n} · before turn 1",
               f"Step {first_turn + 1} of {n} · turn 1"),
        "fr": (f"Étape 1 sur {n} · la donne", f"Étape 2 sur {n} · avant le tour 1",
               f"Étape {first_turn + 1} sur {n} · tour 1"),
    }  # fmt: skip
    for lang, (deal, before, turn) in words.items():
        page = open_page()
        page.add_init_script(f"localStorage.setItem('dameNature.lang', '{lang}')")
        page.goto(f"/r/{table['room']}/replay")
        page.wait_for_selector("#replay-view:not([hidden])")
        position = page.locator("#rp-position")
        expect(position).to_have_text(deal)
        page.click("#rp-next")
        expect(position).to_have_text(before)
        for _ in range(first_turn - 1):
            page.keyboard.press("ArrowRight")
        expect(position).to_have_text(turn)


def test_a_button_disabled_by_its_own_step_leaves_the_focus_on_the_slider(open_page, finished):
    """Last step, Next step at the end, First step: each is disabled by the step it goes
    to; a keyboard there is not dropped on the page."""
    page = open_page()
    page.goto(f"/r/{finished['room']}/replay")
    page.wait_for_selector("#replay-view:not([hidden])")
    slider = page.locator("#rp-range")
    page.focus("#rp-end")
    page.keyboard.press("Enter")
    assert step_index(page) == len(finished["steps"]) - 1
    expect(slider).to_be_focused()
    page.keyboard.press("ArrowLeft")  # the slider steps back, its own way
    page.focus("#rp-next")
    page.keyboard.press("Space")
    expect(slider).to_be_focused()
    page.focus("#rp-start")
    page.keyboard.press("Enter")
    assert step_index(page) == 0
    expect(slider).to_be_focused()
