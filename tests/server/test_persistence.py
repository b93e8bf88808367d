"""A server killed with SIGKILL mid-game and started again on the same SQLite file
continues every game exactly where it was; no acknowledged action is ever lost."""

from __future__ import annotations

import threading
from typing import Any

import httpx

from dame_nature.engine import State


def comparable(view: dict[str, Any]) -> dict[str, Any]:
    """A view less what a restart legitimately changes (version, connections)."""
    view = dict(view)
    view.pop("version")
    view["players"] = [{k: v for k, v in p.items() if k != "connected"} for p in view["players"]]
    return view


def everything(api, tables: list[dict[str, Any]]) -> list[Any]:
    seen = []
    for table in tables:
        room = table["room"]
        info = api.info(room).json()
        info.pop("version")
        info["players"] = [
            {k: v for k, v in p.items() if k != "connected"} for p in info["players"]
        ]
        seen.append(info)
        seen.append(comparable(api.state(room).json()))
        seen += [comparable(api.state(room, t).json()) for t in table["tokens"]]
    return seen


def test_sigkill_mid_game_then_restart_continues_every_game(server_factory, make_api, tmp_path):
    db = tmp_path / "crash.sqlite3"
    first = server_factory(db=db).start()
    api = make_api(first)
    playing = api.table(players=4, seed=31, modes=["first_predator"])
    for _ in range(25):
        api.step(playing)
    campaign = api.table(players=3, seed=32, path=2)
    for _ in range(8):
        api.step(campaign)
    lobby = api.table(players=2, seed=33, start=False)
    finished = api.table(players=3, seed=34)
    api.play_out(finished)
    tables = [playing, campaign, lobby, finished]
    before = everything(api, tables)
    versions = [api.state(t["room"]).json()["version"] for t in tables]

    first.kill()

    second = server_factory(db=db).start()
    api = make_api(second)
    assert everything(api, tables) == before
    after = [api.state(t["room"]).json()["version"] for t in tables]
    assert all(a > b for a, b in zip(after, versions, strict=True))  # versions never go back

    # the games go on: the lobby fills and starts, the others play to their end
    api.join(lobby["room"], "P2")
    lobby["tokens"].append(None)
    assert api.start(lobby["room"], lobby["host"]).status_code == 200
    for table in (playing, campaign):
        final = api.play_out(table)
        replay = api.replay(table["room"]).json()
        rebuilt = State.replay(replay["setup"], replay["actions"])
        assert rebuilt.result == final["result"]
    assert api.rematch(finished["room"], finished["host"]).status_code == 200
    with api.socket(playing["room"], playing["tokens"][2]) as ws:
        assert ws.receive_type("state")["view"]["seat"] == 2


def test_no_acknowledged_action_is_lost(server_factory, make_api, tmp_path):
    """Actions fly while the server is killed: every one answered 200 is there afterwards."""
    db = tmp_path / "acks.sqlite3"
    first = server_factory(db=db).start()
    api = make_api(first)
    table = api.table(players=5, seed=41)
    acknowledged: list[dict[str, Any]] = []
    enough = threading.Event()

    def player() -> None:
        with httpx.Client(base_url=first.url, timeout=5) as http:
            mine = type(api)(http)
            try:
                while True:
                    stepped = mine.step(table)
                    if stepped is None:
                        return
                    seat, action, answer = stepped
                    if answer.status_code != 200:
                        return
                    acknowledged.append({"seat": seat, "action": action})
                    if len(acknowledged) >= 30:
                        enough.set()
            except httpx.HTTPError:
                return  # the server died under us
            finally:
                enough.set()

    thread = threading.Thread(target=player)
    thread.start()
    enough.wait(120)
    first.kill()
    thread.join(30)

    second = server_factory(db=db).start()
    api = make_api(second)
    spectator = api.state(table["room"]).json()
    played = 0
    for table_token in table["tokens"]:
        assert api.state(table["room"], table_token).status_code == 200
    # the stored history starts with every acknowledged action, in order
    final = api.play_out(table)
    history = api.replay(table["room"]).json()["actions"]
    played = len(acknowledged)
    assert played >= 30
    assert [h["seat"] for h in history[:played]] == [a["seat"] for a in acknowledged]
    for stored, sent in zip(history[:played], acknowledged, strict=True):
        assert {k: v for k, v in stored["action"].items() if v is not None} == {
            k: v for k, v in sent["action"].items() if v is not None
        }
    assert final["result"] is not None and spectator["room"] == table["room"]
