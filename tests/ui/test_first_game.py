"""A first game without snags, in Chromium at 1280x800 and on a 390x844 touch phone: the
places to choose from in view above the dock, a Joker's discards set apart and confirmed,
one word for a card's number and another for a slot, a bot's dialog that does not take
the tap under way, the home page's ways in first, bot levels named for what they do, a
phone layout that fits, card words that never break inside, French without slips, and
44 px tap targets on the table.

The tables are seeded deals (``dn_ui_plan``) set up through the REST API."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from dn_rest import RestTable
from dn_ui import create_room
from dn_ui_plan import plan
from playwright.sync_api import Page, expect

from tests.server.conftest import Api

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

DESKTOP = {"viewport": {"width": 1280, "height": 800}}
PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["1280x800", "390x844"])
NAMES = ["Alice", "Bob", "Chloé"]


def in_french(page: Page) -> None:
    page.add_init_script("localStorage.setItem('dameNature.lang', 'fr')")


def joker_choice(ui_server: Any) -> RestTable:
    """Turn 1: Alice's violet Condition fills the only violet slot open, then Bob reveals
    his Joker: he chooses among places of three colours, or discarding it as violet."""
    deal = plan().deal()
    hands = deal["hands"]
    violet = next(c for c in hands[0] if c.startswith("cond-violet"))
    joker = next(c for c in hands[1] if c.startswith("joker"))
    table = RestTable(ui_server.url, deal, NAMES)
    table.program_all({0: violet, 1: joker, 2: hands[2][0]})
    view = table.choose_until(lambda v: v["awaiting"]["seat"] == 1)
    assert view["awaiting"] and view["awaiting"]["seat"] == 1, view["awaiting"]
    return table


def fully_visible(page: Page, selector: str) -> list[str]:
    """The elements of ``selector`` not wholly on screen, or covered at their centre
    (by the dock): a description of each."""
    result: list[str] = page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].flatMap((el) => {
          const b = el.getBoundingClientRect();
          const x = b.left + b.width / 2, y = b.top + b.height / 2;
          const onScreen = b.top >= 0 && b.left >= 0
            && b.bottom <= innerHeight && b.right <= innerWidth;
          const hit = document.elementFromPoint(x, y);
          const where = `${el.dataset.slot || el.id} at ${Math.round(b.top)}`;
          return onScreen && hit && el.contains(hit) ? [] : [where];
        })""",
        selector,
    )
    return result


# ---------------------------------------------------------------- 1. places in view
@SIZES
def test_the_places_to_choose_from_are_on_screen(open_page, ui_server, size):
    table = joker_choice(ui_server)
    bob = table.page(open_page, seat=1, **size)
    targets = bob.locator("#webs button.target")
    expect(targets.first).to_be_visible()
    assert targets.count() >= 5
    # the page scrolls them into view above the dock (once: the player may scroll away)
    bob.wait_for_function(
        """() => [...document.querySelectorAll('#webs button.target')].every((el) => {
          const b = el.getBoundingClientRect();
          const dock = document.getElementById('me').getBoundingClientRect();
          return b.top >= 0 && b.bottom <= dock.top;
        })"""
    )
    assert not fully_visible(bob, "#webs button.target")
    # and each of them can be pressed there: the first one places the Joker
    bob.locator("#webs button.target").first.click()
    expect(bob.locator("#prompt")).to_be_hidden()


# ---------------------------------------------------------------- 2. Joker choices
@SIZES
def test_joker_places_come_first_and_a_discard_asks_first(open_page, ui_server, size):
    table = joker_choice(ui_server)
    bob = table.page(open_page, seat=1, **size)
    options = bob.locator("#prompt [data-opt]")
    expect(options.first).to_be_visible()
    labels = options.all_inner_texts()
    kinds = ["discard" if "Discard" in label else "place" for label in labels]
    assert kinds == sorted(kinds, key=lambda k: k == "discard") and "discard" in kinds, labels
    # the discards are set apart, under their own words
    discard = bob.locator("#prompt .discard-options [data-opt]")
    expect(discard).to_have_count(kinds.count("discard"))
    expect(bob.locator("#prompt .discard-options")).to_contain_text("Or throw it away")
    # a discard when a place exists asks first; "No" changes nothing
    discard.first.click()
    expect(bob.locator("#prompt .confirm-discard")).to_contain_text("It has a place in the web")
    bob.click("#confirm-discard-no")
    expect(bob.locator("#prompt .places [data-opt]").first).to_be_visible()
    assert table.view()["awaiting"]["seat"] == 1
    discard.first.click()
    bob.click("#confirm-discard-yes")
    expect(bob.locator("#discard [data-card^='joker']")).to_be_visible()


# ---------------------------------------------------------------- 3. one word each
def test_a_cards_number_and_a_slot_have_distinct_words(open_page, ui_server):
    table = joker_choice(ui_server)
    bob = table.page(open_page, seat=1, **DESKTOP)
    faces = " ".join(bob.locator("#hand .card-face").all_inner_texts())
    assert "Condition" in faces and not re.search(r"Condition\s*\d", faces), faces
    labels = bob.locator("#prompt .places [data-opt]").all_inner_texts()
    assert labels and all(re.fullmatch(r"Place in \S.*'s (hydric|thermal|geological) slot", x)
                          for x in labels), labels  # fmt: skip
    slot_names = [bob.locator("#webs button.target").nth(i).get_attribute("aria-label")
                  for i in range(bob.locator("#webs button.target").count())]  # fmt: skip
    assert all("slot" in x and not re.search(r"Condition\s*\d", x) for x in slot_names), slot_names


# ---------------------------------------------------------------- 4. a dialog and a tap
def test_a_bots_give_does_not_take_the_tap_under_way(open_page, ui_server):
    deal = {**plan().deal(), "first_player": 1}  # Bob's free Symbiosis: he gives to Alice
    table = RestTable(ui_server.url, deal, NAMES)
    alice = table.page(open_page, seat=0, **PHONE)
    card = alice.locator("#hand button.hand-card").first
    expect(card).to_be_enabled()
    wanted = card.get_attribute("data-card")
    box = card.bounding_box()
    assert box
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    # Alice's finger is on a card when Bob's give arrives
    alice.mouse.move(x, y)
    alice.mouse.down()
    table.act(1, {"type": "give", "card": plan().hands[1][0], "to": 0})
    expect(alice.locator("#open-giveback")).to_be_visible()
    alice.mouse.up()  # the tap ends on the card: it is programmed...
    expect(alice.locator(f'#programmed [data-card="{wanted}"]')).to_be_visible()
    # ...and then the dialog asks for the card to give back
    expect(alice.locator("#giveback-dialog")).to_have_attribute("open", "")


# ---------------------------------------------------------------- 5. the home page
@SIZES
def test_the_ways_in_come_first_on_the_home_page(open_page, size):
    page = open_page(**size)
    page.goto("/")
    height = page.viewport_size["height"]
    expect(page.locator("#learn-link")).to_have_attribute("href", "/learn")
    for selector in ("#learn-link", "#solo-btn", "#create-btn"):
        box = page.locator(selector).bounding_box()
        assert box and box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)
    # the twelve advanced rules are folded away under one line
    expect(page.locator("#rules-fold")).not_to_have_attribute("open", "")
    expect(page.locator('input[name="mode"]').first).to_be_hidden()
    expect(page.locator("#rules-summary")).to_have_text("Rules: the base game")
    page.click("#rules-fold > summary")
    page.check('input[name="mode"][value="wetland"]')
    expect(page.locator("#rules-summary")).to_have_text("Rules: the base game with 1 advanced rule")
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def test_playing_alone_needs_no_name(open_page):
    page = open_page(**PHONE)
    page.goto("/")
    page.fill("#solo-name", "")
    page.click(".solo-more > summary")
    page.select_option("#solo-level", "random")  # quick bots: the test is about the page
    page.click("#solo-btn")
    expect(page.locator("#game-view")).to_be_visible()
    expect(page.locator("#me-title")).to_contain_text("Naturalist")


# ---------------------------------------------------------------- 6. bot levels
def test_bot_levels_say_what_they_do_and_expert_comes_first(open_page):
    page = open_page(**DESKTOP)
    page.goto("/")
    level = page.locator("#solo-level")
    assert level.input_value() == "expert"
    texts = level.locator("option").all_text_contents()
    assert texts[0].startswith("Expert") and any("cannot win" in x for x in texts), texts
    page.click("#create-btn")
    page.wait_for_url("**/r/*")
    page.fill("#player-name", "Ada")
    page.click("#join-btn")
    host_level = page.locator("#bot-level")
    expect(host_level).to_be_visible()
    assert host_level.input_value() == "expert"
    texts = host_level.locator("option").all_text_contents()
    assert texts[0].startswith("Expert") and any("cannot win" in x for x in texts), texts


# ---------------------------------------------------------------- 7. the phone
HEADER_OVERLAPS = """() => {
  const items = [...document.querySelectorAll(
      '.site-header .brand, .header-status > *, .site-header .header-link, .lang-switch')]
    .filter((el) => el.getClientRects().length)
    .map((el) => el.getBoundingClientRect());
  const overlap = (a, b) =>
    a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  return items.some((b, i) => b.left < 0 || b.right > innerWidth
    || items.slice(0, i).some((a) => overlap(a, b)));
}"""


def test_the_bot_level_fits_a_french_phone(open_page):
    """The bot level's list, as wide as its longest level ("Hasard : joue n'importe
    quelle carte permise, ne peut pas gagner"), stays in its row on the home page, the
    daily page and the lobby instead of running past the screen's edge."""
    page = open_page(**PHONE)
    in_french(page)
    lobby = f"/r/{create_room(page)}"
    for url, select in (("/", "#solo-level"), ("/daily", "#daily-level"), (lobby, "#bot-level")):
        page.goto(url)
        if url == "/":
            page.locator("#solo .solo-more summary").click()  # the level is folded there
        expect(page.locator(select)).to_be_visible()
        right, row = page.locator(select).evaluate(
            "e => [e.getBoundingClientRect().right, e.parentElement.getBoundingClientRect().right]"
        )
        assert right <= row, f"{url}: the bot level runs {right - row:.0f}px past its row"


def test_the_phone_table_fits(open_page, ui_server):
    table = RestTable(ui_server.url, plan().deal(), NAMES)
    alice = table.page(open_page, seat=0, **PHONE)
    header = alice.locator(".site-header").bounding_box()
    assert header and header["height"] <= 80, header  # two short rows: controls, state
    assert not alice.evaluate(HEADER_OVERLAPS), "the header's items overlap or run off"
    web = alice.locator("#webs .species-node").first.bounding_box()
    dock = alice.locator("#me").bounding_box()
    assert web and dock and web["y"] + web["height"] <= dock["y"], (web, dock)  # above the fold
    expect(alice.locator("#status")).to_contain_text("tap a card")
    expect(alice.locator("#programmed")).to_contain_text("Tap a card")
    assert "click" not in alice.locator("#me").inner_text().lower()


def test_the_joker_choice_fits_the_phone(open_page, ui_server):
    table = joker_choice(ui_server)
    bob = table.page(open_page, seat=1, **PHONE)
    expect(bob.locator("#prompt [data-opt]").first).to_be_visible()
    dock = bob.locator("#me").bounding_box()
    assert dock and dock["y"] + dock["height"] <= 844 and dock["height"] <= 844 / 2, dock
    # every choice can be reached in the dock (it scrolls inside), none runs off sideways
    last = bob.locator("#prompt [data-opt]").last
    last.scroll_into_view_if_needed()
    box = last.bounding_box()
    assert box and box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390, box


def test_the_replay_on_a_phone_keeps_its_controls_with_the_web(open_page, ui_server):
    with httpx.Client(base_url=ui_server.url, timeout=20) as http:
        api = Api(http)
        table = api.table(3, names=NAMES, seed=5)
        api.play_out(table)
    page = open_page(**PHONE)
    page.goto(f"/r/{table['room']}/replay")
    page.wait_for_selector("#replay-view:not([hidden])")
    expect(page.locator(".keys-hint")).to_be_hidden()
    page.locator("#rp-webs .species-node").last.scroll_into_view_if_needed()
    controls = page.locator(".replay-controls").bounding_box()
    assert controls and controls["y"] >= 0 and controls["y"] + controls["height"] <= 844, controls
    page.click("#rp-next")  # pressed where it is
    desk = open_page(**DESKTOP)
    desk.goto(f"/r/{table['room']}/replay")
    expect(desk.locator(".keys-hint")).to_be_visible()


# ---------------------------------------------------------------- 8. card words
BROKEN_WORDS = """() => {
  const broken = [];
  const faces = document.querySelectorAll(
    '#hand .card-face, #reveals .card-face, #programmed .card');
  for (const face of faces) {
    const card = face.getBoundingClientRect();
    const walker = document.createTreeWalker(face, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement.getClientRects().length) continue; // not shown
      for (const m of node.data.matchAll(/\\S+/g)) {
        const r = document.createRange();
        r.setStart(node, m.index);
        r.setEnd(node, m.index + m[0].length);
        const rects = [...r.getClientRects()].filter((x) => x.width > 0);
        const lines = new Set(rects.map((x) => Math.round(x.top)));
        const b = r.getBoundingClientRect();
        if (lines.size > 1 || b.left < card.left - .5 || b.right > card.right + .5) {
          broken.push(`${m[0]} (${face.closest('[data-card]')?.dataset.card || 'empty slot'})`);
        }
      }
    }
  }
  return broken;
}"""

EVERY_CARD = """async () => {
  // every face of the catalogue in the hand and in the reveal list, as the table draws them
  const { CARDS, cardFace, cardHTML } = await import('/static/js/cards.js');
  const ids = Object.keys(CARDS);
  const jokers = ['blue', 'yellow', 'green', 'violet'].map((c) => ['joker-1', c]);
  document.getElementById('hand').innerHTML = ids.map((id) => `<li>
    <button type="button" class="card hand-card" data-card="${id}">${cardFace(id)}</button>
    </li>`).join('');
  const revealed = [...ids.map((id) => [id, null]), ...jokers];
  document.getElementById('reveals').innerHTML = revealed.map(([id, colour]) => `
    <li class="reveal-item placed"><span class="reveal-seat">1. Alice</span>
    ${cardHTML(id, { small: true, jokerColour: colour })}<span class="res">ok</span>
    </li>`).join('');
  return ids.length;
}"""


@pytest.mark.parametrize("lang", ["en", "fr"])
@SIZES
def test_no_word_breaks_inside_on_the_cards(open_page, ui_server, lang, size):
    table = RestTable(ui_server.url, plan().deal(), NAMES)
    page = open_page(**size)
    if lang == "fr":
        in_french(page)
    alice = table.page(lambda **_: page, seat=0)
    expect(alice.locator("#programmed .empty-slot")).to_be_visible()
    assert alice.evaluate(BROKEN_WORDS) == []  # the empty programmed slot's words
    assert alice.evaluate(EVERY_CARD) > 30
    alice.locator("#reveals .card").last.scroll_into_view_if_needed()
    assert alice.evaluate(BROKEN_WORDS) == []


# ---------------------------------------------------------------- 9. French and English words
def test_french_words_on_the_table(open_page, ui_server):
    table = joker_choice(ui_server)
    page = open_page(**DESKTOP)
    in_french(page)
    bob = table.page(lambda **_: page, seat=1)
    expect(bob.locator(".brand-sub")).to_have_text("en ligne")
    assert bob.title().endswith("Dame Nature en ligne")
    here = bob.locator("#webs button.target").first
    assert here.evaluate("(el) => getComputedStyle(el, '::after').content") == '"ici\u00a0?"'
    bob.locator('#webs button.target[data-slot="species-ortie:1"]').click()
    # the Condition "posée", the Joker (masculine) "posé"; the colon after a space that
    # does not break
    log = bob.locator("#log")
    expect(log).to_contain_text(
        "Alice\u00a0: Condition atmosphérique [A], posée sur l'emplacement atmosphérique du Chêne."
    )
    expect(log).to_contain_text(
        "Bob (vous)\u00a0: Joker en hydrique [H], posé sur l'emplacement hydrique de l'Ortie."
    )
    text = bob.locator("body").inner_text()
    bare = re.findall(r".{12}[^\u00a0\d]:(?!\d).{0,12}", text)
    assert not bare, f"a French colon without its non-breaking space: {bare}"
    assert "toile" not in text


def test_french_elides_de_before_a_name(open_page, ui_server):
    """French elides "de" before a vowel: "En attente d'Alice", not "de Alice"."""
    deal = plan().deal()
    table = RestTable(ui_server.url, deal, NAMES)
    table.act(1, {"type": "program", "card": deal["hands"][1][0]})
    table.act(1, {"type": "ready"})
    page = open_page(**DESKTOP)
    in_french(page)
    bob = table.page(lambda **_: page, seat=1)
    expect(bob.locator("#status")).to_have_text("Prêt. En attente d'Alice, Chloé.")


def test_french_colons_in_the_help_and_a_card_without_a_place(open_page, ui_server):
    """The help's symbols and rules, and the note under a programmed card that would have
    no place: French puts its non-breaking space before each colon."""
    table = RestTable(ui_server.url, plan().deal(), NAMES, modes=["privileged_symbioses"])
    page = open_page(**DESKTOP)
    in_french(page)
    alice = table.page(lambda **_: page, seat=0)
    alice.click('#hand button[data-card="species-aubepine"]')
    expect(alice.locator("#programmed-hint")).to_contain_text("\u00a0: ")
    alice.click("#help-btn")
    expect(alice.locator("#help-body")).to_contain_text("Symboles des cartes Condition")
    for where in ("#programmed-hint", "#help-body"):
        text = alice.locator(where).inner_text()
        bare = re.findall(r".{12}[^\u00a0\d]:(?!\d).{0,12}", text)
        assert not bare, f"{where}: a French colon without its non-breaking space: {bare}"


def test_english_counts_and_the_missing_room(open_page, ui_server):
    with httpx.Client(base_url=ui_server.url + "/api", timeout=10) as http:
        room = http.post("/rooms", json={"seed": 3}).json()
        seats = [http.post(f"/rooms/{room['room']}/players", json={"name": n}).json()
                 for n in ("Ada", "Bo", "Cy", "Di")]  # fmt: skip

        def bearer(token: str) -> dict[str, str]:
            return {"Authorization": f"Bearer {token}"}

        http.post(f"/rooms/{room['room']}/start", headers=bearer(room["host_token"]))
        view = http.get(f"/rooms/{room['room']}/state", headers=bearer(seats[0]["token"])).json()
    seat = next(s for s in seats if s["seat"] != view["first_player"])  # no free Symbiosis
    page = open_page(**DESKTOP)
    memory = {room["room"]: {"seat": seat["seat"], "token": seat["token"], "name": "x"}}
    page.add_init_script(
        f"localStorage.setItem('dameNature.rooms', {json.dumps(json.dumps(memory))})"
    )
    page.goto(f"/r/{room['room']}")
    expect(page.locator("#me-badges")).to_contain_text("1 Symbiosis card")
    page.click("#sym-btn")
    expect(page.locator("#sym-cost")).to_have_text(
        "This uses your last Symbiosis card (each works once per game)."
    )
    open_page.allow("404")  # the missing room's own request
    missing = open_page(**DESKTOP)
    missing.goto("/r/no-such-room")
    expect(missing.locator("#error-view")).to_be_visible()
    expect(missing.locator("#conn")).to_be_hidden()
    assert "Offline" not in missing.locator(".site-header").inner_text()


# ---------------------------------------------------------------- tap targets
TOO_SMALL = """() => [...document.querySelectorAll(['.site-header a', '.site-header button',
    '.site-header select', '#game-view button', '#game-view a', '#game-view select',
    '#game-view input', '#game-view summary'].join(', '))]
  .filter((el) => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map((el) => [el.id || el.dataset.slot || el.dataset.card || el.className,
                el.getBoundingClientRect()])
  .filter(([, b]) => b.width < 44 || b.height < 44)
  .map(([name, b]) => `${name}: ${Math.round(b.width)}x${Math.round(b.height)}`)"""


def test_every_tap_target_of_the_table_is_44_px_on_a_phone(open_page, ui_server):
    table = joker_choice(ui_server)
    bob = table.page(open_page, seat=1, **PHONE)
    expect(bob.locator("#webs button.target").first).to_be_visible()
    assert bob.evaluate(TOO_SMALL) == []  # choosing a place
    bob.locator("#webs button.target").first.click()
    table.choose_until()
    expect(bob.locator("#ready-btn")).to_be_visible()
    assert bob.evaluate(TOO_SMALL) == []  # programming
