"""A paced room in the browser: the host sets the pace in the lobby, the table shows the
time left, the home page lists the room with whose turn it is, and a player coming back
reads "since your last visit" once, before the table."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from dn_ui import create_room, open_rules_editor, start_game, take_seat
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def play_others_until_turn(api: httpx.Client, code: str, tokens: list[str], turn: int) -> None:
    """Every seat acts through the REST API (the first program each seat holds, ready,
    the first option of each choice) until turn ``turn`` begins."""
    for _ in range(200):
        view = api.get(f"/rooms/{code}/state").json()
        if view["turn"] >= turn and view["phase"] == "programming":
            return
        awaiting = view["awaiting"]
        seats = [awaiting["seat"]] if awaiting else view["to_act"]
        seat = seats[0]
        headers = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = api.get(f"/rooms/{code}/state", headers=headers).json()
        legal = api.get(f"/rooms/{code}/legal_actions", headers=headers).json()["actions"]
        kinds = {a["type"]: a for a in legal}
        if awaiting:
            action: dict[str, Any] = dict(awaiting_options(mine) or legal[0])
        elif mine["programmed"] is None and "program" in kinds:
            action = {"type": "program", "card": mine["hand"][0]}
        else:
            action = dict(kinds.get("ready") or legal[0])
        answer = api.post(f"/rooms/{code}/actions", json=action, headers=headers)
        assert answer.status_code == 200, answer.text
    raise AssertionError("the turn did not come")


def awaiting_options(view: dict[str, Any]) -> dict[str, Any] | None:
    awaiting = view["awaiting"]
    return awaiting["options"][0] if awaiting and awaiting["options"] else None


def test_paced_room_in_the_lobby_at_home_and_since_the_last_visit(open_page, ui_server):
    page = open_page()
    code = create_room(page)
    take_seat(page, "Alice")
    open_rules_editor(page)
    page.select_option("#lobby-picker #turn-limit", "86400")
    page.click("#rules-save")
    expect(page.locator("#pace-line")).to_contain_text("1 day")
    with httpx.Client(base_url=ui_server.url + "/api", timeout=20) as api:
        assert api.get(f"/rooms/{code}").json()["turn_limit_seconds"] == 86400
        tokens = [""]
        for name in ("Bob", "Chloé"):
            joined = api.post(f"/rooms/{code}/players", json={"name": name})
            assert joined.status_code == 201, joined.text
            tokens.append(joined.json()["token"])
        expect(page.locator("#pace-line")).to_contain_text("1 day")  # kept by the redraws
        start_game(page, 3)
        expect(page.locator("#turn-info")).to_contain_text("1 day per move")
        expect(page.locator("#others .clock-note")).to_have_count(2)
        expect(page.locator("#others .clock-note").first).to_contain_text("left")
        memory = json.loads(page.evaluate("localStorage.getItem('dameNature.rooms')"))
        tokens[0] = memory[code]["token"]
        # Alice programs and says ready, and the page notes what she has seen
        hand = api.get(f"/rooms/{code}/state", headers={"Authorization": f"Bearer {tokens[0]}"})
        alice = {"Authorization": f"Bearer {tokens[0]}"}
        card = hand.json()["hand"][0]
        assert (
            api.post(
                f"/rooms/{code}/actions", json={"type": "program", "card": card}, headers=alice
            ).status_code
            == 200
        )
        assert (
            api.post(f"/rooms/{code}/actions", json={"type": "ready"}, headers=alice).status_code
            == 200
        )
        page.wait_for_function(
            "([code]) => { const m = JSON.parse(localStorage.getItem('dameNature.rooms'))[code];"
            " return m.seen && m.seen.events >= 3; }",
            arg=[code],
        )

        # Alice leaves for the home page: the room is there, waiting for the others
        page.goto("/")
        item = page.locator(f'#my-rooms-list li[data-room="{code}"]')
        expect(item).to_contain_text("Waiting for Bob, Chloé")
        expect(item.locator(".badge.paced")).to_be_visible()

        play_others_until_turn(api, code, tokens, 2)

        # back home later: it is her turn, with the time left
        page.reload()
        expect(item).to_contain_text("Your turn")
        expect(item).to_contain_text("left")
        item.locator("a").click()
        dialog = page.locator("#since-dialog")
        expect(dialog).to_be_visible()
        expect(dialog).to_contain_text("Since your last visit")
        expect(dialog).to_contain_text("1 turn was played while you were away.")
        expect(dialog.locator("#since-events")).to_contain_text("Turn 2 begins")
        expect(dialog.locator("#since-events li.log-revealed").first).to_be_visible()
        page.click("#since-close")
        expect(dialog).to_be_hidden()
        expect(page.locator("#game-view")).to_be_visible()

        # once: coming back again shows the table at once
        page.reload()
        expect(page.locator("#game-view")).to_be_visible()
        expect(page.locator("#others .clock-note")).to_have_count(2)
        expect(page.locator("#turn-info")).to_contain_text("Turn 2")
        expect(page.locator("#turn-info")).to_contain_text("your move: 1 day left")
        expect(dialog).to_be_hidden()
