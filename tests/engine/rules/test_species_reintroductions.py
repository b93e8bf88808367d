"""Species Reintroductions (``engine/rules/species_reintroductions.py``): the rule's own
tests; how it plays with the other rules is in ``tests/engine/test_interactions.py``."""

from tests.engine.helpers import (
    PLANTS_3P,
    assert_illegal,
    assert_legal_actions_accepted,
    events_of,
    last_turn,
    new_state,
    play_turn,
    play_turns,
    program_all,
    ready_all,
    reveal,
)

# five players, 40 cards: the four plants are installed during turn 3
POLLUTION_5P = [
    [("cond-blue-1", {"slot": "species-ortie:1"}), ("cond-yellow-1", {"slot": "species-ortie:2"}),
     "species-ortie", "cond-yellow-2", ("cond-green-1", {"slot": "species-aubepine:2"})],
    ["species-aubepine", ("cond-green-2", {"slot": "species-chene:1"}),
     ("cond-violet-1", {"slot": "species-chene:2"}), "species-chene", "cond-blue-2"],
    [("cond-green-6", {"slot": "species-jonc:2"}), "species-jonc", "pollution-1",
     ("cond-violet-2", {"slot": "species-carabe-dore:2"}),
     ("cond-yellow-6", {"slot": "species-campagnol:1"})],
    ["pollution-2", "species-herisson", "species-martre", "species-aigle-royal",
     "species-mesange-bleue"],
]  # fmt: skip


REINTRODUCTION_GAME = [
    ("cond-blue-1", "species-ortie:1"), ("cond-yellow-1", "species-ortie:2"), "species-ortie",
    ("cond-yellow-2", "species-aubepine:1"), ("cond-green-1", "species-aubepine:2"),
    "species-aubepine",
    ("cond-green-2", "species-chene:1"), ("cond-violet-1", "species-chene:2"), "species-chene",
    ("cond-blue-2", "species-jonc:1"), ("cond-green-3", "species-jonc:2"), "species-jonc",
    "pollution-1",  # the four plants stand and every Condition is covered: played alone
    ("cond-yellow-3", "species-carabe-dore:1"), ("cond-violet-2", "species-carabe-dore:2"),
    "reintroduction-1", "species-carabe-dore",  # an animal right after: nothing lost
    ("cond-violet-3", "species-mesange-bleue:1"),
    ("cond-green-4", "species-mesange-bleue:2"), "species-mesange-bleue",
    ("cond-yellow-4", "species-campagnol:1"),
    ("cond-blue-3", "species-campagnol:2"), "species-campagnol",
    ("cond-green-5", "species-herisson:1"),
    ("cond-blue-4", "species-herisson:2"), "species-herisson",
    ("cond-violet-4", "species-martre:1"),
    ("cond-yellow-5", "species-martre:2"), "species-martre",
    ("cond-blue-5", "species-aigle-royal:1"),
    ("cond-violet-5", "species-aigle-royal:2"), "species-aigle-royal", ("joker-1", None),
    ("joker-2", None), "pollution-2", ("joker-3", None),
]  # fmt: skip


# Species Reintroductions -------------------------------------------------------------------
def test_reintroduction_leaves_the_game_and_conditions_are_discarded_until_an_animal():
    state = new_state(3, ["species_reintroductions"], plays={
        0: ["reintroduction-1", "cond-yellow-1", "cond-violet-2"],
        1: ["cond-violet-1", "cond-blue-1", "species-ortie"],
        2: ["joker-1", "species-jonc", "species-martre"]})  # fmt: skip
    play_turn(state, ["reintroduction-1", "cond-violet-1", ("joker-1", {"colour": "green"})])
    assert last_turn(state) == [
        ("reintroduction-1", "played", None, None),
        ("cond-violet-1", "discarded", None, "reintroduction"),
        ("joker-1", "discarded", None, "reintroduction"),
    ]
    assert state.location_of("reintroduction-1") == "out"
    assert "reintroduction-1" not in state.discard
    # turn 2 (seat 1 first): still discarded in later turns; a plant does not end it
    play_turn(state, ["cond-blue-1", "species-jonc", "cond-yellow-1"])
    assert [r[3] for r in last_turn(state)] == [
        "reintroduction",
        "conditions_missing",
        "reintroduction",
    ]
    # turn 3 (seat 2 first): an animal Species revealed (even discarded) ends it
    play_turn(state, ["species-martre", "cond-violet-2", "species-ortie"])
    assert last_turn(state)[:2] == [
        ("species-martre", "discarded", None, "species_not_open"),
        ("cond-violet-2", "placed", "species-chene:2", None),
    ]


def test_pollution_needs_the_four_plants_installed_at_the_start_of_the_turn():
    state = new_state(5, ["species_reintroductions"], POLLUTION_5P)
    play_turns(state, POLLUTION_5P[:3])
    assert all(state.web[p] for p in ("species-ortie", "species-aubepine", "species-chene",
                                      "species-jonc"))  # fmt: skip
    # the Jonc came in turn 3, just before the Pollution: too late
    assert last_turn(state)[2] == ("pollution-1", "discarded", None, "pollution_early")
    assert state.rule_data["species_reintroductions"]["played"] == []
    # an unplayed Pollution can come back by a discard swap (turn 4, seat 3 first)
    swapper, cond = next((s, c) for s in range(5) for c in state.hands[s]
                         if c.startswith(("cond-", "joker-")))  # fmt: skip
    offered = [a for a in state.legal_actions(swapper) if a["type"] == "swap_discard"]
    assert {"type": "swap_discard", "card": cond, "take": "pollution-1"} in offered
    state.apply(swapper, {"type": "swap_discard", "card": cond, "take": "pollution-1"})
    assert "pollution-1" in state.hands[swapper]


def test_pollution_removes_an_uncovered_condition_chosen_by_its_player():
    state = new_state(5, ["species_reintroductions"], POLLUTION_5P)
    play_turns(state, POLLUTION_5P[:3])
    # uncovered: Carabe doré's violet (turn 3) and Campagnol's yellow (turn 3, alone)
    uncovered = sorted(state.game.topology.uncovered_conditions(state.web))
    assert uncovered == ["species-campagnol:1", "species-carabe-dore:2"]
    program_all(state, POLLUTION_5P[3])
    ready_all(state)
    assert state.awaited() == (3, "reveal")
    opts = state.view(3)["awaiting"]["options"]
    assert sorted(o["target"] for o in opts) == ["cond-violet-2", "cond-yellow-6"]
    assert_legal_actions_accepted(state)
    assert_illegal(state, 3, reveal(), "cannot be placed")
    assert_illegal(state, 3, reveal(target="cond-blue-1"), "cannot be placed")
    events = state.apply(3, reveal(target="cond-violet-2"))
    assert events_of(events, "removed_from_web")[0]["reason"] == "pollution"
    assert state.web["species-carabe-dore:2"] is None
    assert state.discard[1:3] == ["pollution-2", "cond-violet-2"]
    record = state.view(0)["last_turn"][0]
    assert (record["card"], record["result"], record["target"]) == (
        "pollution-2",
        "played",
        "cond-violet-2",
    )
    assert state.rule_data["species_reintroductions"]["played"] == ["pollution-2"]
    # a played Pollution cannot be taken back from the discard pile
    for seat in range(5):
        assert not [a for a in state.legal_actions(seat)
                    if a["type"] == "swap_discard" and a["take"] == "pollution-2"]  # fmt: skip


def test_played_pollution_cannot_be_swapped_back():
    state = new_state(5, ["species_reintroductions"], POLLUTION_5P)
    play_turns(state, POLLUTION_5P[:3])
    program_all(state, POLLUTION_5P[3])
    ready_all(state)
    state.apply(3, reveal(target="cond-yellow-6"))
    assert state.phase == "programming" and state.first_player == 4
    seat, cond = next((s, c) for s in range(5) for c in state.hands[s]
                      if c.startswith(("cond-", "joker-")))  # fmt: skip
    assert_illegal(
        state,
        seat,
        {"type": "swap_discard", "card": cond, "take": "pollution-2"},
        "cannot be taken back",
    )


def test_pollution_with_no_uncovered_condition_is_played_alone():
    turns = PLANTS_3P + [["pollution-1", "species-martre", "species-herisson"]]
    state = new_state(3, ["species_reintroductions"], turns)
    play_turns(state, turns)
    assert last_turn(state)[0] == ("pollution-1", "played", None, None)
    assert state.discard[0] == "pollution-1"
    assert state.rule_data["species_reintroductions"]["played"] == ["pollution-1"]
    # two more mode cards to play: they count in the winnable test
    assert state.game.topology.empty_slot_count(state.web) + 2 <= state.cards_left()


def test_reintroductions_game_is_won_once_every_mode_card_is_played():
    entries = [
        e
        if isinstance(e, str)
        else (e[0], {"slot": None, "colour": "blue"} if e[1] is None else {"slot": e[1]})
        for e in REINTRODUCTION_GAME
    ]
    turns = [entries[i : i + 3] for i in range(0, len(entries), 3)]
    state = new_state(3, ["species_reintroductions"], turns)
    assert sorted(state.set_aside) == ["pollution-3", "reintroduction-2", "reintroduction-3"]
    play_turns(state, turns[:11], strict=False)
    assert all(state.web.values()) and not state.is_over  # a Pollution is still to play
    assert state.location_of("reintroduction-1") == "out"
    assert state.rule_data["species_reintroductions"]["played"] == [
        "pollution-1",
        "reintroduction-1",
    ]
    play_turn(state, turns[11], strict=False)
    assert state.view(0)["result"] == {"outcome": "won", "discards": 4}
    assert state.discard == ["pollution-1", "joker-1", "joker-2", "pollution-2"]
    assert state.programmed.count("joker-3") == 1  # never revealed


def test_max_discards_leaves_out_the_reintroductions_dealt():
    """Reintroductions leave the game: they can never be in the discard pile."""
    game_max = 6  # 3 players: 33 cards with the 3 drawn, 30 slots... and 3 base discards
    for dealt, expected in [
        (["reintroduction-1", "reintroduction-2", "reintroduction-3"], 3),
        (["pollution-1", "reintroduction-1", "reintroduction-2"], 4),
        (["pollution-1", "pollution-2", "pollution-3"], 6),
    ]:
        state = new_state(3, ["species_reintroductions"], plays={0: dealt})
        assert state.game.max_discards == game_max
        assert state.max_discards() == expected
        assert all(state.view(seat)["max_discards"] == expected for seat in (None, 0, 1, 2))
        assert state.clone().max_discards() == expected
