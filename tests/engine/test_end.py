"""The end of the game (RULINGS, The web of life and Turn flow): a win the moment every goal
is met, a loss when cards run out, the score, and ending an unwinnable game."""

from tests.engine.helpers import (
    assert_illegal,
    assert_legal_actions_accepted,
    new_state,
    play_any_turn,
    play_turn,
    play_turns,
)

# Every slot of the numbered web, in an order that respects the rules, with the card for it.
FULL_WEB = [
    ("cond-blue-1", "species-ortie:1"), ("cond-yellow-1", "species-ortie:2"),
    ("species-ortie", "species-ortie"),
    ("cond-yellow-2", "species-aubepine:1"), ("cond-green-1", "species-aubepine:2"),
    ("species-aubepine", "species-aubepine"),
    ("cond-green-2", "species-chene:1"), ("cond-violet-1", "species-chene:2"),
    ("species-chene", "species-chene"),
    ("cond-blue-2", "species-jonc:1"), ("cond-green-3", "species-jonc:2"),
    ("species-jonc", "species-jonc"),
    ("cond-yellow-3", "species-carabe-dore:1"), ("cond-violet-2", "species-carabe-dore:2"),
    ("species-carabe-dore", "species-carabe-dore"),
    ("cond-violet-3", "species-mesange-bleue:1"), ("cond-green-4", "species-mesange-bleue:2"),
    ("species-mesange-bleue", "species-mesange-bleue"),
    ("cond-yellow-4", "species-campagnol:1"), ("cond-blue-3", "species-campagnol:2"),
    ("species-campagnol", "species-campagnol"),
    ("cond-green-5", "species-herisson:1"), ("cond-blue-4", "species-herisson:2"),
    ("species-herisson", "species-herisson"),
    ("cond-violet-4", "species-martre:1"), ("cond-yellow-5", "species-martre:2"),
    ("species-martre", "species-martre"),
    ("cond-blue-5", "species-aigle-royal:1"), ("cond-violet-5", "species-aigle-royal:2"),
]  # fmt: skip


def chunks(entries, size):
    return [entries[i : i + size] for i in range(0, len(entries), size)]


def full_game_3p():
    """Three players: 29 cards build all but the Aigle royal, a Joker is discarded, and the
    first player of turn 11 reveals the Aigle royal; two Jokers are still in hand."""
    entries = [(card, {"slot": slot}) for card, slot in FULL_WEB]
    entries.append(("joker-1", {"slot": None, "colour": "blue"}))
    entries += ["species-aigle-royal", "joker-2", "joker-3"]
    return chunks(entries, 3)


def test_the_game_is_won_the_moment_the_aigle_royal_completes_the_web():
    turns = full_game_3p()
    state = new_state(3, [], turns)
    play_turns(state, turns[:10], strict=False)
    assert state.turn == 11 and state.first_player == 1 and not state.is_over
    assert state.discard == ["joker-1"] and state.view(0)["winnable"]
    events = play_turn(state, turns[10], strict=False)
    assert events[-1] == {"type": "game_over", "turn": 11, "outcome": "won", "discards": 1}
    view = state.view(2)
    assert view["phase"] == "over" and view["result"] == {"outcome": "won", "discards": 1}
    assert view["web"]["species-aigle-royal"] == "species-aigle-royal"
    assert all(card is not None for card in view["web"].values())
    # the two players after the Aigle royal never revealed
    assert [r["card"] for r in view["revealed_this_turn"]] == ["species-aigle-royal"]
    assert state.cards_left() == 2 and view["awaiting"] is None
    assert state.current_players() == set() and state.legal_actions(0) == []
    assert_illegal(state, 0, {"type": "end_game"}, "The game is over")
    assert_illegal(state, 2, {"type": "program", "card": "joker-2"}, "over")


def test_the_game_is_lost_when_no_player_has_a_card_left():
    state = new_state(3, plays={0: ["species-aigle-royal"]})
    while not state.is_over:
        play_any_turn(state)
    assert state.turn == 11 and state.cards_left() == 0
    result = state.view(None)["result"]
    assert result["outcome"] == "lost" and result["discards"] == len(state.discard)
    assert state.view(1)["winnable"] is False


def unwinnable_3p():
    """Three players: turn 1 and 2 discard four Species (3 discards is the most to win)."""
    species = ["species-aigle-royal", "species-martre", "species-herisson", "species-mesange-bleue"]
    return new_state(3, plays={0: species[:1] + ["cond-blue-1"], 1: species[1:2] + species[3:],
                               2: ["species-herisson", "cond-violet-1"]})  # fmt: skip


def test_end_game_is_refused_while_the_game_can_be_won():
    state = unwinnable_3p()
    play_turn(state, ["species-aigle-royal", "species-martre", "species-herisson"])
    assert len(state.discard) == 3 == state.game.max_discards
    assert state.cards_left() == 30 == state.game.topology.empty_slot_count(state.web)
    assert state.view(0)["winnable"] is True
    assert {"type": "end_game"} not in state.legal_actions(0)
    error = assert_illegal(state, 0, {"type": "end_game"}, "can still be won")
    assert error.code == "still_winnable"


def test_a_game_that_cannot_be_won_may_be_ended_by_any_player():
    state = unwinnable_3p()
    play_turn(state, ["species-aigle-royal", "species-martre", "species-herisson"])
    play_turn(
        state,
        ["species-mesange-bleue", "cond-violet-1", ("cond-blue-1", {"slot": "species-ortie:1"})],
    )
    # 27 cards left for 28 empty slots
    assert state.cards_left() == 27 and state.game.topology.empty_slot_count(state.web) == 28
    for seat in (0, 1, 2, None):
        assert state.view(seat)["winnable"] is False
    for seat in range(3):
        assert {"type": "end_game"} in state.legal_actions(seat)
    assert_legal_actions_accepted(state)
    events = state.apply(2, {"type": "end_game"})
    assert [e["type"] for e in events] == ["game_ended_by_players", "game_over"]
    assert state.view(0)["result"] == {"outcome": "lost", "discards": 4}


def test_pending_mode_cards_count_in_the_winnable_test():
    # First Predator, 3 players: 36 cards for 30 slots and 3 Cats still to play
    state = new_state(3, ["first_predator"], plays={
        0: ["species-aigle-royal", "species-jonc"], 1: ["species-martre", "species-ortie"],
        2: ["species-herisson", "species-chene"]})  # fmt: skip
    assert state.cards_left() == 36 and state.view(0)["winnable"]
    play_turn(state, ["species-aigle-royal", "species-martre", "species-herisson"])
    assert state.cards_left() == 33 and state.view(0)["winnable"]
    play_turn(state, ["species-ortie", "species-chene", "species-jonc"])
    # 30 cards would fill the 30 slots, but the 3 Cats must be played too
    assert state.cards_left() == 30 and state.view(0)["winnable"] is False
    assert {"type": "end_game"} in state.legal_actions(1)
