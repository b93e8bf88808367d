"""Refusals: ``Refused`` (a stable snake_case code and a sentence a player understands),
raised by the rooms' service layer, and the one table that maps each code onto the HTTP
status of a REST answer and the close code of a websocket.

The service layer never names a transport: it raises ``Refused(code, message)``; the
routes answer ``{"error": {"code", "message"}}`` with ``status_of(code)``, and a socket
refused at connection gets the same body as an ``error`` message, then closes with
``close_code_of(code)``. An engine refusal (``EngineError``) is mapped the same way
(``refusal``): an illegal action is a 409, a bad setup a 422.
"""

from __future__ import annotations

from typing import Any

from ..engine import EngineError, IllegalAction

#: every code the service layer and the routes raise, with its HTTP status
STATUS: dict[str, int] = {
    # the request or the token
    "invalid_request": 422,
    "unknown_level": 422,
    "invalid_turn_limit": 422,
    "invalid_subscription": 422,
    "invalid_address": 422,
    "missing_token": 401,
    "invalid_token": 401,
    "not_host": 403,
    "not_admin": 403,
    "token_in_url": 400,
    "hints_off": 403,
    # what does not exist
    "room_not_found": 404,
    "seat_not_found": 404,
    "game_not_found": 404,
    "notifications_off": 404,
    "lesson_not_found": 404,
    # what the room's state refuses now
    "game_started": 409,
    "game_not_started": 409,
    "game_not_over": 409,
    "room_full": 409,
    "wrong_player_count": 409,
    "not_enough_players": 409,
    "bot_seat": 409,
    "already_a_bot": 409,
    "not_a_bot": 409,
    "no_player": 409,
    "player_connected": 409,
    "name_taken": 409,
    "email_unavailable": 409,
    "room_unavailable": 409,
    "not_saved": 409,
    "nothing_to_do": 409,
    "no_winning_line": 409,
    # a lesson's moves (``routes/lessons.py``)
    "lesson_over": 409,
    "lesson_too_long": 422,
    "off_lesson": 422,
    # limits
    "rate_limited": 429,
    "too_many_rooms": 429,
    "too_many_bot_rooms": 429,
    "too_many_spectators": 429,
    "too_many_connections": 429,
    "too_many_connects": 429,
    # the server's own trouble
    "store_unavailable": 503,
    "hint_unavailable": 503,
}

#: the websocket close code of each HTTP status (any other: 4400)
CLOSE_CODES: dict[int, int] = {401: 4401, 403: 4403, 404: 4404, 409: 4409, 429: 4429}


class Refused(Exception):
    """A refusal the client caused (or the store's trouble): a code of ``STATUS`` and a
    sentence a player understands. ``status`` is the code's HTTP status."""

    def __init__(self, code: str, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status if status is not None else STATUS[code]

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}

    @property
    def close_code(self) -> int:
        """The websocket close code of this refusal."""
        return CLOSE_CODES.get(self.status, 4400)


#: the name the routes and the tests knew it by
ApiError = Refused


def refusal(err: EngineError) -> Refused:
    """An engine refusal: illegal actions 409, bad setups 422 (the engine's own code)."""
    return Refused(err.code, err.message, status=409 if isinstance(err, IllegalAction) else 422)


engine_error = refusal


def status_of(code: str) -> int:
    return STATUS[code]


def close_code_of(code: str) -> int:
    return CLOSE_CODES.get(STATUS.get(code, 400), 4400)
