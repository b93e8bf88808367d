"""Save the README's screenshots under docs/: ``python tests/ui/make_screenshots.py``.

Starts its own server (temporary database) and drives headless Chromium through the
planned 3-player game of ``dn_ui_plan``: the lobby, a mid-game table (desktop and phone,
after a Symbiosis showed a card) and the end screen.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))  # the repository root, as pytest's pythonpath has it

from conftest import CHROMIUM, CHROMIUM_ARGS, UiServer  # noqa: E402
from dn_ui import create_room, join_room, program, start_game, take_seat  # noqa: E402
from dn_ui_plan import plan  # noqa: E402
from playwright.sync_api import expect, sync_playwright  # noqa: E402

DOCS = HERE.parent.parent / "docs"


def play_turn(pages, p, t):
    for seat, page in enumerate(pages):
        program(page, p.turns[t - 1][seat])
    for page in pages:
        page.click("#ready-btn")
    for turn, seat, _card, slot in p.choices:
        if turn == t:
            pages[seat].locator(f'#webs button.target[data-slot="{slot}"]').click()
    for page in pages:
        expect(page.locator("#turn-info")).not_to_have_text(f"Turn {t} of 11")


def main() -> None:
    p = plan()
    with tempfile.TemporaryDirectory() as tmp:
        server = UiServer(Path(tmp) / "rooms.sqlite3").start()
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                desk = {"viewport": {"width": 1280, "height": 860}, "base_url": server.url}
                pages = [browser.new_context(**desk).new_page() for _ in range(3)]
                code = create_room(pages[0], deal=p.deal())
                take_seat(pages[0], "Alice")
                join_room(pages[1], code, "Bob")
                join_room(pages[2], code, "Chloé")
                expect(pages[0].locator("#lobby-players li")).to_have_count(3)
                pages[0].locator("#player-count").click()  # no button hovered
                pages[0].screenshot(path=str(DOCS / "lobby.png"))
                start_game(pages[0], 3)
                for t in range(1, 6):
                    play_turn(pages, p, t)
                alice, bob, chloe = pages
                # turn 6: Chloé (first player) shows a card with her free Symbiosis
                chloe.click("#sym-btn")
                chloe.locator('label.card-choice:has(input[value="species-aigle-royal"])').click()
                chloe.click("#sym-ok")
                program(alice, p.turns[5][0])
                program(chloe, p.turns[5][2])
                chloe.click("#ready-btn")
                expect(
                    alice.locator('#others .known [data-card="species-aigle-royal"]')
                ).to_be_visible()
                alice.wait_for_timeout(2500)  # the reveal animation of the last turn
                alice.screenshot(path=str(DOCS / "table-desktop.png"), full_page=True)
                phone = browser.new_context(
                    viewport={"width": 390, "height": 844}, device_scale_factor=2,
                    is_mobile=True, has_touch=True, base_url=server.url,
                )  # fmt: skip
                seat = bob.evaluate("localStorage.getItem('dameNature.rooms')")
                phone.add_init_script(f"localStorage.setItem('dameNature.rooms', {seat!r})")
                bob_phone = phone.new_page()
                bob_phone.goto(f"/r/{code}")
                expect(bob_phone.locator("#me-title")).to_contain_text("Bob")
                bob_phone.wait_for_timeout(2500)
                bob_phone.screenshot(path=str(DOCS / "table-phone.png"))  # its first screen
                bob_phone.close()
                program(bob, p.turns[5][1])
                for page in (alice, bob):
                    page.click("#ready-btn")
                for turn, seat_no, _card, slot in p.choices:
                    if turn == 6:
                        pages[seat_no].locator(f'#webs button.target[data-slot="{slot}"]').click()
                for t in range(7, 11):
                    expect(alice.locator("#turn-info")).to_have_text(f"Turn {t} of 11")
                    play_turn(pages, p, t)
                expect(alice.locator("#end-view")).to_be_visible()
                alice.evaluate("window.scrollTo(0, 0)")
                alice.wait_for_timeout(2500)
                alice.screenshot(path=str(DOCS / "end.png"))
                browser.close()
        finally:
            server.stop()
    print(
        "saved",
        *(DOCS / n for n in ("lobby.png", "table-desktop.png", "table-phone.png", "end.png")),
    )


if __name__ == "__main__":
    main()
