"""REST calls of ``docs/api.md``: rooms, seats, start, rematch, replay, state, actions;
plus the card catalogue, the modes and a bot helper (``legal_actions``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query
from fastapi.responses import Response

from ...engine import MODES, PATHS, REASONS, REASONS_FR, RULES, View, raw_card_data
from ..deps import ManagerDep, RoomDep, SeatDep, TokenDep, ViewerDep
from ..jsonio import dumps
from ..models import (
    ActionBody,
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

router = APIRouter(prefix="/api", tags=["rooms"])

ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorPublic} for status in (400, 401, 403, 404, 409, 413, 422, 429)
}


def view_response(view: dict[str, Any]) -> Response:
    return Response(dumps(view), media_type="application/json")


@router.post("/rooms", status_code=201, response_model=RoomCreated, responses=ERRORS)
async def create_room(body: RoomCreate, manager: ManagerDep) -> dict[str, Any]:
    """Create a room with some advanced rules (`modes`) or a campaign (`path`), and
    optionally a `seed` or an explicit `deal`. Keep the `host_token`: it starts the game."""
    room = await manager.create(
        body.modes, body.path, body.seed, body.deal.model_dump() if body.deal else None
    )
    return {"room": room.code, "url": f"/r/{room.code}", "host_token": room.host_token}


@router.patch("/rooms/{room}", response_model=RoomPublic, responses=ERRORS)
async def set_rules(
    room: RoomDep, body: RoomCreate, token: TokenDep, manager: ManagerDep
) -> dict[str, Any]:
    """Host only, before the start: replace the room's rules. The body is the one of
    `POST /api/rooms` (`modes` or `path`, optional `seed` or `deal`); answers the room."""
    await manager.set_rules(
        room, token, body.modes, body.path, body.seed, body.deal.model_dump() if body.deal else None
    )
    return room.public_info()


@router.get("/rooms/{room}/rules", response_model=RoomRules, responses=ERRORS)
async def room_rules(room: RoomDep, token: TokenDep, manager: ManagerDep) -> dict[str, Any]:
    """Host only: the rules the host set (`modes` or `path`, `seed`, `deal`), for the
    lobby's rules editor to show and keep them. The seed and the deal decide every hand,
    so no other seat can read them (before the end: `/replay` has them after it)."""
    return manager.rules(room, token)


@router.get("/rooms/{room}", response_model=RoomPublic, responses=ERRORS)
async def room_info(room: RoomDep) -> dict[str, Any]:
    """Public room information: players (seat, name, connected), modes, status."""
    return room.public_info()


@router.post(
    "/rooms/{room}/players", status_code=201, response_model=PlayerCreated, responses=ERRORS
)
async def join(room: RoomDep, body: PlayerCreate, manager: ManagerDep) -> dict[str, Any]:
    """Take the next seat (3 to 6 seats; with a deal, as many as its hands). Keep the
    `token`: it acts for this seat only."""
    player = await manager.join(room, body.name)
    return {"seat": player.seat, "token": player.token}


@router.post("/rooms/{room}/start", response_model=Started, responses=ERRORS)
async def start(room: RoomDep, token: TokenDep, manager: ManagerDep) -> dict[str, Any]:
    """Host only: start the game with the players who joined."""
    await manager.start(room, token)
    return {"room": room.code, "status": "playing", "version": room.version, "game": room.game_no}


@router.post("/rooms/{room}/rematch", response_model=Started, responses=ERRORS)
async def rematch(room: RoomDep, token: TokenDep, manager: ManagerDep) -> dict[str, Any]:
    """Host only, once the game is over: a new game with the same seats and a new seed;
    in a path, the next stage after a win, stage 1 after a loss."""
    await manager.rematch(room, token)
    return {"room": room.code, "status": "playing", "version": room.version, "game": room.game_no}


@router.get("/rooms/{room}/replay", response_model=Replay, responses=ERRORS)
async def replay(room: RoomDep) -> dict[str, Any]:
    """Once the game is over: its setup with every hand, and every action in order."""
    return room.replay()


@router.get("/rooms/{room}/state", response_model=View, responses=ERRORS)
async def state(room: RoomDep, seat: ViewerDep, manager: ManagerDep) -> Response:
    """The view of the token's seat, or the spectator's view without a token."""
    return view_response(await manager.view(room, seat))


@router.get("/rooms/{room}/log", response_model=GameLog, responses=ERRORS)
async def game_log(
    room: RoomDep,
    seat: ViewerDep,
    manager: ManagerDep,
    since: Annotated[int, Query(ge=0, le=100_000)] = 0,
) -> dict[str, Any]:
    """The whole log of the current game as the token's seat may see it (a spectator's
    without a token), redacted as in its views; `since` skips the events already read.
    Views carry only the last 60 events."""
    return await manager.log(room, seat, since)


@router.post("/rooms/{room}/actions", response_model=View, responses=ERRORS)
async def act(
    room: RoomDep,
    seat: SeatDep,
    manager: ManagerDep,
    action: ActionBody,
) -> Response:
    """Play one action for the token's seat; answers the seat's new view."""
    return view_response(await manager.act(room, seat, action_to_engine(action.root)))


@router.get("/rooms/{room}/legal_actions", responses=ERRORS)
async def legal_actions(room: RoomDep, seat: SeatDep, manager: ManagerDep) -> dict[str, Any]:
    """For bots: every complete action the token's seat may send now."""
    return await manager.legal_actions(room, seat)


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
