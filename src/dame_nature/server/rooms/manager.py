"""``RoomManager``: the rooms of this node behind one object the routes call.

It wires the parts and forwards each call to the module that does it:

- ``model.py``: ``Room`` and ``Player``, data and views;
- ``registry.py``: rooms in memory, loading, expiry;
- ``lobby.py`` and ``play.py``: the commands, each a check and a change;
- ``commit.py``: the one path of every change (lock, compare-and-set, push, publish);
- ``catchup.py``: a room catching up with the store;
- ``coordination.py``: one node on SQLite, or nodes sharing PostgreSQL (chosen once);
- ``hub.py``: this node's sockets and the broadcast;
- ``connect.py``: sockets joining and leaving, presence;
- ``absence.py``: seats that count as absent, the host role passing on;
- ``pace.py``: paced rooms' turn clocks, and the stand-ins past them.
"""

from __future__ import annotations

import time
from typing import Any

from ..bot_driver import BotDrivers
from ..bot_pool import BotPool
from ..bot_rooms import make_bot_rooms
from ..connections import Connection
from ..daily import Daily
from ..hints import Hints
from ..metrics import Metrics
from ..reviews import Reviews
from ..settings import Settings
from ..store import BaseStore
from . import admin, branch, lobby, play
from . import connect as sockets
from .absence import Absence
from .catchup import CatchUp
from .commit import Commit
from .coordination import Coordination, Local
from .hub import Hub
from .lobby import RulesChoice
from .model import Player, Room
from .pace import TurnClocks
from .play import SeatRef
from .registry import Registry


class RoomManager:
    """Every room this node serves: creation, lookup (memory, else the store), changes,
    expiry; with a shared store, catching up with the other nodes' changes."""

    def __init__(
        self, settings: Settings, store: BaseStore, coordination: Coordination | None = None
    ) -> None:
        self.settings = settings
        self.store = store
        self.coordination = coordination = coordination or Local(store)
        self.hub = hub = Hub(settings)
        self.rates = play.SeatRates(settings)
        self.metrics = metrics = Metrics()
        pool = BotPool(
            settings.bot_processes,
            settings.bot_think_seconds,
            metrics.bot_decided,
            metrics.bot_queued,
        )
        self.bots = BotDrivers(
            self.act_as_bot,
            self.holds,
            pool,
            settings.bot_delay_seconds,
            end_grace_seconds=settings.bot_end_grace_seconds,
        )
        #: turn notices (``notify.notifier.Notifier``; ``app.py`` sets it)
        self.notifier: Any = None
        self.hints = Hints(settings, store, pool)
        self.reviews = Reviews(settings, store)
        self.daily = Daily(self)
        self.registry = Registry(settings, store, coordination, hub, self._changed, self._forgotten)
        self.rooms = self.registry.rooms
        #: the games with bots each client address has in play (capped per address)
        self.bot_rooms = make_bot_rooms(settings, coordination.shared, self.rooms)
        self.bots.client_of = self.bot_rooms.client_of
        self.catch_up = CatchUp(store, self.registry, hub, self._changed)
        self.commit = Commit(store, coordination, hub, self.catch_up, self._changed, metrics)
        metrics.watch(self.registry.count_by_status, hub.count_by_kind)
        self.absence = Absence(self.commit, self.registry)
        self.turns = TurnClocks(self.commit, self.registry, store, pool)
        self.commit.on_presence = self._presence
        coordination.bind(self.catch_up)

    def _changed(self, room: Room) -> None:
        """After every change of a room, here or elsewhere: its bots wake, its absent
        seats are watched, the seats it waits for may be sent a turn notice."""
        self.bots.notify(room)
        self.bot_rooms.changed(room)
        self.absence.arm(room)
        self.turns.arm(room)
        if self.notifier is not None:
            self.notifier.changed(room)

    async def _presence(self, room: Room, arrived: bool) -> None:
        await self.absence.presence(room, arrived)
        if not arrived and self.notifier is not None:
            self.notifier.changed(room)  # a page closed while the table waits for it

    def set_visible(self, room: Room, conn: Connection, visible: bool) -> None:
        """A socket's page was shown or hidden (``{"type": "visibility"}``)."""
        self.hub.set_visible(conn, visible)
        if not visible and self.notifier is not None:
            self.notifier.changed(room)

    def page_visible(self, code: str, seat: int) -> bool:
        room = self.rooms.get(code)
        return room is not None and self.hub.page_visible(room, seat)

    def _forgotten(self, code: str, room: Room | None = None) -> None:
        self.turns.forget(room)
        self.bots.stop(code)
        self.bot_rooms.forget(code)
        self.rates.forget(code)
        self.hints.forget(code)

    def holds(self, room: Room) -> bool:
        """Whether ``room`` is the one this node holds under its code."""
        return self.rooms.get(room.code) is room

    # ---------------------------------------------------------------- lifecycle
    def restore(self) -> int:
        return self.registry.restore()

    async def serve(self) -> None:
        """Start-up, after ``restore``: the link to the other nodes."""
        await self.coordination.start(self)
        await self.bot_rooms.start()

    async def run_turn_clocks(self) -> None:
        """Load now and then the overdue paced rooms no node holds (``pace.py``)."""
        await self.turns.run(min(self.settings.sweep_interval_seconds, 30.0))

    async def close(self) -> None:
        await self.turns.close()
        await self.daily.close()
        await self.reviews.close()
        await self.bots.close()
        await self.bot_rooms.close()
        await self.coordination.stop()

    async def get(self, code: str) -> Room:
        return await self.registry.get(code)

    def sweep(self, now: float | None = None, finished_now: bool = False) -> tuple[int, int]:
        return self.registry.sweep(now, finished_now)

    async def run_sweeper(self) -> None:
        await self.registry.run_sweeper()

    def public_info(self, room: Room) -> dict[str, Any]:
        return room.public_info(self.hub.spectators(room.code))

    # ---------------------------------------------------------------- the other nodes
    async def remote_change(self, message: dict[str, Any]) -> None:
        if admin.notice_from_node(self.hub, self.registry, message):
            return
        await self.catch_up.remote_change(message)

    async def resync(self, only_watched: bool = False) -> None:
        await self.catch_up.resync(only_watched)

    async def reassert_presence(self) -> None:
        await self.commit.reassert_presence(list(self.rooms.values()))

    # ---------------------------------------------------------------- admin
    async def close_room(self, room: Room, message: str, entry: dict[str, Any]) -> int:
        return await admin.close_room(self.commit, self.registry, room, message, entry)

    async def revoke_seat(self, room: Room, seat: int, entry: dict[str, Any]) -> str:
        return await admin.remove_seat(self.commit, room, seat, entry)

    async def announce(self, codes: list[str], message: str, entry: dict[str, Any]) -> int:
        return await admin.announce(self.commit, codes, message, entry)

    # ---------------------------------------------------------------- lobby
    async def create(
        self,
        rules: RulesChoice,
        address: str | None = None,
        daily: dict[str, Any] | None = None,
    ) -> Room:
        """A new room; ``address``: the client's, counted against its cap of rooms;
        ``daily``: what a daily deal's room adds to its spec (``daily.py``)."""
        return await lobby.create(self.commit, self.registry, self.settings, rules, address, daily)

    async def set_rules(self, room: Room, token: str | None, rules: RulesChoice) -> None:
        await lobby.set_rules(self.commit, room, token, rules, self.settings)

    def rules(self, room: Room, token: str | None) -> dict[str, Any]:
        return lobby.rules(room, token)

    async def join(self, room: Room, name: str, token: str | None = None) -> Player:
        return await lobby.join(self.commit, room, name, token)

    async def add_bot(self, room: Room, token: str | None, level: str) -> Player:
        player = await lobby.add_bot(self.commit, room, token, level)
        self.bots.pool.warm(room.code)
        return player

    async def take_over(
        self, room: Room, token: str | None, seat: int, level: str, address: str | None = None
    ) -> Player:
        """``address``: the client's, counted against its cap of games with bots."""
        async with self.bot_rooms.setting_going(room, address, bot=True):
            player = await lobby.take_over(self.commit, room, token, seat, level)
        async with room.lock:  # a bot on the host's seat: the role passes on
            await self.absence.pass_host(room)
        self.bots.pool.warm(room.code)
        return player

    async def release_bot(self, room: Room, token: str | None, seat: int) -> None:
        await lobby.release_bot(self.commit, room, token, seat)

    async def remove_seat(self, room: Room, token: str | None, seat: int | None) -> None:
        await lobby.remove_seat(self.commit, room, token, seat)

    async def start(self, room: Room, token: str | None, address: str | None = None) -> None:
        """``address``: the client's, counted against its cap of games with bots."""
        async with self.bot_rooms.setting_going(room, address):
            await lobby.start(self.commit, room, token)

    async def rematch(self, room: Room, token: str | None, address: str | None = None) -> None:
        async with self.bot_rooms.setting_going(room, address):
            await lobby.rematch(self.commit, room, token)

    # ---------------------------------------------------------------- play
    async def act(self, room: Room, who: SeatRef, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one action of ``who`` (a seat, or ``play.by_token(token)``: read under
        the room's lock); store it; push the new views; the seat's new view. Each seat
        has its own rate (``rate_limited`` past it)."""
        self._rate(room, who)
        started = time.perf_counter()
        view = await play.act(self.commit, room, who, action, reply=True)
        self.metrics.person_acted(started)
        assert view is not None
        self._review_if_over(room)
        return view

    async def play(self, room: Room, conn: Connection, action: dict[str, Any]) -> None:
        """``act`` for a websocket (its seat read under the lock), which gets its new
        view pushed with the others'."""
        self._rate(room, conn.seat)
        started = time.perf_counter()
        await play.act(self.commit, room, play.by_socket(conn), action, reply=False)
        self.metrics.person_acted(started)
        self._review_if_over(room)

    def _rate(self, room: Room, who: SeatRef | None) -> None:
        # the rate is counted on the seat as it looks now (a limit, not a permission)
        seat = who if who is None or isinstance(who, int) else who(room)
        if seat is not None:
            self.rates.allow(room, seat)

    async def act_as_bot(self, room: Room, seat: int, action: dict[str, Any], game: int) -> bool:
        played = await play.act_as_bot(self.commit, room, seat, action, game)
        if played:
            self.metrics.actions.labels(by="bot").inc()
        self._review_if_over(room)
        return played

    def _review_if_over(self, room: Room) -> None:
        """A game that just ended is reviewed at once (off the event loop), and a daily
        deal's verdict is looked for."""
        state = room.state
        if state is not None and state.is_over:
            self.reviews.request(room.code, room.game_no, state.setup, state.history)
            self.daily.game_over(room)

    async def play_from(
        self,
        room: Room,
        game: int | None,
        actions: int,
        seat: int,
        name: str,
        level: str,
        address: str | None = None,
    ) -> tuple[Room, Player]:
        """A new solo room from a step of a finished game's replay (``address``: the
        client's, counted against its cap of games with bots)."""
        replay = await play.replay(self.commit, room, game)
        state, prefix = branch.starting_point(replay, actions, seat, level)
        async with self.bot_rooms.setting_going(None, address, bot=True) as going:
            new, person = await branch.play_from(
                self.commit, self.registry, self.settings, state, prefix, seat, name, level
            )
            going.room = new
        self.bots.pool.warm(new.code)
        return new, person

    async def hint(self, room: Room, who: SeatRef, client: str) -> dict[str, Any]:
        return await self.hints.hint(room, who, client)

    async def review(self, room: Room, game: int | None = None) -> dict[str, Any]:
        """The solver's review of a finished game (``game_not_over`` before its end)."""
        replay = await play.replay(self.commit, room, game)
        return await self.reviews.get(room.code, replay["game"], replay["setup"], replay["actions"])

    async def view(self, room: Room, who: SeatRef | None) -> dict[str, Any]:
        return await play.view(room, who)

    async def log(self, room: Room, who: SeatRef | None, since: int) -> dict[str, Any]:
        return await play.log(room, who, since)

    async def legal_actions(self, room: Room, who: SeatRef) -> dict[str, Any]:
        return await play.legal_actions(room, who)

    async def replay(self, room: Room, game: int | None = None) -> dict[str, Any]:
        return await play.replay(self.commit, room, game)

    # ---------------------------------------------------------------- sockets
    async def connect(self, room: Room, conn: Connection, token: str | None = None) -> None:
        await sockets.connect(self.commit, room, conn, token)

    async def take_seat(self, room: Room, conn: Connection, token: str) -> None:
        await sockets.take_seat(self.commit, room, conn, token)

    async def disconnect(self, room: Room, conn: Connection) -> None:
        await sockets.disconnect(self.commit, room, conn)

    def send_view(self, room: Room, conn: Connection) -> None:
        self.hub.send_view(room, conn)
