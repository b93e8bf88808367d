"""Hints from the expert: ``GET /api/rooms/{room}/hint``.

The expert bot's choice for a seat, computed from that seat's view only, on the room's
shard of the bots' worker pool (never on the event loop), with a smaller sampling
budget than the table's bots (``hint_worlds``). Hints are on in rooms where no other
person plays, and in rooms of people when the host switched them on (``spec["hints"]``).
Each hint a seat takes is counted once per position (a second ask before anything
changes is free), stored with the game (``games.hints``) and shown to every seat
(``hints_taken`` in the views and the replay).
"""

from __future__ import annotations

import zlib
from typing import Any

from .bot_pool import BotFailure, BotPool
from .connections import TokenBucket
from .errors import Refused
from .rooms.model import Room
from .rooms.play import SeatRef, player_seat
from .settings import Settings
from .store import BaseStore


class Hints:
    def __init__(self, settings: Settings, store: BaseStore, pool: BotPool) -> None:
        self.settings = settings
        self.store = store
        self.pool = pool
        self._buckets: dict[tuple[str, int], TokenBucket] = {}
        #: (room, seat) -> the room version of the last hint counted
        self._counted: dict[tuple[str, int], tuple[int, int]] = {}

    def forget(self, code: str) -> None:
        for key in [k for k in self._buckets if k[0] == code]:
            del self._buckets[key]
        for key in [k for k in self._counted if k[0] == code]:
            del self._counted[key]

    def _allow(self, room: Room, seat: int) -> None:
        key = (room.code, seat)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = TokenBucket(
                self.settings.hint_rate_per_second, self.settings.hint_rate_burst
            )
        if not bucket.take():
            raise Refused("rate_limited", "Too many hints asked from this seat: slow down.")

    async def hint(self, room: Room, who: SeatRef, client: str) -> dict[str, Any]:
        """``{"action", "reason", "reason_fr"}`` for the seat of ``who`` (read under the
        room's lock), asked from the address ``client``; refusals: ``hints_off`` (403),
        ``game_not_started``, ``nothing_to_do`` (409), ``hint_unavailable`` (503)."""
        async with room.lock:
            seat = player_seat(room, who)
            state = room.state
            if state is None:
                raise Refused("game_not_started", "The game has not started yet.")
            if not room.hints_allowed:
                raise Refused(
                    "hints_off",
                    "Hints are off in this room: the host can switch them on in the rules.",
                )
            legal = state.legal_actions(seat) if not state.is_over else []
            if not legal:
                raise Refused("nothing_to_do", "Your seat has nothing to do now.")
            view = room.view(seat)
            version, game = room.version, room.game_no
        self._allow(room, seat)
        # one seed a turn: the hint that named a card to program names it again once it
        # is programmed (bots.hint chooses from the seat's cards as a set)
        seed = zlib.crc32(f"{room.code}:{game}:{view['turn']}:{seat}".encode())
        try:
            answer = await self.pool.hint(
                room.code,
                seed,
                view,
                legal,
                self.settings.hint_worlds,
                self.settings.hint_seconds,
                client,
            )
        except BotFailure:
            raise Refused(
                "hint_unavailable", "The expert could not think in time: ask again."
            ) from None
        if answer is None:
            raise Refused("nothing_to_do", "Your seat has nothing to do now.")
        await self._count(room, seat, game, version)
        return answer

    async def _count(self, room: Room, seat: int, game: int, version: int) -> None:
        key = (room.code, seat)
        if self._counted.get(key) == (game, version) or room.game_no != game:
            return
        self._counted[key] = (game, version)
        taken = room.take_hint(seat)
        await self.store.call(self.store.set_hints, room.code, game, taken)
