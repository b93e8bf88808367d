"""The ``state`` messages of one change of a room, encoded once for all its seats.

After every change each socket gets ``{"type": "state", "view": ..}`` with its seat's
view. Most of a view is the same for every seat (``engine.view.PublicPart``: the
players, the web, the discard pile, the public log ...), so ``StateMessages`` encodes
that part once and, per seat, only what is the seat's own (``engine.view.SeatPart``:
its hand and programmed card, what it knows, what the game awaits from it, its action
types, and the log when it sees private details in it), then joins the pieces. The
text is byte for byte ``dumps({"type": "state", "view": room.view(seat)})``
(``tests/server/test_state_messages.py``): JSON objects keep their keys' order, and
``orjson`` writes an object as its members joined by commas, so the members of one
object may be encoded in several pieces.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import orjson

from ..engine.view import public_part, seat_part

if TYPE_CHECKING:
    from .rooms.model import Room


def _members(data: dict[str, Any]) -> str:
    """The members of a non-empty JSON object, without its braces."""
    return orjson.dumps(data).decode()[1:-1]


class StateMessages:
    """The ``state`` message of each seat of ``room`` at its current version (build it
    after the change, use it before the next one)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._lobby = room.state is None
        if self._lobby:
            return
        state = room.state
        assert state is not None
        self.part = part = public_part(state)
        head = dict(part.head)
        head["players"] = [{**p, **room.seat_public(p["seat"])} for p in part.head["players"]]
        self._head = "," + _members(head) + ","
        self._tail = "," + _members(part.tail) + ","
        self._rest = "," + _members(part.rest) + ',"log":'
        self._log = orjson.dumps(part.log_public).decode()
        self._end = "," + _members(room.server_fields()) + "}}"

    def text(self, seat: int | None) -> str:
        """The message of ``seat`` (``None``: a spectator)."""
        room = self.room
        if self._lobby:
            return orjson.dumps({"type": "state", "view": room.view(seat)}).decode()
        state = room.state
        assert state is not None
        part = self.part
        mine = seat_part(state, seat, part)
        middle = {
            "awaiting": mine.awaiting,
            "to_act": part.to_act,
            "legal_types": mine.legal_types,
            "legal_actions": mine.legal_actions,
            "no_place": mine.no_place,
        }
        log = self._log if mine.log is None else orjson.dumps(mine.log).decode()
        return "".join(
            (
                '{"type":"state","view":{"seat":',
                "null" if seat is None else str(seat),
                self._head,
                _members(mine.own),
                self._tail,
                _members(middle),
                self._rest,
                log,
                self._end,
            )
        )
