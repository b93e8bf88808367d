"""A table set up and played through the REST API (fast), then looked at in the browser
as one of its seats or as a spectator: for tests of what a page shows at a given moment
of a game (a reload mid-game, a spectator arriving, a dialog's choices)."""

from __future__ import annotations

import json
from typing import Any

import httpx
from playwright.sync_api import Page, expect


class RestTable:
    """A room created with ``deal`` (and ``modes``, and more of ``POST /api/rooms``'s
    fields in ``rules``), ``len(names)`` seats joined, started."""

    def __init__(self, base_url: str, deal: dict[str, Any], names: list[str],
                 modes: list[str] = (), **rules: Any) -> None:  # fmt: skip
        self.http = httpx.Client(base_url=base_url + "/api", timeout=10)
        created = self.post("/rooms", {"deal": deal, "modes": list(modes), **rules})
        self.code: str = created["room"]
        self.host_token: str = created["host_token"]
        self.tokens = [self.post(f"/rooms/{self.code}/players", {"name": n})["token"]
                       for n in names]  # fmt: skip
        self.post(f"/rooms/{self.code}/start", token=self.host_token)

    def post(self, path: str, body: Any = None, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.post(path, json=body, headers=headers)
        assert response.status_code < 300, response.text
        return response.json()

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        response = self.http.get(path, headers=headers)
        assert response.status_code == 200, response.text
        return response.json()

    def act(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        view: dict[str, Any] = self.post(f"/rooms/{self.code}/actions", action, self.tokens[seat])
        return view

    def view(self, seat: int | None = None) -> dict[str, Any]:
        token = self.tokens[seat] if seat is not None else None
        view: dict[str, Any] = self.get(f"/rooms/{self.code}/state", token)
        return view

    def program_all(self, cards: dict[int, str]) -> None:
        """Each seat programs its card and says ready (the reveal starts)."""
        for seat, card in cards.items():
            self.act(seat, {"type": "program", "card": card})
        for seat in cards:
            self.act(seat, {"type": "ready"})

    def choose_until(self, stop: Any = None) -> dict[str, Any]:
        """Answers every reveal choice with the first legal option, until the reveal is
        over or ``stop(view)`` is true (checked before each answer). The spectator view."""
        while True:
            view = self.view()
            aw = view["awaiting"]
            if view["phase"] != "reveal" or not aw or (stop and stop(view)):
                return view
            options = self.get(f"/rooms/{self.code}/legal_actions", self.tokens[aw["seat"]])
            self.act(aw["seat"], options["actions"][0])

    def page(self, open_page: Any, seat: int | None = None, **context: Any) -> Page:
        """The room page as ``seat`` (its token put in the browser's seat memory), or as a
        spectator; waits for the table."""
        page: Page = open_page(**context)
        if seat is not None:
            memory = {self.code: {"seat": seat, "token": self.tokens[seat], "name": f"seat {seat}"}}
            page.add_init_script(
                f"localStorage.setItem('dameNature.rooms', {json.dumps(json.dumps(memory))});"
            )
        page.goto(f"/r/{self.code}")
        expect(page.locator("#game-view")).to_be_visible()
        return page
