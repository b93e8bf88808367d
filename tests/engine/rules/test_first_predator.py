"""The First Predator (``engine/rules/first_predator.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    assert_legal_actions_accepted,
    events_of,
    known,
    last_turn,
    new_state,
    play_turn,
    play_turns,
)

FULL_WEB = [
    ("cond-blue-1", "species-ortie:1"), "cat-1", ("cond-yellow-1", "species-ortie:2"),
    "species-ortie", ("cond-yellow-2", "species-aubepine:1"),
    ("cond-green-1", "species-aubepine:2"),
    "species-aubepine", ("cond-green-2", "species-chene:1"), ("cond-violet-1", "species-chene:2"),
    "species-chene", ("cond-blue-2", "species-jonc:1"), ("cond-green-3", "species-jonc:2"),
    "species-jonc", ("cond-yellow-3", "species-carabe-dore:1"),
    ("cond-violet-2", "species-carabe-dore:2"),
    "species-carabe-dore", ("cond-violet-3", "species-mesange-bleue:1"),
    ("cond-green-4", "species-mesange-bleue:2"),
    "species-mesange-bleue", ("cond-yellow-4", "species-campagnol:1"),
    ("cond-blue-3", "species-campagnol:2"),
    "species-campagnol", ("cond-green-5", "species-herisson:1"),
    ("cond-blue-4", "species-herisson:2"),
    "species-herisson", ("cond-violet-4", "species-martre:1"),
    ("cond-yellow-5", "species-martre:2"),
    "species-martre", ("cond-blue-5", "species-aigle-royal:1"),
    ("cond-violet-5", "species-aigle-royal:2"),
    ("joker-1", None), "cat-2", ("joker-2", None),
    "species-aigle-royal", ("joker-3", None), "cat-3",
]  # fmt: skip


# The First Predator -------------------------------------------------------------------------
def test_a_cat_right_after_a_species_removes_it_and_a_lone_cat_is_discarded():
    state = new_state(
        4,
        ["first_predator"],
        plays={0: ["cond-blue-1"], 1: ["cond-yellow-1"], 2: ["species-ortie"], 3: ["cat-1"]},
    )
    events = play_turn(state, [("cond-blue-1", {"slot": "species-ortie:1"}),
                               ("cond-yellow-1", {"slot": "species-ortie:2"}), "species-ortie",
                               "cat-1"])  # fmt: skip
    assert events_of(events, "removed_from_web") == [{
        "type": "removed_from_web", "turn": 1, "card": "species-ortie", "slot": "species-ortie",
        "reason": "cat"}]  # fmt: skip
    assert events_of(events, "cat_discarded")[0]["card"] == "cat-1"
    assert state.web["species-ortie"] is None and state.web["species-ortie:1"] == "cond-blue-1"
    assert state.discard == ["species-ortie", "cat-1"]
    assert last_turn(state)[2:] == [
        ("species-ortie", "discarded", "species-ortie", "cat"),
        ("cat-1", "discarded", None, "cat_alone"),
    ]


def test_a_species_right_after_a_cat_is_discarded():
    state = new_state(
        3,
        ["first_predator"],
        plays={0: ["cat-1"], 1: ["species-aigle-royal"], 2: ["cond-violet-1"]},
    )
    play_turn(state, ["cat-1", "species-aigle-royal", "cond-violet-1"])
    assert last_turn(state)[:2] == [("cat-1", "discarded", None, "cat_alone"),
                               ("species-aigle-royal", "discarded", None, "cat")]  # fmt: skip
    assert state.discard == ["species-aigle-royal", "cat-1"]


def test_two_cats_in_a_turn_go_back_to_their_players_hands():
    # Cat, Species, Cat: the Species is discarded and both Cats come back
    state = new_state(
        3, ["first_predator"], plays={0: ["cat-1"], 1: ["species-jonc"], 2: ["cat-2"]}
    )
    sizes = [len(h) for h in state.hands]
    events = play_turn(state, ["cat-1", "species-jonc", "cat-2"])
    returned = events_of(events, "cats_returned")[0]["cats"]
    assert returned == [{"seat": 0, "card": "cat-1"}, {"seat": 2, "card": "cat-2"}]
    assert "cat-1" in state.hands[0] and "cat-2" in state.hands[2]
    assert [len(h) for h in state.hands] == [sizes[0], sizes[1] - 1, sizes[2]]
    assert state.discard == ["species-jonc"]
    assert last_turn(state) == [
        ("cat-1", "returned", None, None),
        ("species-jonc", "discarded", None, "cat"),
        ("cat-2", "returned", None, None),
    ]
    # everyone saw them come back
    assert (0, "cat-1") in known(state, 1) and (2, "cat-2") in known(state, 1)
    assert state.in_play == [] and state.view(1)["in_play"] == []


def test_cats_in_play_are_shown_during_the_turn():
    state = new_state(
        3, ["first_predator"], plays={0: ["cat-1"], 1: ["joker-1"], 2: ["cond-blue-1"]}
    )
    for seat, card in [(0, "cat-1"), (1, "joker-1"), (2, "cond-blue-1")]:
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    assert state.awaited() == (1, "reveal")
    assert state.view(2)["in_play"] == [{"seat": 0, "card": "cat-1"}]
    record = state.view(2)["revealed_this_turn"][0]
    assert (record["card"], record["result"], record["reason"]) == ("cat-1", "in_play", None)
    assert_legal_actions_accepted(state)


def test_first_predator_is_won_only_once_every_cat_is_discarded():
    entries = []
    for item in FULL_WEB:
        if isinstance(item, str):
            entries.append(item)
        elif item[0].startswith("joker"):
            entries.append((item[0], {"slot": None, "colour": "blue"}))
        else:
            entries.append((item[0], {"slot": item[1]}))
    turns = [entries[i : i + 3] for i in range(0, len(entries), 3)]
    state = new_state(3, ["first_predator"], turns)
    play_turns(state, turns[:-1], strict=False)
    assert state.discard == ["cat-1", "joker-1", "joker-2", "cat-2"]
    # the last turn: the Aigle royal completes the web, but a Cat is still to be played
    for seat, entry in zip([2, 0, 1], turns[-1], strict=True):
        card = entry if isinstance(entry, str) else entry[0]
        state.apply(seat, {"type": "program", "card": card})
    for seat in range(3):
        state.apply(seat, {"type": "ready"})
    assert all(state.web.values()) and not state.is_over
    assert state.awaited() == (0, "reveal")
    state.apply(0, {"type": "reveal", "slot": None, "colour": "green", "target": None})
    assert state.view(0)["result"] == {"outcome": "won", "discards": 6}
    assert sorted(c for c in state.discard if c.startswith("cat-")) == ["cat-1", "cat-2", "cat-3"]


def test_only_cats_left_in_two_hands_can_no_longer_be_won():
    """Cats held by 2+ players come back every turn: the game is lost for certain."""
    from dame_nature.engine import State

    data = new_state(3, ["first_predator"]).to_json()
    data["web"] = {slot: "filled" for slot in data["web"]}  # the web is complete
    data["discard"] = []
    data["hands"] = [["cat-1"], ["cat-2"], []]
    assert not State.from_json(data).is_winnable()
    assert {"type": "end_game"} in State.from_json(data).legal_actions(2)
    data["hands"] = [["cat-1", "cat-2"], [], []]  # one holder: one Cat discarded a turn
    assert State.from_json(data).is_winnable()
