"""A full scripted game through the real HTTP API of a uvicorn server, then its replay,
a rematch and a campaign path's stages."""

from __future__ import annotations

from dame_nature.engine import State, modes_for_path


def test_full_scripted_game(api):
    table = api.table(players=4, names=["Ada", "Bo", "Cy", "Di"], seed=2024)
    room, tokens = table["room"], table["tokens"]
    info = api.info(room).json()
    assert info["status"] == "playing"
    assert [p["name"] for p in info["players"]] == ["Ada", "Bo", "Cy", "Di"]
    first = api.state(room, tokens[0]).json()
    assert first["phase"] == "programming" and first["seat"] == 0
    assert len(first["hand"]) > 0 and first["campaign"] is None
    assert [p["name"] for p in first["players"]] == ["Ada", "Bo", "Cy", "Di"]
    assert api.replay(room).status_code == 409  # not before the end

    final = api.play_out(table)
    assert final["result"]["outcome"] in ("won", "lost")
    assert api.info(room).json()["status"] == "over"

    replay = api.replay(room).json()
    assert replay["setup"]["seed"] == 2024
    assert len(replay["setup"]["hands"]) == 4
    rebuilt = State.replay(replay["setup"], replay["actions"])
    assert rebuilt.is_over and rebuilt.result == final["result"]
    spectator = rebuilt.view(None)
    assert spectator["web"] == final["web"] and spectator["discard"] == final["discard"]

    again = api.rematch(room, table["host"])
    assert again.status_code == 200 and again.json()["game"] == 2
    fresh = api.state(room, tokens[2]).json()
    assert fresh["phase"] == "programming" and fresh["result"] is None
    assert fresh["version"] > final["version"]


def test_same_seed_same_deal(api):
    one = api.table(players=3, seed=77)
    two = api.table(players=3, seed=77)
    hands = [api.state(one["room"], t).json()["hand"] for t in one["tokens"]]
    assert hands == [api.state(two["room"], t).json()["hand"] for t in two["tokens"]]


def test_explicit_deal(api):
    from dame_nature.engine import Game

    setup = Game(3, []).new_initial_state(seed=5).setup
    deal = {"hands": setup["hands"], "first_player": setup["first_player"]}
    table = api.table(players=3, deal=deal)
    for seat, token in enumerate(table["tokens"]):
        view = api.state(table["room"], token).json()
        assert sorted(view["hand"]) == sorted(deal["hands"][seat])
    assert api.state(table["room"]).json()["first_player"] == deal["first_player"]


def test_campaign_path_stages(api):
    table = api.table(players=3, path=1, seed=3)
    room = table["room"]
    view = api.state(room, table["tokens"][0]).json()
    assert view["campaign"] == {"path": 1, "stage": 1, "results": [], "attempt": 1}
    assert view["modes"] == list(modes_for_path(1, 1))
    final = api.play_out(table)
    outcome = final["result"]["outcome"]
    assert final["campaign"]["results"] == [outcome]
    assert api.rematch(room, table["host"]).status_code == 200
    after = api.state(room).json()
    if outcome == "won":
        assert after["campaign"]["stage"] == 2 and after["campaign"]["results"] == ["won"]
        assert after["modes"] == list(modes_for_path(1, 2))
    else:
        assert after["campaign"] == {"path": 1, "stage": 1, "results": [], "attempt": 2}
        assert after["modes"] == list(modes_for_path(1, 1))
