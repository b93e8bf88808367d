"""HTML pages of the browser UI (home, room). Filled in by the UI work (issue 4)."""

from __future__ import annotations

from fastapi import APIRouter

router = APIRouter()
