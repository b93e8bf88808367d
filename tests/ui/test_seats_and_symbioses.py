"""A reload keeps the seat and the hand; a Symbiosis give / give-back between two
players; the table on a phone-sized screen; keyboard play."""

from __future__ import annotations

import re

import pytest
from dn_rest import RestTable
from dn_ui import no_horizontal_scroll, program, seat_table
from dn_ui_plan import plan
from playwright.sync_api import expect

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_reload_mid_game_keeps_seat_and_hand(open_page):
    p = plan()
    pages = seat_table(open_page, p.deal(), ["Alice", "Bob", "Chloé"])
    bob = pages[1]
    card = p.turns[0][1]
    program(bob, card)
    hand_before = sorted(
        bob.locator("#hand button.hand-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )
    assert len(hand_before) == 10
    bob.reload()
    expect(bob.locator("#game-view")).to_be_visible()
    expect(bob.locator("#me-title")).to_contain_text("Bob")
    expect(bob.locator(f'#programmed [data-card="{card}"]')).to_be_visible()
    expect(bob.locator("#hand button.hand-card")).to_have_count(10)
    hand_after = sorted(
        bob.locator("#hand button.hand-card").evaluate_all("bs => bs.map(b => b.dataset.card)")
    )
    assert hand_after == hand_before
    # the others still see Bob as connected, with a face-down card
    expect(pages[0].locator('#others .player[data-seat="1"] .facedown')).to_be_visible()
    # reopening the invite link in a new tab of the same browser: the same seat
    again = bob.context.new_page()
    again.goto(bob.url)
    expect(again.locator("#me-title")).to_contain_text("Bob")
    again.close()


def test_symbiosis_give_and_give_back(open_page):
    p = plan()
    alice, bob, chloe = seat_table(open_page, p.deal(), ["Alice", "Bob", "Chloé"])
    given, returned = "joker-1", "joker-2"  # Alice's and Bob's kept Jokers
    # Alice is the first player: her Symbiosis of this turn is free
    expect(alice.locator("#me-badges")).to_contain_text("free Symbiosis")
    alice.click("#sym-btn")
    dialog = alice.locator("#sym-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#sym-cost")).to_contain_text("free")
    dialog.locator('label.radio:has(input[name="kind"][value="give"])').click()
    dialog.locator(f'label.card-choice:has(input[name="card"][value="{given}"])').click()
    dialog.locator('label.radio:has(input[name="to"][value="1"])').click()
    dialog.locator("#sym-ok").click()
    expect(dialog).to_be_hidden()

    # Bob is asked at once to give a card back; he sees what he received
    prompt = bob.locator("#giveback-dialog")
    expect(prompt).to_be_visible()
    expect(prompt.locator(".received")).to_contain_text("Joker")
    expect(prompt.locator(".received")).to_contain_text("Only the two of you know it.")
    # the reveal is blocked meanwhile, and Chloé only learns that an exchange happened
    expect(chloe.locator("#status")).to_contain_text("Waiting for Bob to give a card back")
    expect(chloe.locator("#log")).to_contain_text("Alice gives a card to Bob")
    prompt.locator(f'label.card-choice:has(input[name="giveback"][value="{returned}"])').click()
    prompt.locator("#giveback-ok").click()
    expect(prompt).to_be_hidden()

    expect(alice.locator(f'#hand button[data-card="{returned}"]')).to_be_visible()
    expect(alice.locator(f'#hand button[data-card="{given}"]')).to_have_count(0)
    expect(bob.locator(f'#hand button[data-card="{given}"]')).to_be_visible()
    # Alice knows which card Bob holds now; Chloé does not
    expect(
        alice.locator(f'#others .player[data-seat="1"] .known [data-card="{given}"]')
    ).to_be_visible()
    expect(chloe.locator('#others .player[data-seat="1"] .known')).to_have_count(0)
    expect(alice.locator("#log")).to_contain_text("Bob gives Joker back to Alice")
    # the free Symbiosis is used: no other one this turn for a 3-player table
    expect(alice.locator("#sym-btn")).to_be_disabled()


def test_give_back_dialog_says_who_knows_the_card_in_french(open_page, ui_server):
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    table.act(0, {"type": "give", "card": "joker-1", "to": 1})
    bob = table.page(open_page, 1, locale="fr-FR", **PHONE)
    received = bob.locator("#giveback-dialog .received")
    expect(received).to_contain_text("Vous avez reçu le Joker")
    expect(received).to_contain_text("Seuls vous deux le savez.")


HEADER_PROBLEMS = """() => {
  const problems = [];
  const items = document.querySelectorAll(".site-header :is(a, button, select, .turn-info, .conn)");
  for (const el of [...items].filter((e) => e.getClientRects().length)) {
    const r = el.getBoundingClientRect();
    const name = el.id || el.className;
    if (r.left < 0 || r.right > innerWidth) problems.push(`${name}: ${r.left}..${r.right}`);
    if (el.scrollWidth > el.clientWidth + 1) problems.push(`${name} cut: ${el.innerText}`);
  }
  // a select is as wide as its longest option unless squeezed: a free copy beside it
  const select = document.getElementById("lang-select");
  const free = select.cloneNode(true);
  free.removeAttribute("id");
  free.style.cssText = "position: absolute; max-width: none; width: auto";
  select.after(free);
  const [wide, shown] = [free, select].map((e) => e.getBoundingClientRect().width);
  free.remove();
  if (wide > shown + 0.5) problems.push(`lang-select cut: ${shown} px of ${wide}`);
  return problems;
}"""


@pytest.mark.parametrize("width", [390, 360])
def test_phone_header_fits_uncut_in_french_and_english(open_page, ui_server, width):
    """The room page's header on a phone: the turn, the buttons and the language menu
    are whole and on the screen, in both languages, and Tab still reaches them in order."""
    table = RestTable(ui_server.url, plan().deal(), ["Alice", "Bob", "Chloé"])
    phone = {**PHONE, "viewport": {"width": width, "height": 844}}
    for locale, turn in (("fr-FR", "Tour 1 sur 11"), ("en-US", "Turn 1 of 11")):
        page = table.page(open_page, 1, locale=locale, **phone)
        expect(page.locator("#turn-info")).to_have_text(turn)
        assert page.evaluate(HEADER_PROBLEMS) == [], (locale, width)
        no_horizontal_scroll(page)
        page.evaluate("document.querySelector('.skip-link').focus()")
        reached = []
        for _ in range(5):
            page.keyboard.press("Tab")
            reached.append(
                page.evaluate("document.activeElement.id || document.activeElement.className")
            )
        assert reached == ["brand", "alerts-btn", "device-btn", "help-btn", "lang-select"], reached


@pytest.mark.parametrize("width", [390, 360])
def test_a_paced_tables_turn_line_takes_one_line_on_a_phone(open_page, ui_server, width):
    """A paced table's header on a phone: the turn and this seat's time left on one line
    (the pace itself, "paced: 1 day per move", is left to screen readers there)."""
    table = RestTable(ui_server.url, plan().deal(), ["Alice", "Bob", "Chloé"],
                      turn_limit_seconds=86400)  # fmt: skip
    phone = {**PHONE, "viewport": {"width": width, "height": 844}}
    for locale, words in (
        (
            "fr-FR",
            (
                "Tour 1 sur 11",
                "au long cours\u00a0: 1 jour par coup",
                "votre coup\u00a0: encore 1 jour",
            ),
        ),
        ("en-US", ("Turn 1 of 11", "paced: 1 day per move", "your move: 1 day left")),
    ):
        page = table.page(open_page, 1, locale=locale, **phone)
        turn = page.locator("#turn-info")
        expect(turn).to_have_text(" · ".join(words))  # the whole line a screen reader reads
        lines = turn.evaluate(
            "(el) => el.getBoundingClientRect().height"
            " / parseFloat(getComputedStyle(el).lineHeight)"
        )
        assert lines < 1.8, (locale, width, lines)
        hidden = turn.locator(".pace-rule").evaluate("(el) => el.getBoundingClientRect().width")
        assert hidden <= 1, (locale, width, hidden)  # on screen: the turn and the time left
        assert page.evaluate(HEADER_PROBLEMS) == [], (locale, width)


NEW_BADGES = """() => [...document.querySelectorAll(".just-placed")].map((el) => {
  const r = el.getBoundingClientRect();
  const badge = getComputedStyle(el, "::after");
  const box = getComputedStyle(el);
  const left = r.left + parseFloat(box.borderLeftWidth) + parseFloat(badge.left);
  const top = r.top + parseFloat(box.borderTopWidth) + parseFloat(badge.top);
  return {name: el.dataset.slot || el.dataset.species, left, top,
          right: left + parseFloat(badge.width), bottom: top + parseFloat(badge.height)};
})"""


@pytest.mark.parametrize("width", [390, 360])
def test_the_new_badges_of_both_slots_of_a_species_do_not_overlap(open_page, ui_server, width):
    """Turn 7 of the plan places both Conditions of the Hérisson: on a phone, in French
    ("nouveau" is wider than a slot) and English, no "new" badge covers another."""
    p = plan()
    table = RestTable(ui_server.url, p.deal(), ["Alice", "Bob", "Chloé"])
    for cards in p.turns[:7]:
        table.program_all(cards)
        table.choose_until()
    phone = {**PHONE, "viewport": {"width": width, "height": 844}}
    for locale in ("fr-FR", "en-US"):
        page = table.page(open_page, 1, locale=locale, **phone)
        expect(page.locator("#webs .cslot.just-placed")).to_have_count(2)
        badges = page.evaluate(NEW_BADGES)
        assert {"species-herisson:1", "species-herisson:2"} <= {b["name"] for b in badges}
        for i, a in enumerate(badges):
            for b in badges[i + 1 :]:
                apart = (a["right"] <= b["left"] or b["right"] <= a["left"]
                         or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])  # fmt: skip
                assert apart, (locale, width, a, b)


def test_phone_sized_table_has_no_horizontal_scrolling(open_page):
    p = plan()
    pages = seat_table(open_page, p.deal(), ["Alice", "Bob", "Chloé"], contexts={1: PHONE})
    bob = pages[1]
    no_horizontal_scroll(bob)
    # turn 1 by keyboard on the phone: focus a card, press Enter; then Ready
    bob.locator(f'#hand button[data-card="{p.turns[0][1]}"]').focus()
    bob.keyboard.press("Enter")
    expect(bob.locator(f'#programmed [data-card="{p.turns[0][1]}"]')).to_be_visible()
    bob.locator("#ready-btn").focus()
    bob.keyboard.press("Enter")
    for seat in (0, 2):
        program(pages[seat], p.turns[0][seat])
        pages[seat].click("#ready-btn")
    # Bob's blue Condition has two legal places: they light up, he taps one
    ((_, seat, _, slot),) = [c for c in p.choices if c[0] == 1]
    assert seat == 1
    expect(bob.locator("#prompt")).to_be_visible()
    expect(bob.locator("#webs button.target")).to_have_count(2)
    no_horizontal_scroll(bob)
    bob.locator(f'#webs button.target[data-slot="{slot}"]').tap()
    expect(bob.locator("#turn-info")).to_contain_text("Turn 2 of")
    expect(bob.locator("#reveals li.reveal-item")).to_have_count(3)
    no_horizontal_scroll(bob)
    bob.click("#help-btn")
    expect(bob.locator("#help-dialog")).to_be_visible()
    no_horizontal_scroll(bob)


def test_symbiosis_show_to_everyone_and_swap_with_the_discard_pile(open_page):
    p = plan()
    alice, bob, chloe = seat_table(open_page, p.deal(), ["Alice", "Bob", "Chloé"])
    # turn 1: Alice (first player) shows her Joker to everyone
    alice.click("#sym-btn")
    dialog = alice.locator("#sym-dialog")
    dialog.locator('label.radio:has(input[name="kind"][value="show"])').click()
    expect(dialog.locator("#sym-to-fs")).to_be_hidden()
    dialog.locator('label.card-choice:has(input[name="card"][value="joker-1"])').click()
    dialog.locator("#sym-ok").click()
    for other in (bob, chloe):
        expect(
            other.locator('#others .player[data-seat="0"] .known [data-card="joker-1"]')
        ).to_be_visible()
        expect(other.locator("#log")).to_contain_text(
            "Alice shows Joker to everyone (free Symbiosis)"
        )
    # Alice's own Joker says that everyone knows it
    shown = alice.locator('#hand button[data-card="joker-1"]')
    expect(shown.locator(".known-by")).to_be_visible()
    expect(shown).to_have_attribute("aria-label", re.compile("known to everyone"))
    # Chloé reveals a Species too early: it is discarded, and the list says why
    program(alice, p.turns[0][0])
    program(bob, p.turns[0][1])
    program(chloe, "species-ortie")
    for page in (alice, bob, chloe):
        page.click("#ready-btn")
    bob.locator("#webs button.target").first.click()
    expect(alice.locator("#discard [data-card='species-ortie']")).to_be_visible()
    expect(alice.locator("#reveals")).to_contain_text("its Conditions are not all in place")
    # turn 2: Bob (first player) swaps a Condition of his for the Ortie in the discard pile
    expect(bob.locator("#me-badges")).to_contain_text("free Symbiosis")
    bob.click("#sym-btn")
    dialog = bob.locator("#sym-dialog")
    dialog.locator('label.radio:has(input[name="kind"][value="swap_discard"])').click()
    # only Conditions and Jokers can be exchanged
    expect(
        dialog.locator('label.card-choice.disabled:has(input[value="species-chene"])')
    ).to_be_visible()
    dialog.locator('label.card-choice:has(input[name="card"][value="cond-yellow-1"])').click()
    dialog.locator('label.card-choice:has(input[name="take"][value="species-ortie"])').click()
    dialog.locator("#sym-ok").click()
    expect(bob.locator('#hand button[data-card="species-ortie"]')).to_be_visible()
    expect(chloe.locator("#discard [data-card='cond-yellow-1']")).to_be_visible()
    expect(
        chloe.locator('#others .player[data-seat="1"] .known [data-card="species-ortie"]')
    ).to_be_visible()


def test_privileged_symbiosis_shows_a_card_to_one_player(open_page):
    p = plan()
    alice, bob, chloe = seat_table(
        open_page, p.deal(), ["Alice", "Bob", "Chloé"], modes=["privileged_symbioses"]
    )
    alice.click("#sym-btn")
    dialog = alice.locator("#sym-dialog")
    expect(dialog).to_contain_text("to one player (Privileged Symbioses)")
    dialog.locator('label.radio:has(input[name="kind"][value="show"])').click()
    expect(dialog.locator("#sym-to-fs")).to_be_visible()
    dialog.locator('label.card-choice:has(input[name="card"][value="joker-1"])').click()
    dialog.locator('label.radio:has(input[name="to"][value="2"])').click()
    dialog.locator("#sym-ok").click()
    expect(
        chloe.locator('#others .player[data-seat="0"] .known [data-card="joker-1"]')
    ).to_be_visible()
    expect(chloe.locator("#log")).to_contain_text("Alice shows Joker to Chloé (you)")
    expect(bob.locator("#log")).to_contain_text("Alice shows a card to Chloé")
    expect(bob.locator('#others .player[data-seat="0"] .known')).to_have_count(0)
    expect(alice.locator('#hand button[data-card="joker-1"]')).to_have_attribute(
        "aria-label", re.compile("known to Chloé")
    )


def test_a_spectator_reads_a_card_shown_to_everyone_as_everyones(open_page, ui_server):
    """A card shown to everyone: a seat reads "You know:" above it, a spectator (who has
    no hand) "Everyone knows:" / "Tout le monde sait :"."""
    table = RestTable(ui_server.url, plan().deal(), ["Alice", "Bob", "Chloé"])
    table.act(0, {"type": "show", "card": "joker-1"})
    shown = '#others .player[data-seat="0"] .known'
    bob = table.page(open_page, 1)
    expect(bob.locator(f"{shown} .label")).to_have_text("You know:")
    for locale, words in (("en-US", "Everyone knows:"), ("fr-FR", "Tout le monde sait\u00a0:")):
        spectator = table.page(open_page, None, locale=locale)
        expect(spectator.locator(f'{shown} [data-card="joker-1"]')).to_be_visible()
        expect(spectator.locator(f"{shown} .label")).to_have_text(words)
