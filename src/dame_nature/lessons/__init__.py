"""Guided lessons: real games on the engine with a fixed deal and scripted partners.

Each lesson is a script (``first_turns.py``...) turned into a deal, a winning line and
the learner's steps by ``script.build``; ``play.py`` answers a learner's move.
"""

from __future__ import annotations

from . import climate_change, first_turns, jokers, symbioses
from .script import Lesson, Step, build

SCRIPTS = [first_turns.LESSON, jokers.LESSON, symbioses.LESSON, climate_change.LESSON]

#: the lessons by id, in their order
LESSONS: dict[str, Lesson] = {lesson.id: lesson for lesson in map(build, SCRIPTS)}

__all__ = ["LESSONS", "Lesson", "Step"]
