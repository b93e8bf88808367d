"""Pydantic models of every request body, answer and websocket message of ``shared/API.md``.

``XCreate`` models are bodies the client sends, ``XPublic`` what the server answers.
Views are the engine's per-seat dicts plus the server fields; they are typed loosely
(``dict``) because the engine owns their shape.

>>> ActionAdapter.validate_python({"type": "program", "card": "cond-blue-1"}).card
'cond-blue-1'
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    RootModel,
    StrictInt,
    TypeAdapter,
    field_validator,
)

CardId = Annotated[str, Field(min_length=1, max_length=64)]
Seat = Annotated[StrictInt, Field(ge=0, le=5)]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ rooms
class Deal(_Body):
    hands: Annotated[list[list[CardId]], Field(min_length=3, max_length=6)]
    first_player: Annotated[StrictInt, Field(ge=0, le=5)] = 0


class RoomCreate(_Body):
    """``POST /api/rooms``: ``modes`` (any combination) or ``path`` (a campaign), and
    optionally a ``seed`` or an explicit ``deal``."""

    modes: Annotated[list[str], Field(max_length=12)] = []
    path: Annotated[StrictInt, Field(ge=1, le=4)] | None = None
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = None
    deal: Deal | None = None


class RoomCreated(BaseModel):
    room: str
    url: str
    host_token: str


class PlayerCreate(_Body):
    """``POST /api/rooms/{room}/players``: the name shown to the others (1 to 40
    characters, spaces around it dropped)."""

    name: Annotated[str, Field(min_length=1, max_length=40)]

    @field_validator("name")
    @classmethod
    def _printable(cls, name: str) -> str:
        name = " ".join(name.split())
        if not name or not name.isprintable():
            raise ValueError("a name needs a printable character")
        return name


class PlayerCreated(BaseModel):
    seat: int
    token: str


class PlayerPublic(BaseModel):
    seat: int
    name: str
    connected: bool
    bot: str | None = Field(
        default=None, description="the level of the bot playing this seat, or null (a person)"
    )
    stand_in: bool = Field(
        default=False,
        description="a bot plays for a person who left; their token takes the seat back",
    )


class BotCreate(_Body):
    """``POST /api/rooms/{room}/bots``: the bot's ``level`` (``GET /api/bots`` lists
    them; the default is the strongest). In the lobby, leave out ``seat``: the bot takes
    the next seat. Once the game has started, ``seat`` names the seat of a player who
    left: the bot takes it over."""

    level: Annotated[str, Field(min_length=1, max_length=32)] | None = None
    seat: Seat | None = None


class BotLevels(BaseModel):
    levels: list[str] = Field(description="the bot levels, weakest first")
    default: str = Field(description="the level of a bot added without one")


class BotSeat(BaseModel):
    seat: int
    level: str
    name: str


class Campaign(BaseModel):
    path: int
    stage: int
    results: list[Literal["won", "lost"]]
    attempt: int = 1


class RoomPublic(BaseModel):
    room: str
    url: str
    status: Literal["lobby", "playing", "over"]
    modes: list[str]
    path: int | None
    campaign: Campaign | None
    players: list[PlayerPublic]
    seats_max: int
    spectators: int
    version: int
    result: dict[str, Any] | None
    created_at: float
    game: int = Field(description="number of the game in this room (rematches count up)")


class Started(BaseModel):
    room: str
    status: Literal["playing"]
    version: int
    game: int


class Replay(BaseModel):
    room: str
    game: int
    setup: dict[str, Any] = Field(
        description="num_players, modes, seed, hands, first_player, set_aside"
    )
    actions: list[dict[str, Any]] = Field(
        description='[{"seat": int, "action": {..}}, ..] in order'
    )
    result: dict[str, Any] | None
    campaign: Campaign | None


class ModeInfo(BaseModel):
    mode: str
    number: int
    title: str
    title_fr: str
    summary: str


class ModesPublic(BaseModel):
    modes: list[ModeInfo]
    paths: dict[str, list[str]]


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorPublic(BaseModel):
    error: ErrorBody


class Health(BaseModel):
    status: Literal["ok"]
    rooms: int


# ------------------------------------------------------------------ actions
class ProgramAction(_Body):
    type: Literal["program"]
    card: CardId


class ReadyAction(_Body):
    type: Literal["ready"]


class UnreadyAction(_Body):
    type: Literal["unready"]


class ShowAction(_Body):
    type: Literal["show"]
    card: CardId
    to: Seat | None = None


class GiveAction(_Body):
    type: Literal["give"]
    card: CardId
    to: Seat


class GiveBackAction(_Body):
    type: Literal["give_back"]
    card: CardId


class SwapDiscardAction(_Body):
    type: Literal["swap_discard"]
    card: CardId
    take: CardId


class RevealAction(_Body):
    type: Literal["reveal"]
    slot: Annotated[str, Field(max_length=64)] | None = None
    colour: Annotated[str, Field(max_length=16)] | None = None
    target: Annotated[str, Field(max_length=64)] | None = None


class ChooseSideAction(_Body):
    type: Literal["choose_side"]
    side: Literal["plant", "animal"]


class EndGameAction(_Body):
    type: Literal["end_game"]


Action = Annotated[
    ProgramAction
    | ReadyAction
    | UnreadyAction
    | ShowAction
    | GiveAction
    | GiveBackAction
    | SwapDiscardAction
    | RevealAction
    | ChooseSideAction
    | EndGameAction,
    Field(discriminator="type"),
]
ActionAdapter: TypeAdapter[Any] = TypeAdapter(Action)


class ActionBody(RootModel[Action]):
    """``POST /api/rooms/{room}/actions``: one action object, told apart by ``type``."""


def action_to_engine(action: BaseModel) -> dict[str, Any]:
    """The plain dict the engine takes (fields left out stay out, ``to: null`` dropped)."""
    data = action.model_dump(exclude_unset=True)
    if data.get("to", 0) is None:
        del data["to"]
    return data


# ------------------------------------------------------------------ websocket
class WsAction(_Body):
    """Client to server: play one action."""

    type: Literal["action"]
    action: Action


class WsPing(_Body):
    """Client to server: the server answers ``{"type": "pong"}``."""

    type: Literal["ping"]


WsClientMessage = Annotated[WsAction | WsPing, Field(discriminator="type")]
WsClientAdapter: TypeAdapter[Any] = TypeAdapter(WsClientMessage)


class WsState(BaseModel):
    """Server to client, after every change: the view of this connection's seat."""

    type: Literal["state"]
    view: dict[str, Any]


class WsError(BaseModel):
    """Server to client: a refused message (the connection stays open unless it is closed)."""

    type: Literal["error"]
    error: ErrorBody


class WsPong(BaseModel):
    type: Literal["pong"]
