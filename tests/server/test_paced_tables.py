"""Paced tables: the room rule ``turn_limit_seconds``. A seat that does not act within
the limit from the moment the table started waiting for it has that one decision played
by a bot, logged as a stand-in (``reason: "turn_limit"``); the clocks are stored, so a
server killed with SIGKILL and started again plays the overdue decisions by itself."""

from __future__ import annotations

import time
from typing import Any

from dame_nature.engine import State
from tests.server.conftest import Api
from tests.server.test_bots_resume import wait_for

PACED = {"DAME_NATURE_MIN_TURN_LIMIT_SECONDS": "1"}
ABSENT = 3  # the seat whose person never connects


def step_others(api: Api, table: dict[str, Any], end_lost: bool = True) -> bool | None:
    """One scripted action of a seat other than ``ABSENT``; None once the game is over,
    False when only ``ABSENT`` can move the game on (its stand-in will). A move refused
    because a stand-in played that decision first (the machine was slow) is no error.
    ``end_lost``: a game that can no longer be won is ended (else played on)."""
    room, tokens = table["room"], table["tokens"]
    spectator = api.state(room).json()
    if spectator["phase"] == "over":
        return None
    awaited = spectator["awaiting"]
    seats = [awaited["seat"]] if awaited else list(spectator["to_act"])
    seats = [s for s in seats if s != ABSENT]
    if not seats:
        return False
    seat = seats[0]
    legal = api.legal(room, tokens[seat])
    if not legal:
        return False
    if end_lost and not spectator["winnable"]:
        action = {"type": "end_game"}
    else:
        action = api.scripted_action(api.state(room, tokens[seat]).json(), legal)
    answer = api.act(room, tokens[seat], action)
    assert answer.status_code in (200, 409), answer.text
    return True


def play_until(
    api: Api, table: dict[str, Any], done: Any, timeout: float = 120, end_lost: bool = True
) -> None:
    """The others play (and the stand-ins of ``ABSENT``) until ``done()``."""
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the paced game did not move on"
        moved = step_others(api, table, end_lost)
        if moved is None:
            return
        if moved is False:  # the table waits for the absent seat: its clock runs out
            version = api.state(table["room"]).json()["version"]
            wait_for(
                lambda v=version: api.state(table["room"]).json()["version"] > v,
                20,
                "no stand-in played for the seat whose clock ran out",
            )


def test_paced_game_is_finished_by_the_others_across_a_sigkill(server_factory, make_api, tmp_path):
    db = tmp_path / "paced.sqlite3"
    first = server_factory(env=PACED, db=db).start()
    api = make_api(first)
    table = api.table(players=4, seed=41, turn_limit_seconds=1)
    room = table["room"]
    info = api.info(room).json()
    assert info["turn_limit_seconds"] == 1
    assert {c["seat"] for c in info["turn_clocks"]} == set(info["waiting_for"])
    with api.socket(room, table["tokens"][0]) as ws:  # a person at the table, live
        view = ws.receive_type("state")["view"]
        assert view["turn_limit_seconds"] == 1
        assert [c["seat"] for c in view["turn_clocks"]] == sorted(view["to_act"])
        play_until(api, table, lambda: api.state(room).json()["turn"] >= 2)
    moves = api.state(room).json()["stand_in_moves"]
    assert any(m["seat"] == ABSENT for m in moves), moves

    first.kill()
    # the table waits for the absent seat while no server runs: its clock runs out
    second = server_factory(env=PACED, db=db).start()
    api = make_api(second)
    before = api.state(room).json()
    assert before["phase"] != "over"

    def absent_stand_ins() -> int:
        return sum(m["seat"] == ABSENT for m in api.state(room).json()["stand_in_moves"])

    # the stand-ins (of late seats too, on a slow machine) draw their own seeds, so the
    # game may be lost by now: the others play on, not ending it, until the restarted
    # server has played for the absent seat
    killed_with = len([m for m in moves if m["seat"] == ABSENT])
    play_until(api, table, lambda: absent_stand_ins() > killed_with, end_lost=False)
    play_until(api, table, lambda: api.state(room).json()["phase"] == "over", timeout=300)
    final = api.state(room).json()
    assert final["phase"] == "over"

    replay = api.replay(room).json()
    assert State.replay(replay["setup"], replay["actions"]).result == final["result"]
    absent_moves = [a for a in replay["actions"] if a["seat"] == ABSENT]
    stand_ins = [m for m in final["stand_in_moves"] if m["seat"] == ABSENT]
    assert absent_moves and len(stand_ins) == len(absent_moves)
    assert len(stand_ins) > len([m for m in moves if m["seat"] == ABSENT])  # after the restart
    assert all(m["reason"] == "turn_limit" for m in final["stand_in_moves"])
    # the person keeps the seat: no bot took it over
    assert final["players"][ABSENT]["bot"] is None
    assert final["turn_clocks"] == []
    log = api.http.get(f"/api/rooms/{room}/log", headers=api.auth(table["tokens"][0])).json()
    assert log["stand_in_moves"] == final["stand_in_moves"]


def test_turn_limit_bad_input_changes_nothing(server_factory, make_api):
    server = server_factory(env={"DAME_NATURE_MIN_TURN_LIMIT_SECONDS": "3600"}).start()
    api = make_api(server)
    for limit in (0, 59, 3599, 172_801, -5):
        answer = api.create(turn_limit_seconds=limit)
        assert answer.status_code == 422, answer.text
        assert answer.json()["error"]["code"] == "invalid_turn_limit"
    for limit in ("soon", 1.5, [3600]):
        assert api.create(turn_limit_seconds=limit).status_code == 422
    table = api.table(players=3, start=False, turn_limit_seconds=3600)
    room, host, player = table["room"], table["host"], table["tokens"][1]
    version = api.info(room).json()["version"]
    patch = api.http.patch
    for token, body, status in (
        (host, {"turn_limit_seconds": 10}, 422),
        (host, {"turn_limit_seconds": 200_000}, 422),
        (player, {"turn_limit_seconds": 7200}, 403),
        (None, {"turn_limit_seconds": 7200}, 401),
        ("not-a-token", {"turn_limit_seconds": 7200}, 401),
    ):
        answer = patch(f"/api/rooms/{room}", json=body, headers=api.auth(token))
        assert answer.status_code == status, answer.text
    info = api.info(room).json()
    assert info["version"] == version and info["turn_limit_seconds"] == 3600
    rules = api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(host)).json()
    assert rules["turn_limit_seconds"] == 3600
    # the host changes it, then makes the room live again (the rules are replaced whole)
    answer = patch(
        f"/api/rooms/{room}", json={"turn_limit_seconds": 86_400}, headers=api.auth(host)
    )
    assert answer.status_code == 200 and answer.json()["turn_limit_seconds"] == 86_400
    answer = patch(f"/api/rooms/{room}", json={}, headers=api.auth(host))
    assert answer.status_code == 200 and answer.json()["turn_limit_seconds"] is None
    # once started, the rules stay
    patch(f"/api/rooms/{room}", json={"turn_limit_seconds": 7200}, headers=api.auth(host))
    assert api.start(room, host).status_code == 200
    answer = patch(f"/api/rooms/{room}", json={"turn_limit_seconds": 3600}, headers=api.auth(host))
    assert answer.status_code == 409
    info = api.info(room).json()
    assert info["turn_limit_seconds"] == 7200
    clocks = info["turn_clocks"]
    assert clocks and all(c["due"] == c["since"] + 7200 for c in clocks)


def test_a_late_seat_keeps_its_programmed_card(server_factory, make_api):
    """A seat that programmed but did not say ready in time: the stand-in says ready for
    it, and its own card is the one revealed (the bot plays the decision left, no more)."""
    server = server_factory(env=PACED).start()
    api = make_api(server)
    table = api.table(players=3, seed=43, turn_limit_seconds=1)
    room, token = table["room"], table["tokens"][0]
    card = api.state(room, token).json()["hand"][-1]
    assert api.act(room, token, {"type": "program", "card": card}).status_code in (200, 409)
    ended = wait_for(
        lambda: api.state(room).json()["turn"] >= 2 or api.state(room).json()["phase"] == "over",
        60,
        "the stand-ins did not finish the first turn",
    )
    assert ended
    replay_actions = api.http.get(f"/api/rooms/{room}/log", headers=api.auth(token)).json()
    moves = replay_actions["stand_in_moves"]
    first_turn = [m for m in moves if m["turn"] == 1]
    assert {m["seat"] for m in first_turn} == {0, 1, 2}
    assert all(m["reason"] == "turn_limit" for m in moves)
    mine = [m["type"] for m in first_turn if m["seat"] == 0]
    if mine == ["ready"]:  # programmed in time (a loaded machine may be slower than 1 s)
        revealed = [
            e
            for e in replay_actions["events"]
            if e["type"] == "revealed" and e["seat"] == 0 and e["turn"] == 1
        ]
        assert revealed and revealed[0]["card"] == card
    else:
        assert mine == ["program", "ready"]
    # no Symbiosis was ever played for anyone
    assert {m["type"] for m in moves} <= {
        "program",
        "ready",
        "reveal",
        "give_back",
        "choose_side",
        "end_game",
    }


def test_turn_notices_reach_a_late_seat_of_a_paced_table(server_factory, make_api):
    """Turn notices (Web Push, to a push-service stand-in on loopback) go to a paced
    table's seat each turn the table waits for it, once a turn, while stand-ins play for
    it."""
    from tests.push_service import PushService

    pushes = PushService().start()
    try:
        env = {**PACED, "DAME_NATURE_PUSH_ALLOW_HTTP": "true"}
        server = server_factory(env=env).start()
        api = make_api(server)
        table = api.table(players=3, start=False, seed=44, turn_limit_seconds=1)
        room, tokens = table["room"], table["tokens"]
        device = pushes.subscription()
        answer = api.http.post(
            f"/api/rooms/{room}/notifications", headers=api.auth(tokens[2]), json={"push": device}
        )
        assert answer.status_code == 201, answer.text
        assert api.start(room, table["host"]).status_code == 200
        ident = device["endpoint"].rsplit("/", 1)[-1]

        def received() -> list[dict[str, Any]]:
            return [m for m in pushes.received if m["device"] == ident]

        wait_for(lambda: len(received()) >= 2, 60, "a notice for each of two turns")
        assert [m["url"] for m in received()] == [f"/r/{room}"] * len(received())
        assert "turn 1;" in received()[0]["body"] and "turn 1;" not in received()[1]["body"]
        assert not pushes.refused
        moves = api.state(room).json()["stand_in_moves"]
        assert any(m["seat"] == 2 and m["reason"] == "turn_limit" for m in moves)
    finally:
        pushes.stop()


def test_a_stand_in_plays_the_decision_left_and_never_a_symbiosis():
    from dame_nature.server.rooms.pace import decision

    ready, unready = {"type": "ready"}, {"type": "unready"}
    program_a = {"type": "program", "card": "a"}
    program_b = {"type": "program", "card": "b"}
    show = {"type": "show", "card": "a", "to": 1}
    programming = {"phase": "programming", "awaiting": None}
    programmed = {**programming, "programmed": "a", "legal_actions": [program_b, unready, ready]}
    assert decision(programmed, program_b) == ready  # the person's card stays
    fresh = {**programming, "programmed": None, "legal_actions": [program_a, program_b, show]}
    assert decision(fresh, show) == program_a
    assert decision(fresh, program_b) == program_b
    assert decision(fresh, None) == program_a
    give_back = {"type": "give_back", "card": "c"}
    owing = {**programming, "programmed": None, "legal_actions": [give_back, show]}
    assert decision(owing, show) == give_back
    places = [{"type": "reveal", "slot": 1}, {"type": "reveal", "slot": 2}]
    choosing = {"phase": "reveal", "awaiting": {"seat": 0}, "legal_actions": places}
    assert decision(choosing, places[1]) == places[1]
    assert decision(choosing, None) == places[0]
    assert decision({**programming, "programmed": None, "legal_actions": [show]}, show) is None
