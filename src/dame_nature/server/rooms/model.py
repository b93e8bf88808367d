"""``Room`` and ``Player``: what a room is, as data (no sockets, no store), and the views
it gives each seat.

A ``Room`` holds its seats, its rules (``spec``), the game being played (an engine
``State``, rebuilt from the stored action log), its version (bumped by every change a
client can see), which seats are connected to any node (``present``) and the lock that
applies its changes one at a time. Who is connected through this node is the hub's
(``hub.py``); how a change is stored and pushed, the commit path's (``commit.py``).
"""

from __future__ import annotations

import asyncio
import copy
import re
import secrets
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, ClassVar, cast

import orjson

from ...engine import MAX_PLAYERS, State, lobby_view
from ...engine.view import UNASKED, PublicPart, lost_reason
from ..campaign import campaign_public
from ..errors import Refused
from ..seating import Presence, table_event

CODE_BYTES = 12  # room codes: 96 random bits
TOKEN_BYTES = 24  # seat and host tokens: 192 random bits
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: the table's events (left, returned, stand-ins, host) a room keeps for its views
TABLE_EVENTS_KEPT = 30
NO_SEATS: frozenset[int] = frozenset()
#: the fields ``Room.seat_public`` gives, in its order
SEAT_PUBLIC_KEYS = ("name", "connected", "bot", "stand_in", "host", "absent")
_HUMAN = attrgetter("human")  # (whether a person plays a seat: ``hints_allowed``)


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
    #: this seat holds the host role (taken with the host token, or passed on to it)
    host: bool = False

    @property
    def stand_in(self) -> bool:
        """A bot plays this seat for a person who left; their token takes it back."""
        return self.bot is not None and self.human

    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)
        _player_edits[0] += 1  # (``Room.seats_public_values`` keeps its answer by it)


#: assignments to any ``Player``'s fields so far, every room's: a room's
#: ``seats_public_values`` are as they were while this count, its list of seats, their
#: number and the seats connected are (a list: no class attribute written at each)
_player_edits = [0]


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
    #: the seats connected to any node (as stored: the view's ``connected`` flags)
    present: set[int] = field(default_factory=set, repr=False)
    #: the hints each seat took in game ``hints_game`` (as stored with the game)
    hints: list[int] = field(default_factory=list, repr=False)
    hints_game: int = 0
    #: the host role passed from its first holder: the host token no longer acts as host
    host_passed: bool = False
    #: seconds without a connection after which a person's seat counts as absent
    absent_limit: float = 30.0
    #: when each seat went without a connection (this node's clock)
    presence: Presence = field(default_factory=Presence, repr=False)
    #: the seats the last views said were absent
    shown_absent: frozenset[int] = frozenset()
    absent_timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    #: the tokens of the persons this node has seen connected to the room (on any node):
    #: a person's first connection is no return, she is not told "is back"
    connected_once: set[str] = field(default_factory=set, repr=False)
    #: who left, came back, was stood in for, became host (this node saw it), newest last
    table_events: list[dict[str, Any]] = field(default_factory=list, repr=False)
    event_seq: int = 0
    #: the moves of this game a bot played for an absent person: seat, turn, type, level
    stand_in_moves: list[dict[str, Any]] = field(default_factory=list, repr=False)
    #: a paced room's turn clocks: each seat the table waits for, and since when (as
    #: stored; the limit runs from there)
    waiting: dict[int, float] = field(default_factory=dict, repr=False)
    turn_timer: asyncio.TimerHandle | None = field(default=None, repr=False)
    #: the keys of ``seat_public``, in its order
    SEAT_PUBLIC_KEYS: ClassVar[tuple[str, ...]] = SEAT_PUBLIC_KEYS
    #: ``server_members``' last answer: what its text was made of (copies), the text up to
    #: ``version``'s value and that of the fields between ``version`` and ``turn_clocks``
    server_kept: tuple[tuple[Any, ...], str, str] | None = field(
        default=None, repr=False, compare=False
    )
    #: the last ``lost_reason`` ``server_members`` encoded (the engine gives the same
    #: dict again while the game's outlook is unchanged: ``engine.view.lost_reason``) and
    #: its text
    lost_kept: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    lost_text: str = field(default="null", repr=False, compare=False)
    #: ``seats_public_values``' last answer made while no seat was away, and what it was
    #: made of: ``(player edits, players, their number, present, the answer)``
    seats_public_kept: tuple[int, list[Player], int, frozenset[int], list[Any]] | None = field(
        default=None, repr=False, compare=False
    )
    #: how many seats people play, and what that count was made of: ``(player edits,
    #: players, their number, the count)`` (``server_members``' key: not counted again at
    #: every version while no player's field was assigned and the list of seats is the same)
    humans_kept: tuple[int, list[Player], int, int] | None = field(
        default=None, repr=False, compare=False
    )

    @property
    def turn_limit(self) -> float | None:
        """The room rule ``turn_limit_seconds`` (None: a live room)."""
        limit = self.spec.get("turn_limit_seconds")
        return None if limit is None else float(limit)

    def turn_clocks(self) -> list[dict[str, Any]]:
        """A paced game's clocks: each seat the table waits for, since when, and when a
        bot plays for it (``due``; None for a seat a bot plays anyway)."""
        limit = self.turn_limit
        if limit is None or self.status != "playing":
            return []
        return [
            {
                "seat": seat,
                "since": since,
                "due": since + limit if self.players[seat].bot is None else None,
            }
            for seat, since in sorted(self.waiting.items())
            if seat < len(self.players)
        ]

    def clocks_after(
        self, now: float, acted: int | None = None, state: State | None = None
    ) -> tuple[dict[int, float], float | None] | None:
        """The turn clocks of a paced room once its state changed at ``now`` (None: a
        live room): each seat the game waits for keeps the moment it started waiting, a
        seat the table starts waiting for starts now, and so does the seat ``acted`` (a
        person's own action: the table now waits for their next decision). A stand-in's
        action restarts no clock, so the bot finishes the overdue decision (a program,
        then ready). ``state``: a new game's (every clock starts now)."""
        limit = self.turn_limit
        if limit is None:
            return None
        before = self.waiting if state is None else {}
        state = self.state if state is None else state
        if state is None or state.is_over:
            return {}, None
        clocks = {
            seat: now if seat == acted else before.get(seat, now)
            for seat in sorted(state.current_players())
        }
        due = min(clocks.values(), default=None)
        return clocks, None if due is None else due + limit

    # ---------------------------------------------------------------- seats
    def seat_for_token(self, token: str) -> int | None:
        """The seat whose token this is; every token is compared, in constant time."""
        found = None
        for player in self.players:
            if same_secret(token, player.token):
                found = player.seat
        return found

    def is_host(self, token: str) -> bool:
        """The token of the seat holding the host role, or the host token while the role
        has not passed on from it."""
        seat = self.seat_for_token(token)
        if seat is not None:
            return self.players[seat].host
        return same_secret(token, self.host_token) and not self.host_passed

    def absent_now(self) -> frozenset[int]:
        """The persons' seats that count as absent now."""
        if not self.presence.away_since:  # every seat connected
            return NO_SEATS
        return frozenset(p.seat for p in self.players if self.presence.absent(p, self.absent_limit))

    def set_present(self, present: Any) -> None:
        """The seats connected now (on any node): who left and who came back is told (a
        person's first connection is no return: a game started at once, as a solo game
        from the home page, is dealt before her page connects)."""
        new = set(present)
        players = self.players
        seen = self.connected_once
        seen.update(players[seat].token for seat in self.present if seat < len(players))
        for seat in sorted(self.present - new):
            self.add_event("left", seat)
        for seat in sorted(new - self.present):
            if seat < len(players) and players[seat].token in seen:
                self.add_event("returned", seat)
        self.present = new
        self.presence.update(len(self.players), new)

    def add_event(self, kind: str, seat: int, **more: Any) -> None:
        if not 0 <= seat < len(self.players):
            return
        self.event_seq += 1
        state = self.state
        event = table_event(
            kind,
            seat,
            self.players[seat].name,
            state.turn if state is not None else None,
            len(state.log) if state is not None else 0,
            seq=self.event_seq,
            game=self.game_no,
            **more,
        )
        self.table_events.append(event)
        del self.table_events[:-TABLE_EVENTS_KEPT]

    def add_stand_ins(
        self, actions: list[dict[str, Any]], stand_ins: list[dict[str, Any] | None]
    ) -> None:
        """Note the moves of ``actions`` a bot played for an absent person."""
        for entry, stand_in in zip(actions, stand_ins, strict=True):
            if stand_in is not None:
                self.stand_in_moves.append(
                    {
                        "seat": entry["seat"],
                        "turn": stand_in["turn"],
                        "type": entry["action"]["type"],
                        "level": stand_in["level"],
                        "reason": stand_in.get("reason", "absent"),
                    }
                )

    @property
    def seats_max(self) -> int:
        deal, daily = self.spec.get("deal"), self.spec.get("daily")
        if daily:
            return int(daily["players"])
        return len(deal["hands"]) if deal else MAX_PLAYERS

    @property
    def daily(self) -> dict[str, Any] | None:
        """The daily deal the room's first game plays: ``{"date", "players"}``, or None."""
        daily: dict[str, Any] | None = self.spec.get("daily")
        return dict(daily) if daily else None

    @property
    def modes(self) -> list[str]:
        if self.state is not None:
            return list(self.state.game.modes)
        return list(self.spec["modes"])  # a path's stage 1 for a campaign

    def connected(self, seat: int) -> bool:
        return seat in self.present

    def seat_removed(self, seat: int) -> None:
        """Seat ``seat`` left (its player is gone from ``players``): the seats after it
        move down one, and whether each is connected, and since when it is not, with
        them."""

        def moved(s: int) -> int:
            return s - 1 if s > seat else s

        self.present = {moved(s) for s in self.present if s != seat}
        away = self.presence.away_since
        self.presence.away_since = {moved(s): t for s, t in away.items() if s != seat}
        self.presence.update(len(self.players), self.present)

    def seat_public(self, seat: int) -> dict[str, Any]:
        """What every view says of a seat beside the engine's fields."""
        return dict(zip(SEAT_PUBLIC_KEYS, self.seats_public_values()[seat], strict=True))

    def seats_public_values(self) -> list[tuple[str, bool, str | None, bool, bool, bool]]:
        """The values of each seat's ``seat_public``, in seat order, each in the order of
        ``SEAT_PUBLIC_KEYS`` (atoms only: a key for what was encoded of them; a seat is
        absent only while it is away: ``Presence.absent``). To be read, never changed:
        while no seat is away, the same list is given again as long as no player's field
        was assigned, the room has the same list of seats and the same seats connected
        (``seats_public_kept``), rather than five tuples made at every version."""
        present, presence, limit, players = (
            self.present,
            self.presence,
            self.absent_limit,
            self.players,
        )
        away = presence.away_since
        edits = _player_edits[0]
        kept = self.seats_public_kept
        if (
            not away  # (no seat absent, whatever the time)
            and kept is not None
            and kept[0] == edits
            and kept[1] is players
            and kept[2] == len(players)
            and kept[3] == present
        ):
            return kept[4]
        values = [
            (
                player.name,
                seat in present,
                player.bot,
                player.bot is not None and player.human,  # (``Player.stand_in``, not called)
                player.host,
                presence.absent(player, limit) if away else False,
            )
            for seat, player in enumerate(players)
        ]
        if kept is not None and values == kept[4]:
            values = kept[4]  # (an equal answer as the same list: nothing new stays alive)
        if not away:
            self.seats_public_kept = (edits, players, len(players), frozenset(present), values)
        return values

    def player(self, seat: int) -> Player:
        """The seat ``seat``; ``seat_not_found`` when the room has no such seat."""
        if not 0 <= seat < len(self.players):
            raise Refused("seat_not_found", f"This room has no seat {seat}.")
        return self.players[seat]

    @property
    def deal_chosen_by_host(self) -> bool:
        """Whether the host picked the current game's deal (a seed or the hands): then
        the host may know every hand, and every seat is told so. Rematches deal at
        random."""
        return self._deal_chosen(self.game_no)

    def _deal_chosen(self, game_no: int) -> bool:
        if self.spec.get("daily"):
            return False  # the day's deal: the host knows no more of it than anyone
        chosen = self.spec.get("seed") is not None or self.spec.get("deal") is not None
        return chosen and game_no <= 1

    def deal_choice(self, game_no: int | None = None) -> str | None:
        """``"seed"`` or ``"deal"`` when the host chose the deal of game ``game_no``
        (None: the current one)."""
        if not self._deal_chosen(self.game_no if game_no is None else game_no):
            return None
        return "deal" if self.spec.get("deal") is not None else "seed"

    # ---------------------------------------------------------------- hints
    @property
    def hints_allowed(self) -> bool:
        """Hints are on when the host switched them on, or no other person plays."""
        people = sum(1 for p in self.players if p.human)
        return bool(self.spec.get("hints")) or people <= 1

    def hints_taken(self) -> list[int]:
        """The hints each seat took in the current game."""
        taken = self.hints if self.hints_game == self.game_no else []
        return [taken[s] if s < len(taken) else 0 for s in range(len(self.players))]

    def take_hint(self, seat: int) -> list[int]:
        """Count one hint of ``seat``; the new counts."""
        taken = self.hints_taken()
        taken[seat] += 1
        self.hints, self.hints_game = taken, self.game_no
        return taken

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
        """The fields the server adds at the end of every view (what a field between
        ``version`` and ``turn_clocks`` is made of belongs in ``server_members``' key)."""
        return {
            "room": self.code,
            "version": self.version,
            "campaign": campaign_public(self.campaign),
            "status": self.status,
            "game": self.game_no,
            "deal_chosen_by_host": self.deal_chosen_by_host,
            "deal_choice": self.deal_choice(),
            "daily": self.daily,
            "hints_allowed": self.hints_allowed,
            "hints_taken": self.hints_taken(),
            "stand_in_moves": self.stand_in_moves,
            "table_events": [e for e in self.table_events if e["game"] == self.game_no],
            "turn_limit_seconds": self.spec.get("turn_limit_seconds"),
            "turn_clocks": self.turn_clocks(),
            "lost_reason": lost_reason(self.state) if self.state is not None else None,
        }

    def server_members(self, part: PublicPart | None = None) -> str:
        """``server_fields`` encoded as the members of a JSON object (without its braces),
        as ``orjson`` writes them: the end of each ``state`` message (``server/views.py``).
        The fields between ``version`` and ``turn_clocks`` are encoded again only when
        what they are made of changed: the room's status, game, campaign, rules
        (``spec``), hints (the counts kept and the game they are of, the seats and how
        many of them people play, counted again only when a player's field was assigned
        or the list of seats changed: ``humans_kept``), the moves of stand-ins and the
        table's events (only ``add_event`` adds them, counting them in ``event_seq``),
        compared by value with copies of them; ``lost_reason`` only when the engine gives
        another answer (that of ``part``, the views' shared part of the state's current
        version, when given)."""
        players = self.players
        edits = _player_edits[0]
        humans = self.humans_kept
        if (
            humans is None
            or humans[0] != edits
            or humans[1] is not players
            or humans[2] != len(players)
        ):
            humans = self.humans_kept = (edits, players, len(players), sum(map(_HUMAN, players)))
        made_of = (
            self.code,
            self.status,
            self.game_no,
            self.event_seq,
            len(self.table_events),
            self.hints_game,
            self.hints,
            humans[2],  # (the number of seats)
            humans[3],
            self.stand_in_moves,
            self.campaign,
            self.spec,
        )
        kept = self.server_kept
        if kept is None or kept[0] != made_of:
            fields = list(self.server_fields().items())
            assert [k for k, _ in fields[:2] + fields[-2:]] == [
                "room", "version", "turn_clocks", "lost_reason"
            ]  # fmt: skip
            room = '"room":' + orjson.dumps(self.code).decode() + ',"version":'
            middle = "," + orjson.dumps(dict(fields[2:-2])).decode()[1:-1] + ',"turn_clocks":'
            kept = self.server_kept = (copy.deepcopy(made_of), room, middle)
        if self.status != "playing" or self.spec.get("turn_limit_seconds") is None:
            clocks = "[]"  # (``turn_clocks`` is empty)
        else:
            clocks = orjson.dumps(self.turn_clocks()).decode()
        lost = part.lost if part is not None else UNASKED  # (``part``: the state's now)
        if lost is UNASKED:
            state = self.state
            lost = lost_reason(state) if state is not None else None
        if lost is not self.lost_kept:
            self.lost_kept = cast("dict[str, Any] | None", lost)
            self.lost_text = "null" if lost is None else orjson.dumps(lost).decode()
        return "".join(
            (kept[1], str(self.version), kept[2], clocks, ',"lost_reason":', self.lost_text)
        )

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

    def public_info(self, spectators: int = 0) -> dict[str, Any]:
        """``GET /api/rooms/{room}``; ``spectators``: the sockets watching it here."""
        return {
            "room": self.code,
            "url": f"/r/{self.code}",
            "status": self.status,
            "modes": self.modes,
            "path": self.spec.get("path"),
            "campaign": campaign_public(self.campaign),
            "players": [{"seat": p.seat, **self.seat_public(p.seat)} for p in self.players],
            "seats_max": self.seats_max,
            "spectators": spectators,
            "version": self.version,
            "result": dict(self.state.result) if self.state and self.state.result else None,
            "created_at": self.created_at,
            "game": self.game_no,
            "deal_chosen_by_host": self.deal_chosen_by_host,
            "deal_choice": self.deal_choice(),
            "updated_at": self.updated_at,
            "turn_limit_seconds": self.spec.get("turn_limit_seconds"),
            "waiting_for": self.waiting_for(),
            "turn_clocks": self.turn_clocks(),
            "daily": self.daily,
        }

    def waiting_for(self) -> list[int]:
        """The seats the game waits for now (empty outside a game being played)."""
        state = self.state
        if state is None or self.status != "playing" or state.is_over:
            return []
        return sorted(state.current_players())

    def replay(self, earlier: dict[str, Any] | None = None) -> dict[str, Any]:
        """The replay of the current game once it is over, or of an ``earlier`` game of
        the room as stored (``load_game``; its campaign is not kept: None)."""
        if earlier is not None:
            game_no, setup, actions = earlier["game_no"], earlier["setup"], earlier["actions"]
            result, campaign = earlier["result"], None
            stored = list(earlier.get("hints") or [])  # none stored: no hint taken
            hints = [stored[s] if s < len(stored) else 0 for s in range(setup["num_players"])]
        elif self.state is None or not self.state.is_over:
            raise Refused("game_not_over", "The replay is available once the game is over.")
        else:
            game_no, setup, actions = self.game_no, self.state.setup, list(self.state.history)
            result, campaign = self.state.result, campaign_public(self.campaign)
            hints = self.hints_taken()
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
            "hints_taken": hints,
        }
