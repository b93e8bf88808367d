"""The room cap never fills with abandoned games: started games with no connection and
no change for ``idle_game_evict_seconds`` leave memory (stored, and loaded again when
someone asks) before anyone is refused ``too_many_rooms``; a game being played is kept;
and one client address holds ``max_rooms_per_address`` rooms at most."""

from __future__ import annotations

import httpx

KEEP_LOBBIES = {"DAME_NATURE_LOBBY_EVICT_IDLE_SECONDS": "3600"}


def test_idle_games_leave_memory_before_anyone_is_refused(server_factory, make_api):
    server = server_factory(
        {**KEEP_LOBBIES, "DAME_NATURE_MAX_ROOMS": "3", "DAME_NATURE_IDLE_GAME_EVICT_SECONDS": "0"}
    ).start()
    api = make_api(server)
    tables = [api.table(players=3, seed=20 + i) for i in range(3)]
    watched, oldest, newest = tables[0], tables[1], tables[2]
    before = api.state(oldest["room"], oldest["tokens"][0]).json()
    with api.socket(watched["room"]) as watcher:  # a watched game is kept
        watcher.receive_type("state")
        answer = api.create()
        assert answer.status_code == 201, answer.text
        # the oldest game no one watches left memory, and comes back as it was stored
        again = api.state(oldest["room"], oldest["tokens"][0])
        assert again.status_code == 200, again.text
        assert again.json()["hand"] == before["hand"]
        assert again.json()["version"] >= before["version"]
        stepped = api.step(oldest)
        assert stepped is not None and stepped[2].status_code == 200, stepped
        assert api.state(newest["room"]).status_code == 200
        assert api.state(watched["room"]).status_code == 200


def test_games_played_recently_are_kept(server_factory, make_api):
    server = server_factory({**KEEP_LOBBIES, "DAME_NATURE_MAX_ROOMS": "2"}).start()
    api = make_api(server)
    for i in range(2):
        api.table(players=3, seed=30 + i)
    refused = api.create()
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "too_many_rooms"


def test_rooms_are_counted_per_client_address(server_factory):
    server = server_factory(
        {
            **KEEP_LOBBIES,
            "DAME_NATURE_MAX_ROOMS_PER_ADDRESS": "2",
            "DAME_NATURE_TRUSTED_PROXIES": "127.0.0.1",
        }
    ).start()
    with httpx.Client(base_url=server.url) as proxy:

        def create(client_ip: str) -> httpx.Response:
            headers = {"x-forwarded-for": f"{client_ip}, 127.0.0.1"}
            return proxy.post("/api/rooms", json={}, headers=headers)

        assert [create("203.0.113.1").status_code for _ in range(2)] == [201, 201]
        refused = create("203.0.113.1")
        assert refused.status_code == 429
        assert refused.json()["error"]["code"] == "too_many_rooms"
        assert "address" in refused.json()["error"]["message"]
        assert create("203.0.113.2").status_code == 201  # another client
