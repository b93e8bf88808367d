"""The lessons' scripts on the engine: each lesson's line replays from its deal to a win,
its deal is the game's whole deck, it is short enough for ten minutes, it shows what it
teaches; a script that breaks a rule or strays from itself is refused."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from dame_nature.engine import Game, IllegalAction, State
from dame_nature.lessons import LESSONS, SCRIPTS
from dame_nature.lessons.script import build

MAX_STEPS = 30  # about twenty seconds a move, reading included, for ten minutes


def reveals(lesson):
    state = State.replay(lesson.setup, lesson.line)
    return state, [e for e in state.log if e["type"] == "revealed"]


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_line_replays_to_a_win_from_the_deal(lesson_id):
    lesson = LESSONS[lesson_id]
    state, _ = reveals(lesson)
    assert state.result["outcome"] == "won"
    game = Game(lesson.num_players, lesson.modes)
    assert Counter(c for h in lesson.setup["hands"] for c in h) == Counter(game.deck)
    # the learner's steps are the learner's actions of the line, in order
    mine = [e["action"] for e in lesson.line if e["seat"] == lesson.learner]
    assert mine == [s.action for s in lesson.steps]
    assert len(lesson.steps) <= MAX_STEPS
    for step in lesson.steps:
        assert step.text["en"] and step.text["fr"] and step.text["en"] != step.text["fr"]


def test_each_lesson_shows_what_it_teaches():
    _, first = reveals(LESSONS["first-turns"])
    assert any(r["seat"] == 0 and r["result"] == "discarded" for r in first)
    _, jokers = reveals(LESSONS["jokers-and-order"])
    assert [r["card"] for r in jokers if r["seat"] == 0 and r["card"].startswith("joker")] == [
        "joker-1",
        "joker-2",
    ]
    assert any(r["result"] == "discarded" and r["reason"] == "no_slot" for r in jokers)
    kinds = {s.action["type"] for s in LESSONS["symbioses"].steps}
    assert {"show", "give", "swap_discard"} <= kinds
    _, climate = reveals(LESSONS["climate-change"])
    assert any(r["reason"] == "climate_change" for r in climate)


def test_a_script_against_the_rules_is_refused():
    script = copy.deepcopy(SCRIPTS[0])
    # the Ortie revealed before its Conditions: discarded, not where the script says
    turns = script["turns"]
    turns[0]["reveals"][2], turns[0]["reveals"][0] = turns[0]["reveals"][0], turns[0]["reveals"][2]
    with pytest.raises((ValueError, IllegalAction)):
        build(script)
    script = copy.deepcopy(SCRIPTS[0])
    script["turns"][0]["reveals"][0] = ("cond-blue-1", "species-chene:1")  # a green place
    with pytest.raises(IllegalAction):
        build(script)
