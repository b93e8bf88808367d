"""``GET /api/stats``: the public statistics of the games finished on this server (win
rates by player count and by advanced rule, tables with a person apart from tables of
bots only, games per day), from the ``results`` table. Nothing personal is in them.
Read again at most every ``DAME_NATURE_STATS_CACHE_SECONDS`` per node (a minute by
default): a page many people open costs one query a minute."""

from __future__ import annotations

import time
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel

from ..deps import ManagerDep, SettingsDep
from ..results import STATS_DAYS, last_days, statistics

router = APIRouter(tags=["statistics"])


class Rate(BaseModel):
    games: int
    won: int
    win_rate: float | None


class ByPlayers(BaseModel):
    players: int
    people: Rate
    bots: Rate


class ByRule(BaseModel):
    rule: str
    people: Rate
    bots: Rate


class Day(BaseModel):
    day: str
    games: int
    won: int


class Statistics(BaseModel):
    total: Rate
    by_players: list[ByPlayers]
    by_rule: list[ByRule]
    per_day: list[Day]
    computed_at: float


async def current_statistics(
    request: Request, manager: ManagerDep, settings: SettingsDep
) -> dict[str, Any]:
    """The statistics, read again once the ones this node holds are
    ``stats_cache_seconds`` old."""
    now = time.time()
    cached: dict[str, Any] | None = getattr(request.app.state, "statistics", None)
    if cached is not None and now - cached["computed_at"] < settings.stats_cache_seconds:
        return cached
    store = manager.store
    summary = await store.call(store.result_summary)
    per_day = await store.call(store.games_per_day, last_days(now, STATS_DAYS)[0])
    stats = {**statistics(summary, per_day, now), "computed_at": now}
    request.app.state.statistics = stats
    return stats


@router.get("/api/stats", response_model=Statistics)
async def stats(request: Request, manager: ManagerDep, settings: SettingsDep) -> dict[str, Any]:
    """Win rates by player count and by advanced rule (``none``: no advanced rule), for
    tables with at least one person (``people``) and tables of bots only (``bots``);
    the games finished and won on each of the last 30 days (UTC). Refreshed at most
    once a minute (``DAME_NATURE_STATS_CACHE_SECONDS``)."""
    return await current_statistics(request, manager, settings)
