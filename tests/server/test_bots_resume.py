"""Bots resume by themselves once the store can write again: a solo room whose bots'
moves were refused while the database was unwritable moves on within seconds of it
coming back, with no request to wake it."""

from __future__ import annotations

import os
import shutil
import time

import pytest

from benchmarks._support.live_server import ServerProcess
from benchmarks._support.services import Postgres, require
from dame_nature.server.bot_driver import MAX_REFUSALS
from tests.server.conftest import Api
from tests.server.test_request_hygiene import immutable

BOTS = {1, 2}  # the seats of the bots, beside one person's


def wait_for(check, timeout: float, what: str):  # type: ignore[no-untyped-def]
    """``check()`` until it is truthy (``timeout`` seconds at most)."""
    deadline = time.monotonic() + timeout
    while True:
        found = check()
        if found or time.monotonic() > deadline:
            assert found, what
            return found
        time.sleep(0.1)


def solo_room(api: Api) -> str:
    """A started room of one person and the bots; its code."""
    table = api.table(players=1, start=False, seed=3)
    room, host = table["room"], table["host"]
    for _ in BOTS:
        assert api.add_bot(room, host, "random").status_code == 201
    started = api.start(room, host)
    assert started.status_code == 200, started.text
    return str(room)


def bots_moved(api: Api, room: str) -> bool:
    answer = api.state(room)
    assert answer.status_code == 200, (answer.status_code, answer.text)
    return not BOTS & set(answer.json()["to_act"])


def test_bots_resume_after_the_store_could_not_write(tmp_path, make_api):
    if os.geteuid() == 0 and shutil.which("chattr") is None:
        pytest.skip("chattr is needed to make a file unwritable for root")
    db = tmp_path / "rooms.sqlite3"
    log = tmp_path / "server.log"
    # the bots wait a second after each change: time to make the store unwritable
    server = ServerProcess(db, env={"DAME_NATURE_BOT_DELAY_SECONDS": "1"}, log_file=log).start()
    files = [db, db.with_name("rooms.sqlite3-wal")]
    try:
        api = make_api(server)
        room = solo_room(api)
        immutable(files, True)
        try:
            before = api.state(room).json()
            assert set(before["to_act"]) >= BOTS, "the bots moved before the outage"
            # each bot tried and the store refused it, as often as a bot once fell back
            # to the random level and tried once more
            failures = len(BOTS) * (MAX_REFUSALS + 1)
            wait_for(
                lambda: _store_refusals(log.read_text()) >= failures,
                30,
                "the bots never tried to move during the outage",
            )
            assert api.state(room).json()["version"] == before["version"]
        finally:
            immutable(files, False)
        wait_for(lambda: bots_moved(api, room), 60, "the bots did not resume")
    finally:
        server.stop()


def test_bots_resume_after_postgresql_came_back(tmp_path, make_api):
    require("postgresql")
    service = Postgres().start()
    log = tmp_path / "server.log"
    # each call waits 2 s for a connection while PostgreSQL is away (10 s by default)
    env = {"DAME_NATURE_BOT_DELAY_SECONDS": "1", "DAME_NATURE_DB_WAIT_SECONDS": "2"}
    server = ServerProcess(service.create_database(), env=env, log_file=log)
    try:
        api = make_api(server.start())
        room = solo_room(api)
        service.halt()
        try:
            # the bots' lead or their move failed a few times while the store was down
            wait_for(
                lambda: log.read_text().count("Traceback") >= 3,
                60,
                "the bots never tried to move during the outage",
            )
        finally:
            service.start()
        wait_for(lambda: bots_moved(api, room), 60, "the bots did not resume")
    finally:
        server.stop()
        service.stop()


def _store_refusals(log: str) -> int:
    """The actions the store refused, as the server logs them (the usual action is
    written by ``append_action``, one that ends a game or moves clocks by ``add_action``)."""
    return sum(
        log.count(f"could not store a change ({name})") for name in ("append_action", "add_action")
    )
