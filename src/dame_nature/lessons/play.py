"""A learner's move in a lesson, answered without any storage: the browser sends the
learner's actions so far and the new one; the lesson is rebuilt from its fixed deal and
line, the move is checked against the step it waits for, and the answer is the learner
seat's view with the next step. A move other than the awaited one is not applied: the
answer says why (the engine's sentence when the rules forbid it, else the lesson's).

>>> from dame_nature.lessons import LESSONS
>>> lesson = LESSONS["first-turns"]
>>> answer = play(lesson, [], {"type": "ready"})
>>> answer["feedback"]["accepted"], answer["done"]
(False, 0)
>>> answer = play(lesson, [], {"type": "program", "card": "cond-blue-1"})
>>> answer["feedback"]["accepted"], answer["done"], answer["step"]["action"]
(True, 1, {'type': 'ready'})
"""

from __future__ import annotations

from typing import Any

from ..engine import ACTIONS, REASONS, REASONS_FR, IllegalAction, State, french
from ..engine import reveal as reveal_rules
from ..engine.cards import CATALOGUE
from ..engine.rules.base import RevealContext
from .script import Lesson, card_name, the_fr

Action = dict[str, Any]


class LessonRefusal(ValueError):
    """A body that does not belong to the lesson (too long, off its line)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def clean(action: Action) -> Action:
    kind = action.get("type") if isinstance(action, dict) else None
    spec = ACTIONS.get(kind) if isinstance(kind, str) else None
    if spec is None:
        raise LessonRefusal("invalid_action", "An action is an object with a known 'type'.")
    return spec.clean(action)


def follow(lesson: Lesson, actions: list[Action]) -> int:
    """How many steps ``actions`` has done; refuse a list the lesson never produced."""
    if len(actions) > len(lesson.steps):
        raise LessonRefusal(
            "lesson_too_long",
            f"This lesson has {len(lesson.steps)} steps; {len(actions)} actions were sent.",
        )
    for i, action in enumerate(actions):
        if clean(action) != lesson.steps[i].action:
            raise LessonRefusal(
                "off_lesson",
                f"Action {i + 1} is not the lesson's step {i + 1}: start the lesson again.",
            )
    return len(actions)


def play(lesson: Lesson, actions: list[Action], action: Action | None) -> dict[str, Any]:
    """The answer to ``action`` after ``actions`` (``None``: the lesson as it stands)."""
    done = follow(lesson, actions)
    feedback: dict[str, Any] | None = None
    if action is not None:
        if done == len(lesson.steps):
            raise LessonRefusal("lesson_over", "This lesson is finished: start it again.")
        step = lesson.steps[done]
        wanted = clean(action)
        if wanted == step.action:
            done += 1
            feedback = {"accepted": True, "code": None, "message": "", "message_fr": ""}
        else:
            feedback = _refusal(lesson, done, wanted)
    return answer(lesson, done, feedback)


def _refusal(lesson: Lesson, done: int, wanted: Action) -> dict[str, Any]:
    step = lesson.steps[done]
    state = lesson.state_at(done)
    try:
        state.apply(lesson.learner, wanted)
    except IllegalAction as err:
        return {
            "accepted": False,
            "code": err.code,
            "message": f"{err.message} {step.plain['en']}",
            "message_fr": f"Ce coup n'est pas permis maintenant. {step.plain['fr']}",
        }
    why = step.why
    if wanted["type"] == "program":
        card = wanted["card"]
        why = no_place_now(lesson.state_at(done), lesson.learner, card) or {
            "en": f"The {card_name(card, 'en')} has a place now too, but this lesson keeps "
            "it for a later turn.",
            "fr": f"{french.capital(the_fr(card))} a aussi une place maintenant, mais "
            f"cette leçon {'le' if french.gender(card) == 'm' else 'la'} garde pour un tour "
            "suivant.",
        }
    return {
        "accepted": False,
        "code": "not_the_lesson_move",
        "message": f"Not this move. {why['en']} {step.plain['en']}",
        "message_fr": f"Pas ce coup. {why['fr']} {step.plain['fr']}",
    }


def no_place_now(state: State, seat: int, card: str) -> dict[str, str] | None:
    """Why ``card`` would be discarded if revealed now, first of the turn (``None``: it
    has a place)."""
    ctx = RevealContext(state, seat, CATALOGUE.cards[card], None)
    outcomes = reveal_rules.outcomes(state, ctx)
    if any(o.slot is not None for o in outcomes):
        return None
    reason = outcomes[0].reason if outcomes else None
    en = REASONS.get(reason or "", "it has no place")
    masculine = french.gender(card) == "m"
    fr = REASONS_FR.get(reason or "", f"{'il' if masculine else 'elle'} n'a pas de place")
    return {
        "en": f"Revealed now, the {card_name(card, 'en')} would be discarded: {en}.",
        "fr": f"{'Révélé' if masculine else 'Révélée'} maintenant, {the_fr(card)} serait "
        f"{'défaussé' if masculine else 'défaussée'} : {fr}.",
    }


def answer(lesson: Lesson, done: int, feedback: dict[str, Any] | None) -> dict[str, Any]:
    state = lesson.state_at(done)
    view: dict[str, Any] = dict(state.view(lesson.learner))
    view["players"] = [{**p, "name": lesson.names[p["seat"]]} for p in view["players"]]
    step = lesson.steps[done] if done < len(lesson.steps) else None
    return {
        "lesson": lesson.id,
        "done": done,
        "total": len(lesson.steps),
        "finished": step is None,
        "step": None
        if step is None
        else {
            "index": step.index,
            "turn": step.turn + 1,
            "action": step.action,
            "target": step.target,
            "text": step.text["en"],
            "text_fr": step.text["fr"],
        },
        "feedback": feedback,
        "view": view,
    }


def summary(lesson: Lesson) -> dict[str, Any]:
    """A lesson as the list shows it."""
    return {
        "id": lesson.id,
        "number": lesson.number,
        "title": lesson.title["en"],
        "title_fr": lesson.title["fr"],
        "summary": lesson.summary["en"],
        "summary_fr": lesson.summary["fr"],
        "intro": lesson.intro["en"],
        "intro_fr": lesson.intro["fr"],
        "outro": lesson.outro["en"],
        "outro_fr": lesson.outro["fr"],
        "players": lesson.num_players,
        "modes": list(lesson.modes),
        "steps": len(lesson.steps),
        "names": lesson.names,
    }
