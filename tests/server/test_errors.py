"""Every error path of API.md over real HTTP: a 4xx with ``{"error": {"code", "message"}}``,
never a 5xx, and nothing changes."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from dame_nature.engine import Game


def assert_error(response: httpx.Response, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"].strip()


def snapshot(api, table: dict[str, Any]) -> list[Any]:
    room = table["room"]
    views = [api.state(room, t).json() for t in table["tokens"]]
    return [api.info(room).json(), api.state(room).json(), *views]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"modes": ["no_such_rule"]}, 422, "unknown_mode"),
        ({"modes": ["wetland", "wetland"]}, 422, "duplicate_mode"),
        ({"path": 0}, 422, "invalid_request"),
        ({"path": 5}, 422, "invalid_request"),
        ({"path": "1"}, 422, "invalid_request"),
        ({"path": 1, "modes": ["wetland"]}, 422, "invalid_request"),
        ({"seed": -1}, 422, "invalid_request"),
        ({"seed": "12"}, 422, "invalid_request"),
        ({"seed": 1.5}, 422, "invalid_request"),
        ({"modes": "wetland"}, 422, "invalid_request"),
        ({"colour": "blue"}, 422, "invalid_request"),
        ({"deal": {"hands": [["cond-blue-1"]] * 3, "first_player": 0}}, 422, "invalid_deal"),
        ({"deal": {"hands": [["x"], ["y"], ["z"]], "first_player": 0}}, 422, "unknown_card"),
        ({"deal": {"hands": [[], []], "first_player": 0}}, 422, "invalid_request"),
        ({"deal": {"hands": [[], [], []], "first_player": 7}}, 422, "invalid_request"),
        ({"deal": [1, 2]}, 422, "invalid_request"),
        ([], 422, "invalid_request"),
    ],
)
def test_create_room_refusals(api, body, status, code):
    before = api.http.get("/healthz").json()["rooms"]
    assert_error(api.http.post("/api/rooms", json=body), status, code)
    assert api.http.get("/healthz").json()["rooms"] == before


def test_seed_and_deal_together_are_refused(api):
    setup = Game(3).new_initial_state(seed=1).setup
    deal = {"hands": setup["hands"], "first_player": setup["first_player"]}
    assert_error(api.create(seed=3, deal=deal), 422, "invalid_request")


def test_malformed_and_oversized_bodies(api):
    def post(path, content):
        return api.http.post(path, content=content, headers={"content-type": "application/json"})

    assert_error(post("/api/rooms", content=b"{nope"), 400, "invalid_json")
    assert_error(post("/api/rooms", content=b"\xff\xfe"), 400, "invalid_json")
    assert_error(post("/api/rooms", content=b'{"seed": NaN}'), 400, "invalid_json")
    big = b'{"modes": [], "pad": "' + b"x" * (65 * 1024) + b'"}'
    assert_error(post("/api/rooms", content=big), 413, "body_too_large")

    def chunks():  # no content-length: the limit still holds
        for _ in range(70):
            yield b"x" * 1024

    assert_error(post("/api/rooms", content=chunks()), 413, "body_too_large")
    ok = post("/api/rooms", content=b'{"seed": 4}')
    assert ok.status_code == 201


def test_unknown_room_and_addresses(api):
    for call in (
        api.info("NoSuchRoomCode123"),
        api.join("NoSuchRoomCode123", "Ada"),
        api.state("NoSuchRoomCode123"),
        api.replay("NoSuchRoomCode123"),
        api.start("NoSuchRoomCode123", "x"),
        api.act("NoSuchRoomCode123", "x", {"type": "ready"}),
        api.info("../../etc"),
        api.info("x" * 500),
    ):
        assert_error(
            call, 404, "room_not_found" if call.request.url.path.count("/") > 2 else "not_found"
        )
    assert_error(api.http.get("/api/nothing/here"), 404, "not_found")
    assert_error(api.http.delete("/api/rooms"), 405, "method_not_allowed")


def test_join_refusals(api):
    created = api.create(seed=5).json()
    room = created["room"]
    assert_error(api.join(room, ""), 422, "invalid_request")
    assert_error(api.join(room, "x" * 41), 422, "invalid_request")
    assert_error(api.join(room, "   "), 422, "invalid_request")
    assert_error(api.join(room, "a\x00b"), 422, "invalid_request")
    assert_error(api.http.post(f"/api/rooms/{room}/players", json={}), 422, "invalid_request")
    assert_error(
        api.http.post(f"/api/rooms/{room}/players", json={"name": 3}), 422, "invalid_request"
    )
    assert api.join(room, "  Ada   Lovelace ").json()["seat"] == 0
    assert api.info(room).json()["players"][0]["name"] == "Ada Lovelace"
    for i in range(1, 6):
        assert api.join(room, f"P{i}").json()["seat"] == i
    assert_error(api.join(room, "Seventh"), 409, "room_full")
    assert len(api.info(room).json()["players"]) == 6


def test_join_after_start_and_deal_seats(api):
    table = api.table(players=3, seed=6)
    assert_error(api.join(table["room"], "Late"), 409, "game_started")
    setup = Game(4).new_initial_state(seed=2).setup
    deal = {"hands": setup["hands"], "first_player": setup["first_player"]}
    created = api.create(deal=deal).json()
    for i in range(3):
        api.join(created["room"], f"P{i}")
    assert_error(api.start(created["room"], created["host_token"]), 409, "wrong_player_count")
    api.join(created["room"], "P3")
    assert_error(api.join(created["room"], "P4"), 409, "room_full")
    assert api.start(created["room"], created["host_token"]).status_code == 200


def test_start_and_rematch_refusals(api):
    created = api.create(seed=7).json()
    room, host = created["room"], created["host_token"]
    tokens = [api.join(room, f"P{i}").json()["token"] for i in range(2)]
    assert_error(api.start(room, None), 401, "missing_token")
    assert_error(api.start(room, "not-a-token"), 401, "invalid_token")
    assert_error(api.start(room, tokens[0]), 403, "not_host")
    assert_error(api.start(room, host), 409, "not_enough_players")
    assert_error(
        api.http.post(f"/api/rooms/{room}/start", headers={"Authorization": host}),
        401,
        "invalid_token",
    )
    assert_error(api.rematch(room, host), 409, "game_not_over")
    api.join(room, "P2")
    assert api.start(room, host).status_code == 200
    assert_error(api.start(room, host), 409, "game_started")
    assert_error(api.rematch(room, host), 409, "game_not_over")
    assert_error(api.rematch(room, tokens[1]), 403, "not_host")
    assert_error(api.replay(room), 409, "game_not_over")


def test_tokens_act_only_for_their_own_seat(api):
    table = api.table(players=3, seed=8)
    other = api.table(players=3, seed=8)
    room, tokens = table["room"], table["tokens"]
    before = snapshot(api, table)
    hand1 = api.state(room, tokens[1]).json()["hand"]
    # seat 0 names a card of seat 1: refused, as the engine sees it only for seat 0
    assert_error(
        api.act(room, tokens[0], {"type": "program", "card": hand1[0]}), 409, "not_your_card"
    )
    # a token of another room (same deal) is no seat here
    assert_error(api.act(room, other["tokens"][0], {"type": "ready"}), 401, "invalid_token")
    assert_error(api.state(room, other["tokens"][0]), 401, "invalid_token")
    assert_error(api.act(room, table["host"], {"type": "ready"}), 401, "invalid_token")
    assert_error(api.act(room, None, {"type": "ready"}), 401, "missing_token")
    assert_error(
        api.http.get(f"/api/rooms/{room}/state", headers={"Authorization": "Basic abc"}),
        401,
        "invalid_token",
    )
    assert_error(api.http.get(f"/api/rooms/{room}/legal_actions"), 401, "missing_token")
    assert snapshot(api, table) == before


@pytest.mark.parametrize(
    ("action", "status", "code"),
    [
        ({"type": "fly"}, 422, "invalid_action"),
        ({"type": "program"}, 422, "invalid_action"),
        ({"type": "program", "card": 7}, 422, "invalid_action"),
        ({"type": "program", "card": "x" * 100}, 422, "invalid_action"),
        ({"type": "ready", "extra": 1}, 422, "invalid_action"),
        ({"type": "give", "card": "joker-1", "to": "1"}, 422, "invalid_action"),
        ({"type": "give", "card": "joker-1", "to": True}, 422, "invalid_action"),
        ({"type": "choose_side", "side": "fungus"}, 422, "invalid_action"),
        ([], 422, "invalid_action"),
        ("ready", 422, "invalid_action"),
        ({"type": "program", "card": "no-such-card"}, 409, "unknown_card"),
        ({"type": "ready"}, 409, "not_programmed"),
        ({"type": "unready"}, 409, "not_ready"),
        ({"type": "give_back", "card": "joker-1"}, 409, "no_exchange"),
        ({"type": "reveal", "slot": None}, 409, "wrong_phase"),
        ({"type": "choose_side", "side": "plant"}, 409, "wrong_phase"),
        ({"type": "end_game"}, 409, "still_winnable"),
        ({"type": "give", "card": "joker-1", "to": 0}, 409, None),
    ],
)
def test_action_refusals_change_nothing(api, action, status, code):
    table = api.table(players=3, seed=9)
    room, tokens = table["room"], table["tokens"]
    before = snapshot(api, table)
    answer = api.act(room, tokens[0], action)
    assert answer.status_code == status, answer.text
    if code is not None:
        assert_error(answer, status, code)
    assert snapshot(api, table) == before


def test_actions_before_the_start_and_after_the_end(api):
    created = api.create(seed=10).json()
    room = created["room"]
    tokens = [api.join(room, f"P{i}").json()["token"] for i in range(3)]
    assert_error(api.act(room, tokens[0], {"type": "ready"}), 409, "game_not_started")
    lobby = api.state(room, tokens[0]).json()
    assert lobby["phase"] == "lobby" and lobby["hand"] == []


def test_http_rate_limit(server_factory, make_api):
    server = server_factory(
        {"DAME_NATURE_RATE_LIMIT_PER_SECOND": "0.001", "DAME_NATURE_RATE_LIMIT_BURST": "5"}
    ).start()
    api = make_api(server)
    answers = [api.http.get("/api/modes") for _ in range(7)]
    assert [a.status_code for a in answers[:5]] == [200] * 5
    assert_error(answers[5], 429, "rate_limited")
    assert answers[5].headers["retry-after"] == "1000"  # one request frees in 1 / 0.001 s
    assert api.http.get("/healthz").status_code == 200  # health checks are never limited
    with httpx.Client(base_url=server.url) as fresh:  # a new connection: the same address
        assert_error(fresh.get("/api/modes"), 429, "rate_limited")
