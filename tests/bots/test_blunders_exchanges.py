"""Exchanges of the last turns, in positions of real games: where a Give decides a deal
(the base game, and under an advanced rule)."""

from __future__ import annotations

import json
from pathlib import Path

from dame_nature.bots.arena import play_game
from dame_nature.bots.expert import ExpertBot
from dame_nature.engine.state import State

GOLDEN = Path(__file__).parent / "golden"


def deal_49004() -> State:
    """Deal 49,004 of the tuning set at turn 6 (three cards a hand or fewer): seat 0 has
    programmed its blue Condition, its Symbiosis card unspent."""
    data = json.loads((GOLDEN / "deal_49004_before_a_give.json").read_text())
    return State.replay(data["setup"], data["history"])


def test_a_give_of_the_last_turns_that_keeps_the_deal_won() -> None:
    """Four experts lost this deal from here, seat 0 keeping its hand (and do in half of
    the games played on from here by experts of other seeds). On the sampled deals, a
    Give keeps the game won more often than keeping the hand: seat 0 makes one, and
    the experts win the deal from here."""
    for seed in range(4):
        state = deal_49004()
        bots = [ExpertBot(seat, seed=100 * seed + seat) for seat in range(4)]
        first = bots[0].act(state.view(0))
        assert first is not None and first["type"] == "give", first
        state.apply(0, first)
        play_game(state, bots)
        assert state.result is not None and state.result["outcome"] == "won", seed


def deal_50026() -> State:
    """Deal 50,026 of the tuning set under Incomplete Symbioses at turn 6 (three cards a
    hand or fewer): seat 1 has programmed its green Condition, its Symbiosis card unspent."""
    data = json.loads((GOLDEN / "deal_50026_incomplete_symbioses_before_a_give.json").read_text())
    return State.replay(data["setup"], data["history"])


def test_a_give_of_the_last_turns_under_an_advanced_rule() -> None:
    """Under Incomplete Symbioses, keeping its hand here, seat 1 lost the deal with
    experts of four seeds (21 web cards). Judged by the exact search, a Give keeps
    the game won on more of the sampled deals: seat 1 gives its violet Condition to seat
    2, and the experts of three seeds of four win the deal from there."""
    won = 0
    for seed in range(4):
        state = deal_50026()
        bots = [ExpertBot(seat, seed=100 * seed + seat) for seat in range(4)]
        first = bots[1].act(state.view(1))
        assert first == {"type": "give", "card": "cond-violet-3", "to": 2}, (seed, first)
        state.apply(1, first)
        play_game(state, bots)
        assert state.result is not None
        won += state.result["outcome"] == "won"
    assert won == 3
