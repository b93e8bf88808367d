"""``Room.seats_public_values`` gives its kept answer again only while it still holds:
every change of a seat's fields, of the list of seats or of who is connected (in place
or not) and every absence is seen at the next call."""

from __future__ import annotations

from typing import Any

import orjson

from dame_nature.server.rooms import Player, Room


def made_afresh(room: Room, now: float) -> list[tuple[Any, ...]]:
    """The values as the room's fields give them, without anything kept."""
    return [
        (
            player.name,
            seat in room.present,
            player.bot,
            player.stand_in,
            player.host,
            room.presence.absent(player, room.absent_limit, now),
        )
        for seat, player in enumerate(room.players)
    ]


def test_a_rooms_seats_public_values_follow_every_change():
    room = Room(code="r" * 16, host_token="h", spec={"modes": []}, created_at=0.0, updated_at=0.0)
    room.players = [Player(seat, f"Player {seat}", f"t{seat}") for seat in range(4)]
    room.present = {0, 1, 2, 3}
    other = Room(code="o" * 16, host_token="h", spec={"modes": []}, created_at=0.0, updated_at=0.0)
    other.players = [Player(0, "Elsewhere", "e0")]

    def changes() -> Any:
        yield lambda: None  # nothing: the kept answer
        yield lambda: setattr(room.players[1], "name", "Renamed")
        yield lambda: setattr(room.players[2], "bot", "random")  # a stand-in
        yield lambda: setattr(room.players[2], "human", False)
        yield lambda: setattr(room.players[0], "host", True)
        yield lambda: room.present.discard(3)  # in place
        yield lambda: room.present.add(3)
        yield lambda: setattr(room, "present", {0, 1})
        yield lambda: room.players.append(Player(4, "Late", "t4"))
        yield lambda: room.players.__delitem__(1)
        yield lambda: setattr(room, "players", list(room.players))
        yield lambda: setattr(other.players[0], "name", "Still elsewhere")  # another room
        yield lambda: room.presence.away_since.update({0: -1e9})  # away long ago: absent
        yield lambda: room.presence.away_since.clear()  # back
        yield lambda: setattr(room.players[0], "seat", 3)

    for change in changes():
        change()
        for _ in range(2):  # made, then given again
            assert room.seats_public_values() == made_afresh(room, now=0.0)


def test_a_rooms_server_members_follow_every_change_of_its_seats():
    """``Room.server_members`` (with ``hints_allowed``, made of how many seats people
    play) is the room's ``server_fields`` encoded after every change of a seat's fields
    or of the list of seats."""
    room = Room(code="r" * 16, host_token="h", spec={"modes": []}, created_at=0.0, updated_at=0.0)
    room.players = [Player(seat, f"Player {seat}", f"t{seat}") for seat in range(3)]
    room.present = {0, 1, 2}

    def changes() -> Any:
        yield lambda: None
        yield lambda: setattr(room.players[1], "human", False)  # one person left
        yield lambda: setattr(room.players[2], "human", False)  # hints now allowed
        yield lambda: setattr(room.players[2], "human", True)
        yield lambda: room.players.append(Player(3, "Late", "t3"))  # in place
        yield lambda: setattr(room, "players", [room.players[0], room.players[1]])
        yield lambda: room.players.__delitem__(0)

    for change in changes():
        change()
        for _ in range(2):  # made, then given again
            expected = orjson.dumps(room.server_fields()).decode()[1:-1]
            assert room.server_members() == expected
