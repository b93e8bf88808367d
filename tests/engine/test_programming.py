"""Programming: program, replace, ready, unready, and when the reveal starts
(RULINGS, Turn flow)."""

from dame_nature.engine import Game
from tests.engine.helpers import (
    assert_illegal,
    assert_legal_actions_accepted,
    deal_for,
    new_state,
    play_any_turn,
)


def state4():
    return new_state(4, plays={0: ["cond-blue-1", "cond-green-1"], 1: ["cond-yellow-1"],
                              2: ["cond-violet-1"], 3: ["species-ortie"]})  # fmt: skip


def test_program_puts_a_card_face_down_and_replacing_returns_the_old_one():
    state = state4()
    state.apply(0, {"type": "program", "card": "cond-blue-1"})
    assert state.view(0)["programmed"] == "cond-blue-1"
    assert "cond-blue-1" not in state.view(0)["hand"]
    assert state.view(1)["players"][0]["has_programmed"] is True
    assert state.view(1)["programmed"] is None
    events = state.apply(0, {"type": "program", "card": "cond-green-1"})
    assert state.view(0)["programmed"] == "cond-green-1"
    assert "cond-blue-1" in state.view(0)["hand"] and len(state.hands[0]) == 7
    assert events[0]["replaced"] is True
    # the card programmed is told to its player only
    assert all("cond-green-1" not in str(e) for e in state.view(1)["log"])
    assert any(e.get("card") == "cond-green-1" for e in state.view(0)["log"])


def test_ready_requires_a_programmed_card():
    state = state4()
    assert {"type": "ready"} not in state.legal_actions(0)
    assert_illegal(state, 0, {"type": "ready"}, "Program a card before")
    state.apply(0, {"type": "program", "card": "cond-blue-1"})
    state.apply(0, {"type": "ready"})
    assert state.view(2)["players"][0]["ready"] is True
    assert_illegal(state, 0, {"type": "ready"}, "already ready")


def test_unready_takes_back_ready():
    state = state4()
    assert_illegal(state, 0, {"type": "unready"}, "not ready")
    state.apply(0, {"type": "program", "card": "cond-blue-1"})
    state.apply(0, {"type": "ready"})
    assert {"type": "unready"} in state.legal_actions(0)
    state.apply(0, {"type": "unready"})
    assert state.ready[0] is False and state.phase == "programming"


def test_programming_again_clears_only_your_own_ready():
    state = state4()
    for seat, card in [(0, "cond-blue-1"), (1, "cond-yellow-1"), (2, "cond-violet-1")]:
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    state.apply(0, {"type": "program", "card": "cond-green-1"})
    assert state.ready == [False, True, True, False]


def test_any_symbiosis_clears_every_ready_flag():
    state = state4()
    for seat, card in [(0, "cond-blue-1"), (1, "cond-yellow-1"), (2, "cond-violet-1")]:
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    state.apply(3, {"type": "show", "card": "species-ortie"})
    assert state.ready == [False] * 4
    assert [p["ready"] for p in state.view(0)["players"]] == [False] * 4


def test_reveal_starts_only_when_every_player_has_programmed_and_is_ready():
    state = state4()
    for seat, card in [(0, "cond-blue-1"), (1, "cond-yellow-1"), (2, "cond-violet-1")]:
        state.apply(seat, {"type": "program", "card": card})
        state.apply(seat, {"type": "ready"})
    assert state.phase == "programming" and state.current_players() == {3}
    state.apply(3, {"type": "program", "card": "species-ortie"})
    assert state.phase == "programming"
    assert_legal_actions_accepted(state)
    events = state.apply(3, {"type": "ready"})
    kinds = [e["type"] for e in events]
    assert "reveal_started" in kinds
    assert events[kinds.index("reveal_started")]["order"] == [0, 1, 2, 3]
    # cond-blue-1 has two open slots (Ortie, Jonc): seat 0 is asked
    assert state.phase == "reveal" and state.awaited() == (0, "reveal")
    assert_illegal(
        state, 1, {"type": "program", "card": state.hands[1][0]}, "only during programming"
    )


def test_reveal_waits_for_a_pending_exchange():
    state = state4()
    for seat, card in [(0, "cond-blue-1"), (1, "cond-yellow-1"), (2, "cond-violet-1"),
                       (3, "species-ortie")]:  # fmt: skip
        state.apply(seat, {"type": "program", "card": card})
    state.apply(1, {"type": "give", "card": state.hands[1][0], "to": 2})
    for seat in range(4):
        state.apply(seat, {"type": "ready"})
    assert state.phase == "programming" and state.awaited() == (2, "give_back")
    assert 2 in state.current_players()
    state.apply(2, {"type": "give_back", "card": state.hands[2][0]})
    assert state.ready == [False] * 4 and state.phase == "programming"
    for seat in range(4):
        state.apply(seat, {"type": "ready"})
    assert state.phase == "reveal"


def test_players_without_cards_are_skipped():
    # Wetland, 4 players, first player 2: hands of 9, 9, 10, 10; the last turn is played by
    # seats 2 and 3 alone.
    game = Game(4, ["wetland"])
    state = game.new_initial_state(deal=deal_for(game, {}, first_player=2))
    for _ in range(9):
        play_any_turn(state)
    assert not state.is_over
    assert state.turn == 10 and state.cards_left() == 2
    assert not state.has_cards(0) and not state.has_cards(1)
    assert state.current_players() == {2, 3}
    assert state.legal_actions(0) == [] or all(
        a["type"] == "end_game" for a in state.legal_actions(0)
    )
    assert_illegal(state, 0, {"type": "program", "card": "cond-blue-1"}, "not in your hand")
    state.apply(2, {"type": "program", "card": state.hands[2][0]})
    state.apply(3, {"type": "program", "card": state.hands[3][0]})
    state.apply(2, {"type": "ready"})
    events = state.apply(3, {"type": "ready"})
    started = next(e for e in events if e["type"] == "reveal_started")
    assert state.first_player == 3 and started["order"] == [3, 2]
    while state.phase == "reveal":
        seat, _ = state.awaited()
        state.apply(seat, state.view(seat)["awaiting"]["options"][0])
    assert state.is_over and state.view(0)["result"]["outcome"] == "lost"


def test_history_records_only_the_fields_of_each_action():
    from dame_nature.engine import Game

    state = Game(3).new_initial_state(seed=4)
    card = state.hands[0][0]
    state.apply(0, {"type": "program", "card": card, "note": "ignored", "to": 2})
    assert state.history[-1] == {"seat": 0, "action": {"type": "program", "card": card}}
