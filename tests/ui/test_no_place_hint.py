"""The hint under a programmed card ("No place for it now: ...", ``static/js/no_place.js``)
held to the engine's own reveal, under advanced rules.

Random legal games (fixed seeds) give the tables: at the start of each turn's programming,
for every seat and every card in its hand, the hint is computed in Chromium from the
seat's view (the module the room page uses) and compared with what the engine would do
with that card revealed:

- the first card revealed this turn has no card before it, so the view knows everything
  the reveal depends on: the hint speaks exactly when the engine discards it (with the
  engine's reason), save a Condition discarded because a Reintroduction played earlier
  still waits for its animal (not in the view: the hint says nothing then);
- any other card: when the hint speaks, the engine discards the card whatever card is
  revealed just before it (a blue Condition, a Joker given blue, a yellow one, a plant,
  an animal, a Cat, a Reintroduction, or none), on the same web.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from dn_rest import RestTable
from playwright.sync_api import expect

from dame_nature.bots.random_play import random_step
from dame_nature.engine import CATALOGUE, MODES, Game, State
from dame_nature.engine.reveal import context, outcomes
from dame_nature.engine.rules.base import RevealContext

pytestmark = pytest.mark.browser  # real headless Chromium (skipped without it)

# The card revealed just before, as the rules read it (its record's card and colour).
PREVIOUS: list[dict[str, Any] | None] = [
    None,
    {"card": "cond-blue-1", "colour": "blue"},
    {"card": "joker-1", "colour": "blue"},
    {"card": "cond-yellow-2", "colour": "yellow"},
    {"card": "species-ortie", "colour": None},
    {"card": "species-campagnol", "colour": None},
    {"card": "cat-1", "colour": None},
    {"card": "reintroduction-1", "colour": None},
]
for record in PREVIOUS:
    if record is not None:
        record.update(result="placed", slot=None)

# (modes, players, seeds): the twelve rules together, then smaller sets
GAMES: list[tuple[list[str], int, range]] = [
    (list(MODES), 5, range(3)),
    (["environmental_changes", "wetland", "invasive_species"], 3, range(3)),
    (["associated_conditions", "dependent_conditions", "species_biodiversity"], 4, range(3)),
    (["species_reintroductions", "first_predator", "climate_change"], 6, range(2)),
]


def first_revealer(state: State) -> int:
    n = state.game.num_players
    for i in range(n):
        seat = (state.first_player + i) % n
        if state.hands[seat] or state.programmed[seat] is not None:
            return seat
    raise AssertionError("nobody has a card")


def engine_reasons(state: State, seat: int, card: str) -> list[list[str | None]]:
    """For each card before it (``PREVIOUS``), the reasons of its outcomes if ``seat``
    programmed ``card`` and revealed it now (None: placed or played)."""
    trial = state.clone()
    trial.apply(seat, {"type": "program", "card": card})
    assert context(trial, seat).previous is None
    found = []
    for previous in PREVIOUS:
        ctx = RevealContext(trial, seat, CATALOGUE.cards[card], previous)
        found.append([o.reason for o in outcomes(trial, ctx)])
    return found


def tables() -> list[dict[str, Any]]:
    """Every seat's view at the start of each turn's programming, with its cards."""
    cases = []
    for modes, players, seeds in GAMES:
        for seed in seeds:
            state = Game(players, modes).new_initial_state(seed=seed)
            rng = random.Random(seed)
            turn_seen = None
            while not state.is_over:
                if state.phase == "programming" and state.turn != turn_seen:
                    turn_seen = state.turn
                    first = first_revealer(state)
                    for seat in range(players):
                        cards = sorted(set(state.hands[seat]))
                        if not cards:
                            continue
                        view = json.loads(json.dumps(state.view(seat)))
                        del view["log"]  # not read by the hint; keeps the page's work small
                        cases.append({"view": view, "seat": seat, "cards": cards,
                                      "first": seat == first, "state": state.clone()})  # fmt: skip
                seat, action = random_step(state, rng)
                state.apply(seat, action)
    return cases


def test_the_no_place_hint_says_what_the_engine_does(open_page):
    cases = tables()
    page = open_page()
    page.goto("/")
    hints = page.evaluate(
        """async (cases) => {
          const { noPlaceNow } = await import("/static/js/no_place.js");
          return cases.map(({ view, seat, cards }) => cards.map((c) => noPlaceNow(view, c, seat)));
        }""",
        [{k: case[k] for k in ("view", "seat", "cards")} for case in cases],
    )
    said: Counter[str] = Counter()
    checked = 0
    for case, case_hints in zip(cases, hints, strict=True):
        for card, hint in zip(case["cards"], case_hints, strict=True):
            reasons = engine_reasons(case["state"], case["seat"], card)
            view = case["view"]
            where = f"{card} of seat {case['seat']}, turn {view['turn']}, {view['modes']}"
            checked += 1
            if hint:
                said[hint] += 1
            if case["first"]:
                now = reasons[0]  # nothing before it
                discarded = all(r is not None for r in now)
                if hint:
                    assert discarded, f"hint {hint!r} but the engine places {where}: {now}"
                    # one reason (a Joker has one a colour), unless the view cannot know it
                    if len(now) == 1 and now != ["reintroduction"]:
                        assert hint == now[0], f"{where}: hint {hint!r}, engine {now}"
                else:
                    assert not discarded or now == ["reintroduction"], (
                        f"no hint but the engine discards {where}: {now}"
                    )
            elif hint:
                for previous, found in zip(PREVIOUS, reasons, strict=True):
                    assert all(r is not None for r in found), (
                        f"hint {hint!r} but the engine places {where} after {previous}: {found}"
                    )
    # the tables did test the advanced rules' own reasons, and plenty of cards
    assert checked > 1000, checked
    for reason in ("order", "aquatic", "invasive", "side", "associated", "dependent",
                   "pollution_early", "no_slot", "conditions_missing"):  # fmt: skip
        assert said[reason] > 3, f"no case where the hint said {reason!r}: {dict(said)}"


def test_the_table_shows_the_hint_of_two_advanced_rules(open_page, ui_server):
    # seed 0 at 3 players: Bob (seat 1) is first player with two associated Conditions;
    # Alice holds invasive species
    modes = ["associated_conditions", "invasive_species"]
    setup = Game(3, modes).new_initial_state(seed=0).setup
    assert setup["first_player"] == 1
    deal = {"hands": setup["hands"], "first_player": 1}
    table = RestTable(ui_server.url, deal, ["Alice", "Bob", "Chloé"], modes)
    bob, alice = table.page(open_page, seat=1), table.page(open_page, seat=0)
    bob.click('#hand button[data-card="cond-blue-3"]')
    expect(bob.locator("#programmed-hint")).to_contain_text(
        "No place for it now: associated Condition: it needs a Condition revealed just before it"
    )
    bob.click('#hand button[data-card="cond-yellow-1"]')  # an ordinary one: a free slot
    expect(bob.locator('#programmed [data-card="cond-yellow-1"]')).to_be_visible()
    expect(bob.locator("#programmed-hint")).to_be_hidden()
    alice.click('#hand button[data-card="species-renouee-du-japon"]')
    expect(alice.locator("#programmed-hint")).to_contain_text(
        "an invasive species must be played by the first player"
    )
