"""The games with bots each client address has in play, and their cap.

A room counts against the address that set its bots going (started its game, asked for
its rematch, played it from a replay, or handed one of its seats to a bot) while it is
in play: its game going on, a bot in a seat. One more is refused ``too_many_bot_rooms``
(429) until one of them ends; a room whose game is over counts no more, so a finished
game may always be played again once another has ended.

``BotRooms`` counts in this node's memory (the one process of a SQLite store);
``bot_rooms_shared.SharedBotRooms`` counts on the cluster's Redis, so that the cap holds
across every node behind the load balancer. ``make_bot_rooms`` chooses once, at
start-up.

The address that set a room's bots going is also the client its bots' thinking is
shared out by (``bot_pool.Turns``): a client with many rooms gets no more turns than a
client with one.

>>> from types import SimpleNamespace as NS
>>> bots = NS(status="playing", state=NS(is_over=False), players=[NS(bot="expert")])
>>> held = {"r1": NS(code="r1", **vars(bots)), "r2": NS(code="r2", **vars(bots))}
>>> rooms = BotRooms(1, held)
>>> rooms.check("r1", "1.2.3.4"); rooms.claim(held["r1"], "1.2.3.4")
>>> rooms.client_of("r1"), rooms.client_of("r2")
('1.2.3.4', 'r2')
>>> try:
...     rooms.check("r2", "1.2.3.4")
... except Refused as err:
...     print(err.code, err.status)
too_many_bot_rooms 429
>>> held["r1"].state.is_over = True
>>> rooms.check("r2", "1.2.3.4")
"""

from __future__ import annotations

import contextlib
import itertools
from collections.abc import AsyncIterator, Mapping
from typing import Any

from .errors import Refused


def in_play(room: Any) -> bool:
    """Whether ``room``'s bots have a game to play (it is going on, a bot is seated)."""
    state = room.state
    return (
        room.status == "playing"
        and state is not None
        and not state.is_over
        and any(p.bot is not None for p in room.players)
    )


class Going:
    """A change under way that may set bots going; ``room``: the room it made, when it
    makes one (its caller sets it)."""

    def __init__(self, room: Any | None) -> None:
        self.room = room


class BotRooms:
    """The rooms with bots in play, by the client address that set them going (in this
    node's memory)."""

    def __init__(self, cap: int, rooms: Mapping[str, Any]) -> None:
        self.cap = cap
        #: the rooms this node holds, by code (``Registry.rooms``)
        self.rooms = rooms
        self._client: dict[str, str] = {}  # room code -> address
        self._by_client: dict[str, set[str]] = {}  # address -> room codes
        self._pending: dict[str, set[str]] = {}  # address -> codes being set going
        self._new = itertools.count()

    def client_of(self, code: str) -> str:
        """The address that set room ``code``'s bots going (its code when unknown: a
        room loaded from the store, or of a bot handed a seat by the server)."""
        return self._client.get(code, code)

    def playing(self, address: str) -> set[str]:
        """The codes of the rooms with bots in play that ``address`` set going."""
        codes = self._by_client.get(address, set())
        for code in list(codes):
            room = self.rooms.get(code)
            if room is None or not in_play(room):
                codes.discard(code)
                self._client.pop(code, None)
        if not codes:
            self._by_client.pop(address, None)
        return codes | self._pending.get(address, set())

    async def games_in_play(self, address: str) -> int:
        """How many games with bots ``address`` has in play (``GET /api/bot_rooms``),
        those being set going counted."""
        return len(self.playing(address))

    def check(self, code: str, address: str) -> None:
        """``too_many_bot_rooms`` when ``address`` may not set the bots of room ``code``
        going (it has as many other rooms with bots in play as it may)."""
        others = self.playing(address) - {code}
        if len(others) >= self.cap:
            raise self.refused()

    def refused(self) -> Refused:
        return Refused(
            "too_many_bot_rooms",
            f"Your address has as many games with bots in play as it may ({self.cap}): "
            "finish one, or try again once one is over.",
        )

    def claim(self, room: Any, address: str) -> None:
        """``room``'s bots were set going by ``address`` (counted while in play)."""
        self.forget(room.code)
        if in_play(room):
            self._client[room.code] = address
            self._by_client.setdefault(address, set()).add(room.code)

    def forget(self, code: str) -> None:
        """Room ``code`` left this node's memory."""
        address = self._client.pop(code, None)
        if address is not None:
            codes = self._by_client.get(address, set())
            codes.discard(code)
            if not codes:
                self._by_client.pop(address, None)

    def changed(self, room: Any) -> None:
        """After every change of ``room`` (here or caught up from another node): nothing
        to do in one node's memory (``playing`` drops the rooms out of play)."""

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        pass

    @contextlib.asynccontextmanager
    async def setting_going(
        self, room: Any | None, address: str | None, *, bot: bool = False
    ) -> AsyncIterator[Going]:
        """Around a change that may set ``room``'s bots going for ``address`` (None: not
        counted): refused past the cap before it; the room counts while the change is
        under way (a burst of starts never gets past the cap) and, once done, while its
        game is in play. ``bot``: the change seats a bot; ``room`` None: the change
        makes a new room (its caller sets ``Going.room`` once made)."""
        going = Going(room)
        bots = bot or (room is not None and any(p.bot is not None for p in room.players))
        if address is None or not bots:
            yield going
            return
        code = room.code if room is not None else f"new room {next(self._new)}"
        self.check(code, address)
        pending = self._pending.setdefault(address, set())
        pending.add(code)
        try:
            yield going
        finally:
            pending.discard(code)
            if not pending:
                self._pending.pop(address, None)
        if going.room is not None:
            self.claim(going.room, address)


def make_bot_rooms(settings: Any, shared: bool, rooms: Mapping[str, Any]) -> BotRooms:
    """``SharedBotRooms`` on the cluster's Redis when nodes share the store (``shared``)
    and Redis is given, else ``BotRooms`` (each node counts alone). The nodes of one
    store count together whatever host they reach it by: by its database's name."""
    cap = settings.max_bot_rooms_per_address
    if shared and settings.redis:
        from urllib.parse import urlsplit

        from .bot_rooms_shared import SharedBotRooms

        return SharedBotRooms(
            cap,
            rooms,
            settings.redis,
            namespace=urlsplit(settings.db).path.strip("/") or settings.db,
            lease_seconds=settings.bot_room_lease_seconds,
        )
    return BotRooms(cap, rooms)
