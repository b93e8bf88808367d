"""What the store keeps about each game beside its actions: the hints each seat took,
the solver's review, and the games today's engine replays differently from when they
were played (``replay_reports``), each written once it is known and never a change of
the room's version (no seat's view changes).

>>> from dame_nature.server.store import open_store
>>> store = open_store(":memory:")
>>> store.create_room("abc", "tok", {"modes": []}, now=1.0)
>>> store.load_review("abc", 1) is None
True
>>> store.replay_reports()
[]
"""

from __future__ import annotations

import json
from typing import Any

from .sql import NO_PARAMS, Params

#: ``json.dumps(data, separators=(",", ":"))`` without building an encoder per call
_dumps = json.JSONEncoder(separators=(",", ":")).encode


class GameTables:
    """Hints, reviews and replay reports, on the store's ``_write`` and ``_query``."""

    def _write(self, statements: list[tuple[str, Params]]) -> None:
        raise NotImplementedError

    def _query(self, sql: str, params: Params = NO_PARAMS) -> list[dict[str, Any]]:
        raise NotImplementedError

    def set_hints(self, code: str, game_no: int, hints: list[int]) -> None:
        """The hints each seat of game ``game_no`` took (not a change of the room's
        version: no seat's view of the game changes)."""
        self._write(
            [
                (
                    "UPDATE games SET hints = :hints WHERE room = :code AND game_no = :game_no",
                    {"hints": json.dumps(hints), "code": code, "game_no": game_no},
                )
            ]
        )

    def set_review(self, code: str, game_no: int, review: dict[str, Any]) -> None:
        """The solver's review of game ``game_no``, once done."""
        self._write(
            [
                (
                    "UPDATE games SET review = :review WHERE room = :code AND game_no = :game_no",
                    {"review": _dumps(review), "code": code, "game_no": game_no},
                )
            ]
        )

    def load_review(self, code: str, game_no: int) -> dict[str, Any] | None:
        rows = self._query(
            "SELECT review FROM games WHERE room = :code AND game_no = :game_no",
            {"code": code, "game_no": game_no},
        )
        text = rows[0]["review"] if rows else None
        return None if text is None else json.loads(text)

    def report_replay(
        self, code: str, game_no: int, game: dict[str, Any], problem: str, now: float
    ) -> None:
        """Record that today's engine replays a stored game differently (once a problem)."""
        self._write(
            [
                (
                    "INSERT INTO replay_reports"
                    " (room, game_no, engine_version, rules_version, problem, found_at)"
                    " VALUES (:code, :game_no, :engine_version, :rules_version, :problem, :now)"
                    " ON CONFLICT DO NOTHING",
                    {
                        "code": code,
                        "game_no": game_no,
                        "engine_version": game.get("engine_version"),
                        "rules_version": game.get("rules_version"),
                        "problem": problem,
                        "now": now,
                    },
                )  # fmt: skip
            ]
        )

    def replay_reports(self) -> list[dict[str, Any]]:
        return self._query("SELECT * FROM replay_reports ORDER BY id")

    def games(self) -> list[dict[str, Any]]:
        """Every stored game's room, number and recorded versions (for ``migrate``)."""
        return self._query(
            "SELECT room, game_no, engine_version, rules_version FROM games ORDER BY room, game_no"
        )
