"""``GET /api/stats`` after a few games played on a real server (both stores): tables of
bots only (the server's bots), a table of people (scripted clients), win rates by
player count and by advanced rule, games per day, and no name in the answer."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from benchmarks._support.live_server import ServerProcess
from tests.server.conftest import Api


@pytest.fixture
def stats_api(store_url: str, store_kind: str, request: pytest.FixtureRequest) -> Iterator[Api]:
    """A server of its own (its statistics hold only this test's games), not cached."""
    args = ["--redis", request.getfixturevalue("redis").url] if store_kind == "postgres" else []
    proc = ServerProcess(store_url, {"DAME_NATURE_STATS_CACHE_SECONDS": "0"}, args=args).start()
    with httpx.Client(base_url=proc.url, timeout=20) as http:
        yield Api(http, proc.ws_url)
    proc.stop()


def bots_table(api: Api, players: int, **rules: Any) -> dict[str, Any]:
    """A room of ``players`` bots (random level), played to its end by the server; its
    final spectator view."""
    created = api.create(**rules).json()
    room, host = created["room"], created["host_token"]
    for _ in range(players):
        assert api.add_bot(room, host, "random").status_code == 201
    with api.socket(room) as ws:
        assert api.start(room, host).status_code == 200
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            message = ws.receive(timeout=60)
            if message["type"] == "state" and message["view"]["phase"] == "over":
                return message["view"]  # type: ignore[no-any-return]
    raise AssertionError("the bots' game did not end")


def test_statistics_after_a_few_games(stats_api: Api) -> None:
    empty = stats_api.http.get("/api/stats").json()
    assert empty["total"] == {"games": 0, "won": 0, "win_rate": None}
    assert empty["by_players"] == [] and len(empty["per_day"]) == 30

    bots = [
        bots_table(stats_api, 3, seed=1),
        bots_table(stats_api, 3, seed=2, modes=["climate_change"]),
        bots_table(stats_api, 4, seed=3),
    ]
    people = stats_api.table(players=3, names=["Ada Lovelace", "Bob", "Cy"], seed=4)
    final = stats_api.play_out(people)

    answer = stats_api.http.get("/api/stats")
    assert answer.status_code == 200, answer.text
    stats = answer.json()
    won = [view["result"]["outcome"] == "won" for view in bots]
    person_won = final["result"]["outcome"] == "won"
    assert stats["total"]["games"] == 4
    assert stats["total"]["won"] == sum(won) + person_won
    by_players = {row["players"]: row for row in stats["by_players"]}
    assert by_players[3]["bots"]["games"] == 2 and by_players[3]["bots"]["won"] == sum(won[:2])
    assert by_players[3]["people"]["games"] == 1 and by_players[3]["people"]["won"] == person_won
    assert by_players[4]["bots"]["games"] == 1 and by_players[4]["people"]["games"] == 0
    assert by_players[4]["people"]["win_rate"] is None
    by_rule = {row["rule"]: row for row in stats["by_rule"]}
    assert set(by_rule) == {"none", "climate_change"}
    assert by_rule["climate_change"]["bots"] == {
        "games": 1, "won": int(won[1]), "win_rate": float(won[1])
    }  # fmt: skip
    assert by_rule["none"]["bots"]["games"] == 2 and by_rule["none"]["people"]["games"] == 1
    today = time.strftime("%Y-%m-%d", time.gmtime())
    assert stats["per_day"][-1]["day"] in (
        today,
        time.strftime("%Y-%m-%d", time.gmtime(time.time() - 60)),
    )
    assert sum(day["games"] for day in stats["per_day"]) == 4
    assert "Ada" not in answer.text and people["room"] not in answer.text


def test_the_statistics_page_is_served(api: Api) -> None:
    for path in ("/stats", "/games"):
        page = api.http.get(path)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
