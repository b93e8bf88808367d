"""Guided lessons: ``GET /api/lessons`` lists them, ``POST /api/lessons/{lesson}/play``
answers a learner's move. Nothing is stored: the browser keeps the lesson's id and the
learner's actions so far and sends them with each move (a lesson's length is fixed, so
the body is bounded); the server rebuilds the game from the lesson's deal. The pages
``/learn`` and ``/glossary`` are served here too."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Request
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, Field
from starlette.concurrency import run_in_threadpool

from ...lessons import LESSONS
from ...lessons.play import LessonRefusal, play, summary
from ..errors import Refused
from ..models import Action, action_to_engine
from .pages import render_page
from .rooms import ERRORS

router = APIRouter(tags=["lessons"])

#: more actions than the longest lesson has steps is refused by validation already
MAX_ACTIONS = max(len(lesson.steps) for lesson in LESSONS.values())

LessonId = Annotated[str, Path(min_length=1, max_length=64)]


class LessonPlay(BaseModel):
    """The learner's actions so far (as the lesson accepted them) and the new one
    (``null`` or left out: the lesson as it stands, to start or resume it)."""

    model_config = {"extra": "forbid"}
    actions: Annotated[list[Action], Field(max_length=MAX_ACTIONS)] = []
    action: Action | None = None


class LessonSummary(BaseModel):
    id: str
    number: int
    title: str
    title_fr: str
    summary: str
    summary_fr: str
    intro: str
    intro_fr: str
    outro: str
    outro_fr: str
    players: int
    modes: list[str]
    steps: int
    names: list[str]


class LessonList(BaseModel):
    lessons: list[LessonSummary]


class LessonStep(BaseModel):
    index: int
    turn: int
    action: dict[str, Any]
    target: dict[str, Any]
    text: str
    text_fr: str


class LessonFeedback(BaseModel):
    accepted: bool
    code: str | None
    message: str
    message_fr: str


class LessonState(BaseModel):
    lesson: str
    done: int
    total: int
    finished: bool
    step: LessonStep | None
    feedback: LessonFeedback | None
    view: dict[str, Any]


@router.get("/api/lessons", response_model=LessonList)
async def list_lessons() -> dict[str, Any]:
    """The lessons in their order, with their titles and texts in English and French."""
    return {"lessons": [summary(lesson) for lesson in LESSONS.values()]}


@router.post("/api/lessons/{lesson}/play", response_model=LessonState, responses=ERRORS)
async def play_lesson(lesson: LessonId, body: LessonPlay) -> dict[str, Any]:
    """Rebuild the lesson after `actions`, try `action`: the awaited move is applied and
    the scripted partners play on; any other is not applied and `feedback` says why.
    Answers the learner's view and the step the lesson waits for next."""
    found = LESSONS.get(lesson)
    if found is None:
        raise Refused("lesson_not_found", f"There is no lesson {lesson!r}.")
    actions = [action_to_engine(a) for a in body.actions]
    action = action_to_engine(body.action) if body.action is not None else None
    try:
        return await run_in_threadpool(play, found, actions, action)
    except LessonRefusal as err:
        raise Refused(err.code, err.message) from None


@router.get("/learn", response_class=HTMLResponse, include_in_schema=False)
def learn_page(request: Request) -> HTMLResponse:
    return render_page(request, "learn")


@router.get("/glossary", response_class=HTMLResponse, include_in_schema=False)
def glossary_page(request: Request) -> HTMLResponse:
    return render_page(request, "glossary")
