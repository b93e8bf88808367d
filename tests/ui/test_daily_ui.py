"""The daily deal in the browser: the /daily page on a phone, a table of today's deal
for 3 players with two bots, played to its end (the person's seat through the API, to
be quick), the end screen's results of every table and the solver's verdict; a second
table of the same deal opened for friends, whose lobby keeps the day's rules and which
sees no result before its own game is over; the home page's way in."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from dn_ui import assert_accessible, no_horizontal_scroll, take_seat
from playwright.sync_api import Page, expect

from tests.server.conftest import clear_of_midnight

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)
PHONE = {"width": 390, "height": 844}


@pytest.fixture(autouse=True)
def one_day() -> None:
    """Each test runs within one day of deals."""
    clear_of_midnight()


def seat_memory(page: Page, code: str) -> dict[str, Any]:
    rooms = json.loads(page.evaluate("localStorage.getItem('dameNature.rooms')") or "{}")
    found: dict[str, Any] = rooms[code]
    return found


def play_seat_to_the_end(base_url: str, code: str, token: str, limit: float = 240) -> None:
    """Play one seat through the API (the bots play the others on the server) until the
    game is over: answer what is asked, else program the first card and say ready."""
    auth = {"Authorization": f"Bearer {token}"}
    deadline = time.monotonic() + limit
    with httpx.Client(base_url=f"{base_url}/api/rooms/{code}", headers=auth, timeout=20) as http:
        while time.monotonic() < deadline:
            view = http.get("/state").json()
            if view["phase"] == "over":
                return
            legal = http.get("/legal_actions").json()["actions"]
            kinds = {a["type"]: a for a in legal}
            awaiting = view["awaiting"]
            if not view["winnable"] and "end_game" in kinds:
                action = kinds["end_game"]
            elif awaiting and awaiting["seat"] == view["seat"] and awaiting["options"]:
                action = awaiting["options"][0]
            elif view["programmed"] is None and "program" in kinds:
                action = {"type": "program", "card": view["hand"][0]}
            elif "ready" in kinds:
                action = kinds["ready"]
            elif "give_back" in kinds:
                action = kinds["give_back"]
            else:  # the bots are playing: look again in a moment
                time.sleep(0.05)
                continue
            http.post("/actions", json=action)  # a refusal (the table moved on): look again
    raise AssertionError("the daily game did not end")


def test_the_daily_deal_from_the_page_to_every_tables_results(open_page, ui_server):
    page = open_page(viewport=PHONE)
    page.goto("/")
    expect(page.locator("#daily-link")).to_have_attribute("href", "/daily")
    page.click("#daily-link")
    page.wait_for_url("**/daily")
    expect(page.locator(".daily-deal")).to_have_count(4)
    expect(page.locator("#daily-date")).to_contain_text("UTC")
    no_horizontal_scroll(page)
    page.fill("#daily-name", "Ada")
    page.click('button[data-play="bots"][data-players="3"]')
    page.wait_for_url("**/r/*")
    expect(page.locator("#game-view")).to_be_visible()
    code = page.url.rsplit("/r/", 1)[1]
    mine = seat_memory(page, code)
    assert mine["daily"]["players"] == 3 and mine["token"]

    # a second table of the same deal, for friends: its lobby keeps the day's rules
    friend = open_page(viewport=PHONE)
    friend.goto("/daily")
    friend.click('button[data-play="friends"][data-players="3"]')
    friend.wait_for_url("**/r/*")
    other = friend.url.rsplit("/r/", 1)[1]
    expect(friend.locator(".daily-line")).to_contain_text("3 players")
    expect(friend.locator("#rules-editor")).to_be_hidden()
    take_seat(friend, "Bo")
    friend.click("#add-bot-btn")
    friend.click("#add-bot-btn")
    expect(friend.locator("#lobby-players li")).to_have_count(3)
    expect(friend.locator("#add-bot-btn")).to_be_disabled()  # the deal's 3 seats are taken
    friend.click("#start-btn")
    expect(friend.locator("#game-view")).to_be_visible()
    # the same hands: the friend's seat 0 holds what Ada's seat 0 holds
    friends_token = seat_memory(friend, other)["token"]
    with httpx.Client(base_url=ui_server.url) as http:

        def hand(room: str, token: str) -> list[str]:
            auth = {"Authorization": f"Bearer {token}"}
            found: list[str] = http.get(f"/api/rooms/{room}/state", headers=auth).json()["hand"]
            return found

        assert hand(code, mine["token"]) == hand(other, friends_token)

    play_seat_to_the_end(ui_server.url, code, mine["token"])
    expect(page.locator("#end-view")).to_be_visible(timeout=30_000)
    results = page.locator("#end-daily")
    expect(results).to_be_visible()
    expect(results.locator("tr.mine")).to_have_count(1)
    expect(results.locator(".daily-summary")).to_contain_text("finished this deal")
    expect(results.locator('.daily-verdict[data-status="done"]')).to_be_visible(timeout=90_000)
    no_horizontal_scroll(page)

    # a spectator of that room: the results are its players'
    watcher = open_page(viewport=PHONE)
    watcher.goto(f"/r/{code}")
    expect(watcher.locator("#end-daily")).to_contain_text("shown to the players of this room")
    expect(watcher.locator("#end-daily tr")).to_have_count(0)

    # the friend's table has not finished: nothing of the others for it, on its page
    friend.goto("/daily")
    expect(friend.locator("#results-3")).to_contain_text("once your game of this deal is over")

    # back on the daily page, Ada's table and its results
    page.goto("/daily")
    deal = page.locator('.daily-deal[data-players="3"]')
    expect(deal.locator(".daily-mine a")).to_have_attribute("href", f"/r/{code}")
    expect(deal.locator("tr.mine")).to_have_count(1)
    expect(deal.locator(".daily-count")).to_contain_text("1 table has played it so far")
    assert_accessible(page, "the daily page with a table's results")


def test_the_daily_counts_agree_in_french(open_page):
    """The wins agree with their own number, not with the tables' ("0 table l'a jouée
    jusqu'ici, 0 gagnée.": French counts 0 and 1 singular)."""
    page = open_page(viewport=PHONE, locale="fr-FR")
    page.goto("/daily")
    counts = page.locator(".daily-count")
    expect(counts).to_have_count(4)
    wins = []
    for text in counts.all_inner_texts():
        match = re.fullmatch(r"\d+ tables? l'\w+ jouée jusqu'ici, (\d+) (gagnées?)\.", text.strip())
        assert match, text
        won, word = int(match.group(1)), match.group(2)
        assert word == ("gagnée" if won <= 1 else "gagnées"), text
        wins.append(won)
    assert min(wins) <= 1
