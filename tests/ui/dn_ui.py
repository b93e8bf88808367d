"""Steps the browser tests take through the UI, by clicking like a player would."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, expect


def create_room(
    page: Page,
    deal: dict[str, Any] | None = None,
    modes: list[str] = (),
    path: int | None = None,
    seed: int | None = None,
) -> str:
    """On the home page: pick the rules (or a path), optionally paste a deal or give a
    seed, create; the room code."""
    page.goto("/")
    if path is not None or modes or deal is not None or seed is not None:
        page.click("#rules-fold > summary")  # the rules picker is folded away
    if path is not None:
        page.check('input[name="kind"][value="path"]')
        page.check(f'input[name="path"][value="{path}"]')
    for mode in modes:
        page.check(f'input[name="mode"][value="{mode}"]')
    if deal is not None or seed is not None:
        page.click("details.advanced summary")
    if deal is not None:
        page.fill("#deal", json.dumps(deal))
    if seed is not None:
        page.fill("#seed", str(seed))
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    expect(page.locator("#lobby-view")).to_be_visible()
    return page.url.rsplit("/r/", 1)[1]


def take_seat(page: Page, name: str) -> None:
    page.fill("#player-name", name)
    page.click("#join-btn")
    expect(page.locator("#seated-note")).to_contain_text(name)


def join_room(page: Page, code: str, name: str) -> None:
    page.goto(f"/r/{code}")
    expect(page.locator("#join-form")).to_be_visible()
    take_seat(page, name)


def open_rules_editor(host: Page) -> None:
    """The host opens the lobby's rules editor, once the page has read the room's rules
    (until then it stays shut)."""
    expect(host.locator("#rules-editor")).to_have_attribute("aria-busy", "false")
    host.click("#rules-editor summary")
    expect(host.locator("#rules-editor")).to_have_attribute("open", "")


def start_game(host: Page, players: int) -> None:
    expect(host.locator("#lobby-players li")).to_have_count(players)
    host.click("#start-btn")
    expect(host.locator("#game-view")).to_be_visible()


def program(page: Page, card: str) -> None:
    page.click(f'#hand button[data-card="{card}"]')
    expect(page.locator(f'#programmed [data-card="{card}"]')).to_be_visible()


def ready(page: Page) -> None:
    page.click("#ready-btn")
    expect(page.locator("#unready-btn, #ready-btn")).to_have_count(1)


def seat_table(open_page: Any, deal: dict[str, Any], names: list[str],
               contexts: dict[int, dict[str, Any]] | None = None,
               path: int | None = None, modes: list[str] = ()) -> list[Page]:  # fmt: skip
    """One browser context per player: the first creates the room with ``deal``, all take
    a seat through the invite link, the first (the host) starts. The pages, by seat.
    ``contexts`` gives some seats browser-context options (a phone's viewport, touch)."""
    contexts = contexts or {}
    pages = [open_page(**contexts.get(i, {})) for i in range(len(names))]
    code = create_room(pages[0], deal=deal, path=path, modes=modes)
    take_seat(pages[0], names[0])
    for page, name in zip(pages[1:], names[1:], strict=True):
        join_room(page, code, name)
    start_game(pages[0], len(names))
    for page in pages:
        expect(page.locator("#game-view")).to_be_visible()
    return pages


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"the page scrolls sideways: {width}px wide in {inner}px"


def assert_accessible(page: Page, where: str) -> None:
    """axe-core (axe-playwright-python) on the page as it is now: no serious or critical
    violation. Animations are switched off first (reduced motion), so that colours are
    measured as they end, not half-faded in."""
    from axe_playwright_python.sync_playwright import Axe

    page.emulate_media(reduced_motion="reduce")
    page.wait_for_timeout(50)
    violations = Axe().run(page).response["violations"]
    bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
    assert not bad, f"{where}:\n" + "\n".join(
        f"- {v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:4]}"
        for v in bad
    )
