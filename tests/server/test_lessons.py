"""The lessons' API on a real server: every lesson played through to its win by
following its own steps, a wrong move explained and not applied, bad bodies refused,
and nothing stored."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from benchmarks._support.live_server import ServerProcess
from dame_nature.lessons import LESSONS


@pytest.fixture(scope="module")
def http(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    folder: Path = tmp_path_factory.mktemp("lessons")
    proc = ServerProcess(folder / "rooms.sqlite3").start()
    with httpx.Client(base_url=proc.url, timeout=20) as client:
        yield client
    proc.stop()


def play(http: httpx.Client, lesson: str, actions: list[Any], action: Any = None) -> httpx.Response:
    body: dict[str, Any] = {"actions": actions}
    if action is not None:
        body["action"] = action
    return http.post(f"/api/lessons/{lesson}/play", json=body)


def test_list_in_both_languages(http):
    lessons = http.get("/api/lessons").json()["lessons"]
    assert [lesson["number"] for lesson in lessons] == [1, 2, 3, 4]
    assert [lesson["id"] for lesson in lessons] == list(LESSONS)
    for lesson in lessons:
        assert lesson["title"] and lesson["title_fr"] and lesson["title"] != lesson["title_fr"]
        assert lesson["intro_fr"] and lesson["outro_fr"]
    assert lessons[3]["modes"] == ["climate_change"]


@pytest.mark.parametrize("lesson_id", list(LESSONS))
def test_each_lesson_played_through_to_its_win(http, lesson_id):
    answer = play(http, lesson_id, []).json()
    assert answer["done"] == 0 and answer["feedback"] is None
    actions: list[dict[str, Any]] = []
    kinds = set()
    while not answer["finished"]:
        step = answer["step"]
        assert step["text"] and step["text_fr"] and step["target"]["kind"]
        # the same words with a mouse and on a touch screen: nothing says "click"
        for text in (step["text"], step["text_fr"]):
            assert "click" not in text.lower() and "cliqu" not in text.lower(), text
        kinds.add(step["action"]["type"])
        answer = play(http, lesson_id, actions, step["action"]).json()
        assert answer["feedback"]["accepted"] is True
        actions.append(step["action"])
        assert answer["done"] == len(actions)
    view = answer["view"]
    assert view["phase"] == "over" and view["result"]["outcome"] == "won"
    assert view["seat"] == 0 and [p["name"] for p in view["players"]][1:] == [
        "Ana",
        "Basile",
        "Chloé",
    ]
    # the learner's own view only: no partner's hand in it
    assert "hands" not in view
    assert {"program", "ready", "reveal"} <= kinds
    if lesson_id == "symbioses":
        assert {"show", "give", "swap_discard"} <= kinds
    # a finished lesson takes no more moves
    again = play(http, lesson_id, actions, {"type": "ready"})
    assert again.status_code == 409 and again.json()["error"]["code"] == "lesson_over"


def test_wrong_move_is_explained_and_not_applied(http):
    first = play(http, "first-turns", []).json()
    assert first["step"]["action"] == {"type": "program", "card": "cond-blue-1"}
    # legal but not the lesson's move: explained, nothing changes
    wrong = play(http, "first-turns", [], {"type": "program", "card": "cond-green-2"}).json()
    assert wrong["feedback"]["accepted"] is False
    assert wrong["feedback"]["code"] == "not_the_lesson_move"
    assert "geological Condition 2 [G] has a place now too" in wrong["feedback"]["message"]
    assert "hydrique" in wrong["feedback"]["message_fr"]
    assert wrong["done"] == 0 and wrong["view"]["programmed"] is None
    assert wrong["view"] == first["view"]
    # a card with no place now: why it would be discarded
    early = play(http, "first-turns", [], {"type": "program", "card": "species-herisson"}).json()
    assert (
        "would be discarded: the Species it depends on are not installed"
        in (early["feedback"]["message"])
    )
    assert early["view"] == first["view"]
    # against the rules: the engine's sentence
    illegal = play(http, "first-turns", [], {"type": "program", "card": "species-ortie"}).json()
    assert illegal["feedback"]["code"] == "not_your_card"
    assert "not in your hand" in illegal["feedback"]["message"]
    assert illegal["view"] == first["view"]
    # a wrong place at a reveal
    lesson = LESSONS["first-turns"]
    actions = [s.action for s in lesson.steps[:2]]
    at_reveal = play(http, "first-turns", actions).json()
    assert at_reveal["step"]["target"] == {"kind": "slot", "slot": "species-ortie:1"}
    wrong_slot = play(
        http, "first-turns", actions, {"type": "reveal", "slot": "species-jonc:1"}
    ).json()
    assert wrong_slot["feedback"]["accepted"] is False and wrong_slot["done"] == 2
    assert wrong_slot["view"]["web"]["species-jonc:1"] is None
    assert wrong_slot["view"]["web"]["species-ortie:1"] is None


def test_resume_from_actions(http):
    lesson = LESSONS["symbioses"]
    actions = [s.action for s in lesson.steps[:8]]
    answer = play(http, "symbioses", actions).json()
    assert answer["done"] == 8 and answer["step"] == {
        **answer["step"],
        "action": lesson.steps[8].action,
    }
    # the swap of step 8 brought the Campagnol back into the learner's hand
    assert "species-campagnol" in answer["view"]["hand"]


def test_bad_input(http):
    assert play(http, "no-such-lesson", []).status_code == 404
    assert play(http, "no-such-lesson", []).json()["error"]["code"] == "lesson_not_found"
    lesson = LESSONS["first-turns"]
    steps = [s.action for s in lesson.steps]
    too_long = steps + [{"type": "ready"}] * 80
    r = play(http, "first-turns", too_long)
    assert r.status_code == 422
    r = play(http, "first-turns", steps + [{"type": "ready"}])
    assert r.status_code == 422 and r.json()["error"]["code"] == "lesson_too_long"
    r = play(http, "first-turns", [{"type": "ready"}])
    assert r.status_code == 422 and r.json()["error"]["code"] == "off_lesson"
    for body in (
        {"actions": "ready"},
        {"actions": [{"type": "fly"}]},
        {"actions": [], "action": {"type": "program"}},
        {"actions": [], "action": {"type": "program", "card": "x" * 500}},
        {"actions": [], "extra": 1},
        [],
    ):
        r = http.post("/api/lessons/first-turns/play", json=body)
        assert r.status_code == 422, body
        assert r.json()["error"]["code"]
    r = http.post(
        "/api/lessons/first-turns/play",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 400  # as for every route: not JSON at all


def test_nothing_is_stored(http):
    before = http.get("/healthz").json()["rooms"]
    lesson = LESSONS["first-turns"]
    play(http, "first-turns", [], lesson.steps[0].action)
    assert http.get("/healthz").json()["rooms"] == before == 0


def test_pages(http):
    for path in ("/learn", "/glossary"):
        r = http.get(path)
        assert r.status_code == 200 and "boot-data" in r.text
    assert 'href="/glossary"' in http.get("/").text
