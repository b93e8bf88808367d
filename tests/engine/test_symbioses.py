"""Symbioses (RULINGS, Symbioses): show, give and give back, discard swap, who pays, and
which players learn which cards."""

import pytest

from dame_nature.engine import Game
from tests.engine.helpers import (
    assert_illegal,
    assert_legal_actions_accepted,
    known,
    new_state,
    play_turn,
    state4,
    visible_cards,
)


# show ----------------------------------------------------------------------------------
def test_show_makes_a_card_known_to_every_other_player_while_it_stays():
    state = state4()
    events = state.apply(1, {"type": "show", "card": "species-ortie"})
    assert events[0]["type"] == "show" and events[0]["card"] == "species-ortie"
    for seat in (0, 2, 3):
        assert known(state, seat) == [(1, "species-ortie")]
    assert known(state, 1) == []
    assert state.view(0)["players"][1]["symbiosis_cards"] == 0
    # it leaves its owner when revealed: no one lists it any more
    play_turn(
        state,
        [
            ("cond-blue-1", {"slot": "species-jonc:1"}),
            "species-ortie",
            "cond-violet-1",
            "cond-blue-2",
        ],
    )
    assert all(known(state, seat) == [] for seat in range(4))


def test_show_of_the_programmed_card():
    state = state4()
    state.apply(1, {"type": "program", "card": "joker-1"})
    state.apply(1, {"type": "show", "card": "joker-1"})
    assert known(state, 3) == [(1, "joker-1")]
    assert state.programmed[1] == "joker-1"


def test_show_takes_no_recipient_without_privileged_symbioses():
    state = state4()
    assert_illegal(state, 1, {"type": "show", "card": "joker-1", "to": 2}, "every other player")


# give ----------------------------------------------------------------------------------
def test_give_then_give_back_keeps_hand_sizes_and_tells_the_receiver_alone():
    state = state4()
    sizes = [len(h) for h in state.hands]
    events = state.apply(1, {"type": "give", "card": "species-ortie", "to": 2})
    assert "card" not in events[0]
    assert "species-ortie" in state.view(2)["hand"]
    assert "species-ortie" in visible_cards(state, 2)
    for seat in (0, 3, None):
        assert "species-ortie" not in visible_cards(state, seat)
    # the giver knows where the card went
    assert known(state, 1) == [(2, "species-ortie")]
    view2 = state.view(2)
    assert view2["awaiting"]["kind"] == "give_back" and view2["awaiting"]["seat"] == 2
    assert {"type": "give_back", "card": "species-ortie"} in view2["awaiting"]["options"]
    assert state.view(0)["awaiting"]["options"] == []
    assert state.view(0)["pending_give"] == {"from": 1, "to": 2}
    assert_legal_actions_accepted(state)
    state.apply(2, {"type": "give_back", "card": "species-jonc"})
    assert [len(h) for h in state.hands] == sizes
    assert known(state, 2) == [(1, "species-jonc")]
    assert known(state, 1) == [(2, "species-ortie")]
    for seat in (0, 3, None):
        assert known(state, seat) == []
        assert "species-jonc" not in visible_cards(state, seat)
    assert state.pending_give is None and state.view(2)["awaiting"] is None


def test_give_back_the_card_just_received():
    state = state4()
    state.apply(1, {"type": "give", "card": "joker-1", "to": 3})
    state.apply(3, {"type": "give_back", "card": "joker-1"})
    assert "joker-1" in state.hands[1]
    assert known(state, 3) == [(1, "joker-1")]  # seat 3 knows where it went back
    assert known(state, 1) == known(state, 0) == known(state, 2) == []


def test_giving_the_programmed_card_empties_the_programmed_spot():
    state = state4()
    state.apply(1, {"type": "program", "card": "joker-1"})
    state.apply(1, {"type": "give", "card": "joker-1", "to": 0})
    assert state.programmed[1] is None
    assert state.view(2)["players"][1]["has_programmed"] is False
    state.apply(0, {"type": "give_back", "card": "cond-green-1"})
    assert_illegal(state, 1, {"type": "ready"}, "Program a card")
    assert "cond-green-1" in state.hands[1]


def test_give_back_of_a_programmed_card_empties_that_spot():
    state = state4()
    state.apply(0, {"type": "program", "card": "cond-blue-1"})
    state.apply(1, {"type": "give", "card": "joker-1", "to": 0})
    state.apply(0, {"type": "give_back", "card": "cond-blue-1"})
    assert state.programmed[0] is None and "cond-blue-1" in state.hands[1]


def test_a_pending_exchange_blocks_other_symbioses():
    state = state4()
    state.apply(1, {"type": "give", "card": "joker-1", "to": 3})
    assert_illegal(state, 0, {"type": "show", "card": "cond-blue-1"}, "answered")
    assert_illegal(state, 0, {"type": "give", "card": "cond-blue-1", "to": 2}, "answered")
    assert_illegal(state, 2, {"type": "give_back", "card": "species-jonc"}, "No one is waiting")
    assert_illegal(state, 3, {"type": "give_back", "card": "species-jonc"}, "not in your hand")
    # programming is still allowed meanwhile
    state.apply(0, {"type": "program", "card": "cond-blue-1"})


def test_give_needs_another_player():
    state = state4()
    assert_illegal(state, 1, {"type": "give", "card": "joker-1", "to": 1}, "than yourself")
    assert_illegal(state, 1, {"type": "give", "card": "joker-1"}, "another player")
    assert_illegal(state, 1, {"type": "give", "card": "cond-blue-1", "to": 0}, "not in your hand")


def test_knowledge_of_a_given_card_is_lost_by_the_others_when_it_moves():
    # seat 1 shows its Joker to all, then gives it to seat 2: the others no longer know
    # where it is; seat 2 now holds it and seat 1 knows that.
    state = new_state(5, plays={1: ["joker-1"]})
    state.apply(1, {"type": "show", "card": "joker-1"})
    assert known(state, 3) == [(1, "joker-1")]
    state.apply(1, {"type": "give", "card": "joker-1", "to": 2})
    assert known(state, 3) == known(state, 0) == known(state, None) == []
    assert known(state, 1) == [(2, "joker-1")]
    assert known(state, 2) == []


# discard swap --------------------------------------------------------------------------
def swap_state():
    """Four players, seat 1 first; turn 1 discards the Aigle royal and Chêne."""
    state = new_state(
        4,
        plays={
            0: ["species-aigle-royal", "cond-blue-1", "species-herisson"],
            1: ["cond-yellow-1", "joker-1"],
            2: ["cond-violet-1", "cond-green-1"],
            3: ["species-chene", "cond-blue-2"],
        },  # fmt: skip
        first_player=1,
    )
    play_turn(state, [("cond-yellow-1", {"slot": "species-aubepine:1"}),
                      "cond-violet-1",
                      "species-chene", "species-aigle-royal"])  # fmt: skip
    assert state.discard == ["species-chene", "species-aigle-royal"]
    return state


def test_swap_a_condition_for_any_discard_card():
    state = swap_state()
    assert state.first_player == 2
    events = state.apply(
        3, {"type": "swap_discard", "card": "cond-blue-2", "take": "species-chene"}
    )
    assert events[0]["card"] == "cond-blue-2" and events[0]["take"] == "species-chene"
    assert state.discard == ["species-aigle-royal", "cond-blue-2"]
    assert "species-chene" in state.hands[3] and "cond-blue-2" not in state.hands[3]
    assert state.symbiosis_cards[3] == 0
    # everyone saw the card taken: it is known to be seat 3's
    assert (3, "species-chene") in known(state, 0)


def test_swap_with_a_joker_or_the_programmed_card():
    state = swap_state()
    state.apply(1, {"type": "program", "card": "joker-1"})
    state.apply(1, {"type": "swap_discard", "card": "joker-1", "take": "species-aigle-royal"})
    assert state.programmed[1] is None and "joker-1" in state.discard


def test_swap_needs_a_condition_and_a_discarded_card():
    state = swap_state()
    assert_illegal(state, 0, {"type": "swap_discard", "card": "species-herisson",
                              "take": "species-chene"}, "Only a Condition card")  # fmt: skip
    assert_illegal(state, 0, {"type": "swap_discard", "card": "cond-blue-1",
                              "take": "species-ortie"}, "not in the discard pile")  # fmt: skip
    offered = [a for a in state.legal_actions(0) if a["type"] == "swap_discard"]
    assert {a["card"] for a in offered} <= {
        c for c in state.hands[0] if c.startswith(("cond", "joker"))
    }
    assert {a["take"] for a in offered} == {"species-chene", "species-aigle-royal"}
    assert_legal_actions_accepted(state)


def test_swap_with_an_empty_discard_pile_is_refused():
    state = state4()
    assert not [a for a in state.legal_actions(0) if a["type"] == "swap_discard"]
    assert_illegal(state, 0, {"type": "swap_discard", "card": "cond-blue-1",
                              "take": "species-ortie"}, "discard pile")  # fmt: skip


# who pays ------------------------------------------------------------------------------
def test_first_players_free_symbiosis_is_used_first_then_cards_then_none():
    state = state4()
    assert state.view(1)["free_symbiosis_available"] is True
    events = state.apply(0, {"type": "show", "card": "cond-blue-1"})
    assert events[0]["paid_with"] == "free" and state.symbiosis_cards[0] == 1
    assert state.view(1)["free_symbiosis_available"] is False
    events = state.apply(0, {"type": "show", "card": "cond-green-1"})
    assert events[0]["paid_with"] == "card" and state.symbiosis_cards[0] == 0
    assert_illegal(state, 0, {"type": "show", "card": "species-aigle-royal"}, "no Symbiosis left")
    # Symbiosis cards are used up for the game; the free one comes back with each turn
    play_turn(state, _any_four(state))
    assert state.first_player == 1 and state.symbiosis_cards[0] == 0
    assert_illegal(state, 0, {"type": "show", "card": state.hands[0][0]}, "no Symbiosis left")
    state.apply(1, {"type": "show", "card": state.hands[1][0]})
    state.apply(1, {"type": "show", "card": state.hands[1][0]})
    assert state.symbiosis_cards[1] == 0


def _any_four(state):
    order = [(state.first_player + i) % 4 for i in range(4)]
    picks = {0: "species-aigle-royal", 1: "species-ortie", 2: "species-jonc", 3: "species-chene"}
    return [picks[s] for s in order]


@pytest.mark.parametrize("kind", ["show", "give", "swap_discard"])
def test_three_players_have_only_the_first_players_free_symbiosis(kind):
    game = Game(3)
    state = game.new_initial_state(seed=2)
    first = state.first_player
    other = (first + 1) % 3
    assert state.symbiosis_cards == [0, 0, 0]
    assert not [a for a in state.legal_actions(other) if a["type"] in ("show", "give")]
    assert_illegal(state, other, {"type": "show", "card": state.hands[other][0]}, "no Symbiosis")
    state.apply(first, {"type": "give", "card": state.hands[first][0], "to": other})
    state.apply(other, {"type": "give_back", "card": state.hands[other][0]})
    assert_illegal(state, first, {"type": "show", "card": state.hands[first][0]}, "no Symbiosis")
    for seat in range(3):
        state.apply(seat, {"type": "program", "card": state.hands[seat][0]})
        state.apply(seat, {"type": "ready"})
    while state.phase == "reveal":
        seat, _ = state.awaited()
        state.apply(seat, state.view(seat)["awaiting"]["options"][0])
    # the next turn: a new first player with a free Symbiosis
    assert state.first_player == other and state.view(0)["free_symbiosis_available"]
    actions = [a for a in state.legal_actions(other) if a["type"] == kind]
    assert state.discard  # this seed's first turn discards a card: a swap is possible
    assert actions and state.is_legal(other, actions[0])
    assert not [a for a in state.legal_actions(first) if a["type"] == kind]


def test_symbioses_only_during_programming():
    state = state4()
    for seat, card in [(0, "cond-blue-1"), (1, "cond-yellow-1"), (2, "cond-violet-1"),
                       (3, "cond-blue-2")]:  # fmt: skip
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    assert state.phase == "reveal"  # seat 0 chooses between Ortie and Jonc
    assert_illegal(state, 1, {"type": "show", "card": "joker-1"}, "only during programming")
    assert_illegal(
        state, 1, {"type": "give", "card": "joker-1", "to": 2}, "only during programming"
    )


def test_a_shown_card_swapped_to_the_discard_pile_is_no_longer_known():
    state = swap_state()
    state.apply(2, {"type": "show", "card": "cond-green-1"})  # seat 2 is first: free
    assert known(state, 0) == [(2, "cond-green-1")]
    state.apply(2, {"type": "swap_discard", "card": "cond-green-1", "take": "species-chene"})
    for seat in (0, 1, 3, None):
        assert known(state, seat) == [(2, "species-chene")]
    assert known(state, 2) == []


def test_giving_another_card_hides_what_the_giver_still_holds():
    """Engine's reading of RULINGS: a card given face down could be any of the giver's, so
    the other players stop listing the giver's shown cards (listing them would tell them
    which card left)."""
    state = state4()
    state.apply(0, {"type": "show", "card": "cond-blue-1"})  # free
    state.apply(0, {"type": "give", "card": "species-aigle-royal", "to": 2})  # a card
    assert known(state, 1) == known(state, 3) == known(state, None) == []
    assert known(state, 2) == [(0, "cond-blue-1")]


def test_turns_total_does_not_count_a_card_given_twice():
    from dame_nature.engine import Game

    state = Game(3).new_initial_state(seed=1)
    giver = state.first_player
    before = state.view(0)["turns_total"]
    state.apply(giver, {"type": "give", "card": state.hands[giver][0], "to": (giver + 1) % 3})
    assert state.view(0)["turns_total"] == before == 11


def test_known_by_lists_who_knows_each_of_my_cards():
    from dame_nature.engine import Game

    state = Game(4, ["privileged_symbioses"]).new_initial_state(seed=2)
    first = state.first_player
    card = state.hands[first][0]
    to = (first + 2) % 4
    state.apply(first, {"type": "show", "card": card, "to": to})
    assert state.view(first)["known_by"] == {card: [to]}
    assert state.view(to)["known_by"] == {}
    assert state.view(None)["known_by"] == {}
