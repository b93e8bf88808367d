"""Who is at the table: names compared as people read them, seats that count as absent,
and the host role, which passes on from an absent host so that no table waits for good.

A seated person counts as *absent* once their seat has had no connection (on any node)
for ``Settings.absent_seconds``; a seat played by a bot never does (the bot is there).
Absence is measured from the moment this node saw the seat go (or, for a seat never
connected since this node loaded the room, from that load).

The host is the seat taken with the host token (``players[].host``), or, in a room whose
host never sat down, the holder of the host token. When the host's seat counts as absent
the role passes to the person seated longest (the lowest seat) who is connected; the old
host token then gets 403 ``not_host``. A room whose host never sat keeps its host token
working (a program may drive the room without a seat) and has no ``players[].host``.

>>> name_key("  Ｄａｎ ") == name_key("dan") == name_key("DAN")
True
>>> name_key("Ana\u0301") == name_key("Aná")
True
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Iterable
from typing import Any, Protocol

from .errors import Refused


class SeatLike(Protocol):
    seat: int
    name: str
    bot: str | None
    human: bool
    host: bool


def name_key(name: str) -> str:
    """A name as it is compared: NFKC, case folded, spaces collapsed."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_name_free(players: Iterable[SeatLike], name: str) -> None:
    """409 ``name_taken`` when a seat of the room already has this name, compared
    case-insensitively after Unicode normalisation."""
    key = name_key(name)
    for player in players:
        if name_key(player.name) == key:
            raise Refused(
                "name_taken",
                f"Someone at this table is already called {player.name}: choose another name.",
            )


class Presence:
    """When each seat of one room was last seen going away (this node's clock)."""

    __slots__ = ("away_since",)

    def __init__(self) -> None:
        #: seat -> ``time.monotonic()`` when it was seen without a connection
        self.away_since: dict[int, float] = {}

    def update(self, seats: int, present: Iterable[int], now: float | None = None) -> None:
        """The room has ``seats`` seats and ``present`` are connected now: a seat that was
        there and is not any more starts its absence at ``now``."""
        here = set(present)
        if not self.away_since and here.issuperset(range(seats)):
            return  # every seat connected, as before
        now = time.monotonic() if now is None else now
        for seat in range(seats):
            if seat in here:
                self.away_since.pop(seat, None)
            else:
                self.away_since.setdefault(seat, now)
        for seat in [s for s in self.away_since if s >= seats]:
            del self.away_since[seat]

    def away_for(self, seat: int, now: float | None = None) -> float | None:
        """Seconds seat ``seat`` has been without a connection (None: connected)."""
        since = self.away_since.get(seat)
        if since is None:
            return None
        return (time.monotonic() if now is None else now) - since

    def absent(self, player: SeatLike, limit: float, now: float | None = None) -> bool:
        """A person's seat without a connection for ``limit`` seconds or more (a seat a
        bot plays is never absent: the bot is there)."""
        if player.bot is not None:
            return False
        away = self.away_for(player.seat, now)
        return away is not None and away >= limit

    def next_due(self, limit: float, now: float | None = None) -> float | None:
        """Seconds until the next seat away now counts as absent (None: none will)."""
        if not self.away_since:
            return None
        now = time.monotonic() if now is None else now
        waits = [since + limit - now for since in self.away_since.values()]
        waits = [w for w in waits if w > 0]
        return min(waits) if waits else None


def host_seat(players: Iterable[SeatLike]) -> int | None:
    """The seat holding the host role (None: the room's host never sat down)."""
    return next((p.seat for p in players if p.host), None)


def successor(players: list[Any], present: Iterable[int], host: int | None) -> int | None:
    """The person seated longest (lowest seat) who is connected, other than ``host``."""
    here = set(present)
    for player in players:
        if player.seat != host and player.human and player.bot is None and player.seat in here:
            return int(player.seat)
    return None


def host_to_pass(
    players: list[Any], present: Iterable[int], presence: Presence, limit: float
) -> int | None:
    """The seat the host role passes to now, or None when it stays: it passes only from
    a host seat that counts as absent (or that a bot plays), to a connected person."""
    host = host_seat(players)
    if host is None:
        return None
    holder = players[host]
    if holder.bot is None and not presence.absent(holder, limit):
        return None
    return successor(players, present, host)


def check_hand_over(
    players: list[Any],
    seat: int,
    by_host: bool,
    presence: Presence,
    connected: bool,
    limit: float,
) -> None:
    """May seat ``seat`` be handed to a bot now? The host may hand any seat without a
    connection; any other seated player a seat that counts as absent. 409
    ``player_connected`` otherwise (the seat's ``bot`` was checked before)."""
    player = players[seat]
    if connected:
        raise Refused(
            "player_connected",
            f"{player.name} is connected: a bot takes over only a seat whose player has left.",
        )
    if by_host or presence.absent(player, limit):
        return
    away = presence.away_for(seat)
    wait = max(1, round(limit - (away or 0.0)))
    raise Refused(
        "player_connected",
        f"{player.name} left only a moment ago: a bot may take the seat once they have "
        f"been away {round(limit)} seconds (about {wait} more).",
    )


def table_event(
    kind: str, seat: int, name: str, turn: int | None, at_log: int, **more: Any
) -> dict[str, Any]:
    """One event of the table beside the game's own log: ``left``, ``returned``,
    ``stand_in`` (a bot took the seat), ``stand_in_ended``, ``host`` (the role passed).
    ``log_index``: how many events the game's log had then (to place it among them)."""
    return {"type": kind, "seat": seat, "name": name, "turn": turn, "log_index": at_log, **more}
