"""The table on a phone (360 and 390 px), in French and English: every Species and card
name breaks only between words, and nothing is wider than its box."""

from __future__ import annotations

from typing import Any

import pytest
from dn_rest import RestTable
from dn_ui_plan import plan
from playwright.sync_api import Page

from dame_nature.engine import Game

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

PHONE = {"is_mobile": True, "has_touch": True}
WIDTHS = [360, 390]
LOCALES = ["fr-FR", "en-US"]

# each word of the text under `selector` whose boxes lie on more than one line
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const el of document.querySelectorAll(selector)) {
    if (!el.getClientRects().length) continue;  // not shown (display: none)
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.data.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0)
          .map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(m[0]);
      }
    }
  }
  return broken;
}"""

# the elements under `selector` wider than their parent's content box
TOO_WIDE = """(selector) => [...document.querySelectorAll(selector)].filter((el) => {
  const box = el.parentElement.getBoundingClientRect();
  const style = getComputedStyle(el.parentElement);
  const inner = box.width - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight)
    - parseFloat(style.borderLeftWidth) - parseFloat(style.borderRightWidth);
  return el.getClientRects().length && el.getBoundingClientRect().width > inner + 0.5;
}).map((el) => el.textContent.trim())"""


def seed_deal(modes: list[str]) -> dict[str, Any]:
    state = Game(3, modes).new_initial_state(seed=7)
    return {"hands": state.setup["hands"], "first_player": state.setup["first_player"]}


def phone_page(table: RestTable, open_page: Any, width: int, locale: str) -> Page:
    return table.page(open_page, 1, locale=locale, viewport={"width": width, "height": 844},
                      **PHONE)  # fmt: skip


@pytest.mark.parametrize("width", WIDTHS)
def test_species_names_in_the_web_break_only_between_words(open_page, ui_server, width):
    """Both layouts of the main web (Campagnol, Aubépine; the invasive Renouée du Japon
    and Frelon asiatique with their mark) and the aquatic web (Charagne)."""
    tables = [
        RestTable(ui_server.url, plan().deal(), ["Alice", "Bob", "Chloé"]),
        RestTable(
            ui_server.url,
            seed_deal(["invasive_species", "wetland"]),
            ["Alice", "Bob", "Chloé"],
            modes=["invasive_species", "wetland"],
        ),  # fmt: skip
    ]
    for table in tables:
        for locale in LOCALES:
            page = phone_page(table, open_page, width, locale)
            names = page.locator("#webs .sp-fr")
            assert names.count() >= 10
            assert page.evaluate(BROKEN_WORDS, "#webs .sp-names") == [], (locale, width)
            assert page.evaluate(TOO_WIDE, "#webs .sp-head") == [], (locale, width)
