"""The host changes the rules in the lobby (``PATCH /api/rooms/{room}``): modes or a
path, seed or deal; everyone sees it; it survives a restart; nobody else may do it."""

from __future__ import annotations

from dame_nature.engine import Game, modes_for_path


def patch(api, room: str, token: str | None, **body):
    return api.http.patch(f"/api/rooms/{room}", headers=api.auth(token), json=body)


def test_host_changes_the_rules_before_the_start(api):
    table = api.table(players=3, start=False, modes=["wetland"])
    room, host = table["room"], table["host"]
    with api.socket(room, table["tokens"][1]) as ws:
        before = ws.receive_type("state")["view"]
        answer = patch(api, room, host, modes=["first_predator", "climate_change"], seed=9)
        assert answer.status_code == 200, answer.text
        assert answer.json()["modes"] == ["climate_change", "first_predator"]
        after = ws.wait_version(before["version"] + 1)
        assert after["modes"] == ["climate_change", "first_predator"]
    assert api.start(room, host).status_code == 200
    view = api.state(room, table["tokens"][0]).json()
    assert view["modes"] == ["climate_change", "first_predator"]
    assert len(view["hand"]) == 12  # 33 cards and 3 Cats among 3 players


def test_a_path_then_back_to_modes(api):
    table = api.table(players=3, start=False)
    room, host = table["room"], table["host"]
    info = patch(api, room, host, path=3).json()
    assert info["path"] == 3 and info["modes"] == modes_for_path(3, 1)
    assert info["campaign"]["stage"] == 1
    info = patch(api, room, host, modes=[]).json()
    assert info["path"] is None and info["campaign"] is None and info["modes"] == []


def test_only_the_host_and_only_in_the_lobby(api):
    table = api.table(players=3, start=False)
    room, host, seat_token = table["room"], table["host"], table["tokens"][0]
    assert patch(api, room, None, modes=["wetland"]).status_code == 401
    refused = patch(api, room, seat_token, modes=["wetland"])
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_host"
    bad = patch(api, room, host, modes=["no_such_rule"])
    assert bad.status_code == 422 and bad.json()["error"]["message"]
    both = patch(api, room, host, modes=["wetland"], path=1)
    assert both.status_code == 422
    assert api.info(room).json()["modes"] == []  # nothing changed
    assert api.start(room, host).status_code == 200
    late = patch(api, room, host, modes=["wetland"])
    assert late.status_code == 409 and late.json()["error"]["code"] == "game_started"


def test_a_deal_must_fit_the_players_already_seated(api):
    table = api.table(players=4, start=False)
    setup = Game(3).new_initial_state(seed=1).setup
    deal = {"hands": setup["hands"], "first_player": setup["first_player"]}
    answer = patch(api, table["room"], table["host"], deal=deal)
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "wrong_player_count"


def test_the_new_rules_survive_a_restart(server_factory, make_api, tmp_path):
    db = tmp_path / "rules.sqlite3"
    first = server_factory(db=db).start()
    api = make_api(first)
    table = api.table(players=3, start=False)
    assert patch(api, table["room"], table["host"], path=2).status_code == 200
    first.kill()
    second = server_factory(db=db).start()
    api = make_api(second)
    info = api.info(table["room"]).json()
    assert info["path"] == 2 and info["campaign"]["path"] == 2
    assert api.start(table["room"], table["host"]).status_code == 200
    view = api.state(table["room"]).json()
    assert view["modes"] == modes_for_path(2, 1) and view["campaign"]["stage"] == 1
