"""Hints from the expert and the solver's review, against a real server process.

Hints: for each kind of decision (program, reveal place, give back, side) the hint is one
of the seat's legal actions now, with a reason in English and French; 409 when the seat
has nothing to do; in a room of people only when the host switched hints on; each hint
taken is counted in the views and the replay. Reviews: 409 before the end, ``pending``
then ``done``, stored with the game so that a restart keeps them.
"""

from __future__ import annotations

import re
import signal
import time
from typing import Any

from dame_nature.bots.solver import apply_line
from dame_nature.engine import State
from dame_nature.engine.game import get_game


def hint(api: Any, room: str, token: str | None) -> Any:
    return api.http.get(f"/api/rooms/{room}/hint", headers=api.auth(token))


def review(api: Any, room: str) -> Any:
    return api.http.get(f"/api/rooms/{room}/review")


def legal_hint(api: Any, room: str, token: str) -> dict[str, Any]:
    legal = api.legal(room, token)
    r = hint(api, room, token)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["action"] in legal
    assert body["reason"] and body["reason_fr"] and body["reason"] != body["reason_fr"]
    return body  # type: ignore[no-any-return]


def test_hint_for_program_and_refusals(api: Any) -> None:
    table = api.table(players=4, seed=5, hints=True)
    room, tokens = table["room"], table["tokens"]
    body = legal_hint(api, room, tokens[0])
    assert body["action"]["type"] in ("program", "show", "give", "swap_discard")
    assert hint(api, room, None).status_code == 401
    assert hint(api, room, "not-a-token").status_code == 401
    assert hint(api, "nosuchroom123", tokens[0]).status_code == 404
    # counted once per position, shown to every seat
    legal_hint(api, room, tokens[0])
    assert api.state(room).json()["hints_taken"] == [1, 0, 0, 0]
    assert api.state(room, tokens[2]).json()["hints_allowed"] is True


def test_a_hint_followed_is_not_taken_back(api: Any) -> None:
    """A seat that programs the card its hint named is not told to program another one
    when it asks again: the hint goes on to a Symbiosis or to ready (each hint was
    chosen afresh from the cards in a new order, and named another card about half the
    time). Three seats of people, two turns; between a seat's two hints nobody else moves."""
    table = api.table(players=3, seed=11, hints=True)
    room, tokens = table["room"], table["tokens"]
    for turn in (1, 2):
        assert api.state(room).json()["turn"] == turn
        for seat, token in enumerate(tokens):
            first = legal_hint(api, room, token)["action"]
            assert first["type"] == "program", first
            assert api.act(room, token, first).status_code == 200
            again = legal_hint(api, room, token)["action"]
            assert again["type"] != "program", (turn, seat, first, again)
            assert api.act(room, token, {"type": "ready"}).status_code == 200
        while api.state(room).json()["turn"] == turn:  # the reveal's choices, scripted
            assert api.step(table) is not None


def test_hints_off_in_a_room_of_people_unless_the_host_allows(api: Any) -> None:
    table = api.table(players=3, seed=6)
    r = hint(api, table["room"], table["tokens"][0])
    assert r.status_code == 403 and r.json()["error"]["code"] == "hints_off"
    assert api.state(table["room"]).json()["hints_allowed"] is False
    # the host switches them on in the lobby's rules
    lobby = api.table(players=3, seed=6, start=False)
    patched = api.http.patch(
        f"/api/rooms/{lobby['room']}",
        json={"modes": [], "seed": 6, "hints": True},
        headers=api.auth(lobby["host"]),
    )
    assert patched.status_code == 200, patched.text
    rules = api.http.get(f"/api/rooms/{lobby['room']}/rules", headers=api.auth(lobby["host"]))
    assert rules.json()["hints"] is True
    assert api.start(lobby["room"], lobby["host"]).status_code == 200
    legal_hint(api, lobby["room"], lobby["tokens"][1])


def test_hints_on_by_default_when_every_other_seat_is_a_bot(api: Any) -> None:
    created = api.create(seed=7).json()
    room, host = created["room"], created["host_token"]
    me = api.join(room, "Me").json()["token"]
    for _ in range(2):
        assert api.add_bot(room, host, "random").status_code == 201
    assert api.start(room, host).status_code == 200
    body = legal_hint(api, room, me)
    assert body["action"]["type"] in ("program", "show", "give", "swap_discard")


def advance_until(api: Any, table: dict[str, Any], found: Any, limit: int = 400) -> Any:
    """Script the game until ``found(spectator view)`` says what to look at."""
    for _ in range(limit):
        spectator = api.state(table["room"]).json()
        hit = found(spectator)
        if hit is not None:
            return hit
        assert api.step(table) is not None, "the game ended first"
    raise AssertionError("not found")


def test_hint_for_a_reveal_place_and_nothing_to_do_for_the_others(api: Any) -> None:
    table = api.table(players=3, seed=11, hints=True)
    room, tokens = table["room"], table["tokens"]

    def choice(spectator: dict[str, Any]) -> int | None:
        awaiting = spectator["awaiting"]
        if not awaiting or awaiting["kind"] != "reveal":
            return None
        seat = int(awaiting["seat"])
        return seat if len(api.legal(room, tokens[seat])) > 1 else None

    seat = advance_until(api, table, choice)
    body = legal_hint(api, room, tokens[seat])
    assert body["action"]["type"] == "reveal"
    other = (seat + 1) % 3
    if not api.legal(room, tokens[other]):
        r = hint(api, room, tokens[other])
        assert r.status_code == 409 and r.json()["error"]["code"] == "nothing_to_do"


def test_hint_for_a_give_back(api: Any) -> None:
    table = api.table(players=4, seed=12, hints=True)
    room, tokens = table["room"], table["tokens"]
    legal = api.legal(room, tokens[0])
    give = next(a for a in legal if a["type"] == "give" and a["to"] == 1)
    assert api.act(room, tokens[0], give).status_code == 200
    body = legal_hint(api, room, tokens[1])
    assert body["action"]["type"] == "give_back"


def test_hint_for_a_side(api: Any) -> None:
    table = api.table(players=4, seed=13, hints=True, modes=["species_biodiversity"])
    room, tokens = table["room"], table["tokens"]
    view = api.state(room).json()
    assert view["phase"] == "choosing_sides"
    seat = view["awaiting"]["seat"] if view["awaiting"] else view["to_act"][0]
    body = legal_hint(api, room, tokens[seat])
    assert body["action"]["type"] == "choose_side"


def wait_review(api: Any, room: str, seconds: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        r = review(api, room)
        assert r.status_code == 200, r.text
        body: dict[str, Any] = r.json()
        if body["status"] == "done" or time.monotonic() > deadline:
            return body
        assert body == {
            "status": "pending",
            "verdict": "unknown",
            "line": [],
            "sides": None,
            "turning_point": None,
        }
        time.sleep(0.2)  # polling a condition, with a deadline


def check_review(body: dict[str, Any], replay: dict[str, Any]) -> None:
    assert body["status"] == "done"
    assert body["verdict"] in ("won", "lost", "unknown")
    if body["verdict"] == "won":
        setup = {k: v for k, v in replay["setup"].items() if k != "deal_chosen_by_host"}
        state = State.new(get_game(setup["num_players"], tuple(setup["modes"])), setup)
        apply_line(state, body["line"], body["sides"])
        assert state.result is not None and state.result["outcome"] == "won"
    if body["turning_point"] is not None:
        assert body["turning_point"]["turn"] >= 1


def test_review_409_before_the_end_then_pending_then_done(api: Any) -> None:
    table = api.table(players=3, seed=21)
    room = table["room"]
    r = review(api, room)
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    final = api.play_out(table)
    assert final["hints_taken"] == [0, 0, 0]
    body = wait_review(api, room)
    check_review(body, api.replay(room).json())
    assert review(api, room).json() == body  # cached: the same answer
    steps = api.http.get(f"/api/rooms/{room}/review/steps")
    if body["verdict"] == "won":  # the winning line, step by step, ends in a win
        assert steps.status_code == 200, steps.text
        assert steps.json()["steps"][-1]["state"]["result"]["outcome"] == "won"
    else:
        assert steps.status_code == 409 and steps.json()["error"]["code"] == "no_winning_line"


def test_a_review_survives_a_restart(server_factory: Any, make_api: Any, tmp_path: Any) -> None:
    db = tmp_path / "review.sqlite3"
    first = server_factory(db=db, env={"DAME_NATURE_REVIEW_SECONDS": "2"}).start()
    api = make_api(first)
    table = api.table(players=4, seed=22, hints=True)
    assert hint(api, table["room"], table["tokens"][0]).status_code == 200
    api.play_out(table)
    body = wait_review(api, table["room"])
    assert body["status"] == "done"
    first.kill()
    second = server_factory(db=db, env={"DAME_NATURE_REVIEW_PROCESSES": "0"}).start()
    api = make_api(second)
    assert review(api, table["room"]).json() == body  # stored: not computed again
    replay = api.replay(table["room"]).json()
    assert replay["hints_taken"] == [1, 0, 0, 0]
    assert api.state(table["room"]).json()["hints_taken"] == [1, 0, 0, 0]


def test_a_stopping_server_does_not_wait_for_a_review(
    server_factory: Any, make_api: Any, tmp_path: Any
) -> None:
    """A review under way when the server is told to stop (SIGTERM) ends with it (it
    starts again on the next request): the server exits on its own, where it used to
    wait for the solver's whole budget (``ServerProcess.stop`` kills it after 10 s)."""
    db = tmp_path / "review.sqlite3"
    budget = {"DAME_NATURE_REVIEW_SECONDS": "600", "DAME_NATURE_REVIEW_NODE_BUDGET": "10000000000"}
    server = server_factory(db=db, env=budget).start()
    api = make_api(server)
    table = api.table(players=3, seed=12)
    api.play_out(table)
    assert review(api, table["room"]).json()["status"] == "pending"  # the solver thinks
    server.stop()
    assert server.proc.returncode == -signal.SIGTERM  # ended by the SIGTERM, not killed
    again = make_api(server_factory(db=db, env={"DAME_NATURE_REVIEW_SECONDS": "2"}).start())
    assert wait_review(again, table["room"])["status"] == "done"  # asked again: done


def test_play_from_a_step_of_the_replay(api: Any) -> None:
    table = api.table(players=3, seed=23)
    room = table["room"]
    r = api.http.post(f"/api/rooms/{room}/replay/play_from", json={"actions": 3, "seat": 1})
    assert r.status_code == 409 and r.json()["error"]["code"] == "game_not_over"
    api.play_out(table)
    replay = api.replay(room).json()
    k = len(replay["actions"]) // 2
    r = api.http.post(
        f"/api/rooms/{room}/replay/play_from",
        json={"actions": k, "seat": 1, "name": "Ada", "level": "random"},
    )
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["seat"] == 1
    info = api.info(new["room"]).json()
    assert info["status"] == "playing"
    assert [p["bot"] for p in info["players"]] == ["random", None, "random"]
    assert info["players"][1]["name"] == "Ada"
    view = api.state(new["room"], new["token"]).json()
    assert view["hints_allowed"] is True and view["seat"] == 1
    expected = State.replay(replay["setup"], replay["actions"][:k])
    assert view["turn"] >= expected.turn  # the bots may have played on since
    assert view["hand"] or view["programmed"] or view["phase"] == "over"
    # a step past the end, a seat the game does not have: refused
    too_far = {"actions": len(replay["actions"]) + 1, "seat": 0}
    r = api.http.post(f"/api/rooms/{room}/replay/play_from", json=too_far)
    assert r.status_code == 422
    r = api.http.post(f"/api/rooms/{room}/replay/play_from", json={"actions": 1, "seat": 5})
    assert r.status_code == 404


def test_play_from_with_an_unknown_level_creates_no_room(api: Any) -> None:
    """A refusal changes nothing: ``"level": "god"`` was refused 422 ``unknown_level``
    only once the new room was created, stored and seated, and that lobby stayed."""
    table = api.table(players=3, seed=23)
    room = table["room"]
    api.play_out(table)
    held = api.http.get("/healthz").json()["rooms"]
    body = {"actions": 2, "seat": 1, "level": "god"}
    r = api.http.post(f"/api/rooms/{room}/replay/play_from", json=body)
    assert r.status_code == 422 and r.json()["error"]["code"] == "unknown_level"
    assert api.http.get("/healthz").json()["rooms"] == held


def test_a_hint_names_a_condition_as_its_card_does() -> None:
    """A Condition is named by its colour and letter, as on the card ("Geological
    Condition [G]"), never by its number, which no card face prints."""
    from dame_nature.bots.hint import explain

    state = get_game(4, ()).new_initial_state(seed=1)
    view = state.view(0)
    conditions = [c for c in view["hand"] if c.startswith("cond-")]
    assert conditions
    for card in conditions:
        for action in ({"type": "program", "card": card}, {"type": "show", "card": card}):
            for reason in explain(view, action):
                assert not re.search(r"\b(Hydri|Therm|G[ée]olog|Atmosph)\w* \d", reason), reason
                assert re.search(r"Condition( \w+)? \[[HTGA]\]", reason), reason
