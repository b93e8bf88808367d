"""Pydantic models of every request body, answer and websocket message of ``docs/api.md``.

``XCreate`` models are bodies the client sends, ``XPublic`` what the server answers.
Views are the engine's per-seat ``View`` (a ``TypedDict`` the engine owns, with the
fields the server adds), documented in the OpenAPI schema.

>>> ActionAdapter.validate_python({"type": "program", "card": "cond-blue-1"}).card
'cond-blue-1'
"""

from __future__ import annotations

from functools import reduce
from operator import or_
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    RootModel,
    TypeAdapter,
    create_model,
    model_validator,
)

from ..engine import ACTIONS, MODES, ActionSpec, View
from .names import NAME_MAX_CHARACTERS, clean_name


def whole(value: Any) -> Any:
    """JSON Schema's ``integer`` is any number with no fractional part (``5.0`` too):
    accept exactly that, and never a boolean or a string."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


# integers as JSON Schema means them (``5`` or ``5.0``; not ``5.5``, ``"5"``, ``true``)
Seat = Annotated[int, Field(strict=True, ge=0, le=5), BeforeValidator(whole)]
PathNumber = Annotated[int, Field(strict=True, ge=1, le=4), BeforeValidator(whole)]
Seed = Annotated[int, Field(strict=True, ge=0, lt=2**63), BeforeValidator(whole)]
TurnLimit = Annotated[int, Field(strict=True), BeforeValidator(whole)]
CardId = Annotated[str, Field(min_length=1, max_length=64)]
#: a JSON boolean (``true`` or ``false``; not ``"yes"``, ``1`` or ``"false"``)
Flag = Annotated[bool, Field(strict=True)]

#: what a player's name may be, for the OpenAPI schema: no control, line-separator or
#: bidirectional-override character, and at least one that is neither a space nor an
#: invisible joiner or selector. ``clean_name`` (``names.py``) checks it and more (with a
#: sentence a player understands, where a failed pattern would show the regex).
NAME_PATTERN = (
    r"^[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*"
    r"[^\s\x00-\x1f\x7f-\x9f\u061c\u2028\u2029\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufe00-\ufe0f]"
    r"[^\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]*$"
)


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


# ------------------------------------------------------------------ rooms
class Deal(_Body):
    hands: Annotated[list[list[CardId]], Field(min_length=3, max_length=6)]
    first_player: Seat = 0


#: the room rule of paced rooms
PACED = "a paced room: seconds per decision, past which a bot plays it (null: live)"


def _room_rules_schema(schema: dict[str, Any]) -> None:
    # what the server checks beyond each field: not both a non-empty ``modes`` and a
    # ``path``, not both a ``seed`` and a ``deal``
    schema["allOf"] = [
        {
            "not": {
                "required": ["modes", "path"],
                "properties": {"modes": {"minItems": 1}, "path": {"type": "integer"}},
            }
        },
        {
            "not": {
                "required": ["seed", "deal"],
                "properties": {"seed": {"type": "integer"}, "deal": {"type": "object"}},
            }
        },
    ]


class RoomCreate(_Body):
    """``POST /api/rooms``: ``modes`` (any combination) or ``path`` (a campaign), and
    optionally a ``seed`` or an explicit ``deal``. A seed or a deal chosen here is shown
    to every player (``deal_chosen_by_host``)."""

    model_config = ConfigDict(extra="forbid", json_schema_extra=_room_rules_schema)

    modes: Annotated[
        list[str],
        Field(
            max_length=12,
            json_schema_extra={
                "items": {"type": "string", "enum": list(MODES)},
                "uniqueItems": True,
            },
        ),
    ] = []
    path: PathNumber | None = None
    seed: Seed | None = None
    deal: Deal | None = None
    hints: Flag = Field(default=False, description="hints from the expert for people too")
    turn_limit_seconds: TurnLimit | None = Field(default=None, description=PACED)

    @model_validator(mode="after")
    def _one_of_each(self) -> RoomCreate:
        if self.path is not None and self.modes:
            raise ValueError("give either 'modes' or 'path' (a campaign), not both")
        if self.seed is not None and self.deal is not None:
            raise ValueError("give either a 'seed' or a 'deal', not both")
        return self


class RoomRules(BaseModel):
    """``GET /api/rooms/{room}/rules`` (host only): the room's rules as the host set
    them, seed and explicit deal included (they decide every hand, so only the host
    reads them)."""

    modes: list[str]
    path: int | None
    seed: int | None
    deal: dict[str, Any] | None
    hints: bool = False
    turn_limit_seconds: int | None = None


class RoomCreated(BaseModel):
    room: str
    url: str
    host_token: str


#: a player's name, checked and cleaned (``clean_name``)
PlayerName = Annotated[
    str,
    Field(
        min_length=1,
        max_length=8 * NAME_MAX_CHARACTERS,
        json_schema_extra={"pattern": NAME_PATTERN},
    ),
    AfterValidator(clean_name),
]


class PlayerCreate(_Body):
    """``POST /api/rooms/{room}/players``: the name shown to the others (1 to 40
    characters as a person counts them, emoji sequences included; spaces around it
    dropped; no control character)."""

    name: PlayerName


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
    host: bool = Field(
        default=False,
        description="this seat holds the host role: its token is accepted for the host's calls",
    )
    absent: bool = Field(
        default=False,
        description="a person's seat without a connection for `DAME_NATURE_ABSENT_SECONDS`: "
        "any seated player may hand it to a bot",
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


class BotRoomsPublic(BaseModel):
    in_play: int = Field(description="the games with bots your address has in play")
    max: int = Field(description="how many it may have at once")


class BotSeat(BaseModel):
    seat: int
    level: str
    name: str


class Campaign(BaseModel):
    path: int
    stage: int
    results: list[Literal["won", "lost"]]
    attempt: int = 1


class TurnClock(BaseModel):
    """A paced game's clock: a seat it waits for, since when, when a bot plays for it."""

    seat: int
    since: float
    due: float | None


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
    deal_chosen_by_host: bool = Field(
        description="the host chose this game's deal (a seed or the hands): the host may "
        "know every hand"
    )
    deal_choice: Literal["seed", "deal"] | None = Field(
        description="what the host chose, when `deal_chosen_by_host`"
    )
    updated_at: float
    turn_limit_seconds: int | None = Field(description=PACED)
    waiting_for: list[int] = Field(description="the seats the game waits for now")
    turn_clocks: list[TurnClock]
    daily: dict[str, Any] | None = None  # {date, players}: the daily deal of its game 1


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
    deal_chosen_by_host: bool = Field(description="the host chose this game's deal")
    deal_choice: Literal["seed", "deal"] | None
    hints_taken: list[int] = Field(default=[], description="the hints each seat took")


class ReplayPlayer(BaseModel):
    seat: int
    name: str


class ReplayStep(BaseModel):
    index: int
    kind: Literal["start", "action", "reveal", "turn_end"]
    turn: int
    seat: int | None
    action: dict[str, Any] | None = Field(description="set on the first step of an action")
    events: list[dict[str, Any]] = Field(
        description="the events of this step, private parts included"
    )
    state: dict[str, Any] = Field(
        description="the whole table after this step: phase, turn, first_player, web, "
        "joker_colours, discard, in_play, revealed_this_turn, last_turn, pending_give, "
        "winnable, result, players: [{seat, hand, programmed, ready, symbiosis_cards, side}]"
    )


class ReplaySteps(BaseModel):
    room: str
    game: int
    modes: list[str]
    players: list[ReplayPlayer]
    result: dict[str, Any] | None
    campaign: Campaign | None
    layout: str
    webs: list[str]
    max_discards: int
    deck_size: int
    steps: list[ReplayStep] = Field(description="the page's steps: `offset` to `offset + limit`")
    total_steps: int = Field(description="the steps of the whole game")
    offset: int = Field(description="the index of the page's first step")
    next_offset: int | None = Field(description="the next page's `offset`; null on the last")


class GameLog(BaseModel):
    """``GET /api/rooms/{room}/log``: the whole log of the current game as this seat may
    see it (views carry only its last 60 events)."""

    version: int
    game: int
    seat: int | None
    total: int = Field(description="events in the whole log; `events` starts at `since`")
    events: list[dict[str, Any]] = Field(
        description="the engine's events, redacted for this seat as in its views"
    )
    stand_in_moves: list[dict[str, Any]] = Field(
        default_factory=list,
        description="the moves of this game a bot played for an absent person "
        "(`seat`, `turn`, `type`, `level`)",
    )
    table_events: list[dict[str, Any]] = Field(
        default_factory=list,
        description="who left, came back, was stood in for by a bot, became host",
    )


class ModeInfo(BaseModel):
    mode: str
    number: int
    title: str
    title_fr: str
    summary: str
    summary_fr: str


class ReasonText(BaseModel):
    en: str
    fr: str


class ModesPublic(BaseModel):
    modes: list[ModeInfo]
    paths: dict[str, list[str]]
    reasons: dict[str, ReasonText] = Field(
        description="why a card was discarded: each reason code of the views (a reveal "
        "record's or an event's `reason`) with its sentence, in English and French"
    )


class ErrorBody(BaseModel):
    code: str
    message: str


class ErrorPublic(BaseModel):
    error: ErrorBody


class Health(BaseModel):
    status: Literal["ok"]
    rooms: int


# ------------------------------------------------------------------ actions
#: the type of each kind of an action's field (``engine.actions.Field.kind``)
_FIELD_TYPES: dict[str, Any] = {
    "card": CardId,
    "seat": Seat,
    "slot": Annotated[str, Field(max_length=64)],
    "colour": Annotated[str, Field(max_length=16)],
    "side": Literal["plant", "animal"],
}
#: a field that may be left out; a card the engine alone checks (a Pollution's target)
_OPTIONAL_TYPES: dict[str, Any] = {**_FIELD_TYPES, "card": Annotated[str, Field(max_length=64)]}


def _action_model(spec: ActionSpec) -> type[_Body]:
    """The body model of one action type of the engine's registry: ``type``, then its
    fields in the registry's order (``ProgramAction``, ``GiveBackAction``, ...)."""
    fields: dict[str, Any] = {"type": (Literal[spec.name], ...)}  # type: ignore[valid-type]
    for field in spec.fields:
        if field.required:
            fields[field.name] = (_FIELD_TYPES[field.kind], ...)
        else:
            fields[field.name] = (_OPTIONAL_TYPES[field.kind] | None, None)
    name = "".join(word.capitalize() for word in spec.name.split("_")) + "Action"
    return create_model(name, __base__=_Body, __module__=__name__, **fields)


#: one model per action type of the engine's registry, in its order
ACTION_MODELS: dict[str, type[_Body]] = {
    kind: _action_model(spec) for kind, spec in ACTIONS.items()
}

if TYPE_CHECKING:
    Action = _Body
else:
    Action = Annotated[reduce(or_, ACTION_MODELS.values()), Field(discriminator="type")]
ActionAdapter: TypeAdapter[Any] = TypeAdapter(Action)


class ActionBody(RootModel[Action]):
    """``POST /api/rooms/{room}/actions``: one action object, told apart by ``type``."""


def action_to_engine(action: BaseModel) -> dict[str, Any]:
    """The plain dict the engine takes (fields left out stay out, ``to: null`` dropped)."""
    data = action.model_dump(exclude_unset=True)
    if data.get("to", 0) is None:
        del data["to"]
    return data


#: the most characters a string field of each kind may hold (``_FIELD_TYPES``)
_MAX_CHARS = {"card": 64, "slot": 64, "colour": 16}
#: for each action type, its fields as ``(name, kind, required)`` in the model's order
_FAST_FIELDS: dict[str, tuple[tuple[str, str, bool], ...]] = {
    kind: tuple((field.name, field.kind, field.required) for field in spec.fields)
    for kind, spec in ACTIONS.items()
}


def _plain_value(kind: str, required: bool, value: Any) -> bool:
    """Whether ``value`` is one that field's model takes as it is (the value left
    unchanged): an ASCII string within its length, a seat as an ``int``, a side; a
    missing optional field as ``None``. False for anything else, even what the model
    would take (``5.0`` for a seat) or refuse: the model decides those."""
    if value is None:
        return not required
    if kind == "seat":
        return type(value) is int and 0 <= value <= 5
    if type(value) is not str or not value.isascii():
        return False
    if kind == "side":
        return value == "plant" or value == "animal"
    return (1 if required and kind == "card" else 0) <= len(value) <= _MAX_CHARS[kind]


def plain_ws_action(data: Any) -> dict[str, Any] | None:
    """The engine's action of a websocket ``action`` message that the models take
    exactly as it is (a dict of two keys, an action of a known type with only its own
    fields, each value plain: ``_plain_value``), as ``action_to_engine`` of the
    validated ``WsAction`` gives it: its fields in the model's order, ``to: null``
    dropped. None for any other message, which the models validate (and refuse with
    their own words): the hot message without building a model, never a message
    taken that the models refuse."""
    if type(data) is not dict or len(data) != 2 or data.get("type") != "action":
        return None
    action = data.get("action")
    if type(action) is not dict:
        return None
    kind = action.get("type")
    if type(kind) is not str:
        return None
    fields = _FAST_FIELDS.get(kind)
    if fields is None:
        return None
    engine: dict[str, Any] = {"type": kind}
    given = 1  # the keys of the message's action that are ``type`` or one of its fields
    for name, field_kind, required in fields:
        if name not in action:
            if required:
                return None
            continue
        value = action[name]
        if not _plain_value(field_kind, required, value):
            return None
        given += 1
        if value is not None or name != "to":
            engine[name] = value
    return engine if given == len(action) else None


# ------------------------------------------------------------------ websocket
class WsAction(_Body):
    """Client to server: play one action."""

    type: Literal["action"]
    action: Action


class WsPing(_Body):
    """Client to server: the server answers ``{"type": "pong"}``."""

    type: Literal["ping"]


class WsAuth(_Body):
    """Client to server, instead of ``?token=`` in the URL: act as the seat of
    ``token`` from now on (the answer is the seat's view)."""

    type: Literal["auth"]
    token: Annotated[str, Field(min_length=1, max_length=128)]


class WsVisibility(_Body):
    """Client to server: this connection's page is shown (``visible``) or hidden; a seat
    whose page is open and visible gets no turn notice."""

    type: Literal["visibility"]
    visible: Flag


WsClientMessage = Annotated[WsAction | WsPing | WsAuth | WsVisibility, Field(discriminator="type")]
WsClientAdapter: TypeAdapter[Any] = TypeAdapter(WsClientMessage)


class WsState(BaseModel):
    """Server to client, after every change: the view of this connection's seat."""

    type: Literal["state"]
    view: View


class WsError(BaseModel):
    """Server to client: a refused message (the connection stays open unless it is closed)."""

    type: Literal["error"]
    error: ErrorBody


class WsPong(BaseModel):
    type: Literal["pong"]
