"""The game's commands: a seat's action (a person's, over HTTP or a websocket, or its
bot's), and what a seat reads: its view, its log, its legal actions, the replays.

An action is checked by the engine on the room as it is under its lock, stored (the
action log is the truth: not stored, not accepted), then pushed to every seat. Who acts
or reads (``SeatRef``) is resolved under that lock too, from the room as it is: seats
move when one leaves the lobby, so a seat read from a token before the lock may be
another player's by the time the lock is held.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from ...engine import EngineError, State, visible_log
from ..campaign import record_result
from ..errors import Refused, refusal
from ..provenance import state_digest
from ..results import game_result
from ..settings import Settings
from .commit import Commit
from .model import Room

#: who acts or reads: a seat (a caller that knows it: a bot, a test), or a function that
#: reads it from the room under its lock (``by_token``, ``by_socket``); None: a spectator
SeatRef = int | Callable[[Room], int | None]


def by_token(token: str | None) -> Callable[[Room], int | None]:
    """The seat of ``token`` in the room as it is (``invalid_token`` if none; no token:
    a spectator)."""

    def seat(room: Room) -> int | None:
        if token is None:
            return None
        found = room.seat_for_token(token)
        if found is None:
            raise Refused("invalid_token", "This token is not a seat of this room.")
        return found

    return seat


def by_socket(conn: Any) -> Callable[[Room], int | None]:
    """The seat a socket plays now (moved under the room's lock with the seats)."""
    return lambda room: conn.seat


def resolve(room: Room, who: SeatRef) -> int | None:
    """The seat of ``who``: call this under the room's lock."""
    return who if isinstance(who, int) else who(room)


def player_seat(room: Room, who: SeatRef) -> int:
    seat = resolve(room, who)
    if seat is None:
        raise Refused("invalid_token", "This connection plays no seat of this room.")
    return seat


class SeatRates:
    """The action rate of each seat of each room (HTTP and websocket together): a token
    bucket a seat (``TokenBucket``'s rate and burst) kept as one float, the time its
    bucket is full again (a seat within its rate: that time is past). Each room's are a
    dict of floats, which the cyclic collector does not track: a ``TokenBucket`` object
    a seat, made at the seat's first action, would be walked by its next passes.

    >>> from types import SimpleNamespace as Room
    >>> rates = SeatRates(Settings(action_rate_per_second=1.0, action_rate_burst=2))
    >>> room = Room(code="ABCD")
    >>> [rates.take(room, 0, now=0.0) for _ in range(3)], rates.take(room, 1, now=0.0)
    ([True, True, False], True)
    >>> rates.take(room, 0, now=0.5), rates.take(room, 0, now=1.0)
    (False, True)
    """

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._per_token = 1.0 / settings.action_rate_per_second
        #: how long a full bucket lasts, less one token: a take is allowed while the
        #: bucket is full again at most this long after it
        self._slack = (settings.action_rate_burst - 1) * self._per_token
        #: each room's seats: when their bucket is full again
        self._buckets: dict[str, dict[int, float]] = {}

    def take(self, room: Room, seat: int, now: float | None = None) -> bool:
        """Whether the seat may act now (it takes a token if so)."""
        now = time.monotonic() if now is None else now
        full_at = self._buckets.get(room.code)
        if full_at is None:
            full_at = self._buckets[room.code] = {}
        due = max(full_at.get(seat, now), now)
        if due - now > self._slack:
            return False
        full_at[seat] = due + self._per_token
        return True

    def allow(self, room: Room, seat: int) -> None:
        """``rate_limited`` past the seat's rate."""
        if not self.take(room, seat):
            raise Refused("rate_limited", "Too many actions from this seat: slow down.")

    def forget(self, code: str) -> None:
        self._buckets.pop(code, None)


async def act(
    commit: Commit, room: Room, who: SeatRef, action: dict[str, Any], reply: bool
) -> dict[str, Any] | None:
    """A person's action on their seat (``who``, read under the lock); the seat's new
    view when ``reply`` (HTTP; a websocket gets it pushed with the others')."""

    async def change() -> dict[str, Any] | None:
        seat = player_seat(room, who)
        if room.state is None:
            raise Refused("game_not_started", "The game has not started yet.")
        if room.players[seat].bot is not None:
            raise Refused(
                "bot_seat",
                "A bot plays this seat now: take it back first "
                "(open the room, or DELETE /api/rooms/{room}/bots/{seat}).",
            )
        await apply(commit, room, seat, action)
        return room.view(seat) if reply else None

    return await commit.attempt(room, change)


async def act_as_bot(
    commit: Commit, room: Room, seat: int, action: dict[str, Any], game: int
) -> bool:
    """The action of the bot of ``seat``, decided during game ``game``: played like a
    person's (same lock, same checks, saved before it is broadcast), or dropped (False)
    if the seat has no bot any more, another game began, or (nodes sharing a store)
    another node leads this room's bots."""
    if not await commit.coordination.may_drive_bots(room.code):
        return False

    async def change() -> bool:
        player = room.players[seat]
        if room.game_no != game or player.bot is None:
            return False
        stand_in = None
        if player.human and room.state is not None:  # played for a person who left
            stand_in = {"level": player.bot, "turn": room.state.turn}
        await apply(commit, room, seat, action, stand_in)
        return True

    return await commit.attempt(room, change)


async def act_when_late(
    commit: Commit,
    room: Room,
    seat: int,
    action: dict[str, Any],
    game: int,
    since: float,
    level: str,
) -> bool:
    """A paced room: the action a bot of ``level`` decided for ``seat``, whose clock ran
    out (it has waited since ``since``), played as a stand-in's; dropped (False) when
    the seat acted meanwhile, a bot plays it, another game began, or another node leads
    the room."""
    if not await commit.coordination.may_drive_bots(room.code):
        return False

    async def change() -> bool:
        limit, player = room.turn_limit, room.players[seat]
        if (
            limit is None
            or room.game_no != game
            or room.state is None
            or player.bot is not None
            or room.waiting.get(seat) != since
            or time.time() < since + limit
        ):
            return False
        stand_in = {"level": level, "turn": room.state.turn, "reason": "turn_limit"}
        await apply(commit, room, seat, action, stand_in)
        return True

    return await commit.attempt(room, change)


async def apply(
    commit: Commit,
    room: Room,
    seat: int,
    action: dict[str, Any],
    stand_in: dict[str, Any] | None = None,
) -> None:
    """Under the room's lock: check, apply, store, push, publish. ``Conflict`` when
    another node changed the room first (the room is as stored). ``stand_in``: the bot
    (``{level, turn}``) playing it for a person who left."""
    state = room.state
    if state is None:
        raise Refused("game_not_started", "The game has not started yet.")
    try:
        state.apply(seat, action)
    except EngineError as err:
        raise refusal(err) from None
    campaign = room.campaign
    if state.result is not None and campaign is not None:
        campaign = record_result(campaign, state.result["outcome"])
    idx = len(state.history) - 1
    stored = state.history[-1]["action"]
    now = time.time()
    waiting = room.clocks_after(now, acted=seat if stand_in is None else None)
    try:
        if state.result is None and waiting is None:  # the usual action: few keywords
            store = commit.store
            row = (room.code, room.game_no, idx, seat, stored, stand_in, now)
            if store.inline:  # SQLite: written now, no coroutine to await
                commit.save_now(room, store.append_action, *row)
            else:
                await commit.save(room, store.append_action, *row)
        else:
            await commit.save(
                room,
                commit.store.add_action,
                room.code,
                room.game_no,
                idx,
                seat,
                stored,
                result=state.result,
                campaign=campaign,
                now=now,
                digest=state_digest(state) if state.result is not None else None,
                stand_in=stand_in,
                waiting=waiting,
                record=None
                if state.result is None
                else game_result(room, state, now, bool(stand_in)),
            )
    except BaseException:
        # not stored, so not accepted: the room goes back to exactly what is stored
        room.state = State.replay(state.setup, state.history[:-1])
        raise
    if state.is_over:
        room.status = "over"
        room.campaign = campaign
    if waiting is not None:
        room.waiting = waiting[0]
    if stand_in is not None:
        room.add_stand_ins([{"seat": seat, "action": stored}], [stand_in])
    published = None
    if commit.coordination.shared:  # what the other nodes apply it from (made for them only)
        published = {
            "game": room.game_no,
            "idx": idx,
            "seat": seat,
            "action": stored,
            "ends": state.is_over,
            "at": now,
            "acted": seat if stand_in is None else None,
        }
        if stand_in is not None:
            published["stand_in"] = stand_in
    commit.changed(room, now, state.is_over, published)


# ---------------------------------------------------------------- reading
async def view(room: Room, who: SeatRef | None) -> dict[str, Any]:
    """The view of ``who`` once no change is half done (a change is visible only
    after it is stored)."""
    async with room.lock:
        return room.view(None if who is None else resolve(room, who))


async def log(room: Room, who: SeatRef | None, since: int) -> dict[str, Any]:
    """Every event of the room's current game that ``who`` may see (``None``: a
    spectator), redacted as in its views, from the ``since``-th one."""
    async with room.lock:
        seat = None if who is None else resolve(room, who)
        events = visible_log(room.state, seat, tail=None) if room.state is not None else []
        return {
            "version": room.version,
            "game": room.game_no,
            "seat": seat,
            "total": len(events),
            "events": events[since:],
            "stand_in_moves": room.stand_in_moves,
            "table_events": room.server_fields()["table_events"],
        }


async def legal_actions(room: Room, who: SeatRef) -> dict[str, Any]:
    async with room.lock:
        seat = player_seat(room, who)
        actions = room.state.legal_actions(seat) if room.state is not None else []
        return {"version": room.version, "seat": seat, "actions": actions}


async def replay(commit: Commit, room: Room, game: int | None = None) -> dict[str, Any]:
    """The replay of game ``game`` of ``room`` (None: the current one, once over). The
    games before the current one are read from the store: a rematch keeps them."""
    if game is None or game == room.game_no:
        return room.replay()
    if not 1 <= game < room.game_no:
        raise Refused("game_not_found", f"This room has no game {game}.")
    store = commit.store
    earlier = await store.call(store.load_game, room.code, game)
    if earlier is None:
        raise Refused("game_not_found", f"This room has no game {game}.")
    return room.replay(earlier)
