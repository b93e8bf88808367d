"""The Wetland (``engine/rules/wetland.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    assert_legal_actions_accepted,
    last_turn_reasons,
    new_state,
    play_turn,
    play_turns,
    program_all,
    ready_all,
    reveal,
    reveals,
)

# a full 3-player wetland game: 39 cards, 36 slots in the two webs
WETLAND_GAME = [
    ("cond-blue-1", "species-ortie:1"), ("wet-blue-1", "species-charagne:1"),
    ("wet-green-1", "species-charagne:2"),
    ("cond-blue-2", "species-jonc:1"), ("species-charagne", "species-charagne"),
    ("cond-yellow-1", "species-ortie:2"),
    ("species-ortie", "species-ortie"), ("cond-yellow-2", "species-aubepine:1"),
    ("cond-green-1", "species-aubepine:2"),
    ("species-aubepine", "species-aubepine"), ("cond-green-2", "species-chene:1"),
    ("cond-violet-1", "species-chene:2"),
    ("species-chene", "species-chene"), ("cond-green-3", "species-jonc:2"),
    ("species-jonc", "species-jonc"),
    ("cond-yellow-3", "species-carabe-dore:1"), ("cond-violet-2", "species-carabe-dore:2"),
    ("species-carabe-dore", "species-carabe-dore"),
    ("cond-yellow-4", "species-campagnol:1"), ("cond-blue-3", "species-campagnol:2"),
    ("species-campagnol", "species-campagnol"),
    ("joker-1", None),  # given blue, with no blue slot: discarded, still a blue reveal
    ("wet-blue-2", "species-gardon:1"), ("wet-violet-1", "species-gardon:2"),
    ("joker-2", None), ("species-gardon", "species-gardon"),  # right after a blue Joker
    ("cond-violet-3", "species-mesange-bleue:1"),
    ("cond-green-4", "species-mesange-bleue:2"),
    ("species-mesange-bleue", "species-mesange-bleue"), ("cond-green-5", "species-herisson:1"),
    ("cond-blue-4", "species-herisson:2"),
    ("species-herisson", "species-herisson"), ("cond-violet-4", "species-martre:1"),
    ("cond-yellow-5", "species-martre:2"),
    ("species-martre", "species-martre"), ("cond-blue-5", "species-aigle-royal:1"),
    ("cond-violet-5", "species-aigle-royal:2"),
    ("species-aigle-royal", "species-aigle-royal"), ("joker-3", None),
]  # fmt: skip


def wetland_turns(order):
    entries = [
        (card, {"slot": slot, "colour": "blue"} if card.startswith("joker") else {"slot": slot})
        for card, slot in order
    ]
    return [entries[i : i + 3] for i in range(0, len(entries), 3)]


# The Wetland -----------------------------------------------------------------------------
def test_wetland_adds_the_aquatic_web():
    state = new_state(4, ["wetland"])
    web = state.view(0)["web"]
    for slot in ("species-charagne:1", "species-charagne:2", "species-charagne",
                 "species-gardon:1", "species-gardon:2", "species-gardon"):  # fmt: skip
        assert slot in web and web[slot] is None
    assert state.view(0)["webs"] == ["main", "aquatic"]


def test_aquatic_web_needs_a_blue_condition_revealed_just_before():
    state = new_state(3, ["wetland"], plays={0: ["cond-blue-1"], 1: ["wet-blue-1"],
                                             2: ["wet-green-1"]})  # fmt: skip
    program_all(state, ["cond-blue-1", "wet-blue-1", "wet-green-1"])
    ready_all(state)
    # the first reveal of a turn cannot go into the aquatic web
    assert sorted(a["slot"] for a in state.view(0)["awaiting"]["options"]) == [
        "species-jonc:1", "species-ortie:1"
    ]  # fmt: skip
    state.apply(0, reveal("species-ortie:1"))
    # right after a blue Condition: the aquatic web too (a wetland Condition, either web)
    assert sorted(a["slot"] for a in state.view(1)["awaiting"]["options"]) == [
        "species-charagne:1", "species-jonc:1"
    ]  # fmt: skip
    assert_legal_actions_accepted(state)
    state.apply(1, reveal("species-charagne:1"))
    # a wetland green after a blue: the main web's green slots or Charagne's
    assert "species-charagne:2" in [a["slot"] for a in state.view(2)["awaiting"]["options"]]
    state.apply(2, reveal("species-aubepine:2"))  # wetland Conditions may go to the main web
    assert state.web["species-aubepine:2"] == "wet-green-1"


def test_aquatic_web_after_a_joker_given_blue_not_after_another_colour():
    state = new_state(3, ["wetland"],
                      plays={0: ["joker-1", "cond-yellow-2"], 1: ["wet-green-1", "cond-yellow-1"],
                             2: ["species-ortie", "wet-blue-1"]})  # fmt: skip
    play_turn(state, [("joker-1", {"slot": "species-jonc:1", "colour": "blue"}),
                      ("wet-green-1", {"slot": "species-charagne:2"}),
                      "species-ortie"])  # fmt: skip
    assert state.web["species-charagne:2"] == "wet-green-1"
    # turn 2: a blue after a yellow goes to the main web only (no choice left)
    play_turn(state, [("cond-yellow-1", {"slot": "species-ortie:2"}), "wet-blue-1",
                      "cond-yellow-2"])  # fmt: skip
    assert reveals(state, "last")[1] == (2, "wet-blue-1", "placed", "species-ortie:1")
    assert state.web["species-charagne:1"] is None


def test_aquatic_species_not_after_blue_is_discarded():
    state = new_state(
        3,
        ["wetland"],
        plays={
            0: ["cond-blue-1", "species-charagne"],
            1: ["wet-blue-1", "cond-blue-2"],
            2: ["wet-green-1", "species-jonc"],
        },
    )
    play_turn(state, [("cond-blue-1", {"slot": "species-ortie:1"}),
                      ("wet-blue-1", {"slot": "species-charagne:1"}),
                      ("wet-green-1", {"slot": "species-charagne:2"})])  # fmt: skip
    play_turn(state, ["cond-blue-2", "species-jonc", "species-charagne"])
    last = state.view(0)["last_turn"]
    assert (last[2]["card"], last[2]["result"]) == ("species-charagne", "discarded")
    assert last[2]["reason"] == "aquatic"
    assert state.web["species-charagne"] is None


def test_wetland_game_is_won_with_both_webs_complete():
    turns = wetland_turns(WETLAND_GAME)
    state = new_state(3, ["wetland"], turns)
    play_turns(state, turns, strict=False)
    assert state.view(0)["result"] == {"outcome": "won", "discards": 2}
    assert all(state.web.values())
    assert state.view(0)["revealed_this_turn"][-1]["card"] == "species-aigle-royal"
    assert state.cards_left() == 1 and "joker-3" in state.programmed  # never revealed


def test_wetland_main_web_alone_does_not_win():
    order = list(WETLAND_GAME)
    i = order.index(("joker-2", None))
    order[i : i + 2] = [("species-gardon", None), ("joker-2", None)]  # Gardon first in a turn
    turns = wetland_turns(order)
    state = new_state(3, ["wetland"], turns)
    play_turns(state, turns, strict=False)
    assert state.web["species-aigle-royal"] == "species-aigle-royal"
    assert state.web["species-gardon"] is None and "species-gardon" in state.discard
    assert state.view(0)["result"] == {"outcome": "lost", "discards": 4}


def test_wetland_discards_give_their_true_reason():
    """A green Condition whose only open green slot is Charagne's, revealed first, is
    discarded because nothing blue came before it (not for want of a slot); a Gardon
    while Charagne is not installed is discarded because the Species it depends on is
    not, whatever came before it."""
    state = new_state(
        3,
        ["wetland"],
        plays={
            0: ["cond-green-1", "cond-yellow-1"],
            1: ["cond-green-2", "cond-green-4"],
            2: ["cond-green-3", "species-gardon"],
        },
    )
    play_turn(state, [("cond-green-1", {"slot": "species-aubepine:2"}),
                      ("cond-green-2", {"slot": "species-chene:1"}),
                      "cond-green-3"])  # fmt: skip
    assert state.web["species-jonc:2"] == "cond-green-3"
    assert state.web["species-charagne:2"] is None
    # turn 2, from seat 1: the green Condition first, then the Gardon after a green one
    play_turn(state, ["cond-green-4", "species-gardon",
                      ("cond-yellow-1", {"slot": "species-ortie:2"})])  # fmt: skip
    assert last_turn_reasons(state)[:2] == [
        ("cond-green-4", "discarded", "aquatic"),
        ("species-gardon", "discarded", "species_not_open"),
    ]
