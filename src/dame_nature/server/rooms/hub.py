"""The hub: this node's sockets of every room, by room and seat, and the broadcast that
pushes each of them its own view after a change.

A room holds no socket: the hub does. ``broadcast(room)`` encodes the ``state`` message
of each seat once (``views.StateMessages``: the part shared by every seat encoded once)
and pushes it to that seat's sockets (spectators get the spectator's view). Per-room
caps (sockets per seat, spectators per room) are checked here, before a socket joins.
"""

from __future__ import annotations

from collections.abc import Callable

from ..connections import Connection
from ..errors import Refused
from ..jsonio import dumps
from ..settings import Settings
from ..views import StateMessages
from .model import Room

Sockets = dict[int | None, set[Connection]]

#: the websocket close code of a socket whose room was closed (as a room not found)
ROOM_CLOSED = 4404
#: told to a socket whose seat left the room (it watches from then on)
SEAT_REMOVED = dumps(
    {
        "type": "error",
        "error": {
            "code": "seat_removed",
            "message": "Your seat was removed: you are watching now.",
        },
    }
)


class Hub:
    """Every socket this node holds, by room code and seat (``None``: spectators)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self._rooms: dict[str, Sockets] = {}
        #: the sockets whose page said it is hidden (``{"type": "visibility"}``)
        self._hidden: set[Connection] = set()

    # ---------------------------------------------------------------- reading
    def sockets(self, code: str) -> Sockets:
        return self._rooms.get(code) or {}

    def count(self, code: str) -> int:
        """The sockets of room ``code`` on this node (seats and spectators)."""
        return sum(len(c) for c in self.sockets(code).values())

    def spectators(self, code: str) -> int:
        return len(self.sockets(code).get(None, ()))

    def local(self, code: str, seat: int) -> bool:
        """Whether this node holds a socket of ``seat``."""
        return bool(self.sockets(code).get(seat))

    def set_visible(self, conn: Connection, visible: bool) -> None:
        if visible:
            self._hidden.discard(conn)
        else:
            self._hidden.add(conn)

    def page_visible(self, room: Room, seat: int) -> bool:
        """Whether a page of ``seat`` is open and visible: a socket of it here that did
        not say it is hidden; a seat connected only to another node counts as visible."""
        conns = self.sockets(room.code).get(seat)
        if conns:
            return any(conn not in self._hidden for conn in conns)
        return room.connected(seat)

    def count_by_kind(self) -> dict[str, int]:
        """Every socket of this node: ``seat`` sockets and ``spectator`` sockets."""
        counts = {"seat": 0, "spectator": 0}
        for sockets in self._rooms.values():
            for seat, conns in sockets.items():
                counts["spectator" if seat is None else "seat"] += len(conns)
        return counts

    def seats(self, code: str) -> set[int]:
        """The seats of room ``code`` with a socket on this node."""
        return {seat for seat, conns in self.sockets(code).items() if seat is not None and conns}

    # ---------------------------------------------------------------- changing
    def admit(self, code: str, seat: int | None) -> None:
        """Seats and spectators are counted apart, so spectators never lock a player
        out: refused (``too_many_spectators``, ``too_many_connections``) when the
        room's spectator places, or this seat's sockets, are all taken."""
        open_now = len(self.sockets(code).get(seat, ()))
        if seat is None and open_now >= self.settings.max_spectators_per_room:
            raise Refused("too_many_spectators", "This room has as many spectators as it can take.")
        if seat is not None and open_now >= self.settings.max_sockets_per_seat:
            raise Refused("too_many_connections", "This seat is open in too many tabs or devices.")

    def add(self, code: str, conn: Connection) -> None:
        self._rooms.setdefault(code, {}).setdefault(conn.seat, set()).add(conn)

    def remove(self, code: str, conn: Connection) -> bool | None:
        """Take ``conn`` out; None when the hub did not hold it, else whether it was
        the last socket of its seat here."""
        sockets = self._rooms.get(code)
        conns = sockets.get(conn.seat) if sockets is not None else None
        if sockets is None or conns is None or conn not in conns:
            return None
        conns.discard(conn)
        self._hidden.discard(conn)
        if conns:
            return False
        del sockets[conn.seat]
        if not sockets:
            del self._rooms[code]
        return True

    def seat(self, code: str, conn: Connection, seat: int) -> None:
        """A spectator's socket becomes a socket of ``seat``."""
        spectators = self.sockets(code).get(None)
        if spectators is not None:
            spectators.discard(conn)
            if not spectators:
                del self._rooms[code][None]
        conn.seat = seat
        self.add(code, conn)

    def all_sockets(self) -> list[Sockets]:
        """The sockets of every room on this node, by seat."""
        return list(self._rooms.values())

    def close_room(self, code: str, message: str = "") -> int:
        """Room ``code`` is gone (the admin closed it): each of its sockets here is told
        (``{"type": "room_closed", "message"}``), then closed (4404) and no longer held.
        The sockets told."""
        sockets = self._rooms.pop(code, None) or {}
        conns = [conn for group in sockets.values() for conn in group]
        self._hidden.difference_update(conns)
        notice = dumps({"type": "room_closed", "message": message})
        for conn in conns:
            conn.push(notice)
            conn.close_after_sent(ROOM_CLOSED)
        return len(conns)

    def seat_revoked(self, code: str, seat: int) -> None:
        """Seat ``seat`` was taken from its player during a game: its sockets are told
        and become spectators (the other seats stay where they are)."""
        sockets = self._rooms.get(code)
        group = sockets.pop(seat, None) if sockets is not None else None
        if sockets is None or not group:
            return
        for conn in group:
            conn.seat = None
            conn.push(SEAT_REMOVED)
        sockets.setdefault(None, set()).update(group)

    def seat_removed(self, code: str, seat: int) -> None:
        """Seat ``seat`` left the lobby: the seats after it move down one, and its own
        sockets are told and become spectators."""
        self._move(
            code,
            lambda old, _: None if old == seat else old if old is None or old < seat else old - 1,
        )

    def reseat(self, room: Room) -> None:
        """Under the room's lock, once ``room`` was reloaded from the store (another
        node may have removed a seat, moving the seats after it): each socket plays the
        seat its token has now; one whose token lost its seat is told and watches."""

        def now(old: int | None, conn: Connection) -> int | None:
            return old if conn.token is None else room.seat_for_token(conn.token)

        self._move(room.code, now)

    def _move(self, code: str, new_seat: Callable[[int | None, Connection], int | None]) -> None:
        old_sockets = self._rooms.pop(code, None)
        if not old_sockets:
            return
        moved: Sockets = {}
        for old, group in old_sockets.items():
            for conn in group:
                new = new_seat(old, conn)
                conn.seat = new
                if new is None and old is not None:
                    conn.token = None
                    conn.push(SEAT_REMOVED)
                moved.setdefault(new, set()).add(conn)
        self._rooms[code] = moved

    # ---------------------------------------------------------------- pushing
    def broadcast(self, room: Room) -> None:
        """Push each socket of ``room`` the ``state`` message of its seat."""
        absent = room.absent_now()
        if absent != room.shown_absent:  # an equal set stays: no new object a change
            room.shown_absent = absent
        sockets = self._rooms.get(room.code)
        if not sockets:
            return
        messages = StateMessages(room)
        for seat, conns in sockets.items():
            if conns:
                text = messages.text(seat)
                for conn in conns:
                    conn.push(text, "state")

    @staticmethod
    def send_view(room: Room, conn: Connection) -> None:
        conn.push(StateMessages(room).text(conn.seat), "state")
