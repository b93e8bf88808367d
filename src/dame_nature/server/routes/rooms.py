"""REST calls of ``docs/api.md``: rooms, seats, start, rematch, replay, state, actions;
plus the card catalogue, the modes and a bot helper (``legal_actions``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from ...engine import MODES, PATHS, REASONS, REASONS_FR, RULES, View, raw_card_data
from ..bot_driver import bot_levels, default_level
from ..clients import client_address
from ..deps import ManagerDep, RoomDep, SeatRefDep, TokenDep, ViewerRefDep
from ..jsonio import dumps
from ..models import (
    ActionBody,
    BotCreate,
    BotLevels,
    BotRoomsPublic,
    BotSeat,
    ErrorPublic,
    GameLog,
    ModesPublic,
    PlayerCreate,
    PlayerCreated,
    Replay,
    RoomCreate,
    RoomCreated,
    RoomPublic,
    RoomRules,
    Started,
    action_to_engine,
)
from ..rooms import RulesChoice

router = APIRouter(prefix="/api", tags=["rooms"])

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorPublic} for status in (400, 401, 403, 404, 409, 413, 422, 429)
}


def view_response(view: dict[str, Any]) -> Response:
    return Response(dumps(view), media_type="application/json")


def rules_choice(body: RoomCreate) -> RulesChoice:
    """The rules of a room's body (``POST``, ``PATCH``), for the lobby to check."""
    return RulesChoice(
        modes=body.modes,
        path=body.path,
        seed=body.seed,
        deal=body.deal.model_dump() if body.deal else None,
        hints=body.hints,
        turn_limit=body.turn_limit_seconds,
    )


@router.post("/rooms", status_code=201, response_model=RoomCreated, responses=ERRORS)
async def create_room(body: RoomCreate, manager: ManagerDep, request: Request) -> dict[str, Any]:
    """Create a room with some advanced rules (`modes`) or a campaign (`path`), and
    optionally a `seed` or an explicit `deal`. Keep the `host_token`: it starts the game."""
    room = await manager.create(rules_choice(body), client_address(request.scope))
    return {"room": room.code, "url": f"/r/{room.code}", "host_token": room.host_token}


@router.patch("/rooms/{room}", response_model=RoomPublic, responses=ERRORS)
async def set_rules(
    room: RoomDep, body: RoomCreate, token: TokenDep, manager: ManagerDep
) -> dict[str, Any]:
    """Host only, before the start: replace the room's rules. The body is the one of
    `POST /api/rooms` (`modes` or `path`, optional `seed` or `deal`); answers the room."""
    await manager.set_rules(room, token, rules_choice(body))
    return manager.public_info(room)


@router.get("/rooms/{room}/rules", response_model=RoomRules, responses=ERRORS)
async def room_rules(room: RoomDep, token: TokenDep, manager: ManagerDep) -> dict[str, Any]:
    """Host only: the rules the host set (`modes` or `path`, `seed`, `deal`), for the
    lobby's rules editor to show and keep them. The seed and the deal decide every hand,
    so no other seat can read them (before the end: `/replay` has them after it)."""
    return manager.rules(room, token)


@router.get("/rooms/{room}", response_model=RoomPublic, responses=ERRORS)
async def room_info(room: RoomDep, manager: ManagerDep) -> dict[str, Any]:
    """Public room information: players (seat, name, connected), modes, status."""
    return manager.public_info(room)


@router.post(
    "/rooms/{room}/players", status_code=201, response_model=PlayerCreated, responses=ERRORS
)
async def join(
    room: RoomDep, body: PlayerCreate, manager: ManagerDep, token: TokenDep
) -> dict[str, Any]:
    """Take the next seat (3 to 6 seats; with a deal, as many as its hands). Keep the
    `token`: it acts for this seat only. Sent with the host token (`Authorization:
    Bearer`), the seat is the host's (`players[].host`). A name already at the table
    (compared case-insensitively after Unicode normalisation) is refused: 409
    `name_taken`."""
    player = await manager.join(room, body.name, token)
    return {"seat": player.seat, "token": player.token}


@router.delete("/rooms/{room}/players/{who}", response_model=RoomPublic, responses=ERRORS)
async def leave(
    room: RoomDep,
    who: Annotated[str, Path(pattern="^(me|[0-5])$", description="`me` or a seat number")],
    token: TokenDep,
    manager: ManagerDep,
) -> dict[str, Any]:
    """Before the start: leave your own seat (`me`, or its number, with your seat
    token), or, with the host token, remove any seat (a person's or a bot's). The seats
    after it move down one (watch `seat` in your view); the removed seat's token stops
    working. Answers the room."""
    await manager.remove_seat(room, token, None if who == "me" else int(who))
    return manager.public_info(room)


@router.post("/rooms/{room}/bots", status_code=201, response_model=BotSeat, responses=ERRORS)
async def add_bot(
    room: RoomDep,
    body: BotCreate,
    token: TokenDep,
    manager: ManagerDep,
    response: Response,
    request: Request,
) -> dict[str, Any]:
    """In the lobby, host only (no `seat`): a bot of `level` takes the next seat (201).
    Once the game has started, with `seat`: a bot takes over the seat of a player who
    left and plays it until that player's token takes it back (200): the host may hand
    any seat without a connection, any seated player (their seat token) a seat absent
    for `DAME_NATURE_ABSENT_SECONDS`; 409 `player_connected` before."""
    level = body.level or default_level()
    if body.seat is None:
        player = await manager.add_bot(room, token, level)
    else:
        player = await manager.take_over(
            room, token, body.seat, level, client_address(request.scope)
        )
        response.status_code = 200
    # the level set, not ``player.bot`` read now: the player may have taken the seat
    # back already (their socket connected once the room's lock was free)
    return {"seat": player.seat, "level": level, "name": player.name}


@router.delete("/rooms/{room}/bots/{seat}", response_model=RoomPublic, responses=ERRORS)
async def remove_bot(
    room: RoomDep,
    seat: Annotated[int, Path(ge=0, le=5)],
    token: TokenDep,
    manager: ManagerDep,
) -> dict[str, Any]:
    """In the lobby, host only: remove a bot's seat (the seats after it move down one).
    During a game, with the seat's own token (or the host's): the bot standing in for
    that player leaves and the player plays the seat again. Answers the room."""
    await manager.release_bot(room, token, seat)
    return manager.public_info(room)


@router.post("/rooms/{room}/start", response_model=Started, responses=ERRORS)
async def start(
    room: RoomDep, token: TokenDep, manager: ManagerDep, request: Request
) -> dict[str, Any]:
    """Host only: start the game with the players who joined. With a bot seated, the
    game counts against your address's games with bots in play (429
    `too_many_bot_rooms` past `DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS`)."""
    await manager.start(room, token, client_address(request.scope))
    return {"room": room.code, "status": "playing", "version": room.version, "game": room.game_no}


@router.post("/rooms/{room}/rematch", response_model=Started, responses=ERRORS)
async def rematch(
    room: RoomDep, token: TokenDep, manager: ManagerDep, request: Request
) -> dict[str, Any]:
    """Host only, once the game is over: a new game with the same seats and a new seed;
    in a path, the next stage after a win, stage 1 after a loss. With a bot seated, it
    counts against your address's games with bots in play, as a start does."""
    await manager.rematch(room, token, client_address(request.scope))
    return {"room": room.code, "status": "playing", "version": room.version, "game": room.game_no}


#: ``?game=N`` of the replays: an earlier game of the room (a rematch keeps them)
GameNumber = Annotated[
    int | None,
    Query(ge=1, le=1_000_000, description="the game of the room (default: the current one)"),
]


@router.get("/rooms/{room}/replay", response_model=Replay, responses=ERRORS)
async def replay(room: RoomDep, manager: ManagerDep, game: GameNumber = None) -> dict[str, Any]:
    """Once the game is over: its setup with every hand, and every action in order.
    ``game``: an earlier game of the room."""
    return await manager.replay(room, game)


@router.get("/rooms/{room}/state", response_model=View, responses=ERRORS)
async def state(room: RoomDep, who: ViewerRefDep, manager: ManagerDep) -> Response:
    """The view of the token's seat, or the spectator's view without a token."""
    return view_response(await manager.view(room, who))


@router.get("/rooms/{room}/log", response_model=GameLog, responses=ERRORS)
async def game_log(
    room: RoomDep,
    who: ViewerRefDep,
    manager: ManagerDep,
    since: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> dict[str, Any]:
    """The whole log of the current game as the token's seat may see it (a spectator's
    without a token), redacted as in its views; `since` skips the events already read.
    Views carry only the last 60 events."""
    return await manager.log(room, who, since)


@router.post("/rooms/{room}/actions", response_model=View, responses=ERRORS)
async def act(
    room: RoomDep,
    who: SeatRefDep,
    manager: ManagerDep,
    action: ActionBody,
) -> Response:
    """Play one action for the token's seat; answers the seat's new view."""
    return view_response(await manager.act(room, who, action_to_engine(action.root)))


@router.get("/rooms/{room}/legal_actions", responses=ERRORS)
async def legal_actions(room: RoomDep, who: SeatRefDep, manager: ManagerDep) -> dict[str, Any]:
    """For bots: every complete action the token's seat may send now."""
    return await manager.legal_actions(room, who)


@router.get("/bots", response_model=BotLevels, tags=["catalogue"])
async def bots() -> dict[str, Any]:
    """The bot levels a seat may be given, weakest first, and the default one."""
    return {"levels": list(bot_levels()), "default": default_level()}


@router.get("/bot_rooms", response_model=BotRoomsPublic)
async def bot_rooms(manager: ManagerDep, request: Request) -> dict[str, Any]:
    """The games with bots your address has in play, and how many it may have: at the
    most, a start with a bot seated is refused 429 `too_many_bot_rooms`, so a client
    asks before it makes a room to play with bots."""
    address = client_address(request.scope)
    return {"in_play": await manager.bot_rooms.games_in_play(address), "max": manager.bot_rooms.cap}


@router.get("/cards", tags=["catalogue"])
async def cards() -> dict[str, Any]:
    """The card catalogue and web layouts (`cards.json`)."""
    data: dict[str, Any] = raw_card_data()
    return data


@router.get("/modes", response_model=ModesPublic, tags=["catalogue"])
async def modes() -> dict[str, Any]:
    """The twelve advanced rules (titles and summaries in English and French), the four
    paths, and the discard reasons' sentences (English, French)."""
    return {
        "modes": [
            {
                "mode": mode,
                "number": i + 1,
                "title": RULES[mode].title,
                "title_fr": RULES[mode].title_fr,
                "summary": RULES[mode].summary,
                "summary_fr": RULES[mode].summary_fr,
            }
            for i, mode in enumerate(MODES)
        ],
        "paths": {str(path): list(modes) for path, modes in PATHS.items()},
        "reasons": {code: {"en": text, "fr": REASONS_FR[code]} for code, text in REASONS.items()},
    }
