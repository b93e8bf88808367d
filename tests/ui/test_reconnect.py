"""The server goes away mid-game: every page shows it is reconnecting, then comes back
by itself with the same seat and hand once the server is up again (no reload)."""

from __future__ import annotations

import pytest
from conftest import UiServer
from dn_ui import program, seat_table
from dn_ui_plan import plan
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)


def test_reconnects_by_itself_after_a_server_restart(open_page, tmp_path):
    server = UiServer(tmp_path / "rooms.sqlite3").start()
    try:
        open_page.allow(
            r"WebSocket connection to .* failed|Failed to load resource|ERR_CONNECTION_REFUSED"
        )
        p = plan()
        pages = seat_table(
            open_page, p.deal(), ["Alice", "Bob", "Chloé"],
            contexts={i: {"base_url": server.url} for i in range(3)},
        )  # fmt: skip
        alice = pages[0]
        program(alice, p.turns[0][0])
        expect(alice.locator("#conn")).to_have_attribute("data-state", "open")

        server.proc.kill()
        server.proc.wait(10)
        expect(alice.locator("#conn")).to_have_attribute("data-state", "reconnecting")
        expect(alice.locator("#conn")).to_contain_text("Reconnecting")
        expect(alice.locator("#banner")).to_contain_text("Reconnecting")

        server.start()  # same port, same database
        for page in pages:
            expect(page.locator("#conn")).to_have_attribute("data-state", "open", timeout=20_000)
        expect(alice.locator("#banner")).to_be_hidden()
        expect(alice.locator(f'#programmed [data-card="{p.turns[0][0]}"]')).to_be_visible()
        expect(alice.locator("#hand button.hand-card")).to_have_count(10)
        # and the game goes on
        program(pages[1], p.turns[0][1])
        expect(alice.locator('#others .player[data-seat="1"] .facedown')).to_be_visible()
    finally:
        server.stop()
