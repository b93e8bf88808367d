"""Rooms: the authoritative game state of each room, its seats and connections.

``RoomManager`` owns every room in memory, persists each change through ``Store``
before acknowledging it, and pushes each connected seat its own new view (spectators
theirs) after every change. One ``asyncio.Lock`` per room applies its actions one at a
time; rooms never wait for each other's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import secrets
import time
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Protocol

import orjson

from ..engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    EngineError,
    Game,
    IllegalAction,
    InvalidSetup,
    State,
    get_game,
    modes_for_path,
    normalise_modes,
)
from .settings import Settings
from .store import Store

log = logging.getLogger("dame_nature.server")

CODE_BYTES = 12  # room codes: 96 random bits
TOKEN_BYTES = 24  # seat and host tokens: 192 random bits
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


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


def dumps(data: Any) -> str:
    """Compact JSON text (``orjson``: views are encoded once a seat after every change)."""
    text: str = orjson.dumps(data).decode()
    return text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes) -> Any:
    """Strict JSON: ``NaN`` and ``Infinity`` (which Python's parser accepts) are refused."""
    return json.loads(text, parse_constant=_no_constant)


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets."""
    return secrets.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


class TokenBucket:
    """A token bucket: ``take()`` is False once the client goes faster than allowed.

    >>> bucket = TokenBucket(rate=1.0, burst=2)
    >>> bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=0.0), bucket.take(now=1.0)
    (True, True, False, True)
    """

    __slots__ = ("rate", "burst", "tokens", "stamp")

    def __init__(self, rate: float, burst: int) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.stamp: float | None = None

    def take(self, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if self.stamp is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False


class Socket(Protocol):
    async def send_text(self, data: str) -> None: ...


class Connection:
    """One websocket of a seat (``seat=None``: a spectator), with its own outbox.

    A sender task writes the outbox in order; a newer view replaces an older one not yet
    sent, so a slow client costs at most one pending view.
    """

    def __init__(self, socket: Socket, seat: int | None, settings: Settings) -> None:
        self.socket = socket
        self.seat = seat
        self.bucket = TokenBucket(settings.rate_limit_per_second, settings.rate_limit_burst)
        self._outbox: deque[tuple[str, str]] = deque()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.closed = False

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    def push(self, text: str, kind: str = "other") -> None:
        if self.closed:
            return
        if kind == "state" and self._outbox:
            self._outbox = deque(item for item in self._outbox if item[0] != "state")
        self._outbox.append((kind, text))
        self._wake.set()

    async def flush(self) -> None:
        """Wait until everything pushed so far is written (or the socket died)."""
        while self._outbox and not self.closed:
            await asyncio.sleep(0.001)

    async def _run(self) -> None:
        try:
            while not self.closed:
                await self._wake.wait()
                self._wake.clear()
                while self._outbox:
                    _, text = self._outbox.popleft()
                    await self.socket.send_text(text)
        except Exception:  # the peer went away: the receive loop will notice
            self.closed = True

    async def stop(self) -> None:
        self.closed = True
        self._outbox.clear()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


@dataclass
class Player:
    seat: int
    name: str
    token: str


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
    players: list[Player] = field(default_factory=list)
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    conns: dict[int | None, set[Connection]] = field(default_factory=dict, repr=False)

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
        return bool(self.conns.get(seat))

    def connection_count(self) -> int:
        return sum(len(c) for c in self.conns.values())

    # ---------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """The API view of ``seat`` (``None``: a spectator): the engine's view plus the
        server fields. Only views are ever sent to clients, never the state."""
        if self.state is None:
            view = self._lobby_view(seat)
        else:
            view = self.state.view(seat)
            for entry in view["players"]:
                entry["name"] = self.players[entry["seat"]].name
                entry["connected"] = self.connected(entry["seat"])
        view["room"] = self.code
        view["version"] = self.version
        view["campaign"] = _campaign_public(self.campaign)
        view["status"] = self.status
        view["game"] = self.game_no
        return view

    def _lobby_view(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "modes": self.modes,
            "phase": "lobby",
            "turn": 0,
            "first_player": None,
            "free_symbiosis_available": False,
            "players": [
                {
                    "seat": p.seat,
                    "name": p.name,
                    "hand_size": 0,
                    "has_programmed": False,
                    "ready": False,
                    "symbiosis_cards": 0,
                    "side": None,
                    "connected": self.connected(p.seat),
                }
                for p in self.players
            ],
            "hand": [],
            "programmed": None,
            "known": [],
            "web": {},
            "discard": [],
            "revealed_this_turn": [],
            "awaiting": None,
            "winnable": True,
            "result": None,
        }

    def public_info(self) -> dict[str, Any]:
        return {
            "room": self.code,
            "url": f"/r/{self.code}",
            "status": self.status,
            "modes": self.modes,
            "path": self.spec.get("path"),
            "campaign": _campaign_public(self.campaign),
            "players": [
                {"seat": p.seat, "name": p.name, "connected": self.connected(p.seat)}
                for p in self.players
            ],
            "seats_max": self.seats_max,
            "spectators": len(self.conns.get(None, ())),
            "version": self.version,
            "result": dict(self.state.result) if self.state and self.state.result else None,
            "created_at": self.created_at,
            "game": self.game_no,
        }

    def replay(self) -> dict[str, Any]:
        if self.state is None or not self.state.is_over:
            raise ApiError(409, "game_not_over", "The replay is available once the game is over.")
        return {
            "room": self.code,
            "game": self.game_no,
            "setup": self.state.setup,
            "actions": self.state.history,
            "result": self.state.result,
            "campaign": _campaign_public(self.campaign),
        }

    # ---------------------------------------------------------------- broadcast
    def broadcast(self) -> dict[int | None, dict[str, Any]]:
        """Push each connection the view of its seat (one build per seat); the views built."""
        views: dict[int | None, dict[str, Any]] = {}
        for seat, conns in self.conns.items():
            if conns:
                views[seat] = view = self.view(seat)
                text = dumps({"type": "state", "view": view})
                for conn in conns:
                    conn.push(text, "state")
        return views

    def send_view(self, conn: Connection) -> None:
        conn.push(dumps({"type": "state", "view": self.view(conn.seat)}), "state")


def _campaign_public(campaign: dict[str, Any] | None) -> dict[str, Any] | None:
    if campaign is None:
        return None
    return {
        "path": campaign["path"],
        "stage": campaign["stage"],
        "results": list(campaign["results"]),
        "attempt": campaign.get("attempt", 1),
    }


class RoomManager:
    """Every room: creation, lookup (memory, else the database), changes, expiry."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}

    # ---------------------------------------------------------------- lifecycle
    def restore(self) -> int:
        """Load every unfinished room from the database (finished ones load on demand)."""
        self.store.reset_presence()
        for code in self.store.room_codes(("lobby", "playing")):
            try:
                self._load(code)
            except Exception:  # one room the engine cannot replay must not stop the rest
                log.exception("room %s could not be restored", code)
        return len(self.rooms)

    def _load(self, code: str) -> Room | None:
        data = self.store.load_room(code)
        if data is None:
            return None
        room = Room(
            code=code,
            host_token=data["host_token"],
            spec=data["spec"],
            created_at=data["created_at"],
            updated_at=data["updated_at"],
            status=data["status"],
            game_no=data["game_no"],
            campaign=data["campaign"],
            version=data["version"],
            players=[Player(**p) for p in data["players"]],
        )
        if data["setup"] is not None:
            room.state = State.replay(data["setup"], data["actions"])
        self.rooms[code] = room
        return room

    def get(self, code: str) -> Room:
        room = self.rooms.get(code)
        if room is None and CODE_RE.match(code):
            try:
                room = self._load(code)
            except Exception:
                log.exception("room %s could not be loaded", code)
                raise ApiError(
                    409, "room_unavailable", "This room's game cannot be loaded any more."
                ) from None
        if room is None:
            raise ApiError(404, "room_not_found", "There is no room with this code.")
        return room

    def sweep(self, now: float | None = None) -> tuple[int, int]:
        """Delete rooms idle for the TTL; drop finished games no one watches from memory.
        Returns (deleted, unloaded)."""
        now = time.time() if now is None else now
        settings = self.settings
        expired = [
            code
            for code in self.store.idle_rooms(now - settings.room_ttl_seconds)
            if code not in self.rooms or self.rooms[code].connection_count() == 0
        ]
        self.store.delete_rooms(expired)
        for code in expired:
            self.rooms.pop(code, None)
        unloaded = 0
        for code, room in list(self.rooms.items()):
            if (
                room.status == "over"
                and room.connection_count() == 0
                and not room.lock.locked()
                and now - room.updated_at >= settings.finished_room_memory_seconds
            ):
                del self.rooms[code]
                unloaded += 1
        return len(expired), unloaded

    async def run_sweeper(self) -> None:
        while True:
            await asyncio.sleep(self.settings.sweep_interval_seconds)
            try:
                self.sweep()
            except Exception:  # never let the sweeper die
                log.exception("room sweep failed")

    # ---------------------------------------------------------------- rooms
    async def create(
        self,
        modes: list[str],
        path: int | None,
        seed: int | None,
        deal: dict[str, Any] | None,
    ) -> Room:
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
        await self.store.call(
            self.store.create_room, code, room.host_token, room.spec, now, campaign
        )
        self.rooms[code] = room
        return room

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
        async with room.lock:
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
            await self.store.call(
                self.store.set_rules,
                room.code,
                spec,
                campaign,
                version=room.version + 1,
                now=now,
            )
            room.spec, room.campaign = spec, campaign
            self._changed(room, now)

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
                list(modes_for_path(path, 1)) if path is not None else list(normalise_modes(modes))
            )
            if deal is not None:
                Game(len(deal["hands"]), chosen).check_deal(deal)
        except EngineError as err:
            raise engine_error(err) from None
        spec = {"modes": chosen, "path": path, "seed": seed, "deal": deal}
        campaign = None
        if path is not None:
            campaign = {"path": path, "stage": 1, "results": [], "attempt": 1}
        return spec, campaign

    async def join(self, room: Room, name: str) -> Player:
        async with room.lock:
            if room.status != "lobby":
                raise ApiError(409, "game_started", "The game has started: no seat is free.")
            if len(room.players) >= room.seats_max:
                raise ApiError(
                    409, "room_full", f"This room has {room.seats_max} seats, all taken."
                )
            player = Player(len(room.players), name, secrets.token_urlsafe(TOKEN_BYTES))
            now = time.time()
            await self.store.call(
                self.store.add_player,
                room.code,
                player.seat,
                name,
                player.token,
                version=room.version + 1,
                now=now,
            )
            room.players.append(player)
            self._changed(room, now)
            return player

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
        async with room.lock:
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

    async def rematch(self, room: Room, token: str | None) -> None:
        self._require_host(room, token)
        async with room.lock:
            if room.state is None or not room.state.is_over:
                raise ApiError(409, "game_not_over", "A rematch starts once the game is over.")
            modes = list(room.state.game.modes)
            campaign = room.campaign
            if campaign is not None:
                won = campaign["results"][-1] == "won" if campaign["results"] else False
                if won and campaign["stage"] < 3:
                    campaign = {**campaign, "stage": campaign["stage"] + 1}
                else:  # a loss, or the whole path won: a new attempt from stage 1
                    campaign = {
                        **campaign,
                        "stage": 1,
                        "results": [],
                        "attempt": campaign.get("attempt", 1) + 1,
                    }
                modes = list(modes_for_path(campaign["path"], campaign["stage"]))
            await self._new_game(room, modes, None, None, campaign)

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
        await self.store.call(
            self.store.start_game,
            room.code,
            room.game_no + 1,
            state.setup,
            campaign=campaign,
            version=room.version + 1,
            now=now,
        )
        room.game_no += 1
        room.campaign = campaign
        room.state = state
        room.status = "playing"
        self._changed(room, now)

    async def act(self, room: Room, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """Apply one action of ``seat``; persist it; push the new views; the seat's view."""
        async with room.lock:
            state = room.state
            if state is None:
                raise ApiError(409, "game_not_started", "The game has not started yet.")
            try:
                state.apply(seat, action)
            except EngineError as err:
                raise engine_error(err) from None
            campaign = room.campaign
            if state.result is not None and campaign is not None:
                campaign = {**campaign, "results": [*campaign["results"], state.result["outcome"]]}
            now = time.time()
            try:
                await self.store.call(
                    self.store.add_action,
                    room.code,
                    room.game_no,
                    len(state.history) - 1,
                    seat,
                    state.history[-1]["action"],
                    result=state.result,
                    campaign=campaign,
                    version=room.version + 1,
                    now=now,
                )
            except Exception:
                # not stored, so not accepted: rebuild the room from what is stored
                log.exception("could not store an action of room %s", room.code)
                self.rooms.pop(room.code, None)
                raise ApiError(
                    409, "not_saved", "The action could not be saved; please send it again."
                ) from None
            if state.is_over:
                room.status = "over"
                room.campaign = campaign
            views = self._changed(room, now)
            return views[seat] if seat in views else room.view(seat)

    def _changed(self, room: Room, now: float) -> dict[int | None, dict[str, Any]]:
        room.version += 1
        room.updated_at = now
        return room.broadcast()

    async def view(self, room: Room, seat: int | None) -> dict[str, Any]:
        """The view of ``seat`` once no change is half done (a change is visible only
        after it is stored)."""
        async with room.lock:
            return room.view(seat)

    async def legal_actions(self, room: Room, seat: int) -> dict[str, Any]:
        async with room.lock:
            actions = room.state.legal_actions(seat) if room.state is not None else []
            return {"version": room.version, "seat": seat, "actions": actions}

    # ---------------------------------------------------------------- connections
    async def connect(self, room: Room, conn: Connection) -> None:
        """Attach a socket; it gets the current view at once. Raises ``ApiError`` when
        the room has too many sockets open."""
        async with room.lock:
            if room.connection_count() >= self.settings.max_connections_per_room:
                raise ApiError(429, "too_many_connections", "Too many connections to this room.")
            was = room.connected(conn.seat) if conn.seat is not None else True
            room.conns.setdefault(conn.seat, set()).add(conn)
            conn.start()
            if was:
                room.send_view(conn)
            else:
                await self._connection_changed(room)

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
                    await self._connection_changed(room)

    async def _connection_changed(self, room: Room) -> None:
        """A seat's ``connected`` flag changed: a new version, stored so it never goes back."""
        now = time.time()
        with contextlib.suppress(Exception):
            await self.store.call(self.store.set_version, room.code, room.version + 1, now)
        self._changed(room, now)
