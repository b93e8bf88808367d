"""Rooms: the authoritative game state of each room, its seats and connections.

``RoomManager`` holds the rooms this node serves in memory, persists each change through
the store before acknowledging it, and pushes each connected seat its own new view
(spectators theirs) after every change. One ``asyncio.Lock`` per room applies its changes
one at a time; rooms never wait for each other's lock.

The store is the truth and memory a cache of it: every change is written from the
version this node holds (a compare-and-set), so when another node sharing the database
changed the room first, the write changes nothing, the room catches up from the store
and the change is checked again on the room as it now is (a normal success, or a normal
409). A write that fails leaves the room exactly as stored.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, cast

from ..engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    EngineError,
    Game,
    InvalidSetup,
    State,
    get_game,
    lobby_view,
    normalise_modes,
    visible_log,
)
from .bot_driver import BotDrivers, bot_levels
from .bot_pool import BotPool
from .campaign import campaign_public, new_campaign, next_game, record_result, stage_modes
from .connections import Connection, Socket, TokenBucket
from .errors import ApiError, engine_error
from .jsonio import dumps, loads
from .provenance import replay_problem, same_versions, state_digest
from .settings import Settings
from .store import BaseStore, Conflict
from .views import StateMessages

if TYPE_CHECKING:
    from .cluster import Cluster

__all__ = [  # re-exported: the split of this module kept their old import path working
    "ApiError",
    "Connection",
    "Player",
    "Room",
    "RoomManager",
    "Socket",
    "TokenBucket",
    "dumps",
    "engine_error",
    "loads",
    "same_secret",
]

log = logging.getLogger("dame_nature.server")

CODE_BYTES = 12  # room codes: 96 random bits
TOKEN_BYTES = 24  # seat and host tokens: 192 random bits
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: names given to bots added in the lobby (the first one no player of the room has)
BOT_NAMES = ("Darwin", "Linné", "Humboldt", "Carson", "Goodall", "Lamarck", "Buffon", "Mendel")


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets."""
    return secrets.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


@dataclass
class Player:
    seat: int
    name: str
    token: str
    #: the level of the bot playing this seat, or None (a person plays it)
    bot: str | None = None
    #: False for a seat added as a bot in the lobby (its token is never handed out);
    #: True for a person's seat, even while a bot stands in for them
    human: bool = True

    @property
    def stand_in(self) -> bool:
        """A bot plays this seat for a person who left; their token takes it back."""
        return self.bot is not None and self.human


@dataclass
class Room:
    code: str
    host_token: str
    spec: dict[str, Any]
    created_at: float
    updated_at: float
    status: str = "lobby"
    game_no: int = 0
    campaign: dict[str, Any] | None = None
    version: int = 0
    #: the version stored (one node of a SQLite store: ahead of ``version``, reserved
    #: by the last connection change; nodes sharing a store: always ``version``)
    stored: int = 0
    players: list[Player] = field(default_factory=list)
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: this node's sockets of the room, by seat (``None``: spectators)
    conns: dict[int | None, set[Connection]] = field(default_factory=dict, repr=False)
    #: the seats connected to any node (as stored: the view's ``connected`` flags)
    present: set[int] = field(default_factory=set, repr=False)
    #: the action rate of each seat (HTTP and websocket together)
    action_buckets: dict[int, TokenBucket] = field(default_factory=dict, repr=False)

    # ---------------------------------------------------------------- seats
    def seat_for_token(self, token: str) -> int | None:
        """The seat whose token this is; every token is compared, in constant time."""
        found = None
        for player in self.players:
            if same_secret(token, player.token):
                found = player.seat
        return found

    def is_host(self, token: str) -> bool:
        return same_secret(token, self.host_token)

    @property
    def seats_max(self) -> int:
        deal = self.spec.get("deal")
        return len(deal["hands"]) if deal else MAX_PLAYERS

    @property
    def modes(self) -> list[str]:
        if self.state is not None:
            return list(self.state.game.modes)
        return list(self.spec["modes"])  # a path's stage 1 for a campaign (``_rules``)

    def connected(self, seat: int) -> bool:
        return seat in self.present

    def local(self, seat: int) -> bool:
        """Whether this node holds a socket of ``seat``."""
        return bool(self.conns.get(seat))

    def seat_public(self, seat: int) -> dict[str, Any]:
        """What every view says of a seat beside the engine's fields."""
        player = self.players[seat]
        return {
            "name": player.name,
            "connected": self.connected(seat),
            "bot": player.bot,
            "stand_in": player.stand_in,
        }

    def player(self, seat: int) -> Player:
        """The seat ``seat``; 404 ``seat_not_found`` when the room has no such seat."""
        if not 0 <= seat < len(self.players):
            raise ApiError(404, "seat_not_found", f"This room has no seat {seat}.")
        return self.players[seat]

    def connection_count(self) -> int:
        return sum(len(c) for c in self.conns.values())

    @property
    def deal_chosen_by_host(self) -> bool:
        """Whether the host picked the current game's deal (a seed or the hands): then
        the host may know every hand, and every seat is told so. Rematches deal at
        random."""
        return self._deal_chosen(self.game_no)

    def _deal_chosen(self, game_no: int) -> bool:
        chosen = self.spec.get("seed") is not None or self.spec.get("deal") is not None
        return chosen and game_no <= 1

    def deal_choice(self, game_no: int | None = None) -> str | None:
        """``"seed"`` or ``"deal"`` when the host chose the deal of game ``game_no``
        (None: the current one)."""
        if not self._deal_chosen(self.game_no if game_no is None else game_no):
            return None
        return "deal" if self.spec.get("deal") is not None else "seed"

    # ---------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """The API view of ``seat`` (``None``: a spectator): the engine's view plus the
        server fields. Only views are ever sent to clients, never the state."""
        if self.state is None:
            view = self._lobby_view(seat)
        else:
            view = cast(dict[str, Any], self.state.view(seat))
            for entry in view["players"]:  # the engine gives each view its own entries
                entry.update(self.seat_public(entry["seat"]))
        view.update(self.server_fields())
        return view

    def server_fields(self) -> dict[str, Any]:
        """The fields the server adds at the end of every view."""
        return {
            "room": self.code,
            "version": self.version,
            "campaign": campaign_public(self.campaign),
            "status": self.status,
            "game": self.game_no,
            "deal_chosen_by_host": self.deal_chosen_by_host,
            "deal_choice": self.deal_choice(),
        }

    def _lobby_view(self, seat: int | None) -> dict[str, Any]:
        """The engine's empty ``View`` with the players who joined."""
        view: dict[str, Any] = dict(lobby_view(seat, self.modes))
        view["players"] = [
            {
                "seat": p.seat,
                "name": p.name,
                "hand_size": 0,
                "has_programmed": False,
                "ready": False,
                "symbiosis_cards": 0,
                "side": None,
                **self.seat_public(p.seat),
            }
            for p in self.players
        ]
        return view

    def public_info(self) -> dict[str, Any]:
        return {
            "room": self.code,
            "url": f"/r/{self.code}",
            "status": self.status,
            "modes": self.modes,
            "path": self.spec.get("path"),
            "campaign": campaign_public(self.campaign),
            "players": [{"seat": p.seat, **self.seat_public(p.seat)} for p in self.players],
            "seats_max": self.seats_max,
            "spectators": len(self.conns.get(None, ())),
            "version": self.version,
            "result": dict(self.state.result) if self.state and self.state.result else None,
            "created_at": self.created_at,
            "game": self.game_no,
            "deal_chosen_by_host": self.deal_chosen_by_host,
            "deal_choice": self.deal_choice(),
        }

    def replay(self, earlier: dict[str, Any] | None = None) -> dict[str, Any]:
        """The replay of the current game once it is over, or of an ``earlier`` game of
        the room as stored (``BaseStore.load_game``; its campaign is not kept: None)."""
        if earlier is not None:
            game_no, setup, actions = earlier["game_no"], earlier["setup"], earlier["actions"]
            result, campaign = earlier["result"], None
        elif self.state is None or not self.state.is_over:
            raise ApiError(409, "game_not_over", "The replay is available once the game is over.")
        else:
            game_no, setup, actions = self.game_no, self.state.setup, self.state.history
            result, campaign = self.state.result, campaign_public(self.campaign)
        chosen = self._deal_chosen(game_no)
        return {
            "room": self.code,
            "game": game_no,
            "setup": {**setup, "deal_chosen_by_host": chosen},
            "deal_chosen_by_host": chosen,
            "deal_choice": self.deal_choice(game_no),
            "actions": actions,
            "result": result,
            "campaign": campaign,
        }

    # ---------------------------------------------------------------- broadcast
    def broadcast(self) -> None:
        """Push each connection the ``state`` message of its seat (the part shared by
        every seat encoded once: ``views.StateMessages``)."""
        messages = StateMessages(self)
        for seat, conns in self.conns.items():
            if conns:
                text = messages.text(seat)
                for conn in conns:
                    conn.push(text, "state")

    def send_view(self, conn: Connection) -> None:
        conn.push(StateMessages(self).text(conn.seat), "state")


class RoomUnavailable(Exception):
    """A stored game that today's engine cannot replay as it was played."""


#: a change refused by a concurrent writer is checked again this many times at most
MAX_ATTEMPTS = 5
#: versions reserved by one stored write when only connections change (one node of a
#: SQLite store): a seat that connects and leaves in a loop costs one commit per this
#: many version bumps, and the stored version stays ahead of every version a client saw
VERSION_RESERVE = 100


class RoomManager:
    """Every room this node serves: creation, lookup (memory, else the store), changes,
    expiry; with a shared store, catching up with the other nodes' changes."""

    def __init__(
        self, settings: Settings, store: BaseStore, cluster: Cluster | None = None
    ) -> None:
        self.settings = settings
        self.store = store
        self.cluster = cluster
        self.node = cluster.node if cluster is not None else "local"
        #: other processes write the same database: check freshness, load on demand
        self.shared = store.shared
        self.rooms: dict[str, Room] = {}
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        pool = BotPool(settings.bot_processes, settings.bot_think_seconds)
        self.bots = BotDrivers(self, pool, settings.bot_delay_seconds)

    # ---------------------------------------------------------------- lifecycle
    def restore(self) -> int:
        """The only node of its database loads every unfinished room (finished ones load
        on demand); its previous process lost every connection, a new version for every
        room. Nodes sharing a database load rooms on demand."""
        if self.shared:
            return 0
        self.store.reset_presence()
        for code in self.store.room_codes(("lobby", "playing")):
            try:
                data = self.store.load_room(code)
                if data is not None:
                    self.rooms[code] = room = self._build(data)
                    self.bots.notify(room)  # its bots play on
            except Exception:  # one room the engine cannot replay must not stop the rest
                log.exception("room %s could not be restored", code)
        return len(self.rooms)

    def _build(self, data: dict[str, Any]) -> Room:
        room = Room(
            code=data["code"],
            host_token=data["host_token"],
            spec=data["spec"],
            created_at=data["created_at"],
            updated_at=data["updated_at"],
        )
        self._refill(room, data)
        return room

    def _refill(self, room: Room, data: dict[str, Any]) -> None:
        """Make ``room`` exactly what the store holds (``data``: a whole ``load_room``)."""
        state = self._replay(data) if data["setup"] is not None else None
        room.spec = data["spec"]
        room.status = data["status"]
        room.game_no = data["game_no"]
        room.campaign = data["campaign"]
        room.version = room.stored = data["version"]
        room.updated_at = data["updated_at"]
        room.players = [
            Player(p["seat"], p["name"], p["token"], bot=p["bot"], human=p["human"])
            for p in data["players"]
        ]
        room.present = set(data["present"])
        room.state = state

    def _replay(self, data: dict[str, Any]) -> State:
        game = data["game"]
        if same_versions(game):
            return State.replay(data["setup"], data["actions"])
        # played with another engine or rules data: replayed and compared, never changed
        state, problem = replay_problem(game, data["actions"])
        if problem is None:
            assert state is not None
            return state
        log.error("room %s game %s: %s", data["code"], data["game_no"], problem)
        with contextlib.suppress(Exception):
            self.store.report_replay(data["code"], data["game_no"], game, problem, time.time())
        raise RoomUnavailable(problem)

    async def get(self, code: str) -> Room:
        """The room ``code``, up to date with the store (404 when there is none)."""
        room = self.rooms.get(code)
        if room is None and CODE_RE.match(code):
            room = await self._load(code)
        if room is None:
            raise ApiError(404, "room_not_found", "There is no room with this code.")
        if self.shared:
            try:
                await self.refresh(room)
            except Exception:
                log.exception("room %s: the store cannot be reached", code)
                raise ApiError(
                    503, "store_unavailable", "The game's database cannot be reached; try again."
                ) from None
        return room

    async def _load(self, code: str) -> Room | None:
        """Load a room into memory once, however many requests ask for it at once."""
        pending = self._loading.get(code)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            data = await self.store.call(self.store.load_room, code)
            room = None
            if data is not None:
                room = self.rooms.get(code) or self._build(data)
                self.rooms[code] = room
                self.bots.notify(room)  # its bots play on
            future.set_result(room)
            return room
        except Exception as err:
            log.exception("room %s could not be loaded", code)
            if isinstance(err, RoomUnavailable | EngineError):
                failure = ApiError(
                    409, "room_unavailable", "This room's game cannot be loaded any more."
                )
                if isinstance(err, RoomUnavailable):
                    failure.message += f" ({err})"
            else:  # the store: down, or failing
                failure = ApiError(
                    503, "store_unavailable", "The game's database cannot be reached; try again."
                )
            future.set_exception(failure)
            future.exception()  # seen: nobody else may be waiting
            raise failure from None
        finally:
            del self._loading[code]

    async def refresh(self, room: Room) -> None:
        """Catch ``room`` up with the store when another node changed it (one query)."""
        versions = await self.store.call(self.store.room_versions, [room.code])
        if versions.get(room.code, room.version) > room.version:
            async with room.lock:
                await self._catch_up(room)

    async def _catch_up(self, room: Room) -> None:
        """Under the room's lock: apply what the store holds beyond this node's version,
        pushing each socket every new action's view in turn (a whole reload when the
        room changed in another way than by actions of the same game)."""
        state = room.state
        game_no, known = room.game_no, len(state.history) if state is not None else 0
        data = await self.store.call(self.store.load_room, room.code, game_no, known)
        if data is None:  # deleted meanwhile
            self.rooms.pop(room.code, None)
            return
        if data["version"] <= room.version:
            return
        incremental = (
            state is not None
            and data["game_no"] == game_no
            and data["from_idx"] == known
            and len(data["players"]) == len(room.players)
            and data["spec"] == room.spec
        )
        if not incremental:
            if data["from_idx"]:  # every action of the game, to replay it whole
                data = await self.store.call(self.store.load_room, room.code) or data
            self._refill(room, data)
            room.broadcast()
            self.bots.notify(room)
            return
        assert state is not None
        room.present = set(data["present"])
        for entry, version in zip(data["actions"], data["versions"], strict=True):
            state.apply(entry["seat"], entry["action"])
            if version is not None and room.version < version < data["version"]:
                room.version = version
                room.broadcast()
        room.status = data["status"]
        room.campaign = data["campaign"]
        room.version = data["version"]
        room.updated_at = data["updated_at"]
        room.broadcast()
        self.bots.notify(room)

    async def remote_change(self, message: dict[str, Any]) -> None:
        """Another node changed room ``message["room"]`` to ``message["version"]``: apply
        what the message carries when this node is one version behind, else catch up
        from the store."""
        room = self.rooms.get(message.get("room", ""))
        if room is None:
            return
        async with room.lock:
            version = int(message.get("version", 0))
            if version <= room.version:
                return
            state = room.state
            if version == room.version + 1:
                if (
                    "action" in message
                    and not message.get("ends")
                    and state is not None
                    and message.get("game") == room.game_no
                    and message.get("idx") == len(state.history)
                ):
                    try:
                        state.apply(message["seat"], message["action"])
                    except EngineError:  # refused, so nothing changed: ask the store
                        pass
                    else:
                        room.version = version
                        room.updated_at = message.get("at", room.updated_at)
                        room.broadcast()
                        self.bots.notify(room)
                        return
                elif "present" in message and len(message.get("present", ())) <= MAX_PLAYERS:
                    room.present = set(message["present"])
                    room.version = version
                    room.broadcast()
                    return
            try:
                await self._catch_up(room)
            except Exception:
                log.exception("room %s could not catch up", room.code)

    async def resync(self, only_watched: bool = False) -> None:
        """Catch up every room held (or only those with sockets here) whose stored version
        moved on: after missed messages (Redis down or restarting)."""
        codes = [
            code for code, room in self.rooms.items() if not only_watched or room.connection_count()
        ]
        if not codes:
            return
        versions = await self.store.call(self.store.room_versions, codes)
        for code in codes:
            room = self.rooms.get(code)
            if room is None:
                continue
            if code not in versions:  # deleted by another node
                if not room.connection_count():
                    self.rooms.pop(code, None)
                continue
            if versions[code] > room.version:
                async with room.lock:
                    try:
                        await self._catch_up(room)
                    except Exception:
                        log.exception("room %s could not catch up", code)

    def sweep(self, now: float | None = None, finished_now: bool = False) -> tuple[int, int]:
        """Delete rooms idle for the TTL (lobbies nobody starts: the lobby TTL); drop
        finished games no one watches from memory (all of them with ``finished_now``; with
        a shared store, any room no one here watches). Returns (deleted, unloaded)."""
        now = time.time() if now is None else now
        settings = self.settings
        expired = [
            code
            for code in self.store.idle_rooms(
                now - settings.room_ttl_seconds, lobby_before=now - settings.lobby_ttl_seconds
            )
            if code not in self.rooms or self.rooms[code].connection_count() == 0
        ]
        self.store.delete_rooms(expired)
        for code in expired:
            self._forget(code)
        unloaded = 0
        for code, room in list(self.rooms.items()):
            if (
                (room.status == "over" or self.shared)
                and room.connection_count() == 0
                and not room.lock.locked()
                and (finished_now or now - room.updated_at >= settings.finished_room_memory_seconds)
            ):
                self._forget(code)
                unloaded += 1
        return len(expired), unloaded

    def _forget(self, code: str) -> None:
        """Room ``code`` leaves this node's memory: its bots stop here, and another node
        may lead them."""
        self.rooms.pop(code, None)
        self.bots.stop(code)
        if self.cluster is not None:
            try:
                self.store.release_lead(code)
            except Exception:
                log.exception("room %s: its bots' lead not released", code)

    async def run_sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval_seconds)
            try:
                self.sweep()
            except Exception:  # never let the sweeper die
                log.exception("room sweep failed")

    # ---------------------------------------------------------------- writes
    async def _store(self, method: Any, *args: Any, **kwargs: Any) -> Any:
        """One write of the store: ``Conflict`` passes through (the caller catches up and
        checks again); any other failure is refused as 409 ``not_saved``."""
        try:
            return await self.store.call(method, *args, **kwargs)
        except Conflict:
            raise
        except Exception:
            log.exception("could not store a change (%s)", getattr(method, "__name__", "?"))
            raise ApiError(
                409, "not_saved", "The change could not be saved; please send it again."
            ) from None

    async def _attempt(self, room: Room, change: Any) -> Any:
        """Run ``change()`` (checks, the write, then memory) under the room's lock; when
        another node wrote the room first, catch up and run it again on the room as it
        now is."""
        async with room.lock:
            for _ in range(MAX_ATTEMPTS):
                try:
                    return await change()
                except Conflict:
                    try:
                        await self._catch_up(room)
                    except Exception:
                        log.exception("room %s could not catch up", room.code)
                        raise ApiError(
                            409, "not_saved", "The change could not be saved; please send it again."
                        ) from None
            raise ApiError(409, "not_saved", "The room is changing too fast; please send it again.")

    def _publish(self, room: Room, **extra: Any) -> None:
        if self.cluster is not None:
            self.cluster.publish(room.code, room.version, **extra)

    # ---------------------------------------------------------------- rooms
    async def create(
        self,
        modes: list[str],
        path: int | None,
        seed: int | None,
        deal: dict[str, Any] | None,
    ) -> Room:
        if len(self.rooms) >= self.settings.max_rooms:
            await self._evict_lobbies(time.time())
        if len(self.rooms) >= self.settings.max_rooms:
            raise ApiError(429, "too_many_rooms", "The server holds too many rooms; try later.")
        spec, campaign = self._rules(modes, path, seed, deal)
        now = time.time()
        code = secrets.token_urlsafe(CODE_BYTES)
        room = Room(
            code=code,
            host_token=secrets.token_urlsafe(TOKEN_BYTES),
            spec=spec,
            created_at=now,
            updated_at=now,
            campaign=campaign,
        )
        await self._store(self.store.create_room, code, room.host_token, room.spec, now, campaign)
        self.rooms[code] = room
        return room

    async def _evict_lobbies(self, now: float) -> None:
        """Make room for a new one: delete the lobbies nobody has touched or watched for
        ``lobby_evict_idle_seconds``, oldest first (a tenth of the cap at most at once),
        and unload finished games no one watches."""
        self.sweep(now, finished_now=True)
        idle = sorted(
            (
                room
                for room in self.rooms.values()
                if room.status == "lobby"
                and room.connection_count() == 0
                and not room.lock.locked()
                and now - room.updated_at >= self.settings.lobby_evict_idle_seconds
            ),
            key=lambda room: room.updated_at,
        )
        batch = [room.code for room in idle[: max(1, self.settings.max_rooms // 10)]]
        if batch:
            await self.store.call(self.store.delete_rooms, batch)
            for code in batch:
                self.rooms.pop(code, None)
            log.info("evicted %d idle lobbies to make room", len(batch))

    async def set_rules(
        self,
        room: Room,
        token: str | None,
        modes: list[str],
        path: int | None,
        seed: int | None,
        deal: dict[str, Any] | None,
    ) -> None:
        """Host only, in the lobby: replace the room's rules (modes or path, seed, deal)."""
        self._require_host(room, token)
        spec, campaign = self._rules(modes, path, seed, deal)

        async def change() -> None:
            if room.status != "lobby":
                raise ApiError(409, "game_started", "The rules can change only before the start.")
            if deal is not None and len(room.players) > len(deal["hands"]):
                raise ApiError(
                    409,
                    "wrong_player_count",
                    f"This deal is for {len(deal['hands'])} players; "
                    f"{len(room.players)} have joined.",
                )
            now = time.time()
            await self._store(
                self.store.set_rules, room.code, spec, campaign, now=now, **self._next(room)
            )
            room.spec, room.campaign = spec, campaign
            self._changed(room, now)
            self._publish(room)

        await self._attempt(room, change)

    def rules(self, room: Room, token: str | None) -> dict[str, Any]:
        """Host only: the room's rules as set, seed and deal included."""
        self._require_host(room, token)
        spec = room.spec
        path = spec.get("path")
        modes = [] if path is not None else list(spec["modes"])
        return {"modes": modes, "path": path, "seed": spec.get("seed"), "deal": spec.get("deal")}

    @staticmethod
    def _rules(
        modes: list[str], path: int | None, seed: int | None, deal: dict[str, Any] | None
    ) -> tuple[dict[str, Any], dict[str, Any] | None]:
        """A room's rules, checked: its spec, and its campaign when it plays a path."""
        if path is not None and modes:
            raise ApiError(
                422, "invalid_request", "Give either 'modes' or 'path' (a campaign), not both."
            )
        if seed is not None and deal is not None:
            raise ApiError(422, "invalid_request", "Give either a 'seed' or a 'deal', not both.")
        try:
            chosen = (
                stage_modes(new_campaign(path))
                if path is not None
                else list(normalise_modes(modes))
            )
            if deal is not None:
                Game(len(deal["hands"]), chosen).check_deal(deal)
        except EngineError as err:
            raise engine_error(err) from None
        spec = {"modes": chosen, "path": path, "seed": seed, "deal": deal}
        return spec, new_campaign(path) if path is not None else None

    async def join(self, room: Room, name: str) -> Player:
        player: Player = await self._attempt(room, lambda: self._seat_new_player(room, name, None))
        return player

    async def _seat_new_player(self, room: Room, name: str, bot: str | None) -> Player:
        """Under the room's lock, in the lobby: the next seat, for a person (``bot`` None)
        or a bot of that level (whose token is never handed out)."""
        if room.status != "lobby":
            raise ApiError(409, "game_started", "The game has started: no seat is free.")
        if len(room.players) >= room.seats_max:
            raise ApiError(409, "room_full", f"This room has {room.seats_max} seats, all taken.")
        token = secrets.token_urlsafe(TOKEN_BYTES)
        player = Player(len(room.players), name, token, bot=bot, human=bot is None)
        now = time.time()
        await self._store(
            self.store.add_player,
            room.code,
            player.seat,
            name,
            token,
            now=now,
            **self._next(room),
            bot=bot,
            human=player.human,
        )
        room.players.append(player)
        self._changed(room, now)
        self._publish(room)
        return player

    # ---------------------------------------------------------------- bots and seats
    @staticmethod
    def _level(level: str) -> str:
        levels = bot_levels()
        if level not in levels:
            raise ApiError(
                422,
                "unknown_level",
                f"There is no bot level '{level[:32]}'; choose one of: {', '.join(levels)}.",
            )
        return level

    async def add_bot(self, room: Room, token: str | None, level: str) -> Player:
        """Host only, in the lobby: a bot takes the next seat (named after a naturalist
        no one in the room is called)."""
        self._require_host(room, token)
        self._level(level)

        async def change() -> Player:
            taken = {p.name for p in room.players}
            name = next((n for n in BOT_NAMES if n not in taken), f"Bot {len(room.players) + 1}")
            return await self._seat_new_player(room, name, level)

        player: Player = await self._attempt(room, change)
        self.bots.pool.warm(room.code)
        return player

    async def take_over(self, room: Room, token: str | None, seat: int, level: str) -> Player:
        """Host only, once the game has started: a bot plays the seat of a player who
        left (no connection) until their token takes it back."""
        self._require_host(room, token)
        self._level(level)
        async with room.lock:
            if room.status == "lobby":
                raise ApiError(
                    409,
                    "game_not_started",
                    "A bot takes over a seat once the game has started; "
                    "in the lobby, add a bot to a new seat instead (leave out 'seat').",
                )
            player = room.player(seat)
            if player.bot is not None:
                raise ApiError(409, "already_a_bot", f"A bot already plays seat {seat}.")
            if room.connected(seat):
                raise ApiError(
                    409,
                    "player_connected",
                    f"{player.name} is connected: a bot takes over only a seat whose "
                    "player has left.",
                )
            await self._set_bot(room, player, level)
        self.bots.pool.warm(room.code)
        return player

    async def release_bot(self, room: Room, token: str | None, seat: int) -> None:
        """``DELETE /bots/{seat}``: in the lobby the host removes a bot's seat; during a
        game the seat's own token (or the host) gives a stand-in's seat back to its player."""
        if token is None:
            raise ApiError(401, "missing_token", "This needs a token (Authorization: Bearer).")
        async with room.lock:
            if room.seat_for_token(token) != seat:
                self._require_host(room, token)
            player = room.player(seat)
            if player.bot is None:
                raise ApiError(409, "not_a_bot", f"Seat {seat} is played by a person, not a bot.")
            if room.status == "lobby":
                await self._remove(room, seat)
                return
            if not player.human:
                raise ApiError(
                    409,
                    "no_player",
                    f"{player.name} joined as a bot: there is no player to give the seat "
                    "back to, so it plays to the end of the game.",
                )
            await self._set_bot(room, player, None)

    async def remove_seat(self, room: Room, token: str | None, seat: int | None) -> None:
        """Before the start: a player leaves their seat (``seat=None``: the token's own
        seat), or the host removes any seat. The seats after it move down one; the
        removed seat's token stops working and its sockets become spectators."""
        if token is None:
            raise ApiError(401, "missing_token", "This needs a token (Authorization: Bearer).")
        async with room.lock:  # seats move when one leaves: read the token's seat now
            mine = room.seat_for_token(token)
            if seat is None:
                if mine is None:
                    raise ApiError(401, "invalid_token", "This token is not a seat of this room.")
                seat = mine
            elif mine != seat:
                self._require_host(room, token)
            self._require_lobby(room)
            room.player(seat)
            await self._remove(room, seat)

    @staticmethod
    def _require_lobby(room: Room) -> None:
        if room.status != "lobby":
            raise ApiError(409, "game_started", "Seats change only before the start.")

    async def _remove(self, room: Room, seat: int) -> None:
        now = time.time()
        await self._store(self.store.remove_player, room.code, seat, now=now, **self._next(room))
        del room.players[seat]
        for player in room.players[seat:]:
            player.seat -= 1
        conns, room.conns = room.conns, {}
        for old, group in conns.items():
            new = None if old == seat else old if old is None or old < seat else old - 1
            for conn in group:
                conn.seat = new
                if old == seat:
                    conn.push(
                        dumps(
                            {
                                "type": "error",
                                "error": {
                                    "code": "seat_removed",
                                    "message": "Your seat was removed: you are watching now.",
                                },
                            }
                        )
                    )
            room.conns.setdefault(new, set()).update(group)
        self._changed(room, now)
        self._publish(room)

    async def _set_bot(self, room: Room, player: Player, level: str | None) -> None:
        now = time.time()
        await self._store(
            self.store.set_bot, room.code, player.seat, level, now=now, **self._next(room)
        )
        player.bot = level
        self._changed(room, now)
        self._publish(room)

    def _require_host(self, room: Room, token: str | None) -> None:
        if token is None:
            raise ApiError(
                401, "missing_token", "This needs the host token (Authorization: Bearer)."
            )
        if not room.is_host(token):
            if room.seat_for_token(token) is not None:
                raise ApiError(403, "not_host", "Only the host of the room can do this.")
            raise ApiError(401, "invalid_token", "This token is not valid for this room.")

    async def start(self, room: Room, token: str | None) -> None:
        self._require_host(room, token)

        async def change() -> None:
            if room.status != "lobby":
                raise ApiError(409, "game_started", "The game has already started.")
            n = len(room.players)
            deal = room.spec.get("deal")
            if deal is not None and n != len(deal["hands"]):
                raise ApiError(
                    409,
                    "wrong_player_count",
                    f"This deal is for {len(deal['hands'])} players; {n} have joined.",
                )
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise ApiError(
                    409,
                    "not_enough_players",
                    f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players; {n} have joined.",
                )
            seed = room.spec.get("seed")
            await self._new_game(room, room.spec["modes"], seed, deal)

        await self._attempt(room, change)

    async def replay(self, room: Room, game: int | None = None) -> dict[str, Any]:
        """The replay of game ``game`` of ``room`` (None: the current one, once over). The
        games before the current one are read from the store: a rematch keeps them."""
        if game is None or game == room.game_no:
            return room.replay()
        if not 1 <= game < room.game_no:
            raise ApiError(404, "game_not_found", f"This room has no game {game}.")
        earlier = await self.store.call(self.store.load_game, room.code, game)
        if earlier is None:
            raise ApiError(404, "game_not_found", f"This room has no game {game}.")
        return room.replay(earlier)

    async def rematch(self, room: Room, token: str | None) -> None:
        self._require_host(room, token)

        async def change() -> None:
            if room.state is None or not room.state.is_over:
                raise ApiError(409, "game_not_over", "A rematch starts once the game is over.")
            modes = list(room.state.game.modes)
            campaign = room.campaign
            if campaign is not None:
                campaign = next_game(campaign)
                modes = stage_modes(campaign)
            await self._new_game(room, modes, None, None, campaign)

        await self._attempt(room, change)

    async def _new_game(
        self,
        room: Room,
        modes: list[str],
        seed: int | None,
        deal: dict[str, Any] | None,
        campaign: dict[str, Any] | None = None,
    ) -> None:
        if deal is None and seed is None:
            seed = secrets.randbits(63)
        try:
            game = get_game(len(room.players), tuple(normalise_modes(modes)))
            state = game.new_initial_state(seed=seed, deal=deal)
        except InvalidSetup as err:
            raise engine_error(err) from None
        campaign = campaign if campaign is not None else room.campaign
        now = time.time()
        await self._store(
            self.store.start_game,
            room.code,
            room.game_no + 1,
            state.setup,
            campaign=campaign,
            now=now,
            **self._next(room),
        )
        room.game_no += 1
        room.campaign = campaign
        room.state = state
        room.status = "playing"
        self._changed(room, now)
        self._publish(room)

    async def act(self, room: Room, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one action of ``seat``; persist it; push the new views; the seat's view.
        Each seat has its own rate (429 ``rate_limited`` past it)."""
        view = await self._act(room, seat, action, reply=True)
        assert view is not None
        return view

    async def play(self, room: Room, seat: int, action: dict[str, Any]) -> None:
        """``act`` for a websocket, which gets its new view pushed with the others'."""
        await self._act(room, seat, action, reply=False)

    async def _act(
        self, room: Room, seat: int, action: dict[str, Any], reply: bool
    ) -> dict[str, Any] | None:
        self.allow_action(room, seat)

        async def change() -> dict[str, Any] | None:
            if room.state is None:  # (seats move only in the lobby)
                raise ApiError(409, "game_not_started", "The game has not started yet.")
            if room.players[seat].bot is not None:
                raise ApiError(
                    409,
                    "bot_seat",
                    "A bot plays this seat now: take it back first "
                    "(open the room, or DELETE /api/rooms/{room}/bots/{seat}).",
                )
            await self._apply(room, seat, action)
            return room.view(seat) if reply else None

        result: dict[str, Any] | None = await self._attempt(room, change)
        return result

    async def act_as_bot(self, room: Room, seat: int, action: dict[str, Any], game: int) -> bool:
        """The action of the bot of ``seat``, decided during game ``game``: played like a
        person's (same lock, same checks, saved before it is broadcast), or dropped (False)
        if the seat has no bot any more, another game began, or (nodes sharing a store)
        another node leads this room's bots."""
        if self.cluster is not None and not await self.cluster.lead(room.code):
            return False

        async def change() -> bool:
            if room.game_no != game or room.players[seat].bot is None:
                return False
            await self._apply(room, seat, action)
            return True

        played: bool = await self._attempt(room, change)
        return played

    async def _apply(self, room: Room, seat: int, action: dict[str, Any]) -> None:
        """Under the room's lock: check, apply, store, broadcast, publish.
        ``Conflict`` when another node changed the room first (the room is as stored)."""
        state = room.state
        if state is None:
            raise ApiError(409, "game_not_started", "The game has not started yet.")
        try:
            state.apply(seat, action)
        except EngineError as err:
            raise engine_error(err) from None
        campaign = room.campaign
        if state.result is not None and campaign is not None:
            campaign = record_result(campaign, state.result["outcome"])
        idx = len(state.history) - 1
        stored = state.history[-1]["action"]
        now = time.time()
        try:
            await self._store(
                self.store.add_action,
                room.code,
                room.game_no,
                idx,
                seat,
                stored,
                result=state.result,
                campaign=campaign,
                now=now,
                **self._next(room),
                digest=state_digest(state) if state.result is not None else None,
            )
        except BaseException:
            # not stored, so not accepted: the room goes back to exactly what is stored
            room.state = State.replay(state.setup, state.history[:-1])
            raise
        if state.is_over:
            room.status = "over"
            room.campaign = campaign
        self._changed(room, now)
        self._publish(
            room,
            game=room.game_no,
            idx=idx,
            seat=seat,
            action=stored,
            ends=state.is_over,
            at=now,
        )

    def _next(self, room: Room) -> dict[str, int]:
        """The version a change of ``room`` stores, and the one it expects to find."""
        if self.shared:
            return {"version": room.version + 1, "expected": room.version}
        return {"version": max(room.version + 1, room.stored), "expected": room.stored}

    def _changed(self, room: Room, now: float) -> None:
        """A stored change (stored as ``_next`` says): bump, broadcast."""
        room.version += 1
        room.stored = max(room.stored, room.version)
        room.updated_at = now
        room.broadcast()
        self.bots.notify(room)

    async def view(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` once no change is half done (a change is visible only
        after it is stored)."""
        async with room.lock:
            return room.view(seat)

    async def log(self, room: Room, seat: int | None, since: int) -> dict[str, Any]:
        """Every event of the room's current game that ``seat`` may see (``None``: a
        spectator), redacted as in its views, from the ``since``-th one."""
        async with room.lock:
            events = visible_log(room.state, seat, tail=None) if room.state is not None else []
            return {
                "version": room.version,
                "game": room.game_no,
                "seat": seat,
                "total": len(events),
                "events": events[since:],
            }

    async def legal_actions(self, room: Room, seat: int) -> dict[str, Any]:
        async with room.lock:
            actions = room.state.legal_actions(seat) if room.state is not None else []
            return {"version": room.version, "seat": seat, "actions": actions}

    # ---------------------------------------------------------------- connections
    async def connect(self, room: Room, conn: Connection, token: str | None = None) -> None:
        """Attach a socket; it gets the current view at once. Seats and spectators are
        counted apart, so spectators never lock a player out: raises ``ApiError`` (429)
        when the room's spectator places, or this seat's sockets, are all taken.
        ``token``: the seat token the socket came with; its seat is read again here,
        under the lock (seats move in the lobby when one is removed)."""
        async with room.lock:
            if token is not None:
                conn.seat = self._seat_of_token(room, token)
            self._check_room_for(room, conn.seat)
            if self.shared:  # the view it gets first is the stored one
                with contextlib.suppress(Exception):
                    await self._catch_up(room)
            was = room.local(conn.seat) if conn.seat is not None else True
            room.conns.setdefault(conn.seat, set()).add(conn)
            if self.cluster is not None:
                self.cluster.watch(room.code)
            conn.start()
            await self._attached(room, conn, was)

    @staticmethod
    def _seat_of_token(room: Room, token: str) -> int:
        seat = room.seat_for_token(token)
        if seat is None:
            raise ApiError(401, "invalid_token", "This token is not a seat of this room.")
        return seat

    async def _attached(self, room: Room, conn: Connection, was_connected: bool) -> None:
        """Under the lock, a socket just attached: a player back on a seat a bot stood in
        for takes it back; else the socket gets its view (everyone a new version when a
        seat's ``connected`` flag changed)."""
        player = room.players[conn.seat] if conn.seat is not None else None
        if player is not None and player.stand_in:
            # connected and back on the seat: one view says both
            if not was_connected:
                was_connected = await self._presence(room, player.seat, True, broadcast=False)
            try:
                await self._set_bot(room, player, None)
                return
            except Exception:
                log.exception("room %s: seat %s not given back", room.code, conn.seat)
                if was_connected:
                    room.broadcast()
                    return
        if was_connected or conn.seat is None or not await self._presence(room, conn.seat, True):
            room.send_view(conn)

    def _check_room_for(self, room: Room, seat: int | None) -> None:
        open_now = len(room.conns.get(seat, ()))
        if seat is None and open_now >= self.settings.max_spectators_per_room:
            raise ApiError(
                429, "too_many_spectators", "This room has as many spectators as it can take."
            )
        if seat is not None and open_now >= self.settings.max_sockets_per_seat:
            raise ApiError(
                429, "too_many_connections", "This seat is open in too many tabs or devices."
            )

    async def take_seat(self, room: Room, conn: Connection, token: str) -> None:
        """A socket that authenticated after connecting (``{"type": "auth"}``) moves
        from the spectators to its token's seat (read under the lock), and gets the
        seat's view."""
        async with room.lock:
            seat = self._seat_of_token(room, token)
            self._check_room_for(room, seat)
            spectators = room.conns.get(None)
            if spectators is not None:
                spectators.discard(conn)
                if not spectators:
                    del room.conns[None]
            was = room.local(seat)
            conn.seat = seat
            room.conns.setdefault(seat, set()).add(conn)
            if conn._task is None:
                conn.start()
            await self._attached(room, conn, was)

    async def disconnect(self, room: Room, conn: Connection) -> None:
        await conn.stop()
        async with room.lock:
            conns = room.conns.get(conn.seat)
            if conns is None or conn not in conns:
                return
            conns.discard(conn)
            if not conns:
                del room.conns[conn.seat]
                if conn.seat is not None:
                    await self._presence(room, conn.seat, False)
            if self.cluster is not None and not room.connection_count():
                self.cluster.unwatch(room.code)

    async def reassert_presence(self) -> None:
        """Store again the presence of every seat with a socket on this node."""
        for room in list(self.rooms.values()):
            seats = [seat for seat, conns in room.conns.items() if seat is not None and conns]
            if not seats:
                continue
            async with room.lock:
                for seat in seats:
                    await self._presence(room, seat, True)

    async def _presence(self, room: Room, seat: int, present: bool, broadcast: bool = True) -> bool:
        """Under the room's lock: this node's first socket of ``seat`` opened (or its last
        closed): store it as a new version and push it. False when it could not be
        stored (the room stays as stored; the socket is served all the same).

        The one node of a SQLite store keeps presence in memory: a connection change is a
        new version pushed to every socket, not a commit; one write reserves
        ``VERSION_RESERVE`` versions, so the stored version stays ahead of any version a
        client saw (a restart goes on from there) while a seat that reconnects in a loop
        costs no commit per connect."""
        if not self.shared:
            if room.version + 1 > room.stored:
                reserved = room.version + 1 + VERSION_RESERVE
                try:
                    await self.store.call(
                        self.store.set_version, room.code, reserved, None, expected=room.stored
                    )
                    room.stored = reserved
                except Exception:
                    log.exception("room %s: could not reserve versions", room.code)
            room.present = {s for s, conns in room.conns.items() if s is not None and conns}
            room.version += 1  # not ``updated_at``: connections alone do not keep a room alive
            if broadcast:
                room.broadcast()
            return True
        for _ in range(MAX_ATTEMPTS):
            now = time.time()
            try:
                seats = await self.store.call(
                    self.store.set_presence,
                    room.code,
                    seat,
                    self.node,
                    present,
                    version=room.version + 1,
                    now=now,
                )
            except Conflict:
                try:
                    await self._catch_up(room)
                except Exception:
                    return False
                continue
            except Exception:
                log.exception("room %s: could not store a connection change", room.code)
                return False
            room.present = set(seats)
            # not ``updated_at``: connections alone do not keep a room alive
            room.version += 1
            if broadcast:
                room.broadcast()
            self._publish(room, present=sorted(room.present))
            return True
        return False

    def allow_action(self, room: Room, seat: int) -> None:
        """The action rate of one seat (its token), HTTP and websocket together."""
        bucket = room.action_buckets.get(seat)
        if bucket is None:
            bucket = room.action_buckets[seat] = TokenBucket(
                self.settings.action_rate_per_second, self.settings.action_rate_burst
            )
        if not bucket.take():
            raise ApiError(429, "rate_limited", "Too many actions from this seat: slow down.")
