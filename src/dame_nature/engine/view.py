"""Per-seat views: a function of ``(state, seat)``, never a copy of the state with fields
deleted. A view holds no card id its seat is not entitled to see.

``View`` is the contract (a ``TypedDict``, documented in the server's OpenAPI schema):
the fields of the public API (``docs/api.md``) less what the server adds (``room``,
``version``, players' ``name`` and ``connected``, ``campaign``, ``status``, ``game``),
plus what clients find useful (``to_act``, ``legal_types``, ``known_by``, ``revealing``,
``pending_give``, ``last_turn``, ``log``, ``max_discards``, ``turns_total``,
``layout``, ``symbiosis_kinds``...). ``lobby.lobby_view`` gives the same shape before a game.

Speed: everything but a seat's own part (``seat``, ``hand``, ``programmed``, ``known``,
``known_by``, the ``awaiting`` options and the private details of the log) is built
once per change of the state and shared by every seat's view, so a view must be read,
never changed in place (the server copies what it adds to). ``public_part`` and
``seat_part`` give the two halves apart: the server encodes the shared one once per
change for every socket of a room (``server/views.py``). From one version to the next
the shared part keeps what still holds: each seat's log tail (the events logged since
are added), ``no_place``'s answers for the turn's programming, the lists of the shared
part that did not change (its ``tail`` and ``rest`` whole when equal), its table,
outlook and ``lost_reason`` while seats only programmed and said they were ready or not
(``public_part``: then the part itself is brought to the new version in place, and is
to be read at the state's current version only; only the entries of the seats of those
events are made again), the table's cards after Symbioses that move cards only between
hands (the part brought in place too, its fields that may change asked again), and each
player's entry while it is equal (the same dict). A seat's part is
built whenever asked and never kept: ``seat_stamp`` gives, as an int, the version at
which it last changed (during programming, it holds while other seats only program and
say they are ready or not), so that a reader keeps what it made of the part by that
stamp, not the part's objects.
"""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import (
    TYPE_CHECKING,
    Any,
    NamedTuple,
    NotRequired,  # pydantic needs these on 3.11
    cast,
)

from typing_extensions import TypedDict

from . import knowledge, outlook, reveal
from .actions import ACTIONS
from .changes import private_part
from .enums import PROGRAMMING
from .state import programming_types
from .table import table_cards

if TYPE_CHECKING:
    from .state import State

LOG_TAIL = 60  # events of the log included in a view
UNASKED = object()  # (``PublicPart.lost`` before ``lost_reason`` is asked)
NO_SEATS: frozenset[int] = frozenset()
#: each ``SeatPart.legal_types`` met, given as the same tuple for the whole process (a few
#: dozen): a tuple of strings a seat's part holds and no new list a part built again
LEGAL_TYPES: dict[tuple[str, ...], tuple[str, ...]] = {}


class PlayerView(TypedDict):
    seat: int
    hand_size: int
    has_programmed: bool
    ready: bool
    symbiosis_cards: int
    side: str | None  # "plant" / "animal" (Species biodiversity), else null
    name: NotRequired[str]  # added by the server
    connected: NotRequired[bool]  # added by the server


class SeatCard(TypedDict):
    seat: int
    card: str


class RevealRecord(TypedDict):
    """One reveal of a turn: ``result`` is ``placed``, ``discarded`` (``reason`` says
    why), ``played`` (a Pollution or Reintroduction), ``in_play`` (a Cat during its
    turn) or ``returned`` (a Cat gone back to hand at the end of its turn)."""

    seat: int
    card: str
    result: str
    slot: str | None
    colour: str | None
    reason: str | None
    target: str | None  # the Condition a Pollution removed


class Revealing(TypedDict):
    seat: int
    card: str | None


#: ``{"from": seat, "to": seat}``: a card given waits for its answer
PendingGive = TypedDict("PendingGive", {"from": int, "to": int})  # noqa: UP013 ("from")


class Awaiting(TypedDict):
    """The one seat the game waits for, why (``choose_side``, ``reveal``, ``give_back``),
    and, in that seat's own view only, every complete action it may send."""

    seat: int
    kind: str
    options: list[dict[str, Any]]


class GameResult(TypedDict):
    outcome: str  # "won" / "lost"
    discards: int


class View(TypedDict):
    """What one seat (``seat``; ``null``: a spectator) sees of a game."""

    seat: int | None
    modes: list[str]
    phase: str  # choosing_sides, programming, reveal, over (the server adds "lobby")
    turn: int
    turns_total: int
    first_player: int | None
    free_symbiosis_available: bool
    symbiosis_kinds: list[str]
    show_names_one_player: bool
    players: list[PlayerView]
    hand: list[str]
    programmed: str | None
    known: list[SeatCard]  # the other players' cards this seat knows
    known_by: dict[str, list[int]]  # which other players know which of this seat's cards
    layout: str
    webs: list[str]
    web: dict[str, str | None]
    joker_colours: dict[str, str]
    discard: list[str]
    in_play: list[SeatCard]  # Cats revealed this turn
    revealed_this_turn: list[RevealRecord]
    last_turn: list[RevealRecord]
    revealing: Revealing | None
    pending_give: PendingGive | None
    # the seats in the order their cards are revealed this turn (before the reveal: if it
    # started now)
    reveal_order: list[int]
    awaiting: Awaiting | None
    to_act: list[int]  # the seats the table waits for now (programming, ready, a choice)
    # the types of the actions this seat may send now (``legal_actions`` without listing
    # them): e.g. a Symbiosis is possible when show, give or swap_discard is there
    legal_types: list[str]
    # every complete action this seat may send now, as it posts them (empty: a spectator)
    legal_actions: list[dict[str, Any]]
    # during programming, each card this seat holds -> the reason it would be discarded
    # if revealed this turn in the web as it is now, or null when it may find a place
    no_place: dict[str, str | None]
    winnable: bool
    max_discards: int
    deck_size: int
    result: GameResult | None
    log: list[dict[str, Any]]  # the last 60 events this seat may see
    # added by the server
    room: NotRequired[str]
    version: NotRequired[int]  # increases with every change of the room
    campaign: NotRequired[dict[str, Any] | None]  # path, stage, results, attempt
    status: NotRequired[str]  # lobby, playing, over
    game: NotRequired[int]  # 1, then 2 after a rematch, ...


def public_event(event: dict[str, Any]) -> dict[str, Any]:
    """The event as a seat that sees none of its private part sees it (the event itself
    when it has none)."""
    return _public(event) if "_seen_by" in event else event


def _public(event: dict[str, Any]) -> dict[str, Any]:
    """An event with a private part without it (nor ``_seen_by``): the only keys of an
    event that start with ``_`` (``State.event``)."""
    public = event.copy()
    del public["_seen_by"]
    public.pop("_private", None)
    return public


def redact_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it (private details only for those entitled)."""
    public = {k: v for k, v in event.items() if not k.startswith("_")}
    if seat is not None and seat in event.get("_seen_by", ()):
        public.update(private_part(event))
    return public


def visible_log(
    state: State, seat: int | None, tail: int | None = LOG_TAIL
) -> list[dict[str, Any]]:
    """The log (its last ``tail`` events; ``None``: all) as ``seat`` may see it."""
    events = state.log if tail is None else state.log[-tail:]
    return [redact_event(e, seat) for e in events]


class PublicPart:
    """What every seat's view shares at one version of the state (``len(log)``); during a
    programming phase, while seats only program, say they are ready or not and make
    Symbioses that move cards only between hands, the same part is brought from one
    version to the next (``_programming_step``, ``_exchange_step``)."""

    __slots__ = (
        ("version", "head", "players", "tail", "awaited", "to_act", "rest", "log_start")
        + ("log", "public_tail", "log_audience", "no_place", "seat_logs", "previous")
        + ("previous_start", "previous_version", "previous_audience", "memo")
        + ("seat_stamps", "seat_tables", "seat_checked", "seat_cards", "seat_knows")
        + ("seat_owners_known",)
        + ("last_private", "table_key", "lost", "touched_from", "touched")
    )

    def __init__(
        self,
        version: int,
        head: dict[str, Any],
        players: list[dict[str, Any]],
        tail: dict[str, Any],
        awaited: tuple[int, str] | None,
        to_act: list[int],
        rest: dict[str, Any],
        log_start: int,
        log: list[dict[str, Any]],
        last_private: dict[int, int] | None = None,
        earlier: PublicPart | None = None,
    ) -> None:
        self.version = version
        #: the fields before the seat's own ones but ``players``, which come last (the
        #: same dict from one version to the next while they are equal)
        self.head = head
        #: each seat's entry (``_player``): the same list through the versions of a
        #: programming phase, its entries replaced as they change (read it at its version)
        self.players = players
        self.tail = tail  # the fields after them (but ``awaiting`` and ``log``)
        self.awaited = awaited
        self.to_act = to_act
        self.rest = rest  # the fields between ``legal_types`` and ``log``
        self.log_start = log_start  # index in the log of the first event of the tail
        #: the state's log (the tail: ``log_entries``), read up to ``version`` only
        self.log = log
        #: ``log_public``, once asked
        self.public_tail: list[dict[str, Any]] | None = None
        #: ``reveal.no_place``'s answers of this turn's programming (shared by the parts
        #: of the versions of one programming phase)
        self.no_place: dict[Any, Any] = {}
        #: each seat's log tail built at this version (``log_public`` when it sees no
        #: private part in it), from which the next version's is built by adding the
        #: events logged since
        self.seat_logs: dict[int, list[dict[str, Any]]] = {}
        #: the previous version's ``seat_logs`` (``None``: no previous version), and its
        #: ``log_start``, ``version`` and ``log_audience``: a seat out of that audience saw
        #: the public events of the tail (those of this version's ``log_public`` logged
        #: before ``previous_version``); four slots, not a tuple the cyclic collector would
        #: walk (it never untracks a tuple holding a dict)
        self.previous: dict[int, list[dict[str, Any]]] | None = None
        self.previous_start = self.previous_version = 0
        self.previous_audience: Set[int] = NO_SEATS
        #: what a reader of the parts keeps from one version of the state to the next
        #: (the server: the pieces it encoded), shared by the parts of every version of
        #: the state
        self.memo: dict[str, Any]
        #: during a programming phase, ``seat -> the version`` at which its part last
        #: changed (``seat_stamp``), ``seat -> what the table was then`` (the awaited seat
        #: and kind, whether the game was winnable and the reveal order, as a string:
        #: ``_table_key``), and ``seat -> the version`` up to which the events logged since
        #: were found to leave its part as it is; shared like ``memo``. Ints and strings
        #: only: dicts the cyclic collector does not track, and no part kept as objects
        self.seat_stamps: dict[int | None, int]
        self.seat_tables: dict[int | None, str]
        self.seat_checked: dict[int | None, int]
        #: ``seat -> the version`` at which its cards and at which its knowledge last
        #: changed (``seat_piece_stamps``), kept like ``seat_stamps``
        self.seat_cards: dict[int | None, int]
        self.seat_knows: dict[int | None, int]
        #: ``seat -> the owners of the cards it knew`` (``known``'s, as a bit mask) at the
        #: version of its ``seat_knows``, kept like it: a card given between two other
        #: seats changes its knowledge only when it knew one of the giver's cards
        self.seat_owners_known: dict[int | None, int]
        if earlier is None:
            self.memo, self.seat_stamps, self.seat_tables, self.seat_checked = {}, {}, {}, {}
            self.seat_cards, self.seat_knows, self.seat_owners_known = {}, {}, {}
        else:  # (``earlier``: the part of an earlier version of the same state)
            self.memo, self.seat_stamps = earlier.memo, earlier.seat_stamps
            self.seat_tables, self.seat_checked = earlier.seat_tables, earlier.seat_checked
            self.seat_cards, self.seat_knows = earlier.seat_cards, earlier.seat_knows
            self.seat_owners_known = earlier.seat_owners_known
        if last_private is None:
            last_private = {}
            for i in range(log_start, version):
                for s in log[i].get("_seen_by", ()):
                    last_private[s] = i
        #: ``seat -> the index in the log of the last event with a private part it sees``
        #: (events before the tail may be counted: what counts is ``log_audience``)
        self.last_private = last_private
        #: the seats that see a private part of an event of the tail
        self.log_audience: set[int] = (
            set(last_private)  # (most often: no comprehension to run)
            if not last_private or min(last_private.values()) >= log_start
            else {s for s, i in last_private.items() if i >= log_start}
        )
        #: ``_table_key``'s answer, once asked
        self.table_key: str | None = None
        #: the seats of the events logged since version ``touched_from`` when these are
        #: all ``OTHERS_EVENTS`` (``public_part``'s programming phase), as a bit mask (an
        #: int, which the cyclic collector does not track), else ``None``
        self.touched_from = -1
        self.touched: int | None = None
        #: ``lost_reason``'s answer, once asked (``UNASKED`` before)
        self.lost: dict[str, Any] | None | object = UNASKED

    @property
    def log_entries(self) -> list[dict[str, Any]]:
        """The events of the tail, as the log holds them (an event with a private part
        has ``_private`` and ``_seen_by``): a new list at each call, kept by no part."""
        return self.log[self.log_start : self.version]

    @property
    def log_public(self) -> list[dict[str, Any]]:
        """The tail as a seat that sees none of its private parts sees it (made when first
        asked: the server encodes the events from ``log_entries``)."""
        tail = self.public_tail
        if tail is None:
            tail = self.public_tail = [public_event(e) for e in self.log_entries]
        return tail


class SeatPart(NamedTuple):
    """What only one seat's view holds: ``own`` (``hand``, ``programmed``, ``known``,
    ``known_by``), ``awaiting``, ``legal_types``, ``log`` (``None``: the public one,
    ``PublicPart.log_public``, or not asked for), ``listings`` (``legal_actions`` by
    action type, in the order of ``legal_types``: each type's actions, the type's
    ``ActionSpec.listing`` when it has one; empty when not asked for) and ``no_place``."""

    own: dict[str, Any]
    awaiting: Awaiting | None
    legal_types: tuple[str, ...]
    log: list[dict[str, Any]] | None
    listings: Sequence[Sequence[dict[str, Any]]]
    no_place: dict[str, str | None]

    @property
    def legal_actions(self) -> list[dict[str, Any]]:
        return [action for actions in self.listings for action in actions]


def public_part(state: State) -> PublicPart:
    """The shared part of the views at the state's current version (built once)."""
    log = state.log
    version = len(log)
    cached: PublicPart | None = state._public
    if cached is not None and cached.version == version:
        return cached
    awaited = state.awaited()  # (one tuple for the process by seat and why: none kept a version)
    # the cached part, when it is of the programming phase of this turn still
    programming = (
        cached
        if cached is not None
        and state.phase == "programming"
        and cached.head["phase"] == "programming"
        and cached.head["turn"] == state.turn
        else None
    )
    if programming is not None and programming.version < version:
        touched = _seats_since(log, programming.version, version)
        if touched is not None:
            _programming_step(state, programming, touched, awaited)
            return programming
        if _cards_stay(log, programming.version, version):
            _exchange_step(state, programming, awaited)
            return programming
    head, players, tail, rest = _table(state, awaited, cached)
    log_start = version - LOG_TAIL if version > LOG_TAIL else 0
    if cached is not None and cached.log_start <= log_start <= cached.version <= version:
        # the events still in the tail were counted by the previous version
        first_new = cached.version
        last_private = dict(cached.last_private)
    else:
        first_new, last_private = log_start, {}
    for i in range(first_new, version):
        event = log[i]
        if "_seen_by" in event:
            for s in event["_seen_by"]:
                last_private[s] = i
    part = PublicPart(
        version, head, players, tail, awaited, state.to_act(), rest, log_start, log,
        last_private, cached,
    )  # fmt: skip
    if cached is not None:
        part.previous = cached.seat_logs
        part.previous_start, part.previous_version = cached.log_start, cached.version
        part.previous_audience = cached.log_audience  # (most often this version's own)
        # what did not change: the previous version's (fewer young objects, and a reader
        # may keep what it made of them: ``server/views.py``)
        old_players = cached.players
        if len(players) == len(old_players):  # each entry of the previous version when equal
            for s, entry in enumerate(players):
                if entry == old_players[s]:
                    players[s] = old_players[s]
        if head == cached.head:
            part.head = cached.head
        if players == old_players:  # (the same dicts: compared by identity)
            part.players = old_players
        if tail == cached.tail:
            part.tail = cached.tail
        else:
            old_tail = cached.tail
            for key, value in tail.items():
                if type(value) is list and old_tail.get(key) == value:
                    tail[key] = old_tail[key]
        if rest == cached.rest:
            part.rest = cached.rest
        if part.to_act == cached.to_act:
            part.to_act = cached.to_act
        if part.log_audience == cached.log_audience:
            part.log_audience = cached.log_audience
    if programming is not None:
        part.no_place = programming.no_place
    state._public = part
    return part


def _programming_step(
    state: State, part: PublicPart, seats: set[int], awaited: tuple[int, str] | None
) -> None:
    """``part``, the shared part of an earlier version of this programming phase, brought
    in place to the state's version, when the events logged since are all
    ``OTHERS_EVENTS`` of ``seats``: only cards programmed and seats ready or not, so the
    table, the turn's count, the reveal order and the game's outlook (``lost_reason``)
    are as they were (hands and programmed cards only moved within a seat), and so are
    the players' entries but those of ``seats``, and ``to_act`` unless one of them
    became ready or not (each seat keeps its cards, so only its readiness moves it in or
    out: ``State.to_act`` is asked only then). No new part nor list is made a version:
    the part is that of the state's current version, to be read at it."""
    log = state.log
    version = len(log)
    players = part.players
    mask = 0  # (``seats`` as a bit mask)
    readiness_moved = False
    for s in seats:
        # (a seat's side is chosen before the first turn: these events leave it)
        before = players[s]
        entry = _player(state, s, before["side"])
        if entry != before:
            players[s] = entry
            readiness_moved = readiness_moved or entry["ready"] != before["ready"]
        mask |= 1 << s
    _log_step(part, log, version)
    if readiness_moved:
        to_act = state.to_act()
        if to_act != part.to_act:
            part.to_act = to_act
    if awaited != part.awaited:  # (the table waits otherwise: ``_table_key`` again)
        part.awaited, part.table_key = awaited, None
    part.touched_from, part.touched = part.version, mask
    part.version = version


def _log_step(part: PublicPart, log: list[dict[str, Any]], version: int) -> None:
    """``part``'s log fields (``log_start``, ``last_private``, ``log_audience``, the
    previous version's logs) brought in place from its version to ``version``; its
    ``version`` is the caller's to set."""
    log_start = version - LOG_TAIL if version > LOG_TAIL else 0
    last_private = part.last_private
    first_new = part.version
    if log_start > first_new:  # (no event of the part's tail is in this version's)
        last_private.clear()
        first_new = log_start
    for i in range(first_new, version):
        event = log[i]
        if "_seen_by" in event:
            for s in event["_seen_by"]:
                last_private[s] = i
    audience = (
        set(last_private)  # (most often: no comprehension to run)
        if not last_private or min(last_private.values()) >= log_start
        else {s for s, i in last_private.items() if i >= log_start}
    )
    # the previous version's logs (``_seat_log``) and its audience
    part.previous, part.seat_logs, part.public_tail = part.seat_logs, {}, None
    part.previous_start, part.previous_version = part.log_start, part.version
    part.previous_audience = part.log_audience
    if audience != part.log_audience:
        part.log_audience = audience
    part.log_start = log_start


def _exchange_step(state: State, part: PublicPart, awaited: tuple[int, str] | None) -> None:
    """``part``, the shared part of an earlier version of this programming phase, brought
    in place to the state's version, when the events logged since are ``OTHERS_EVENTS``
    and Symbioses that move cards only between hands (``EXCHANGE_EVENTS``): the table's
    cards (``table_cards``), the turn's count and the fields fixed for the game are as they
    were; each player's entry, ``free_symbiosis_available``, ``pending_give``, the reveal
    order, ``winnable``, ``to_act``, the awaited seat and the game's outlook
    (``lost_reason``) are asked again. A field of ``head``, ``tail`` or ``rest`` that
    changed gives a new dict (the others kept: a reader compares them by identity); an
    entry or a list equal to the previous version's is kept as it was."""
    version = len(state.log)
    players = part.players
    for s, before in enumerate(players):  # (a seat's side is chosen before the first turn)
        entry = _player(state, s, before["side"])
        if entry != before:
            players[s] = entry
    head = part.head
    free = not state.free_symbiosis_used  # (the phase is programming)
    if head["free_symbiosis_available"] is not free:
        part.head = {**head, "free_symbiosis_available": free}
    tail = part.tail
    pending_give = _pending_give(state)
    order = reveal.reveal_order(state)
    if tail["pending_give"] != pending_give or tail["reveal_order"] != order:
        tail = part.tail = dict(tail)
        tail["pending_give"] = pending_give
        if order != tail["reveal_order"]:
            tail["reveal_order"] = order
    winnable = state.is_winnable()
    if part.rest["winnable"] is not winnable:
        part.rest = {**part.rest, "winnable": winnable}
    to_act = state.to_act()
    if to_act != part.to_act:
        part.to_act = to_act
    _log_step(part, state.log, version)
    part.awaited, part.table_key, part.lost = awaited, None, UNASKED
    part.touched_from, part.touched = part.version, None
    part.version = version


def _table(
    state: State,
    awaited: tuple[int, str] | None,
    cached: PublicPart | None,
) -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """The shared part's ``head``, ``players``, ``tail`` and ``rest``, built from the
    state (the lists fixed for the game: those of ``cached``, an earlier version's, if
    any)."""
    game = state.game
    n = game.num_players
    revealing = None
    if awaited is not None and awaited[1] == "reveal":
        revealing = {"seat": awaited[0], "card": state.programmed[awaited[0]]}
    pending = state.pending_give
    # "turn X of Y": every turn takes one card from each player still holding one
    held_at_turn_start = [len(state.hands[s]) + (state.programmed[s] is not None) for s in range(n)]
    for record in state.revealed_this_turn:
        held_at_turn_start[record["seat"]] += 1
    if pending is not None:  # a card given waits for its answer: count it with its giver
        held_at_turn_start[pending["to"]] -= 1
        held_at_turn_start[pending["from"]] += 1
    turns_total = max(state.turn, 1) - 1 + max(held_at_turn_start)
    if cached is None:
        modes, kinds = list(game.modes), list(state.symbiosis_kinds())
        webs = [name for name, _ in game.config.webs()]
    else:
        modes, kinds, webs = (
            cached.head["modes"],
            cached.head["symbiosis_kinds"],
            cached.tail["webs"],
        )
    head = {
        "modes": modes,
        "phase": state.phase,
        "turn": state.turn,
        "turns_total": turns_total if state.phase != "over" else state.turn,
        "first_player": state.first_player,
        "free_symbiosis_available": state.phase == "programming" and not state.free_symbiosis_used,
        "symbiosis_kinds": kinds,
        "show_names_one_player": game.config.show_names_one_player,
    }  # (then ``players``)
    pending_give = _pending_give(state)
    tail = {
        "layout": game.config.main_layout,
        "webs": webs,
        **table_cards(state),
        "revealing": revealing,
        "pending_give": pending_give,
        "reveal_order": reveal.reveal_order(state),
    }
    rest = {
        "winnable": state.is_winnable(),
        "max_discards": state.max_discards(),
        "deck_size": game.deck_size,
        "result": dict(state.result) if state.result else None,
    }
    return head, _players(state), tail, rest


def _pending_give(state: State) -> dict[str, int] | None:
    """The shared part's ``pending_give``: the giver and receiver of a card given that
    waits for its answer, if any."""
    pending = state.pending_give
    return {"from": pending["from"], "to": pending["to"]} if pending else None


def _player(state: State, s: int, side: str | None) -> dict[str, Any]:
    """Seat ``s``'s entry of the shared part's ``players`` (``side``: its side,
    ``State.sides``' answer, a list made at each call)."""
    return {
        "seat": s,
        "hand_size": len(state.hands[s]),
        "has_programmed": state.programmed[s] is not None,
        "ready": state.ready[s],
        "symbiosis_cards": state.symbiosis_cards[s],
        "side": side,
    }


def _players(state: State) -> list[dict[str, Any]]:
    """The shared part's ``players``."""
    sides = state.sides
    return [_player(state, s, sides[s]) for s in range(state.num_players)]


def seat_part(
    state: State,
    seat: int | None,
    part: PublicPart,
    with_log: bool = True,
    with_listings: bool = True,
) -> SeatPart:
    """What only ``seat``'s view holds, at the version of ``part``, built from the state
    (``with_log`` False: without the seat's log, for a caller that builds it from
    ``part.log_entries``; ``with_listings`` False: ``listings`` empty, for a caller that
    keeps each action type's listing by its ``ActionSpec.options_key``). Nothing of it is
    kept: ``seat_stamp`` says when it is as it was. A reader that keeps what it made of
    the part piece by piece (``server/views.py``) asks for each piece alone:
    ``seat_cards``, ``seat_knowledge``, ``seat_awaiting``, ``seat_legal_types``,
    ``seat_no_place``, and ``seat_piece_stamps`` says which pieces are as they were."""
    log = _seat_log(part, seat) if with_log and seat in part.log_audience else None
    awaiting = seat_awaiting(state, seat, part)
    own = seat_cards(state, seat)
    own.update(seat_knowledge(state, seat))
    if seat is None:
        return SeatPart(own, awaiting, (), log, (), {})
    legal_types = seat_legal_types(state, seat, part)
    listings: list[Sequence[dict[str, Any]]] = []
    if with_listings:
        # the kind awaited from this seat, if any (listed by its ``awaiting`` options)
        own_kind = awaiting["kind"] if awaiting is not None and awaiting["seat"] == seat else None
        for kind in legal_types:
            if kind == own_kind:
                assert awaiting is not None
                listings.append(awaiting["options"])
                continue
            spec = ACTIONS[kind]
            # (a type listed the same for every view: its one listing)
            listings.append(spec.listing if spec.listing is not None else spec.options(state, seat))
    return SeatPart(own, awaiting, legal_types, log, listings, seat_no_place(state, seat, part))


def seat_cards(state: State, seat: int | None) -> dict[str, Any]:
    """The ``hand`` and ``programmed`` fields of ``seat``'s view (the first of ``own``)."""
    if seat is None:
        return {"hand": [], "programmed": None}
    return {"hand": list(state.hands[seat]), "programmed": state.programmed[seat]}


def seat_knowledge(state: State, seat: int | None) -> dict[str, Any]:
    """The ``known`` and ``known_by`` fields of ``seat``'s view (the last of ``own``)."""
    known = state.known
    return {
        "known": knowledge.known_to(known, seat),
        "known_by": {} if seat is None else knowledge.known_by(known, seat, state.num_players),
    }


def seat_awaiting(state: State, seat: int | None, part: PublicPart) -> Awaiting | None:
    """The ``awaiting`` field of ``seat``'s view: the options only for the awaited seat."""
    if part.awaited is None:
        return None
    awaited_seat, kind = part.awaited
    options = ACTIONS[kind].options(state, seat) if seat == awaited_seat else []
    return {"seat": awaited_seat, "kind": kind, "options": options}


def seat_legal_types(state: State, seat: int, part: PublicPart) -> tuple[str, ...]:
    """The ``legal_types`` of ``seat``'s view at the version of ``part``, as the one
    tuple of the process (``programming_types``' during programming, given the part's
    ``winnable``, else ``LEGAL_TYPES``')."""
    if state.phase == PROGRAMMING and 0 <= seat < state.num_players:
        return programming_types(state, seat, part.rest["winnable"])
    types = tuple(state.legal_action_types(seat))
    return LEGAL_TYPES.setdefault(types, types)


def seat_no_place(state: State, seat: int, part: PublicPart) -> dict[str, str | None]:
    """The ``no_place`` of ``seat``'s view (a new dict at each call)."""
    return reveal.no_place(state, seat, part.tail["reveal_order"], part.no_place)


def seat_no_place_key(state: State, seat: int, part: PublicPart) -> str | None:
    """``reveal.no_place_key`` for ``seat`` at the version of ``part``: under which key
    ``part.no_place`` keeps its answers for the turn; None outside programming."""
    return reveal.no_place_key(state, seat, part.tail["reveal_order"])


def seat_no_place_answers(
    state: State, seat: int, key: str, part: PublicPart
) -> dict[str, str | None]:
    """``reveal.no_place_answers``: the answers ``part.no_place`` keeps under ``key``
    (``seat_no_place_key``), holding those of ``seat``'s cards (read only)."""
    return reveal.no_place_answers(state, seat, key, part.no_place)


def seat_stamp(state: State, seat: int | None, part: PublicPart) -> int:
    """A stamp of ``seat``'s part (``seat_part``, but its log) at the version of
    ``part``: the version at which the part last changed. Two versions of one state with
    the same stamp give equal parts, so a reader that keeps what it made of a part by its
    stamp need not ask for the part again.

    A seat's part changes at every version but during programming, where it is as it was
    while only other seats' cards were programmed and other seats said they were ready or
    not since (``OTHERS_EVENTS``), the table waits as it did and the game is as winnable
    (the same reveal order). When the part changes there, the events since tell which of
    its pieces did not (``seat_piece_stamps``)."""
    version = part.version
    if state.phase != "programming":
        if part.seat_stamps:  # (none is kept after the programming phase)
            part.seat_stamps.clear()
            part.seat_tables.clear()
            part.seat_checked.clear()
            part.seat_cards.clear()
            part.seat_knows.clear()
            part.seat_owners_known.clear()
        return version
    checked = part.seat_checked
    stamp = part.seat_stamps.get(seat)
    if stamp is not None:
        table = part.table_key or _table_key(part)
        before = part.seat_tables[seat]
        since = checked[seat]
        if before == table:
            touched = part.touched
            if (
                since == part.touched_from
                and touched is not None
                and (seat is None or not touched >> seat & 1)
            ):  # (other seats' events only: found once for every seat)
                checked[seat] = version  # the events so far are checked: the next check starts here
                return stamp
        # (one scan of the events)
        kept = _pieces_kept(state.log, since, version, seat, part.seat_owners_known[seat])
        if kept & OTHERS_ONLY and before == table:
            checked[seat] = version
            return stamp
        # (the reveal order, which ``no_place`` reads, is the table key's last field)
        if not kept & CARDS_KEPT or before[before.rindex("|") :] != table[table.rindex("|") :]:
            part.seat_cards[seat] = version
        if not kept & KNOWLEDGE_KEPT:
            part.seat_knows[seat] = version
            part.seat_owners_known[seat] = _owners_known(state, seat)
    else:
        table = _table_key(part)
        part.seat_cards[seat] = part.seat_knows[seat] = version
        part.seat_owners_known[seat] = _owners_known(state, seat)
    part.seat_stamps[seat] = part.seat_checked[seat] = version
    part.seat_tables[seat] = table
    return version


def seat_piece_stamps(part: PublicPart, seat: int | None) -> tuple[int, int]:
    """The versions at which ``seat``'s cards and its knowledge last changed, as
    found by ``seat_stamp`` for the version of ``part`` (ask it first): two versions of
    one state with the same first stamp give the same ``seat_cards``, ``no_place`` and
    listing of each action type (each a function of the seat's cards, the discard pile
    and whether the seat reveals first), two with the same second the same
    ``seat_knowledge``. Outside programming each is the part's version."""
    version = part.version
    return part.seat_cards.get(seat, version), part.seat_knows.get(seat, version)


def _table_key(part: PublicPart) -> str:
    """What a seat's kept part depends on besides its own events, as a string: the seat
    and kind awaited, whether the game is winnable, the reveal order (made once a
    version; the order last, after the last ``|``)."""
    key = part.table_key
    if key is None:
        key = part.table_key = f"{part.awaited}|{part.rest['winnable']}|{part.tail['reveal_order']}"
    return key


def lost_reason(state: State) -> dict[str, Any] | None:
    """``outlook.lost_reason`` at the state's current version, worked out once a version
    (kept with the views' shared part): to be read, never changed."""
    part = public_part(state)
    lost = part.lost
    if lost is UNASKED:
        lost = part.lost = outlook.lost_reason(state)
    return cast("dict[str, Any] | None", lost)


#: the events of the programming phase that change only their seat's part (and the
#: shared one): a card programmed (``cards_of`` the same), "ready", "not ready"
OTHERS_EVENTS = frozenset({"programmed", "ready", "unready"})


def _seats_since(log: list[dict[str, Any]], start: int, end: int) -> set[int] | None:
    """The seats of the events ``log[start:end]`` when all are ``OTHERS_EVENTS`` (what
    they change of the shared part is only these seats' entries of ``players``), else
    ``None``."""
    seats: set[int] = set()
    for i in range(start, end):
        event = log[i]
        if event["type"] not in OTHERS_EVENTS:
            return None
        seats.add(event["seat"])
    return seats


def _cards_stay(log: list[dict[str, Any]], start: int, end: int) -> bool:
    """Whether the events ``log[start:end]`` of a programming phase leave the table's
    cards (``table_cards``) as they were: cards programmed, seats ready or not, and
    Symbioses that move cards only between hands (``EXCHANGE_EVENTS``)."""
    for i in range(start, end):
        kind = log[i]["type"]
        if kind not in OTHERS_EVENTS and kind not in EXCHANGE_EVENTS:
            return False
    return True


#: ``_pieces_kept``'s bits: the seat's cards (and the discard pile) are as they were; what
#: seats know is as it was; the events are all ``OTHERS_EVENTS`` of other seats (which
#: leave the whole part as it was)
CARDS_KEPT, KNOWLEDGE_KEPT, OTHERS_ONLY = 1, 2, 4

#: the Symbioses' events that move no card but, for ``give`` and ``give_back``, those of
#: their two seats (``seat`` and ``to``), and change what seats know
EXCHANGE_EVENTS = frozenset({"show", "give", "give_back"})


def _owners_known(state: State, seat: int | None) -> int:
    """The seats whose cards ``seat`` (``None``: a spectator) knows, as a bit mask."""
    owners = 0
    for owner, _ in state.known[knowledge.PUBLIC if seat is None else seat]:
        owners |= 1 << owner
    return owners


def _pieces_kept(
    log: list[dict[str, Any]], start: int, end: int, seat: int | None, owners: int
) -> int:
    """Which pieces of ``seat``'s part the events ``log[start:end]`` of the programming
    phase leave as they were (``CARDS_KEPT``, ``KNOWLEDGE_KEPT``), and whether they are
    all ``OTHERS_EVENTS`` of other seats (``OTHERS_ONLY``), ``owners`` being the seats
    whose cards it knew before them (``_owners_known``): ``OTHERS_EVENTS`` change no
    knowledge and only their seat's cards; a Show moves no card; a card given or given
    back moves only its two seats' cards, and changes what a third seat knows only when
    it knew cards of the giver (``knowledge.move_secretly``: they are forgotten; no card
    of the third seat's changes who knows it); any other event may change both."""
    kept = CARDS_KEPT | KNOWLEDGE_KEPT | OTHERS_ONLY
    for i in range(start, end):
        event = log[i]
        kind = event["type"]
        if kind in OTHERS_EVENTS:
            if event["seat"] == seat:
                kept &= KNOWLEDGE_KEPT if kind == "programmed" else CARDS_KEPT | KNOWLEDGE_KEPT
        elif kind in EXCHANGE_EVENTS:
            if kind == "show":
                kept &= CARDS_KEPT
            elif event["seat"] == seat or event["to"] == seat:
                return 0
            elif owners >> event["seat"] & 1:  # (``seat``: the giver)
                kept &= CARDS_KEPT
            else:
                kept &= CARDS_KEPT | KNOWLEDGE_KEPT
        else:
            return 0
    return kept


def _seat_log(part: PublicPart, seat: int) -> list[dict[str, Any]]:
    """The log tail of ``part`` as ``seat`` sees it: the previous version's, less the
    events that left the tail, plus those logged since (events never change)."""
    found = part.seat_logs.get(seat)
    if found is not None:
        return found
    entries, publics, start = part.log_entries, part.log_public, part.log_start
    log: list[dict[str, Any]] = []
    before_logs = part.previous
    if before_logs is not None:
        before_start, before_end = part.previous_start, part.previous_version
        before_audience = part.previous_audience
        before_log = before_logs.get(seat)
        if before_log is not None:
            before_end = before_start + len(before_log)  # the version it was built at
            if before_end >= start:  # (else no event of it is in the tail now)
                log = before_log[start - before_start :]
                entries = entries[before_end - start :]
                publics = publics[before_end - start :]
        elif seat not in before_audience and before_end >= start:
            # it saw no private part of the previous tail: the public events of it
            log = publics[: before_end - start]
            entries = entries[before_end - start :]
            publics = publics[before_end - start :]
    for entry, public in zip(entries, publics, strict=True):
        if seat in entry.get("_seen_by", ()):
            log.append({**public, **private_part(entry)})
        else:
            log.append(public)
    part.seat_logs[seat] = log
    return log


def build_view(state: State, seat: int | None) -> View:
    part = public_part(state)
    mine = seat_part(state, seat, part)
    view: dict[str, Any] = {"seat": seat, **part.head}
    view["players"] = [dict(p) for p in part.players]
    view.update(mine.own)
    view.update(part.tail)
    view["awaiting"] = mine.awaiting
    view["to_act"] = list(part.to_act)
    view["legal_types"] = list(mine.legal_types)
    view["legal_actions"] = mine.legal_actions
    view["no_place"] = mine.no_place
    view.update(part.rest)
    if view["result"] is not None:
        view["result"] = dict(view["result"])
    view["log"] = list(mine.log if mine.log is not None else part.log_public)
    return view  # type: ignore[return-value]
