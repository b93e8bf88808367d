"""What is recorded of each finished game (the ``results`` table, see
``store/records.py``) and the public statistics read from it.

A result holds no name, token or address: the room's code and game number (to link a
replay, and so that a game is counted once), its day, player count, rules, outcome,
cards placed, discards, turns, how many seats were persons and bots, the moves bots
played for absent persons, the hints taken, and the key of a shared deal (a room
whose spec carries ``deal_key``, such as the daily deal's: its first game).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..engine import State
    from .rooms.model import Room

#: the statistics' days of games played
STATS_DAYS = 30


def game_result(room: Room, state: State, now: float, stand_in: bool = False) -> dict[str, Any]:
    """The result of ``room``'s game that ``state`` has just finished (``stand_in``: its
    last move was a bot's for an absent person, not counted in the room yet)."""
    assert state.result is not None
    # a shared deal is the room's first game (a rematch deals anew)
    key = room.spec.get("deal_key") if room.game_no == 1 else None
    return {
        "room": room.code,
        "game_no": room.game_no,
        "finished_at": now,
        "players": state.num_players,
        "rules": sorted(state.game.modes),
        "won": state.result["outcome"] == "won",
        "cards_placed": sum(1 for card in state.web.values() if card is not None),
        "discards": len(state.discard),
        "turns": state.turn,
        "people": sum(1 for p in room.players if p.human),
        "bots": sum(1 for p in room.players if not p.human),
        "stand_in_moves": len(room.stand_in_moves) + int(stand_in),
        "hints": sum(room.hints_taken()),
        "deal": key if isinstance(key, str) else None,
    }


def _rate(won: int, games: int) -> dict[str, Any]:
    return {"games": games, "won": won, "win_rate": round(won / games, 4) if games else None}


def statistics(
    summary: list[dict[str, Any]], per_day: list[dict[str, Any]], now: float | None = None
) -> dict[str, Any]:
    """The public statistics from the store's ``result_summary`` and ``games_per_day``:
    win rates by player count and by advanced rule (tables with a person apart from
    tables of bots only), and the games of each of the last ``STATS_DAYS`` days.

    >>> summary = [
    ...     {"players": 2, "rules": [], "with_people": True, "won": True, "games": 3},
    ...     {"players": 2, "rules": ["cats"], "with_people": True, "won": False, "games": 1},
    ...     {"players": 3, "rules": ["cats"], "with_people": False, "won": True, "games": 2},
    ... ]
    >>> stats = statistics(summary, [{"day": "1970-01-01", "games": 6, "won": 5}], now=0)
    >>> stats["total"]
    {'games': 6, 'won': 5, 'win_rate': 0.8333}
    >>> by_two = stats["by_players"][0]
    >>> by_two["players"], by_two["people"], by_two["bots"]["win_rate"]
    (2, {'games': 4, 'won': 3, 'win_rate': 0.75}, None)
    >>> [(r["rule"], r["people"]["games"], r["bots"]["win_rate"]) for r in stats["by_rule"]]
    [('none', 3, None), ('cats', 1, 1.0)]
    >>> stats["per_day"][-1]
    {'day': '1970-01-01', 'games': 6, 'won': 5}
    """
    now = time.time() if now is None else now
    counts: dict[tuple[str, Any, str], list[int]] = {}

    def add(kind: str, key: Any, table: str, row: dict[str, Any]) -> None:
        won_games = counts.setdefault((kind, key, table), [0, 0])
        won_games[0] += row["games"] if row["won"] else 0
        won_games[1] += row["games"]

    for row in summary:
        table = "people" if row["with_people"] else "bots"
        add("total", None, table, row)
        add("players", row["players"], table, row)
        for rule in row["rules"] or ["none"]:
            add("rule", rule, table, row)

    def both(kind: str, key: Any) -> dict[str, Any]:
        return {t: _rate(*counts.get((kind, key, t), [0, 0])) for t in ("people", "bots")}

    def keys(kind: str) -> list[Any]:
        return sorted({k for (c, k, _) in counts if c == kind}, key=lambda k: (k != "none", k))

    total = [
        sum(counts.get(("total", None, t), [0, 0])[i] for t in ("people", "bots")) for i in (0, 1)
    ]
    days = {row["day"]: row for row in per_day}
    return {
        "total": _rate(*total),
        "by_players": [{"players": n, **both("players", n)} for n in keys("players")],
        "by_rule": [{"rule": rule, **both("rule", rule)} for rule in keys("rule")],
        "per_day": [days.get(day, {"day": day, "games": 0, "won": 0}) for day in last_days(now)],
    }


def last_days(now: float, count: int = STATS_DAYS) -> list[str]:
    """The UTC days (``YYYY-MM-DD``) of the last ``count`` days, oldest first, today last."""
    return [
        time.strftime("%Y-%m-%d", time.gmtime(now - 86400 * back))
        for back in range(count - 1, -1, -1)
    ]
