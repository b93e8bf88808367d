"""API errors: ``ApiError`` (an HTTP status, a snake_case code and a sentence a player
understands) and the mapping of engine refusals onto it."""

from __future__ import annotations

from typing import Any

from ..engine import EngineError, IllegalAction


class ApiError(Exception):
    """A refusal the client caused: an HTTP status (4xx), a snake_case code and a sentence."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message}}


def engine_error(err: EngineError) -> ApiError:
    """An engine refusal as an API error: illegal actions 409, bad setups 422."""
    status = 409 if isinstance(err, IllegalAction) else 422
    return ApiError(status, err.code, err.message)
