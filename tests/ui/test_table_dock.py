"""Everything for your turn in the first screen: the status line, your hand,
Ready and Symbiosis stay in view at 1280x800 and on a 390x844 phone, at the top of the
page and scrolled to its bottom."""

from __future__ import annotations

import pytest
from dn_rest import RestTable
from dn_ui import no_horizontal_scroll
from dn_ui_plan import plan
from playwright.sync_api import Page, expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
IN_VIEW = ["#status", "#hand button.hand-card >> nth=0", "#ready-btn", "#sym-btn", "#programmed"]


def assert_in_view(page: Page, where: str) -> None:
    height = page.viewport_size["height"]
    for selector in IN_VIEW:
        box = page.locator(selector).bounding_box()
        assert box, selector
        assert box["y"] >= 0 and box["y"] + box["height"] <= height + 0.5, (where, selector, box)


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
def test_your_turn_is_in_the_first_screen(open_page, ui_server, size):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    alice = table.page(open_page, seat=0, **size)
    alice.locator("#hand button.hand-card").first.click()
    expect(alice.locator("#programmed .card[data-card]")).to_be_visible()
    alice.evaluate("window.scrollTo(0, 0)")
    alice.wait_for_timeout(100)
    assert alice.evaluate("window.scrollY") == 0
    assert_in_view(alice, "top")
    alice.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    alice.wait_for_timeout(100)
    assert_in_view(alice, "bottom")
    # the table above is still all reachable: the web's last species can be scrolled to
    eagle = alice.locator('#webs [data-species="species-aigle-royal"]')
    eagle.scroll_into_view_if_needed()
    dock = alice.locator("#me").bounding_box()
    box = eagle.bounding_box()
    assert box and dock and box["y"] + box["height"] <= dock["y"] + 1, (box, dock)
    no_horizontal_scroll(alice)
