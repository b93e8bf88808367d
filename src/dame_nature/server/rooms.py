"""Rooms: the authoritative game state of each room, its seats and connections.

``RoomManager`` owns every room in memory, persists each change through ``Store``
before acknowledging it, and pushes each connected seat its own new view (spectators
theirs) after every change. One ``asyncio.Lock`` per room applies its actions one at a
time; rooms never wait for each other's lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from dataclasses import dataclass, field
from typing import Any, cast

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
from .settings import Settings
from .store import Store

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
#: versions reserved by one stored write when only connections change: a seat that
#: connects and leaves in a loop costs one commit per this many version bumps, and the
#: stored version stays ahead of every version a client has seen
VERSION_RESERVE = 100


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
    #: the highest version stored (``version`` never passes it unstored)
    version_saved: int = 0
    players: list[Player] = field(default_factory=list)
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    conns: dict[int | None, set[Connection]] = field(default_factory=dict, repr=False)
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
        chosen = self.spec.get("seed") is not None or self.spec.get("deal") is not None
        return chosen and self.game_no <= 1

    def deal_choice(self) -> str | None:
        """``"seed"`` or ``"deal"`` when the host chose the current game's deal."""
        if not self.deal_chosen_by_host:
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
        view["room"] = self.code
        view["version"] = self.version
        view["campaign"] = campaign_public(self.campaign)
        view["status"] = self.status
        view["game"] = self.game_no
        view["deal_chosen_by_host"] = self.deal_chosen_by_host
        view["deal_choice"] = self.deal_choice()
        return view

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

    def replay(self) -> dict[str, Any]:
        if self.state is None or not self.state.is_over:
            raise ApiError(409, "game_not_over", "The replay is available once the game is over.")
        chosen = self.deal_chosen_by_host
        return {
            "room": self.code,
            "game": self.game_no,
            "setup": {**self.state.setup, "deal_chosen_by_host": chosen},
            "deal_chosen_by_host": chosen,
            "deal_choice": self.deal_choice(),
            "actions": self.state.history,
            "result": self.state.result,
            "campaign": campaign_public(self.campaign),
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


class RoomManager:
    """Every room: creation, lookup (memory, else the database), changes, expiry."""

    def __init__(self, settings: Settings, store: Store) -> None:
        self.settings = settings
        self.store = store
        self.rooms: dict[str, Room] = {}
        pool = BotPool(settings.bot_processes, settings.bot_think_seconds)
        self.bots = BotDrivers(self, pool, settings.bot_delay_seconds)

    # ---------------------------------------------------------------- lifecycle
    def restore(self) -> int:
        """Load every unfinished room from the database (finished ones load on demand)."""
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
            # connections were lost with the old process: that is a change of the view
            version=data["version"] + 1,
            version_saved=data["version"],
            players=[Player(**p) for p in data["players"]],
        )
        if data["setup"] is not None:
            room.state = State.replay(data["setup"], data["actions"])
        self.rooms[code] = room
        self.bots.notify(room)  # its bots play on
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

    def _reload(self, code: str) -> None:
        with contextlib.suppress(ApiError):
            self.get(code)

    def sweep(self, now: float | None = None, finished_now: bool = False) -> tuple[int, int]:
        """Delete rooms idle for the TTL (lobbies nobody starts: the lobby TTL); drop
        finished games no one watches from memory (all of them with ``finished_now``).
        Returns (deleted, unloaded)."""
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
            self.rooms.pop(code, None)
            self.bots.stop(code)
        unloaded = 0
        for code, room in list(self.rooms.items()):
            if (
                room.status == "over"
                and room.connection_count() == 0
                and not room.lock.locked()
                and (finished_now or now - room.updated_at >= settings.finished_room_memory_seconds)
            ):
                del self.rooms[code]
                self.bots.stop(code)
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
        await self.store.call(
            self.store.create_room, code, room.host_token, room.spec, now, campaign
        )
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
        async with room.lock:
            return await self._seat_new_player(room, name, None)

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
        await self.store.call(
            self.store.add_player,
            room.code,
            player.seat,
            name,
            token,
            version=room.version + 1,
            now=now,
            bot=bot,
            human=player.human,
        )
        room.players.append(player)
        self._changed(room, now)
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
        async with room.lock:
            taken = {p.name for p in room.players}
            name = next((n for n in BOT_NAMES if n not in taken), f"Bot {len(room.players) + 1}")
            player = await self._seat_new_player(room, name, level)
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
        await self.store.call(
            self.store.remove_player, room.code, seat, version=room.version + 1, now=now
        )
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

    async def _set_bot(self, room: Room, player: Player, level: str | None) -> None:
        now = time.time()
        await self.store.call(
            self.store.set_bot, room.code, player.seat, level, version=room.version + 1, now=now
        )
        player.bot = level
        self._changed(room, now)

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
                campaign = next_game(campaign)
                modes = stage_modes(campaign)
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
        """Apply one action of ``seat``; persist it; push the new views; the seat's view.
        Each seat has its own rate (429 ``rate_limited`` past it)."""
        self.allow_action(room, seat)
        async with room.lock:
            if room.state is None:  # (seats move only in the lobby)
                raise ApiError(409, "game_not_started", "The game has not started yet.")
            if room.players[seat].bot is not None:
                raise ApiError(
                    409,
                    "bot_seat",
                    "A bot plays this seat now: take it back first "
                    "(open the room, or DELETE /api/rooms/{room}/bots/{seat}).",
                )
            views = await self._apply(room, seat, action)
            return views[seat] if seat in views else room.view(seat)

    async def act_as_bot(self, room: Room, seat: int, action: dict[str, Any], game: int) -> bool:
        """The action of the bot of ``seat``, decided during game ``game``: played like a
        person's (same lock, same checks, saved before it is broadcast), or dropped (False)
        if the seat has no bot any more or another game began."""
        async with room.lock:
            if room.game_no != game or room.players[seat].bot is None:
                return False
            await self._apply(room, seat, action)
            return True

    async def _apply(
        self, room: Room, seat: int, action: dict[str, Any]
    ) -> dict[int | None, dict[str, Any]]:
        """Under the room's lock: check, apply, store, broadcast; the views sent."""
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
            if any(p.bot for p in room.players):  # its bots wait for no one: reload it
                self.bots.stop(room.code)
                asyncio.get_running_loop().call_later(1.0, self._reload, room.code)
            raise ApiError(
                409, "not_saved", "The action could not be saved; please send it again."
            ) from None
        if state.is_over:
            room.status = "over"
            room.campaign = campaign
        return self._changed(room, now)

    def _changed(self, room: Room, now: float) -> dict[int | None, dict[str, Any]]:
        """A stored change (stored with ``version + 1``): bump, broadcast."""
        room.version += 1
        room.version_saved = max(room.version_saved, room.version)
        room.updated_at = now
        views = room.broadcast()
        self.bots.notify(room)
        return views

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
            was = room.connected(conn.seat) if conn.seat is not None else True
            room.conns.setdefault(conn.seat, set()).add(conn)
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
            try:
                await self._set_bot(room, player, None)
                return
            except Exception:
                log.exception("room %s: seat %s not given back", room.code, conn.seat)
        if was_connected:
            room.send_view(conn)
        else:
            await self._connection_changed(room)

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
            was = room.connected(seat)
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
                    await self._connection_changed(room)

    async def _connection_changed(self, room: Room) -> None:
        """A seat's ``connected`` flag changed: a new version, pushed to every socket.
        It is not stored each time: one write reserves ``VERSION_RESERVE`` versions, so
        the stored version stays ahead of any version a client saw (a restart goes on
        from there) while a seat that reconnects in a loop costs no commit per connect."""
        now = time.time()
        if room.version + 1 > room.version_saved:
            reserved = room.version + 1 + VERSION_RESERVE
            with contextlib.suppress(Exception):
                await self.store.call(self.store.set_version, room.code, reserved, now)
                room.version_saved = reserved
        room.version += 1  # not ``updated_at``: connections alone do not keep a room alive
        room.broadcast()

    def allow_action(self, room: Room, seat: int) -> None:
        """The action rate of one seat (its token), HTTP and websocket together."""
        bucket = room.action_buckets.get(seat)
        if bucket is None:
            bucket = room.action_buckets[seat] = TokenBucket(
                self.settings.action_rate_per_second, self.settings.action_rate_burst
            )
        if not bucket.take():
            raise ApiError(429, "rate_limited", "Too many actions from this seat: slow down.")
