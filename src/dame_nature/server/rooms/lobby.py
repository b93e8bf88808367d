"""The lobby's commands: create a room, set its rules, seat players and bots, remove a
seat, start a game and start the next one (a rematch, a campaign's next stage); and a
bot standing in for a player who left, or giving the seat back.

Each command checks the room as it is under its lock, then changes it through the
commit path (``Commit.attempt``: checked again on the room as stored when another node
wrote it first).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from ...engine import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    EngineError,
    Game,
    InvalidSetup,
    get_game,
    normalise_modes,
)
from ..bot_driver import bot_levels
from ..campaign import new_campaign, next_game, stage_modes
from ..errors import Refused, refusal
from ..seating import check_hand_over, check_name_free, name_key
from ..settings import MAX_TURN_LIMIT_SECONDS, Settings
from .commit import Commit
from .model import CODE_BYTES, TOKEN_BYTES, Player, Room, same_secret
from .registry import Registry

#: names given to bots added in the lobby (the first one no player of the room has)
BOT_NAMES = ("Darwin", "Linné", "Humboldt", "Carson", "Goodall", "Lamarck", "Buffon", "Mendel")


@dataclass(frozen=True, slots=True)
class RulesChoice:
    """The rules a host chooses for a room (``POST /api/rooms``, ``PATCH``), as asked,
    before ``checked_rules``: advanced rules (``modes``) or a campaign (``path``), a
    ``seed`` or an explicit ``deal``, ``hints`` for people too, and the seconds per
    decision of a paced room (``turn_limit``; None: live)."""

    modes: list[str] = field(default_factory=list)
    path: int | None = None
    seed: int | None = None
    deal: dict[str, Any] | None = None
    hints: bool = False
    turn_limit: int | None = None


# ---------------------------------------------------------------- checks
def require_host(room: Room, token: str | None) -> None:
    if token is None:
        raise Refused("missing_token", "This needs the host token (Authorization: Bearer).")
    if not room.is_host(token):
        if room.seat_for_token(token) is not None or same_secret(token, room.host_token):
            raise Refused("not_host", "Only the host of the room can do this.")
        raise Refused("invalid_token", "This token is not valid for this room.")


def require_token(token: str | None) -> str:
    if token is None:
        raise Refused("missing_token", "This needs a token (Authorization: Bearer).")
    return token


def seat_of_token(room: Room, token: str) -> int:
    seat = room.seat_for_token(token)
    if seat is None:
        raise Refused("invalid_token", "This token is not a seat of this room.")
    return seat


def check_level(level: str) -> str:
    levels = bot_levels()
    if level not in levels:
        raise Refused(
            "unknown_level",
            f"There is no bot level '{level[:32]}'; choose one of: {', '.join(levels)}.",
        )
    return level


def check_turn_limit(limit: int | None, settings: Settings | None) -> int | None:
    """A paced room's turn limit, in seconds, within the server's bounds (None: live)."""
    if limit is None:
        return None
    lowest = settings.min_turn_limit_seconds if settings is not None else 3600.0
    if not lowest <= limit <= MAX_TURN_LIMIT_SECONDS:
        raise Refused(
            "invalid_turn_limit",
            f"A turn limit is from {lowest:g} to {MAX_TURN_LIMIT_SECONDS} seconds "
            "(or null: a live game).",
        )
    return int(limit)


def checked_rules(
    rules: RulesChoice, settings: Settings | None = None
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """A room's rules, checked: its spec, and its campaign when it plays a path."""
    modes, path, seed, deal = rules.modes, rules.path, rules.seed, rules.deal
    turn_limit = check_turn_limit(rules.turn_limit, settings)
    if path is not None and modes:
        raise Refused("invalid_request", "Give either 'modes' or 'path' (a campaign), not both.")
    if seed is not None and deal is not None:
        raise Refused("invalid_request", "Give either a 'seed' or a 'deal', not both.")
    try:
        chosen = (
            stage_modes(new_campaign(path)) if path is not None else list(normalise_modes(modes))
        )
        if deal is not None:
            Game(len(deal["hands"]), chosen).check_deal(deal)
    except EngineError as err:
        raise refusal(err) from None
    spec = {"modes": chosen, "path": path, "seed": seed, "deal": deal, "hints": rules.hints}
    if turn_limit is not None:
        spec["turn_limit_seconds"] = turn_limit
    return spec, new_campaign(path) if path is not None else None


# ---------------------------------------------------------------- rooms and rules
async def create(
    commit: Commit,
    registry: Registry,
    settings: Settings,
    rules: RulesChoice,
    address: str | None = None,
    daily: dict[str, Any] | None = None,
) -> Room:
    """A new room, created from client ``address`` (None: not counted). Idle rooms leave
    memory before anyone is refused ``too_many_rooms`` (the server's cap, or the
    address's). ``daily``: what the spec of a room of a daily deal adds (``daily.py``)."""

    def mine() -> int:
        return 0 if address is None else registry.created_from(address)

    if len(registry.rooms) >= settings.max_rooms or mine() >= settings.max_rooms_per_address:
        await registry.evict_idle(time.time())
    if len(registry.rooms) >= settings.max_rooms:
        raise Refused("too_many_rooms", "The server holds too many rooms; try later.")
    if mine() >= settings.max_rooms_per_address:
        raise Refused(
            "too_many_rooms",
            "Too many rooms were opened from your address; finish or leave some, or try later.",
        )
    spec, campaign = checked_rules(rules, settings)
    if daily is not None:  # ``{"daily": {date, players}, "deal_key": ..}``
        spec.update(daily)
    now = time.time()
    code = secrets.token_urlsafe(CODE_BYTES)
    room = Room(
        code=code,
        host_token=secrets.token_urlsafe(TOKEN_BYTES),
        spec=spec,
        created_at=now,
        updated_at=now,
        campaign=campaign,
        absent_limit=settings.absent_seconds,
    )
    await commit.write(commit.store.create_room, code, room.host_token, room.spec, now, campaign)
    registry.add_created(room, address)
    return room


async def set_rules(
    commit: Commit,
    room: Room,
    token: str | None,
    rules: RulesChoice,
    settings: Settings | None = None,
) -> None:
    """Host only, in the lobby: replace the room's rules (modes or path, seed, deal,
    hints in a room of people, the turn limit of a paced room)."""
    require_host(room, token)
    if room.spec.get("daily") is not None:
        raise Refused("daily_rules", "A daily deal's rules are the same for every table.")
    spec, campaign = checked_rules(rules, settings)
    deal = rules.deal

    async def change() -> None:
        if room.status != "lobby":
            raise Refused("game_started", "The rules can change only before the start.")
        if deal is not None and len(room.players) > len(deal["hands"]):
            raise Refused(
                "wrong_player_count",
                f"This deal is for {len(deal['hands'])} players; {len(room.players)} have joined.",
            )
        now = time.time()
        await commit.save(room, commit.store.set_rules, room.code, spec, campaign, now=now)
        room.spec, room.campaign = spec, campaign
        commit.changed(room, now)

    await commit.attempt(room, change)


def rules(room: Room, token: str | None) -> dict[str, Any]:
    """Host only: the room's rules as set, seed and deal included."""
    require_host(room, token)
    spec = room.spec
    path = spec.get("path")
    modes = [] if path is not None else list(spec["modes"])
    daily = spec.get("daily") is not None  # its seed is the deal's: no table sees it
    return {
        "modes": modes,
        "path": path,
        "seed": None if daily else spec.get("seed"),
        "deal": spec.get("deal"),
        "hints": bool(spec.get("hints")),
        "turn_limit_seconds": spec.get("turn_limit_seconds"),
    }


# ---------------------------------------------------------------- seats
async def join(commit: Commit, room: Room, name: str, token: str | None = None) -> Player:
    """A person takes the next seat; with the host token, the seat of the host (the
    first such seat, while the role has not passed on)."""
    host = token is not None and not room.host_passed and same_secret(token, room.host_token)
    return await commit.attempt(room, lambda: _seat_new_player(commit, room, name, None, host))


async def _seat_new_player(
    commit: Commit, room: Room, name: str, bot: str | None, host: bool = False
) -> Player:
    """Under the room's lock, in the lobby: the next seat, for a person (``bot`` None)
    or a bot of that level (whose token is never handed out). ``name_taken`` when a
    seat has this name already."""
    if room.status != "lobby":
        raise Refused("game_started", "The game has started: no seat is free.")
    if len(room.players) >= room.seats_max:
        raise Refused("room_full", f"This room has {room.seats_max} seats, all taken.")
    check_name_free(room.players, name)
    host = host and not any(p.host for p in room.players)
    token = secrets.token_urlsafe(TOKEN_BYTES)
    player = Player(len(room.players), name, token, bot=bot, human=bot is None, host=host)
    now = time.time()
    await commit.save(
        room,
        commit.store.add_player,
        room.code,
        player.seat,
        name,
        token,
        now=now,
        bot=bot,
        human=player.human,
        host=host,
    )
    room.players.append(player)
    commit.changed(room, now)
    return player


async def add_bot(commit: Commit, room: Room, token: str | None, level: str) -> Player:
    """Host only, in the lobby: a bot takes the next seat (named after a naturalist
    no one in the room is called)."""
    require_host(room, token)
    check_level(level)

    async def change() -> Player:
        taken = {name_key(p.name) for p in room.players}
        name = next(
            (n for n in BOT_NAMES if name_key(n) not in taken),
            next(
                f"Bot {i}"
                for i in range(len(room.players) + 1, 99)
                if name_key(f"Bot {i}") not in taken
            ),
        )
        return await _seat_new_player(commit, room, name, level)

    return await commit.attempt(room, change)


async def take_over(commit: Commit, room: Room, token: str | None, seat: int, level: str) -> Player:
    """Once the game has started, a bot plays the seat of a player who left until
    their token takes it back: the host may hand any seat without a connection, any
    seated player a seat that counts as absent (``Settings.absent_seconds``)."""
    given = require_token(token)
    by_host = room.is_host(given)
    if not by_host and room.seat_for_token(given) is None:
        require_host(room, given)  # the old host token: not_host; else invalid_token
    check_level(level)

    async def change() -> Player:
        if room.status == "lobby":
            raise Refused(
                "game_not_started",
                "A bot takes over a seat once the game has started; "
                "in the lobby, add a bot to a new seat instead (leave out 'seat').",
            )
        player = room.player(seat)
        if player.bot is not None:
            raise Refused("already_a_bot", f"A bot already plays seat {seat}.")
        check_hand_over(
            room.players, seat, by_host, room.presence, room.connected(seat), room.absent_limit
        )
        await set_bot(commit, room, player, level)
        return player

    return await commit.attempt(room, change)


async def release_bot(commit: Commit, room: Room, token: str | None, seat: int) -> None:
    """``DELETE /bots/{seat}``: in the lobby the host removes a bot's seat; during a
    game the seat's own token (or the host) gives a stand-in's seat back to its player."""
    given = require_token(token)

    async def change() -> None:
        if room.seat_for_token(given) != seat:
            require_host(room, given)
        player = room.player(seat)
        if player.bot is None:
            raise Refused("not_a_bot", f"Seat {seat} is played by a person, not a bot.")
        if room.status == "lobby":
            await _remove(commit, room, seat)
            return
        if not player.human:
            raise Refused(
                "no_player",
                f"{player.name} joined as a bot: there is no player to give the seat "
                "back to, so it plays to the end of the game.",
            )
        await set_bot(commit, room, player, None)

    await commit.attempt(room, change)


async def remove_seat(commit: Commit, room: Room, token: str | None, seat: int | None) -> None:
    """Before the start: a player leaves their seat (``seat=None``: the token's own
    seat), or the host removes any seat. The seats after it move down one; the
    removed seat's token stops working and its sockets become spectators."""
    given = require_token(token)

    async def change() -> None:  # seats move when one leaves: the token's seat, now
        mine = room.seat_for_token(given)
        leaving = seat
        if leaving is None:
            if mine is None:
                raise Refused("invalid_token", "This token is not a seat of this room.")
            leaving = mine
        elif mine != leaving:
            require_host(room, given)
        if room.status != "lobby":
            raise Refused("game_started", "Seats change only before the start.")
        room.player(leaving)
        await _remove(commit, room, leaving)

    await commit.attempt(room, change)


async def _remove(
    commit: Commit, room: Room, seat: int, admin_log: dict[str, Any] | None = None
) -> None:
    """Under the lock: seat ``seat`` leaves the lobby (``admin_log``: the admin removed
    it, logged in the same write)."""
    now = time.time()
    logged = {} if admin_log is None else {"admin_log": admin_log}
    await commit.save(room, commit.store.remove_player, room.code, seat, now=now, **logged)
    del room.players[seat]
    for player in room.players[seat:]:
        player.seat -= 1
    room.seat_removed(seat)
    commit.hub.seat_removed(room.code, seat)
    commit.changed(room, now)


async def set_bot(commit: Commit, room: Room, player: Player, level: str | None) -> None:
    """Under the lock: a bot of ``level`` plays ``player``'s seat (None: they do). In a
    paced game, a person taking their seat back gets a whole turn limit from now."""
    now = time.time()
    waiting = None
    if level is None and room.status == "playing" and player.seat in room.waiting:
        waiting = room.clocks_after(now, acted=player.seat)
    await commit.save(
        room, commit.store.set_bot, room.code, player.seat, level, now=now, waiting=waiting
    )
    if waiting is not None:
        room.waiting = waiting[0]
    player.bot = level
    if player.human and room.status != "lobby":
        room.add_event("stand_in" if level is not None else "stand_in_ended", player.seat)
    commit.changed(room, now)


# ---------------------------------------------------------------- games
async def start(commit: Commit, room: Room, token: str | None) -> None:
    require_host(room, token)

    async def change() -> None:
        if room.status != "lobby":
            raise Refused("game_started", "The game has already started.")
        n = len(room.players)
        deal = room.spec.get("deal")
        if deal is not None and n != len(deal["hands"]):
            raise Refused(
                "wrong_player_count",
                f"This deal is for {len(deal['hands'])} players; {n} have joined.",
            )
        if n != room.seats_max and room.spec.get("daily") is not None:
            raise Refused(
                "wrong_player_count",
                f"This daily deal is for {room.seats_max} players; {n} have joined.",
            )
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise Refused(
                "not_enough_players",
                f"A game needs {MIN_PLAYERS} to {MAX_PLAYERS} players; {n} have joined.",
            )
        await _new_game(commit, room, room.spec["modes"], room.spec.get("seed"), deal)

    await commit.attempt(room, change)


async def rematch(commit: Commit, room: Room, token: str | None) -> None:
    require_host(room, token)

    async def change() -> None:
        if room.state is None or not room.state.is_over:
            raise Refused("game_not_over", "A rematch starts once the game is over.")
        modes = list(room.state.game.modes)
        campaign = room.campaign
        if campaign is not None:
            campaign = next_game(campaign)
            modes = stage_modes(campaign)
        await _new_game(commit, room, modes, None, None, campaign)

    await commit.attempt(room, change)


async def _new_game(
    commit: Commit,
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
        raise refusal(err) from None
    campaign = campaign if campaign is not None else room.campaign
    now = time.time()
    waiting = room.clocks_after(now, state=state)
    await commit.save(
        room,
        commit.store.start_game,
        room.code,
        room.game_no + 1,
        state.setup,
        campaign=campaign,
        now=now,
        waiting=waiting,
    )
    room.game_no += 1
    room.campaign = campaign
    room.state = state
    room.stand_in_moves = []
    room.waiting = waiting[0] if waiting is not None else {}
    room.status = "playing"
    commit.changed(room, now)
    commit.metrics.games_started.labels(players=str(len(room.players))).inc()
