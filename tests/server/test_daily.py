"""The daily deal: one deal a day per player count, the same for every table; a table
sees the others' results (and the solver's verdict) only once its own game is over."""

from __future__ import annotations

import datetime as dt
import threading
import time
from typing import Any

import pytest

from benchmarks._support.live_server import ServerProcess, start_all
from benchmarks._support.services import Postgres, Redis
from tests.server.conftest import Api, clear_of_midnight


@pytest.fixture(autouse=True)
def one_day() -> None:
    """Each test runs within one day of deals."""
    clear_of_midnight()


def daily_table(api: Api, players: int, start: bool = True) -> dict[str, Any]:
    """A room of today's deal for ``players``, every seat joined (and started)."""
    r = api.http.post("/api/daily", json={"players": players})
    assert r.status_code == 201, r.text
    created = r.json()
    assert created["url"] == f"/r/{created['room']}" and created["players"] == players
    tokens = []
    for i in range(players):
        joined = api.join(created["room"], f"P{i}")
        assert joined.status_code == 201, joined.text
        tokens.append(joined.json()["token"])
    if start:
        started = api.start(created["room"], created["host_token"])
        assert started.status_code == 200, started.text
    return {**created, "host": created["host_token"], "tokens": tokens}


def results(api: Api, table: dict[str, Any], token: str | None, day: str | None = None):
    day = day or table["date"]
    return api.http.get(
        f"/api/daily/{day}/{table['players']}/results",
        params={"room": table["room"]},
        headers=api.auth(token),
    )


def hands(api: Api, table: dict[str, Any]) -> list[list[str]]:
    return [api.state(table["room"], token).json()["hand"] for token in table["tokens"]]


def test_today_lists_a_deal_per_player_count_and_no_card(api: Api) -> None:
    r = api.http.get("/api/daily")
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["date"] == dt.datetime.now(dt.UTC).date().isoformat()
    assert [d["players"] for d in body["deals"]] == [3, 4, 5, 6]
    assert 0 < body["next_in"] <= 86_400 and body["modes"] == []
    assert "seed" not in r.text and "hands" not in r.text


def test_two_tables_share_the_deal_and_see_results_only_after_their_game(api: Api) -> None:
    before = {d["players"]: d for d in api.http.get("/api/daily").json()["deals"]}[3]
    a, b = daily_table(api, 3), daily_table(api, 3)
    assert hands(api, a) == hands(api, b)
    for table in (a, b):
        info = api.info(table["room"]).json()
        assert info["daily"] == {"date": table["date"], "players": 3}
        assert info["seats_max"] == 3 and info["deal_chosen_by_host"] is False
        view = api.state(table["room"], table["tokens"][0]).json()
        assert view["daily"] == info["daily"] and view["deal_choice"] is None
        rules = api.http.get(f"/api/rooms/{table['room']}/rules", headers=api.auth(table["host"]))
        assert rules.status_code == 200 and rules.json()["seed"] is None

    for table in (a, b):  # neither has finished: no results for either
        for token in (table["tokens"][1], table["host"]):
            r = results(api, table, token)
            assert r.status_code == 409 and r.json()["error"]["code"] == "daily_not_finished"

    api.play_out(a)
    mine = results(api, a, a["tokens"][2])
    assert mine.status_code == 200, mine.text
    r = results(api, b, b["tokens"][0])  # b still plays: still nothing
    assert r.status_code == 409 and r.json()["error"]["code"] == "daily_not_finished"
    first = mine.json()
    ours = [t for t in first["tables"] if t["mine"]]
    assert len(ours) == 1 and ours[0]["people"] == 3 and ours[0]["bots"] == 0
    assert ours[0]["turns"] >= 1 and 0 <= ours[0]["placed"] <= ours[0]["slots"]
    assert first["finished"] == len(first["tables"]) >= 1

    now = {d["players"]: d for d in api.http.get("/api/daily").json()["deals"]}[3]
    assert now["finished"] == before["finished"] + 1 and now["won"] >= before["won"]
    final_b = api.play_out(b)
    seen_a, seen_b = results(api, a, a["host"]).json(), results(api, b, b["tokens"][1]).json()
    assert seen_a["finished"] == seen_b["finished"] == first["finished"] + 1
    theirs = [t for t in seen_a["tables"] if not t["mine"]][-1]
    assert theirs["won"] is (final_b["result"]["outcome"] == "won")
    assert theirs["discards"] == final_b["result"]["discards"]
    assert sum(t["mine"] for t in seen_b["tables"]) == 1

    # the solver's verdict on the deal, once per deal, then stored
    deadline = time.monotonic() + 120
    verdict = seen_a["verdict"]
    while verdict["status"] == "pending" and time.monotonic() < deadline:
        verdict = results(api, a, a["host"]).json()["verdict"]
    assert verdict["status"] == "done" and verdict["verdict"] in ("won", "lost", "unknown")
    assert results(api, b, b["host"]).json()["verdict"] == verdict

    # a rematch is a new, ordinary deal; the results stay in sight
    r = api.rematch(a["room"], a["host"])
    assert r.status_code == 200, r.text
    assert hands(api, a) != hands(api, b)
    assert api.state(a["room"]).json()["daily"] == {"date": a["date"], "players": 3}
    api.play_out(a)  # the rematch's game is not one of the deal's tables
    again = results(api, a, a["tokens"][0])
    assert again.status_code == 200 and again.json()["finished"] == seen_a["finished"]


def test_a_daily_room_seats_exactly_its_players_and_keeps_its_rules(api: Api) -> None:
    table = daily_table(api, 4, start=False)
    room, host = table["room"], table["host"]
    assert api.join(room, "Extra").json()["error"]["code"] == "room_full"
    r = api.http.patch(f"/api/rooms/{room}", json={"modes": []}, headers=api.auth(host))
    assert r.status_code == 409 and r.json()["error"]["code"] == "daily_rules"
    assert api.remove_seat(room, host, 3).status_code == 200
    r = api.start(room, host)
    assert r.status_code == 409 and r.json()["error"]["code"] == "wrong_player_count"
    assert api.add_bot(room, host).status_code == 201
    assert api.start(room, host).status_code == 200


def test_bad_requests_are_refused(api: Api) -> None:
    for body in ({"players": 2}, {"players": 7}, {}, {"players": "x"}, {"players": 3, "x": 1}):
        r = api.http.post("/api/daily", json=body)
        assert r.status_code == 422, (body, r.text)
    table = daily_table(api, 5)
    token = table["tokens"][0]
    today = dt.date.fromisoformat(table["date"])
    tomorrow = (today + dt.timedelta(days=1)).isoformat()
    for day in ("2026-13-01", "yesterday", tomorrow, "2026-1-01"):
        assert results(api, table, token, day).status_code == 404, day
    for players in (2, 7, 0):
        r = api.http.get(
            f"/api/daily/{table['date']}/{players}/results",
            params={"room": table["room"]},
            headers=api.auth(token),
        )
        assert r.status_code == 404, players
    assert results(api, table, None).status_code == 401
    assert results(api, table, "not-a-token-of-this-room").status_code == 401
    other = daily_table(api, 3, start=False)  # a token of a room of another deal
    r = results(api, {**table, "room": other["room"]}, other["host"])
    assert r.status_code == 403 and r.json()["error"]["code"] == "not_this_daily"
    yesterday = (today - dt.timedelta(days=1)).isoformat()
    r = results(api, table, token, yesterday)
    assert r.status_code == 403  # the room plays today's deal, not yesterday's
    r = api.http.get(f"/api/daily/{table['date']}/5/results", headers=api.auth(token))
    assert r.status_code == 422  # which room
    r = api.http.post(f"/api/rooms/{table['room']}/rematch", headers=api.auth(table["host"]))
    assert r.status_code == 409  # not over: the deal is played once, to its end


def test_nodes_sharing_a_store_deal_the_same_and_see_each_others_tables(
    postgres: Postgres, redis: Redis, make_api: Any
) -> None:
    """Two nodes on one PostgreSQL, each asked for a room of the deal at the same moment
    (the first draw of the day's seed races): one seed, the same hands; a table played on
    one node is among the results read through the other."""
    db = postgres.create_database()
    nodes = start_all(
        [ServerProcess(db, args=["--redis", redis.url, "--node", f"n{i}"]) for i in range(2)]
    )
    try:
        apis = [make_api(node) for node in nodes]
        barrier = threading.Barrier(2)
        made: list[Any] = [None, None]

        def create(i: int) -> None:
            barrier.wait()
            made[i] = apis[i].http.post("/api/daily", json={"players": 4})

        threads = [threading.Thread(target=create, args=(i,)) for i in range(2)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        tables = []
        for api, answer in zip(apis, made, strict=True):
            assert answer.status_code == 201, answer.text
            created = answer.json()
            tokens = [api.join(created["room"], f"P{i}").json()["token"] for i in range(4)]
            assert api.start(created["room"], created["host_token"]).status_code == 200
            tables.append({**created, "host": created["host_token"], "tokens": tokens})
        assert hands(apis[0], tables[0]) == hands(apis[1], tables[1])
        for api, table in zip(apis, tables, strict=True):
            api.play_out(table)
        seen = results(apis[1], tables[1], tables[1]["host"]).json()
        assert seen["finished"] == 2 and sum(t["mine"] for t in seen["tables"]) == 1
    finally:
        for node in nodes:
            node.stop()
