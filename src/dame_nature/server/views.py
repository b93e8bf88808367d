"""The ``state`` messages of one change of a room, encoded once for all its seats.

After every change each socket gets ``{"type": "state", "view": ..}`` with its seat's
view. Most of a view is the same for every seat (``engine.view.PublicPart``: the
players, the web, the discard pile, the public log ...), so ``StateMessages`` encodes
that part once and, per seat, only what is the seat's own (``engine.view.SeatPart``:
its hand and programmed card, what it knows, what the game awaits from it, its action
types, and the log when it sees private details in it), then joins the pieces. The
text is byte for byte ``dumps({"type": "state", "view": room.view(seat)})``
(``tests/server/test_state_messages.py``): JSON objects keep their keys' order, and
``orjson`` writes an object as its members joined by commas, so the members of one
object may be encoded in several pieces (and the items of one array too).

What does not change from one version of a room's state to the next is not encoded
again (``Encoded``, kept in the views' shared part, ``PublicPart.memo``, so that it
lives and dies with the state): each event of the log tail (events never change), as a
seat that sees none of its private details sees it and as each seat that does. A
seat's log is then these texts joined. A seat's own part is kept as its texts only, by
its stamp (``engine.view.seat_stamp``: the version at which it last changed; during
programming it holds while other seats only program and say they are ready): while the
stamp is the same the part is not asked for again. When it changes, the part is asked
for piece by piece, and the pieces whose own stamps hold (``engine.view.seat_piece_stamps``:
the seat's cards, with its listings and ``no_place``, and its knowledge) are not asked for
again; an action type listed card after card (``ActionSpec.options_by_card``) is then
joined from each card's actions encoded once for the process (``CARD_TEXTS``), another
type's listing built and encoded only when its ``ActionSpec.options_key`` changed.
Nor are the shared part's ``head`` (but ``players``) encoded again while its values are
equal, its ``tail``, ``rest`` and ``to_act`` while the engine gives the same objects, a
seat's entry of ``players`` while the engine gives the same entry (it gives an entry equal to
the previous version's as the same dict) and the room's fields of it are equal
(``Encoded.players_text``), and the server's fields between ``version`` and
``turn_clocks`` while what they are made of is equal (``Room.server_members``).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any

import orjson
from orjson import dumps, loads

from ..engine import MAX_PLAYERS, knowledge
from ..engine.actions import ACTIONS
from ..engine.view import (
    PublicPart,
    public_event,
    public_part,
    seat_awaiting,
    seat_cards,
    seat_legal_types,
    seat_no_place_answers,
    seat_no_place_key,
    seat_piece_stamps,
    seat_stamp,
)

if TYPE_CHECKING:
    from ..engine import State
    from ..engine.actions import ActionSpec
    from .rooms.model import Room


#: ``action type -> its listing's items encoded`` for each type with an
#: ``ActionSpec.listing``, the same for every view
FIXED_LISTINGS: dict[str, str] = {
    spec.name: orjson.dumps(spec.listing).decode()[1:-1]
    for spec in ACTIONS.values()
    if spec.listing is not None
}


#: ``action type -> seat -> "seat action-type"``, the keys of ``Encoded``'s listings,
#: made once for the process
LISTING_KEYS: dict[str, list[str]] = {
    kind: [f"{seat} {kind}" for seat in range(MAX_PLAYERS)] for kind in ACTIONS
}

#: each seat encoded
SEAT_TEXTS = [str(seat) for seat in range(MAX_PLAYERS)]

#: a spectator's members from ``legal_types`` to ``no_place`` (no action, no ``no_place``)
NO_ACTIONS = '[],"legal_actions":[],"no_place":{}'

#: ``legal_types`` (as a tuple) -> its text: a few dozen lists of the action types, in
#: their fixed order, for the whole process
TYPES_TEXTS: dict[tuple[str, ...], str] = {}


#: ``action type -> rest -> card -> that card's actions encoded`` for the types whose
#: listing is made card after card (``ActionSpec.options_by_card``): the same for every
#: state with that rest, kept for the process (a few cards' texts for each seat and
#: number of players, and each way a Show may be addressed)
CARD_TEXTS: dict[str, dict[Hashable, dict[str, str]]] = {}


def _cards_text(
    spec: ActionSpec, state: State, seat: int, cards: Sequence[str], rest: Hashable
) -> str:
    """The items of ``spec``'s listing for ``seat`` encoded, joined from each card's
    actions kept encoded for the process (``spec.options_by_card``'s ``cards`` and
    ``rest``)."""
    by_rest = CARD_TEXTS.get(spec.name)
    if by_rest is None:
        by_rest = CARD_TEXTS[spec.name] = {}
    texts = by_rest.get(rest)
    if texts is None:
        texts = by_rest[rest] = {}
    try:
        parts = list(map(texts.__getitem__, cards))  # (no Python frame a card)
    except KeyError:  # a card not met yet with this type and rest
        for card in cards:
            if card not in texts:
                texts[card] = dumps(spec.card_options(state, seat, card)).decode()[1:-1]
        parts = list(map(texts.__getitem__, cards))
    if "" in parts:  # a card without an action of this type
        parts = [text for text in parts if text]
    return ",".join(parts)


def _members(data: dict[str, Any]) -> str:
    """The members of a non-empty JSON object, without its braces."""
    return orjson.dumps(data).decode()[1:-1]


#: ``(owner, card)`` (``knowledge.pair``'s one tuple) -> ``{"seat":owner,"card":card}``
#: encoded, an item of a view's ``known``, made once for the process
KNOWN_TEXTS: dict[tuple[int, str], str] = {}


def _knowledge_members(state: State, seat: int | None) -> str:
    """The members ``known`` and ``known_by`` of ``seat``'s view
    (``engine.view.seat_knowledge``) encoded: ``known``'s items joined from each
    pair's text kept for the process (no dict an item)."""
    known = state.known
    entries = knowledge.pairs_known_to(known, seat)
    try:
        items = ",".join(map(KNOWN_TEXTS.__getitem__, entries))  # (no Python frame a pair)
    except KeyError:  # a pair not met yet
        for owner, card in entries:
            if (owner, card) not in KNOWN_TEXTS:
                KNOWN_TEXTS[(owner, card)] = _json(knowledge.known_item(owner, card))
        items = ",".join(map(KNOWN_TEXTS.__getitem__, entries))
    if seat is None:
        return '"known":[' + items + '],"known_by":{}'
    return (
        '"known":['
        + items
        + '],"known_by":'
        + _json(knowledge.known_by(known, seat, state.num_players))
    )


def _json(data: Any) -> str:
    return orjson.dumps(data).decode()


def _no_place_text(encoded: Encoded, state: State, seat: int, part: PublicPart) -> str:
    """``seat``'s ``no_place`` encoded: the members of its cards (hand, then the
    programmed card, the order of the engine's dict) joined, each encoded once a turn
    under its answers' key; the engine is asked for the answers only for a card not
    encoded yet."""
    key = seat_no_place_key(state, seat, part)
    if key is None:
        return "{}"
    if encoded.no_place_known is not part.no_place:  # a new turn's answers
        encoded.no_place_known = part.no_place
        encoded.no_place_members = {}
    members = encoded.no_place_members.get(key)
    if members is None:
        members = encoded.no_place_members[key] = {}
    cards = state.cards_of(seat)
    try:
        return "{" + ",".join(map(members.__getitem__, cards)) + "}"
    except KeyError:  # a card not encoded yet this turn
        answers = seat_no_place_answers(state, seat, key, part)
        for card in cards:
            if card not in members:
                members[card] = _members({card: answers[card]})
        return "{" + ",".join(map(members.__getitem__, cards)) + "}"


class Encoded:
    """The pieces of the views of one state kept encoded from one version to the next
    (``PublicPart.memo["encoded"]``)."""

    __slots__ = (
        "start",
        "events",
        "seat_events",
        "seat_stamps",
        "seat_parts",
        "seat_cards_at",
        "seat_cards",
        "seat_knows_at",
        "seat_knows",
        "listing_keys",
        "listing_texts",
        "listing_at",
        "no_place_texts",
        "no_place_at",
        "no_place_known",
        "no_place_members",
        "head",
        "head_text",
        "tail",
        "tail_text",
        "rest",
        "rest_text",
        "player_keys",
        "player_entries",
        "player_texts",
        "player_room_texts",
        "players_seen",
        "players_joined",
        "seats_values",
        "to_act",
        "to_act_text",
    )

    def __init__(self) -> None:
        #: the index in the log of ``events[0]``
        self.start = 0
        #: each event of the log tail as a seat that sees none of its private details
        self.events: list[str] = []
        #: ``seat -> each event of the log tail as seat sees it``, for each seat that sees
        #: private details of an event of the tail (``PublicPart.log_audience``)
        self.seat_events: dict[int, list[str]] = {}
        #: ``seat -> the stamp of its part`` (``engine.view.seat_stamp``) and ``seat ->
        #: that part's three pieces encoded`` (``_seat_pieces``' tuple of strings, which
        #: the cyclic collector stops tracking at its first pass): the part itself is not
        #: asked for again while its stamp is the same
        self.seat_stamps: dict[int | None, int] = {}
        self.seat_parts: dict[int | None, tuple[str, str, str]] = {}
        #: ``seat -> the stamp of its cards`` (``engine.view.seat_piece_stamps``) and
        #: ``seat -> its hand and programmed card encoded``; the same for its knowledge
        #: (``known`` and ``known_by``): a piece is not asked for again while its stamp
        #: is the same
        self.seat_cards_at: dict[int | None, int] = {}
        self.seat_cards: dict[int | None, str] = {}
        self.seat_knows_at: dict[int | None, int] = {}
        self.seat_knows: dict[int | None, str] = {}
        #: ``"seat action-type" -> its ActionSpec.options_key`` (for the types not listed
        #: card after card) and ``-> the items of its listing encoded``: a listing is not
        #: made again while the seat's cards' stamp is the one it was found at
        #: (``listing_at``), nor built and encoded again while its key holds
        self.listing_keys: dict[str, Any] = {}
        self.listing_texts: dict[str, str] = {}
        self.listing_at: dict[str, int] = {}
        #: ``seat -> its last no_place encoded``: not asked for again while the seat's
        #: cards' stamp is ``no_place_at``'s
        self.no_place_texts: dict[int, str] = {}
        self.no_place_at: dict[int, int] = {}
        #: the engine's answers of ``no_place`` for the turn (``PublicPart.no_place``)
        #: and, by their key there (``reveal.no_place_answers``), ``card id -> its
        #: member encoded`` (``"card":"reason"``): an answer holds for the turn, so a
        #: seat's ``no_place`` is its cards' members joined
        self.no_place_known: dict[Any, Any] | None = None
        self.no_place_members: dict[str, dict[str, str]] = {}
        #: the shared part's ``head`` last encoded (the engine gives the same dict again
        #: while it is equal: compared by value only when another) and its members encoded
        self.head: dict[str, Any] | None = None
        self.head_text = ""
        #: the shared part's ``tail`` and ``rest`` last encoded, and their texts: the
        #: engine gives the same dicts again while they are unchanged
        self.tail: dict[str, Any] | None = None
        self.tail_text = ""
        self.rest: dict[str, Any] | None = None
        self.rest_text = ""
        #: ``seat -> what its entry of the players was made of``: the room's
        #: ``seats_public_values`` (a tuple of atoms, compared by value) and the engine's
        #: entry (a dict of atoms, read only, compared by identity); ``seat -> that entry
        #: encoded``
        self.player_keys: dict[int, tuple[Any, ...]] = {}
        self.player_entries: dict[int, dict[str, Any]] = {}
        self.player_texts: dict[int, str] = {}
        #: ``seat -> the room's fields of its entry encoded``: their members after a comma,
        #: and the entry's closing brace
        self.player_room_texts: dict[int, str] = {}
        #: the room's ``seats_public_values`` when ``player_keys`` were last brought to
        #: them (the seats' values compared in one comparison while none changed)
        self.seats_values: list[tuple[Any, ...]] = []
        #: the engine's entries ``players_text`` last encoded (its own list, brought to them
        #: in place: the engine changes its list in place during programming) and the text
        #: it gave: given again while the entries are equal and the room's values are
        self.players_seen: list[dict[str, Any]] = []
        self.players_joined = ""
        #: the shared part's ``to_act`` last encoded (the engine gives the same list again
        #: while it is equal) and its text
        self.to_act: list[int] | None = None
        self.to_act_text = ""

    @classmethod
    def of(cls, part: PublicPart) -> Encoded:
        """The pieces of ``part``'s state, brought to its version."""
        encoded: Encoded | None = part.memo.get("encoded")
        start, end, log = part.log_start, part.version, part.log
        if encoded is None or start < encoded.start or encoded.start + len(encoded.events) > end:
            encoded = part.memo["encoded"] = cls()
            encoded.start = start
        events, seat_events = encoded.events, encoded.seat_events
        if start > encoded.start:  # events that left the tail
            gone = start - encoded.start
            del events[:gone]
            for texts in seat_events.values():
                del texts[:gone]
            encoded.start = start
        for i in range(start + len(events), end):
            entry = log[i]
            public = public_event(entry)
            text = dumps(public).decode()
            if public is not entry:  # an event with a private part
                seen = entry["_seen_by"]
                for seat in seen:
                    if seat not in seat_events:  # (every event before it as the public's)
                        seat_events[seat] = events.copy()
                hidden = entry.get("_private")  # (``changes.private_part``, read by orjson)
                extra = {} if hidden is None else loads(hidden)
                private = dumps({**public, **extra}).decode()
                for seat, texts in seat_events.items():
                    texts.append(private if seat in seen else text)
            else:
                for texts in seat_events.values():
                    texts.append(text)
            events.append(text)
        audience = part.log_audience
        if not audience.issuperset(seat_events):
            for seat in [seat for seat in seat_events if seat not in audience]:
                del seat_events[seat]  # its private events left the tail
        return encoded

    def players_text(self, players: list[dict[str, Any]], room: Room) -> str:
        """The view's ``players``: the engine's ``players`` each with the room's
        ``seat_public`` fields after its own, encoded; a seat's entry is encoded again
        only when its engine's fields or the room's fields of it changed, the room's
        fields only when they changed (``player_room_texts``), and the whole text is
        given again while no entry nor the room's fields changed (``players_seen``)."""
        entries, texts = self.player_entries, self.player_texts
        room_texts = self.player_room_texts
        seats_values = room.seats_public_values()
        seen = self.players_seen
        if seats_values == self.seats_values:  # (compared for every seat at once)
            if players == seen:  # (the same dicts most often: compared by identity)
                return self.players_joined
        else:
            keys = self.player_keys
            for seat, values in enumerate(seats_values):
                if values != keys.get(seat):  # (an equal key kept: no young tuple)
                    keys[seat] = values
                    fields = dict(zip(room.SEAT_PUBLIC_KEYS, values, strict=True))
                    room_texts[seat] = "," + _members(fields) + "}"
                    entries.pop(seat, None)
            self.seats_values = seats_values
        out = []
        for entry in players:
            seat = entry["seat"]
            # (the engine gives an entry equal to the previous version's as the same dict)
            if entry is entries.get(seat):
                out.append(texts[seat])
            else:  # (``Room.seat_public``'s fields after the engine's)
                text = texts[seat] = dumps(entry).decode()[:-1] + room_texts[seat]
                entries[seat] = entry
                out.append(text)
        seen[:] = players  # (in place: no new list kept a version)
        joined = self.players_joined = "[" + ",".join(out) + "]"
        return joined


class StateMessages:
    """The ``state`` message of each seat of ``room`` at its current version (build it
    after the change, use it before the next one)."""

    def __init__(self, room: Room) -> None:
        self.room = room
        self._lobby = room.state is None
        if self._lobby:
            return
        state = room.state
        assert state is not None
        self.part = part = public_part(state)
        self.encoded = encoded = Encoded.of(part)
        head = part.head
        if head is not encoded.head:
            if head != encoded.head:
                encoded.head_text = "," + _members(head) + ',"players":'
            encoded.head = head
        players = encoded.players_text(part.players, room)
        self._head = encoded.head_text + players + ","
        if encoded.tail is not part.tail:
            encoded.tail = part.tail
            encoded.tail_text = "," + _members(part.tail) + ',"awaiting":'
        self._tail = encoded.tail_text
        if encoded.to_act is not part.to_act:  # (the engine gives an equal list again)
            encoded.to_act = part.to_act
            encoded.to_act_text = ',"to_act":' + dumps(part.to_act).decode() + ',"legal_types":'
        self._to_act = encoded.to_act_text
        if encoded.rest is not part.rest:
            encoded.rest = part.rest
            encoded.rest_text = "," + _members(part.rest) + ',"log":['
        self._rest = encoded.rest_text
        #: the log tail as a seat that sees none of its private details sees it (joined
        #: when a seat asks for it: each seat that sees some has its own)
        self._log: str | None = None
        self._end = "]," + room.server_members(part) + "}}"
        self._seat_events = encoded.seat_events
        #: ``awaiting`` encoded for a seat given no options (each but the awaited seat)
        self._awaited_others = ""

    def text(self, seat: int | None) -> str:
        """The message of ``seat`` (``None``: a spectator)."""
        room = self.room
        if self._lobby:
            return orjson.dumps({"type": "state", "view": room.view(seat)}).decode()
        state = room.state
        assert state is not None
        texts = None if seat is None else self._seat_events.get(seat)  # its log tail
        if texts is None:
            log = self._log
            if log is None:
                log = self._log = ",".join(self.encoded.events)
        else:
            log = ",".join(texts)
        encoded = self.encoded
        stamp = seat_stamp(state, seat, self.part)
        if encoded.seat_stamps.get(seat) == stamp:  # the seat's part as it was encoded
            own, awaited, actions = encoded.seat_parts[seat]
        else:
            own, awaited, actions = encoded.seat_parts[seat] = self._seat_pieces(state, seat)
            encoded.seat_stamps[seat] = stamp
        return "".join(
            (
                '{"type":"state","view":{"seat":',
                "null" if seat is None else SEAT_TEXTS[seat],
                self._head,
                own,
                self._tail,
                awaited,
                self._to_act,
                actions,
                self._rest,
                log,
                self._end,
            )
        )

    def _seat_pieces(self, state: State, seat: int | None) -> tuple[str, str, str]:
        """The seat's own fields encoded: ``own``'s members, ``awaiting``, and the members
        from ``legal_types`` to ``no_place``. Its cards (``hand``, ``programmed``), its
        knowledge (``known``, ``known_by``), each action type's listing and ``no_place``
        are asked for and encoded again only when their stamp
        (``engine.view.seat_piece_stamps``) changed: a listing then joined from its cards'
        texts (``_cards_text``), or built and encoded when its ``ActionSpec.options_key``
        changed; ``awaiting`` and the action types are asked for each time."""
        encoded, part = self.encoded, self.part
        cards_at, knows_at = seat_piece_stamps(part, seat)
        if encoded.seat_cards_at.get(seat) == cards_at:
            cards = encoded.seat_cards[seat]
        else:
            cards = encoded.seat_cards[seat] = _members(seat_cards(state, seat))
            encoded.seat_cards_at[seat] = cards_at
        if encoded.seat_knows_at.get(seat) == knows_at:
            knows = encoded.seat_knows[seat]
        else:
            knows = encoded.seat_knows[seat] = _knowledge_members(state, seat)
            encoded.seat_knows_at[seat] = knows_at
        own = cards + "," + knows
        awaiting = None if part.awaited is None else seat_awaiting(state, seat, part)
        own_kind = None  # the kind awaited from this seat, if any (listed by its options)
        options = "[]"
        if awaiting is None:
            awaited = "null"
        elif not awaiting["options"] and self._awaited_others:
            awaited = self._awaited_others  # (the seat and kind are the version's)
        else:
            options = dumps(awaiting["options"]).decode()
            kind = dumps(awaiting["kind"]).decode()
            awaited = f'{{"seat":{awaiting["seat"]},"kind":{kind},"options":{options}}}'
            if options == "[]":
                self._awaited_others = awaited
        if awaiting is not None and awaiting["seat"] == seat:
            own_kind = awaiting["kind"]
        if seat is None:  # a spectator: no action, no ``no_place``
            return own, awaited, NO_ACTIONS
        types = seat_legal_types(state, seat, part)
        keys, texts, found_at = encoded.listing_keys, encoded.listing_texts, encoded.listing_at
        listed = []
        for kind in types:
            if kind == own_kind:
                text = options[1:-1]
            elif kind in FIXED_LISTINGS:  # the same for every view
                text = FIXED_LISTINGS[kind]
            else:
                where = LISTING_KEYS[kind][seat]
                if found_at.get(where) == cards_at:  # (the seat's cards as they were)
                    text = texts[where]
                else:
                    spec = ACTIONS[kind]
                    by_card = spec.options_by_card(state, seat)
                    if by_card is not None:  # (joined from its cards' texts: no key asked)
                        text = texts[where] = _cards_text(spec, state, seat, *by_card)
                        found_at[where] = cards_at
                    elif (key := spec.options_key(state, seat)) is None:
                        text = dumps(spec.options(state, seat)).decode()[1:-1]
                    else:
                        if keys.get(where) != key:
                            keys[where] = key
                            texts[where] = dumps(spec.options(state, seat)).decode()[1:-1]
                        text = texts[where]
                        found_at[where] = cards_at
            if text:
                listed.append(text)
        if encoded.no_place_at.get(seat) == cards_at:
            no_place_text = encoded.no_place_texts[seat]
        else:
            no_place_text = _no_place_text(encoded, state, seat, part)
            encoded.no_place_texts[seat] = no_place_text
            encoded.no_place_at[seat] = cards_at
        legal_types = TYPES_TEXTS.get(types)
        if legal_types is None:
            legal_types = TYPES_TEXTS[types] = _json(types)
        listed_text = ",".join(listed)
        return (
            own,
            awaited,
            f'{legal_types},"legal_actions":[{listed_text}],"no_place":{no_place_text}',
        )
