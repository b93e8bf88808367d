"""A write the store refuses leaves the room exactly as stored: the action is not
acknowledged, the websocket that sent it stays open and goes on with the stored room
(before, a failed commit dropped the room from memory while the socket kept serving it
with the unsaved action applied, and the next action built on it). Real failures: a
SQLite file another process holds locked; a PostgreSQL server stopped, then restarted."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from benchmarks._support.services import Postgres, require
from dame_nature.engine import State
from tests.server.conftest import Api

#: how long the server waits for a connection of its pool while PostgreSQL is stopped
#: before it refuses the write (10 s by default)
DB_WAIT = "5"


@pytest.fixture
def own_postgres() -> Iterator[Postgres]:
    require("postgresql")
    service = Postgres().start()
    yield service
    service.stop()


def play_through_a_failed_write(api: Api, fail: Callable[[], Any], heal: Callable[[], Any]) -> None:
    table = api.table(players=3, seed=41)
    room, tokens = table["room"], table["tokens"]
    with api.socket(room, tokens[0]) as ws:
        before = ws.receive_type("state")["view"]
        card = before["hand"][0]
        fail()
        ws.send({"type": "action", "action": {"type": "program", "card": card}})
        refused = ws.receive_type("error", timeout=30)["error"]
        assert refused["code"] in ("not_saved", "store_unavailable"), refused
        heal()
        # the socket goes on with the room as stored: nothing programmed
        ws.send({"type": "action", "action": {"type": "ready"}})
        assert ws.receive_type("error", timeout=30)["error"]["code"] == "not_programmed"
        assert api.state(room, tokens[0]).json()["programmed"] is None
        ws.send({"type": "action", "action": {"type": "program", "card": card}})
        view = ws.wait_version(before["version"] + 1)
        assert view["programmed"] == card and view["version"] == before["version"] + 1
    # the socket's close is a change of the room of its own (seat 0 no longer connected):
    # let it land before play_out counts one version an action
    deadline = time.monotonic() + 10
    while api.state(room).json()["players"][0]["connected"] and time.monotonic() < deadline:
        time.sleep(0.02)
    final = api.play_out(table)
    replay = api.replay(room).json()
    assert State.replay(replay["setup"], replay["actions"]).result == final["result"]
    assert replay["actions"][0] == {"seat": 0, "action": {"type": "program", "card": card}}


def test_a_locked_sqlite_file(server_factory, make_api, tmp_path):
    db = tmp_path / "locked.sqlite3"
    api = make_api(server_factory(db=db).start())
    holder = sqlite3.connect(db, isolation_level=None)

    def fail() -> None:  # another process writes: the server's commit times out (5 s)
        holder.execute("BEGIN EXCLUSIVE")

    def heal() -> None:
        holder.execute("ROLLBACK")

    try:
        play_through_a_failed_write(api, fail, heal)
    finally:
        holder.close()


def test_a_stopped_postgresql(own_postgres, server_factory, make_api):
    # own_postgres first, so stopped last: a server stopping after its PostgreSQL would
    # wait for a connection of its pool (DB_WAIT) on what it writes as it stops
    db = own_postgres.create_database()
    api = make_api(server_factory(db=db, env={"DAME_NATURE_DB_WAIT_SECONDS": DB_WAIT}).start())
    play_through_a_failed_write(api, own_postgres.halt, own_postgres.start)
