"""Typed errors of the engine: ``ValueError`` subclasses whose message a player understands."""

from __future__ import annotations


class EngineError(ValueError):
    """Base class: ``code`` is a stable snake_case identifier, ``str(err)`` a sentence."""

    code = "invalid"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code

    @property
    def message(self) -> str:
        return str(self.args[0])


class IllegalAction(EngineError):
    """An action the rules do not allow now. The state is left unchanged."""

    code = "illegal_action"


class InvalidSetup(EngineError):
    """A game configuration or explicit deal the rules do not allow."""

    code = "invalid_setup"
