"""The privacy core (``engine/knowledge.py``): who knows which card of whose."""

from __future__ import annotations

from pathlib import Path

from dame_nature.engine import Game
from dame_nature.engine.knowledge import (
    PUBLIC,
    forget_card,
    known_by,
    known_to,
    learn,
    learn_by_all,
    move_secretly,
    new_knowledge,
)
from tests.engine.helpers import deal_for


def test_a_player_never_knows_their_own_cards_and_learns_each_card_once():
    known = new_knowledge(3)
    learn(known, 0, 0, "cond-blue-1")
    learn(known, 1, 0, "cond-blue-1")
    learn(known, 1, 0, "cond-blue-1")
    assert known == [[], [(0, "cond-blue-1")], [], []]


def test_learn_by_all_includes_spectators():
    known = new_knowledge(3)
    learn_by_all(known, 2, "cat-1")
    assert known[PUBLIC] == [(2, "cat-1")]
    assert known_to(known, None) == [{"seat": 2, "card": "cat-1"}]
    assert known_by(known, 2, 3) == {"cat-1": [0, 1]}
    assert known_to(known, 2) == []


def test_a_card_that_leaves_its_owner_is_forgotten_by_everyone():
    known = new_knowledge(3)
    learn_by_all(known, 0, "joker-1")
    learn(known, 1, 0, "cond-blue-1")
    forget_card(known, 0, "joker-1")
    assert known == [[], [(0, "cond-blue-1")], [], []]


def test_a_secret_exchange_makes_the_others_forget_the_givers_cards():
    known = new_knowledge(4)
    learn_by_all(known, 0, "joker-1")  # everyone knows seat 0 holds joker-1
    learn(known, 3, 1, "cond-green-1")  # and seat 3 knows a card of seat 1
    move_secretly(known, 0, 1, "cond-blue-1")
    # seat 1 (the receiver) still knows joker-1 is seat 0's; seats 2, 3 and spectators
    # can no longer tell which of seat 0's cards left
    assert known[1] == [(0, "joker-1")]
    assert known[2] == [] and known[PUBLIC] == []
    assert known[3] == [(1, "cond-green-1")]
    # the giver knows what it gave
    assert known[0] == [(1, "cond-blue-1")]
    assert known_by(known, 1, 4) == {"cond-blue-1": [0], "cond-green-1": [3]}


def test_the_entries_keep_the_order_they_were_learnt():
    known = new_knowledge(3)
    for card in ("c", "a", "b"):
        learn(known, 1, 0, card)
    assert [card for _, card in known[1]] == ["c", "a", "b"]


def _show_ruling() -> str:
    text = (Path(__file__).parents[2] / "docs" / "rulings.md").read_text("utf-8")
    start = text.index("- **Show**")
    return " ".join(text[start : text.index("- **Give**", start)].split())


def test_a_card_shown_is_forgotten_once_its_player_gives_another_card_away():
    """5 players: seat 0 shows a card to everyone, then gives another card to seat 1. The
    others cannot tell which card left: they no longer know the shown one as seat 0's,
    and docs/rulings.md says so under Show (not "for as long as you hold it")."""
    game = Game(5)
    state = game.new_initial_state(deal=deal_for(game, {0: ["cond-blue-1", "cond-green-1"]}))
    state.apply(0, {"type": "show", "card": "cond-blue-1"})
    assert state.view(3)["known"] == [{"seat": 0, "card": "cond-blue-1"}]
    state.apply(0, {"type": "give", "card": "cond-green-1", "to": 1})
    assert "cond-blue-1" in state.hands[0]
    assert state.view(3)["known"] == [] and state.view(None)["known"] == []
    assert state.view(1)["known"] == [{"seat": 0, "card": "cond-blue-1"}]
    ruling = _show_ruling()
    assert "for as long as you hold it" not in ruling
    assert "give" in ruling and "forget" in ruling
