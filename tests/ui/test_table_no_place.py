"""The browser shows the server's word on a card with no place: each card of the hand the
view's ``no_place`` gives a reason for is marked, the programmed one says the reason
under it ("No place for it now: ..."), in the sentence the server serves for that reason
code (``GET /api/modes``), in English and in French. The browser works out no rule: what
the reasons say is held to the engine's reveal in ``tests/engine/test_view_rules.py``."""

from __future__ import annotations

import httpx
import pytest
from dn_rest import RestTable
from playwright.sync_api import expect

from dame_nature.engine import Game
from tests.engine.helpers import deal_for

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

MODES = ["environmental_changes"]


def _table(url: str) -> RestTable:
    """3 players, Environmental Changes: seat 0 (first player) holds a violet Condition
    whose only open slot (the Chêne's second) waits for its first, and a blue one."""
    deal = deal_for(Game(3, MODES), {0: ["cond-violet-1", "cond-blue-1"]})
    return RestTable(url, deal, ["Ada", "Bea", "Cy"], MODES)


def test_the_hand_shows_the_servers_reasons_in_both_languages(open_page, ui_server):
    table = _table(ui_server.url)
    view = table.view(0)
    assert view["no_place"]["cond-violet-1"] == "order"
    assert view["no_place"]["cond-blue-1"] is None
    reasons = httpx.get(ui_server.url + "/api/modes").json()["reasons"]
    # (French puts a non-breaking space before its colon)
    languages = (
        ("en-US", "en", "No place for it now:"),
        ("fr-FR", "fr", "Pas de place maintenant\u00a0:"),
    )
    for locale, lang, prefix in languages:
        sentence = reasons["order"][lang]
        page = table.page(open_page, 0, locale=locale)
        # the page's reason sentences are the server's, for every code
        served = page.evaluate("async () => (await import('/static/js/texts.js')).REASONS")
        assert served == {code: text[lang] for code, text in reasons.items()}
        if lang == "en":  # in the hand: marked, with the reason for screen readers
            violet = page.locator('#hand button[data-card="cond-violet-1"]')
            expect(violet.locator(".no-place")).to_have_attribute("title", f"{prefix} {sentence}")
            assert sentence in (violet.get_attribute("aria-label") or "")
            expect(page.locator('#hand button[data-card="cond-blue-1"] .no-place')).to_have_count(0)
            violet.click()  # programmed: the reason said under it (then in French too)
        hint = page.locator("#programmed-hint")
        expect(hint).to_be_visible()
        expect(hint).to_have_text(f"{prefix} {sentence}.")
    # a card with a place: no word under it
    table.act(0, {"type": "program", "card": "cond-blue-1"})
    page = table.page(open_page, 0)
    expect(page.locator(".programmed-card")).to_have_attribute("data-card", "cond-blue-1")
    expect(page.locator("#programmed-hint")).to_be_hidden()
