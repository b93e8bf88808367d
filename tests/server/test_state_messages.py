"""The ``state`` messages encoded once per change for every seat (``server/views.py``) are
byte for byte the JSON of each seat's whole view built from a fresh copy of the state
(which keeps nothing of earlier versions), as the server sent them before: every
step of random games with every rule set, each seat and a spectator, in the lobby, with
bots, stand-ins, absent players and a campaign, the room's own fields changing between
versions (``change_the_room``)."""

from __future__ import annotations

import gc
import random
from typing import Any

import pytest

from dame_nature.engine import MODES, Game
from dame_nature.server.campaign import new_campaign
from dame_nature.server.jsonio import dumps
from dame_nature.server.rooms import Player, Room
from dame_nature.server.views import StateMessages

SETUPS = [(3, []), (4, list(MODES)), (5, ["climate_change", "privileged_symbioses"]), (6, [])]


def a_room(players: int, modes: list[str], seed: int) -> Room:
    rng = random.Random(seed)
    room = Room(code="r" * 16, host_token="h", spec={"modes": modes}, created_at=0.0,
                updated_at=0.0)  # fmt: skip
    room.players = [
        Player(s, f"Joueur·{s} «é»", f"t{s}", bot=rng.choice([None, "random"]), human=s % 2 == 0)
        for s in range(players)
    ]
    room.present = {s for s in range(players) if rng.random() < 0.7}
    room.campaign = new_campaign(1) if seed % 2 else None
    room.game_no = 1 + seed % 3
    room.spec["seed"] = seed if seed % 3 else None
    return room


def fresh_view(room: Room, seat: int | None) -> dict[str, Any]:
    """``room.view(seat)`` built from a copy of the state, which keeps nothing of its
    earlier versions."""
    state = room.state
    if state is None:
        return room.view(seat)
    room.state = state.clone()
    try:
        return room.view(seat)
    finally:
        room.state = state


def assert_same(room: Room) -> None:
    messages = StateMessages(room)
    for seat in [None, *range(len(room.players))]:
        assert messages.text(seat) == dumps({"type": "state", "view": fresh_view(room, seat)})


@pytest.mark.parametrize(("players", "modes"), SETUPS)
def test_state_messages_are_the_whole_views_encoded(players: int, modes: list[str]) -> None:
    for seed in range(3):
        room = a_room(players, modes, seed)
        assert_same(room)  # the lobby
        room.state = Game(players, modes).new_initial_state(seed=seed)
        room.status = "playing"
        rng = random.Random(seed)
        for step in range(400):
            assert_same(room)
            state = room.state
            if state.is_over:
                room.status = "over"
                assert_same(room)
                break
            seat = rng.choice(state.to_act())
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            room.version += 1
            if step % 7 == 0:
                room.present ^= {step % players}
            change_the_room(room, step)


def change_the_room(room: Room, step: int) -> None:
    """Change, now and then, what the server adds to the views beside the engine: the
    table's events, hints, stand-ins' moves, who is host, plays as a bot or is absent,
    a seat's name, the campaign (in place), the status and the rules."""
    seat = step % len(room.players)
    player = room.players[seat]
    if step % 11 == 0:
        room.add_event("left" if step % 2 else "returned", seat)
    if step % 13 == 0:
        room.take_hint(seat)
    if step % 17 == 0:
        turn = room.state.turn if room.state is not None else 0
        room.add_stand_ins(
            [{"seat": seat, "action": {"type": "ready"}}], [{"turn": turn, "level": "random"}]
        )
    if step % 19 == 0:
        player.host = not player.host
    if step % 23 == 0:
        player.bot = None if player.bot else "random"
    if step % 29 == 0:
        away = room.presence.away_since
        if seat in away:
            del away[seat]
        else:
            away[seat] = -1e9  # long ago: absent if a person plays it
    if step % 31 == 0:
        player.name += "·"
    if step % 37 == 0 and room.campaign is not None:
        room.campaign["results"].append("won")  # in place
    if step % 41 == 0:
        room.spec["hints"] = not room.spec.get("hints")  # in place
    if step % 43 == 0:
        room.spec["turn_limit_seconds"] = None if room.spec.get("turn_limit_seconds") else 60


def test_the_seats_parts_are_kept_as_texts_not_objects() -> None:
    """From one version to the next the views keep each seat's part as its encoded texts
    (strings and ints, which the cyclic collector does not track): no part, own fields
    or listing of actions is reachable from the views' shared part once the messages are
    built, and the texts kept are those of the fresh views."""
    from dame_nature.engine.view import SeatPart

    room = a_room(4, [], 1)
    room.state = state = Game(4).new_initial_state(seed=1)
    room.status = "playing"
    rng = random.Random(1)
    for _ in range(60):
        assert_same(room)
        part = state._public
        own = set(map(id, (state.log, state.hands, state.known, state.programmed)))
        seen: set[int] = set()
        todo: list[Any] = [part]
        while todo:
            obj = todo.pop()
            if id(obj) in seen or id(obj) in own or isinstance(obj, type):
                continue
            seen.add(id(obj))
            assert not isinstance(obj, SeatPart)
            if type(obj) is dict:
                assert "hand" not in obj and "type" not in obj  # own fields, an action
            todo.extend(gc.get_referents(obj))
        if state.is_over:
            break
        seat = rng.choice(state.to_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        room.version += 1
