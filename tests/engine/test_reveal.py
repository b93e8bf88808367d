"""The reveal (RULINGS, The web of life and Turn flow): order, legal slots, automatic
placement, choices, Jokers, discards, and the end of a turn."""

import random

from dame_nature.bots.random_play import random_step
from dame_nature.engine import MODES, Game
from dame_nature.engine.cards import CATALOGUE
from dame_nature.engine.reveal import discard_reason, no_place, outcomes, reveal_order
from dame_nature.engine.rules.base import RevealContext
from tests.engine.helpers import (
    PLANTS_3P,
    assert_illegal,
    assert_legal_actions_accepted,
    events_of,
    new_state,
    play_any_turn,
    play_turn,
    program_all,
    ready_all,
    reveal,
    reveals,
    scripted,
)


def options(state, seat):
    return [a for a in state.view(seat)["awaiting"]["options"]]


def slots(state, seat):
    return sorted(a["slot"] for a in options(state, seat))


def test_reveal_goes_in_seat_order_from_the_first_player():
    state = new_state(4, first_player=2, plays={2: ["species-ortie"], 3: ["species-jonc"],
                                                0: ["species-chene"],
                                                1: ["cond-violet-1"]})  # fmt: skip
    events = play_turn(state, ["species-ortie", "species-jonc", "species-chene", "cond-violet-1"])
    assert events_of(events, "reveal_started")[0]["order"] == [2, 3, 0, 1]
    assert [r[0] for r in reveals(state, "last")] == [2, 3, 0, 1]


def test_a_condition_goes_to_an_open_empty_slot_of_its_colour():
    state = new_state(3, plays={0: ["cond-green-1"]})
    program_all(state, ["cond-green-1", state.hands[1][0], state.hands[2][0]])
    ready_all(state)
    # green slots of the plants only; Mésange bleue and Hérisson are animals, not open yet
    assert state.awaited() == (0, "reveal")
    assert slots(state, 0) == ["species-aubepine:2", "species-chene:1", "species-jonc:2"]
    assert all(a["colour"] is None and a["target"] is None for a in options(state, 0))
    assert state.view(1)["awaiting"] == {"seat": 0, "kind": "reveal", "options": []}
    assert state.view(1)["revealing"] == {"seat": 0, "card": "cond-green-1"}
    assert_legal_actions_accepted(state)


def test_an_animal_opens_once_both_its_parents_are_installed():
    state = scripted(3, [], PLANTS_3P + [[("cond-violet-2", {"slot": "species-mesange-bleue:1"})]],
                     play=4)  # fmt: skip
    # Ortie and Aubépine open the Carabe doré, Aubépine and Chêne the Mésange bleue
    assert state.first_player == 1
    program_all(state, ["cond-violet-2", state.hands[2][0], state.hands[0][0]])
    ready_all(state)
    assert slots(state, 1) == ["species-carabe-dore:2", "species-mesange-bleue:1"]
    state.apply(1, reveal("species-mesange-bleue:1"))
    assert state.web["species-mesange-bleue:1"] == "cond-violet-2"


def test_single_legal_slot_is_filled_without_asking():
    # at the start the only violet slot open is Chêne's
    state = new_state(3, plays={0: ["cond-violet-1"], 1: ["cond-violet-2"], 2: ["species-chene"]})
    events = play_turn(state, ["cond-violet-1", "cond-violet-2", "species-chene"])
    assert not events_of(events, "awaiting_reveal")
    assert reveals(state, "last") == [
        (0, "cond-violet-1", "placed", "species-chene:2"),
        (1, "cond-violet-2", "discarded", None),
        (2, "species-chene", "discarded", None),
    ]
    assert [r["reason"] for r in state.view(0)["last_turn"]] == [
        None, "no_slot", "conditions_missing"
    ]  # fmt: skip
    assert state.discard == ["cond-violet-2", "species-chene"]


def test_species_installs_once_both_conditions_are_in_place():
    state = scripted(3, [], PLANTS_3P[:1])
    assert state.web["species-ortie"] == "species-ortie"
    assert reveals(state, "last")[2] == (2, "species-ortie", "placed", "species-ortie")


def test_species_whose_parents_are_missing_is_discarded():
    state = new_state(
        3, plays={0: ["species-aigle-royal"], 1: ["species-ortie"], 2: ["species-jonc"]}
    )
    play_turn(state, ["species-aigle-royal", "species-ortie", "species-jonc"])
    record = state.view(2)["last_turn"][0]
    assert record["card"] == "species-aigle-royal" and record["result"] == "discarded"
    assert record["reason"] == "species_not_open"


def test_a_card_with_a_legal_slot_cannot_be_discarded_nor_misplaced():
    state = new_state(3, plays={0: ["cond-green-1"]})
    program_all(state, ["cond-green-1", state.hands[1][0], state.hands[2][0]])
    ready_all(state)
    assert_illegal(state, 0, reveal(None), "must be: choose one of species-aubepine:2")
    assert_illegal(state, 0, reveal("species-mesange-bleue:2"), "cannot go there")
    assert_illegal(state, 0, reveal("species-ortie:1"), "cannot go there")
    assert_illegal(state, 0, reveal("species-chene:1", colour="green"), "Only a Joker")
    assert_illegal(state, 1, reveal("species-chene:1"), "not your turn")
    assert_illegal(state, 0, {"type": "program", "card": state.hands[0][0]}, "during programming")
    state.apply(0, reveal("species-chene:1"))
    assert state.web["species-chene:1"] == "cond-green-1"


def test_a_joker_always_chooses_its_colour():
    state = new_state(3, plays={0: ["joker-1"]})
    program_all(state, ["joker-1", state.hands[1][0], state.hands[2][0]])
    ready_all(state)
    opts = options(state, 0)
    assert {a["colour"] for a in opts} == {"blue", "yellow", "green", "violet"}
    # violet has one slot at the start (Chêne) and is still a choice
    assert reveal("species-chene:2", "violet") in opts
    assert_illegal(state, 0, reveal("species-chene:2"), "Choose a colour")
    assert_illegal(state, 0, reveal("species-chene:2", "green"), "cannot go there")
    state.apply(0, reveal("species-chene:2", "violet"))
    assert state.joker_colours == {"joker-1": "violet"}
    assert state.view(1)["joker_colours"] == {"joker-1": "violet"}
    assert state.view(1)["revealed_this_turn"][0]["colour"] == "violet"


def test_a_joker_given_a_colour_without_slot_is_discarded():
    state = new_state(3, plays={0: ["cond-violet-1"], 1: ["joker-1"]})
    program_all(state, ["cond-violet-1", "joker-1", state.hands[2][0]])
    ready_all(state)
    # Chêne's violet slot is taken: violet is now a discard, and a legal choice
    assert reveal(None, "violet") in options(state, 1)
    assert reveal(None, "blue") not in options(state, 1)
    state.apply(1, reveal(None, "violet"))
    record = state.revealed_this_turn[1]
    assert record["result"] == "discarded" and record["reason"] == "joker_no_slot"
    assert "joker-1" in state.discard and "joker-1" not in state.joker_colours


def test_end_of_turn_passes_the_first_player_card_and_a_new_free_symbiosis():
    state = new_state(4, plays={0: ["cond-violet-1"], 1: ["species-ortie"], 2: ["species-jonc"],
                                3: ["species-chene"]})  # fmt: skip
    state.apply(0, {"type": "show", "card": "cond-violet-1"})  # the free Symbiosis
    assert not state.view(0)["free_symbiosis_available"]
    events = play_turn(state, ["cond-violet-1", "species-ortie", "species-jonc", "species-chene"])
    assert [e["type"] for e in events][-2:] == ["turn_ended", "turn_started"]
    view = state.view(3)
    assert view["turn"] == 2 and view["first_player"] == 1 and view["phase"] == "programming"
    assert view["free_symbiosis_available"] and view["revealed_this_turn"] == []
    assert [r["card"] for r in view["last_turn"]] == [
        "cond-violet-1", "species-ortie", "species-jonc", "species-chene"
    ]  # fmt: skip
    assert view["players"][0]["symbiosis_cards"] == 1  # the free one cost no card
    assert state.programmed == [None] * 4 and state.ready == [False] * 4
    for _ in range(3):
        play_any_turn(state)
    assert state.first_player == 0 and state.turn == 5


def test_reveal_records_are_public_and_carry_reasons():
    state = new_state(3, plays={0: ["species-martre"], 1: ["cond-violet-1"], 2: ["joker-1"]})
    program_all(state, ["species-martre", "cond-violet-1", "joker-1"])
    ready_all(state)
    state.apply(2, reveal(None, "violet"))
    last = state.view(None)["last_turn"]
    assert [(r["card"], r["result"], r["slot"], r["reason"]) for r in last] == [
        ("species-martre", "discarded", None, "species_not_open"),
        ("cond-violet-1", "placed", "species-chene:2", None),
        ("joker-1", "discarded", None, "joker_no_slot"),
    ]
    assert state.view(None)["discard"] == ["species-martre", "joker-1"]


def test_rulebook_example_turn_three_with_five_players():
    """Rulebook, 'Example': the third turn of a 5-player game. Turns 1-2 install Aubépine,
    Chêne and Jonc and put a yellow Condition on the Campagnol."""
    turns = [
        [("cond-yellow-1", {"slot": "species-aubepine:1"}),
         ("cond-green-1", {"slot": "species-aubepine:2"}),
         "species-aubepine",
         ("cond-green-2", {"slot": "species-chene:1"}),
         "cond-violet-1"],
        ["species-chene",
         ("cond-blue-1", {"slot": "species-jonc:1"}),
         ("cond-green-3", {"slot": "species-jonc:2"}),
         "species-jonc",
         ("cond-yellow-2", {"slot": "species-campagnol:1"})],
        ["cond-green-4", "cond-violet-2", "species-mesange-bleue", "cond-violet-3",
         "species-campagnol"],
    ]  # fmt: skip
    state = scripted(5, [], turns, play=2)
    assert state.turn == 3 and state.first_player == 2
    for sp in ("species-aubepine", "species-chene", "species-jonc"):
        assert state.web[sp] == sp
    events = play_turn(state, turns[2])
    assert not events_of(events, "awaiting_reveal")  # every card of the example goes alone
    last = state.view(0)["last_turn"]
    assert [(r["seat"], r["card"], r["result"], r["slot"], r["reason"]) for r in last] == [
        (2, "cond-green-4", "placed", "species-mesange-bleue:2", None),  # 1. green
        (3, "cond-violet-2", "placed", "species-mesange-bleue:1", None),  # 2. violet
        (4, "species-mesange-bleue", "placed", "species-mesange-bleue", None),  # 3.
        (0, "cond-violet-3", "discarded", None, "no_slot"),  # 4. violet discarded
        (1, "species-campagnol", "discarded", None, "conditions_missing"),  # 5.
    ]
    assert state.discard == ["cond-violet-3", "species-campagnol"]
    assert state.first_player == 3 and state.turn == 4
    # "a blue Condition is needed to place the Campagnol"; it can come back by a discard swap
    assert state.web["species-campagnol:1"] == "cond-yellow-2"
    assert state.web["species-campagnol:2"] is None
    blue = next(c for c in state.hands[3] if c.startswith("cond-"))
    state.apply(3, {"type": "swap_discard", "card": blue, "take": "species-campagnol"})
    assert "species-campagnol" in state.hands[3]


def _reason_of(found):
    """What ``no_place`` reads in a card's outcomes: the reason it is discarded whatever
    is chosen for it (a Joker discarded for several reasons: ``joker_no_slot``), or
    None."""
    reason = found[0].reason
    if reason is None or not all(o.reason is not None and o.rule is None for o in found):
        return None
    return "joker_no_slot" if any(o.reason != reason for o in found) else reason


def test_the_discard_reason_is_what_the_outcomes_say():
    checked = set()
    for seed in range(12):
        rng = random.Random(seed)
        modes = rng.sample(list(MODES), rng.randint(0, len(MODES)))
        state = Game(3 + seed % 4, modes).new_initial_state(seed=seed)
        while not state.is_over:
            if state.phase == "programming":
                for seat in range(state.num_players):
                    for card in state.cards_of(seat):
                        for unsure in (False, True):
                            ctx = RevealContext(state, seat, CATALOGUE.cards[card], None, unsure)
                            reason = discard_reason(state, ctx)
                            assert reason == _reason_of(outcomes(state, ctx)), (seed, card)
                            checked.add(reason)
            state.apply(*random_step(state, rng))
    assert None in checked and "joker_no_slot" in checked and len(checked) > 3


def test_no_place_shares_a_placement_class_answer_when_no_rule_reads_the_reveal():
    """Without a rule that reads the reveal, ``no_place`` keeps one answer for the turn by
    the card's ``PLACEMENT_CLASS`` (a Condition's colour, any Joker), for every seat: each
    card's answer is still its own ``discard_reason``, and cards did share answers."""
    shared = 0
    for seed in range(8):
        rng = random.Random(seed)
        n = 3 + seed % 4
        state = Game(n).new_initial_state(seed=seed)
        known: dict = {}
        turn = None
        while not state.is_over:
            if state.phase == "programming":
                if state.turn != turn:  # (the web changes only between two programmings)
                    known, turn = {}, state.turn
                order = reveal_order(state)
                for seat in range(n):
                    for card, reason in no_place(state, seat, order, known).items():
                        unsure = order[0] != seat
                        ctx = RevealContext(state, seat, CATALOGUE.cards[card], None, unsure)
                        assert reason == discard_reason(state, ctx), (seed, seat, card)
                shared = max(shared, len(known[""]) - len(known["class"]))
            state.apply(*random_step(state, rng))
    assert shared > 3
