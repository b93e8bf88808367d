"""French and English: the language follows the browser's, the header's switch changes it
and it is remembered; the lobby, the table and the replay are drawn in it, with
``<html lang>`` set, while another player at the same table keeps English."""

from __future__ import annotations

import re

from dn_ui import create_room, join_room, start_game, take_seat
from playwright.sync_api import expect

#: English words that must not show on a French page (whole words, case-sensitive)
ENGLISH = re.compile(r"\b(Your|the|Waiting|Ready|Players|Turn|Symbiosis card|Discard pile)\b")


def test_the_browser_language_the_switch_and_the_memory(open_page):
    page = open_page(locale="fr-FR")
    page.goto("/")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#create-title")).to_have_text("Créer une salle")
    expect(page.locator("#create-btn")).to_have_text("Créer la salle")
    expect(page.locator(".mode-title").first).to_contain_text("Conditions associées")
    expect(page.locator(".mode-summary").first).to_contain_text("Une Condition associée")
    assert page.title() == "Dame Nature en ligne"
    expect(page.locator("#lang-select")).to_have_value("fr")
    # the switch: English now, and still after a reload
    page.select_option("#lang-select", "en")
    page.wait_for_load_state()
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("#create-title")).to_have_text("Create a room")
    page.reload()
    expect(page.locator("#create-title")).to_have_text("Create a room")
    assert page.evaluate("localStorage.getItem('dameNature.lang')") == "en"
    # a browser in English gets English, and French once chosen
    other = open_page(locale="en-GB")
    other.goto("/")
    expect(other.locator("html")).to_have_attribute("lang", "en")
    other.select_option("#lang-select", "fr")
    expect(other.locator("#create-title")).to_have_text("Créer une salle")


def test_lobby_and_table_in_french_beside_a_player_in_english(open_page):
    french = open_page(locale="fr-FR")
    english = [open_page(locale="en-US"), open_page(locale="en-US")]
    code = create_room(french, modes=["climate_change"])
    expect(french.locator("#lobby-title")).to_have_text("Salon de la salle")
    expect(french.locator("#lobby-rules")).to_contain_text("Changement climatique")
    expect(french.locator("#lobby-rules")).to_contain_text("la bleue est défaussée")
    take_seat(french, "Amélie")
    expect(french.locator("#seated-note")).to_contain_text("Vous jouez sous le nom")
    expect(french.locator("#start-btn")).to_have_text("Lancer la partie (encore 2 joueurs)")
    for page, name in zip(english, ["Bob", "Cy"], strict=True):
        join_room(page, code, name)
    expect(english[0].locator("#lobby-title")).to_have_text("Room lobby")
    start_game(french, 3)
    expect(french.locator("html")).to_have_attribute("lang", "fr")
    expect(french.locator("#turn-info")).to_have_text(re.compile(r"^Tour 1 sur \d+$"))
    expect(french.locator("#me-title")).to_have_text("Votre main · Amélie")
    expect(french.locator("#status")).to_contain_text("Programmation")
    expect(french.locator("#ready-btn")).to_have_text("Prêt")
    expect(french.locator("#web-title")).to_have_text("Réseau du vivant")
    expect(english[0].locator("#turn-info")).to_have_text(re.compile(r"^Turn 1 of \d+$"))
    expect(english[0].locator("#me-title")).to_have_text("Your hand · Bob")
    # program a card and open the help: still French everywhere
    french.locator("#hand button.hand-card").first.click()
    expect(french.locator("#status")).to_contain_text("Dites Prêt")
    french.click("#help-btn")
    expect(french.locator("#help-title")).to_have_text("Comment jouer")
    expect(french.locator("#help-body")).to_contain_text("Couleurs des Conditions")
    text = french.locator("#game-view").inner_text() + french.locator("#help-body").inner_text()
    found = ENGLISH.findall(text)
    assert not found, f"English left on the French table: {found}"
    # what a screen reader says of a hand card is French too
    label = french.locator("#hand button.hand-card").first.get_attribute("aria-label") or ""
    assert label.endswith(": la programmer à la place"), label
