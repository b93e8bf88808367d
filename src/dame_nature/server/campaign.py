"""Campaigns: a path of three stages played one game after another (pure functions).

A campaign is a plain dict ``{"path", "stage", "results", "attempt"}``, stored with its
room. Winning a stage moves to the next; a loss, or winning stage 3, starts a new attempt
at stage 1 with no results.

>>> c = new_campaign(2)
>>> c = record_result(c, "won"); next_game(c)["stage"]
2
>>> n = next_game(record_result(next_game(c), "lost"))
>>> n["stage"], n["attempt"], n["results"]
(1, 2, [])
"""

from __future__ import annotations

from typing import Any

from ..engine import modes_for_path

Campaign = dict[str, Any]


def new_campaign(path: int) -> Campaign:
    """Stage 1 of ``path``, first attempt, no result yet."""
    return {"path": path, "stage": 1, "results": [], "attempt": 1}


def campaign_public(campaign: Campaign | None) -> Campaign | None:
    """What views and the room info show of a campaign (a copy)."""
    if campaign is None:
        return None
    return {
        "path": campaign["path"],
        "stage": campaign["stage"],
        "results": list(campaign["results"]),
        "attempt": campaign.get("attempt", 1),
    }


def record_result(campaign: Campaign, outcome: str) -> Campaign:
    """The campaign once the current stage's game ended with ``outcome``."""
    return {**campaign, "results": [*campaign["results"], outcome]}


def next_game(campaign: Campaign) -> Campaign:
    """The campaign of the next game (a rematch): the next stage after a won one, else
    a new attempt from stage 1."""
    won = campaign["results"][-1] == "won" if campaign["results"] else False
    if won and campaign["stage"] < 3:
        return {**campaign, "stage": campaign["stage"] + 1}
    return {**campaign, "stage": 1, "results": [], "attempt": campaign.get("attempt", 1) + 1}


def stage_modes(campaign: Campaign) -> list[str]:
    """The advanced rules of the campaign's current stage."""
    return list(modes_for_path(campaign["path"], campaign["stage"]))
