"""Schema migrations on both stores: a database made by the store before migrations
existed (no version table) opens and plays on; ``dame-nature migrate``; each game
records the engine and rules-data versions; a game today's engine replays differently is
reported and refused, never changed."""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import psycopg
import pytest

from dame_nature.bots.random_play import random_action
from dame_nature.engine import Game, State
from dame_nature.server.migrate import HEAD, MIGRATIONS, is_postgres
from dame_nature.server.provenance import ENGINE_VERSION, RULES_VERSION
from dame_nature.server.store import open_store
from tests.server.conftest import Api

#: the store's schema before migrations existed (``store.py`` up to that change, verbatim)
PREVIOUS_SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    host_token TEXT NOT NULL,
    spec TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'lobby',
    game_no INTEGER NOT NULL DEFAULT 0,
    campaign TEXT,
    version INTEGER NOT NULL DEFAULT 0,
    created_at REAL NOT NULL,
    updated_at REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_updated ON rooms (updated_at);
CREATE TABLE IF NOT EXISTS players (
    room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    token TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE TABLE IF NOT EXISTS games (
    room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no INTEGER NOT NULL,
    setup TEXT NOT NULL,
    result TEXT,
    PRIMARY KEY (room, game_no)
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL REFERENCES rooms (code) ON DELETE CASCADE,
    game_no INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, game_no, idx)
);
"""

ROOM = "legacyRoom01"
FINISHED = "legacyDone01"


def run_sql(url: str, script: str, rows: list[tuple[str, tuple[Any, ...]]]) -> None:
    """Run a DDL script and some inserts on either store, as the old server would have."""
    if is_postgres(url):
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute(script.replace("REAL", "DOUBLE PRECISION"))  # type: ignore[arg-type]
            for sql, params in rows:
                conn.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
    else:
        with sqlite3.connect(url) as conn:
            conn.executescript(script)
            for sql, params in rows:
                conn.execute(sql, params)


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    if is_postgres(url):
        with psycopg.connect(url) as conn:
            return conn.execute(sql).fetchall()  # type: ignore[arg-type]
    with sqlite3.connect(url) as conn:
        return conn.execute(sql).fetchall()


def previous_database(url: str) -> dict[str, Any]:
    """A database of the previous schema holding a game half played (3 seats) and a
    finished one; what a client needs to go on with them."""
    rng = random.Random(5)
    state = Game(3, ["first_predator"]).new_initial_state(seed=21)
    for _ in range(20):
        seat = rng.choice(sorted(state.current_players()))
        state.apply(seat, random_action(state, seat, rng))
    done = Game(3, []).new_initial_state(seed=22)
    while not done.is_over:
        seat = rng.choice(sorted(done.current_players()))
        done.apply(seat, random_action(done, seat, rng))
    rows: list[tuple[str, tuple[Any, ...]]] = []
    tokens = [f"token-{seat}-0123456789abcdef" for seat in range(3)]
    for code, game, status in ((ROOM, state, "playing"), (FINISHED, done, "over")):
        spec = {"modes": list(game.game.modes), "path": None, "seed": None, "deal": None}
        rows.append(
            (
                "INSERT INTO rooms (code, host_token, spec, status, game_no, version,"
                " created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, 1.0, 2.0)",
                (code, "host-0123456789abcdef", json.dumps(spec), status, 4 + len(game.history)),
            )
        )
        for seat in range(3):
            rows.append(
                (
                    "INSERT INTO players (room, seat, name, token) VALUES (?, ?, ?, ?)",
                    (code, seat, f"P{seat}", tokens[seat]),
                )
            )
        rows.append(
            (
                "INSERT INTO games (room, game_no, setup, result) VALUES (?, 1, ?, ?)",
                (code, json.dumps(game.setup), json.dumps(game.result) if game.result else None),
            )
        )
        for idx, entry in enumerate(game.history):
            rows.append(
                (
                    "INSERT INTO actions (room, game_no, idx, seat, action) VALUES (?, 1, ?, ?, ?)",
                    (code, idx, entry["seat"], json.dumps(entry["action"])),
                )
            )
    run_sql(url, PREVIOUS_SCHEMA, rows)
    return {"tokens": tokens, "state": state, "done": done}


def test_the_head_revision_is_the_newest_migration():
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    assert ScriptDirectory.from_config(config).get_current_head() == HEAD


def test_a_database_of_the_previous_schema_opens_and_plays_on(
    store_url: str, server_factory: Callable[..., Any], make_api: Callable[..., Api]
):
    before = previous_database(store_url)
    server = server_factory(db=store_url).start()  # migrates at start-up
    api = make_api(server)
    assert query(store_url, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    if not is_postgres(store_url):  # the actions kept in their key's b-tree alone
        schema = query(store_url, "SELECT sql FROM sqlite_master WHERE name = 'actions'")
        assert schema[0][0].endswith("WITHOUT ROWID")
    table = {"room": ROOM, "tokens": before["tokens"]}
    view = api.state(ROOM, before["tokens"][0]).json()
    assert view["phase"] == before["state"].view(0)["phase"]
    assert view["hand"] == before["state"].view(0)["hand"]
    final = api.play_out(table)
    replay = api.replay(ROOM).json()
    assert replay["actions"][:20] == before["state"].history  # the old actions, kept
    assert State.replay(replay["setup"], replay["actions"]).result == final["result"]
    assert api.replay(FINISHED).json()["result"] == before["done"].result
    # the game stored before versions were recorded says so (NULL); a new one records them
    assert api.rematch(ROOM, "host-0123456789abcdef").status_code == 200
    games = query(
        store_url, f"SELECT game_no, engine_version, rules_version FROM games WHERE room = '{ROOM}'"
    )
    assert sorted(games) == [(1, None, None), (2, ENGINE_VERSION, RULES_VERSION)]


def test_migrate_command_and_a_game_replayed_differently_is_reported(
    store_url: str, server_factory: Callable[..., Any], make_api: Callable[..., Api]
):
    previous_database(store_url)
    command = [sys.executable, "-m", "dame_nature", "migrate", "--db", store_url]
    first = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert f"-> {HEAD}" in first.stdout and "0 replayed differently" in first.stdout
    # an older engine recorded another result for the finished game
    store = open_store(store_url)
    store._write(
        [
            (
                "UPDATE games SET result = :result, engine_version = '0.0.1' WHERE room = :room",
                {"result": json.dumps({"outcome": "won", "reason": "forged"}), "room": FINISHED},
            )
        ]
    )
    store.close()
    second = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert second.returncode == 1
    assert f"room {FINISHED} game 1: the result differs" in second.stdout
    assert "1 replayed differently (reported, left unchanged)" in second.stdout
    api = make_api(server_factory(db=store_url).start())
    refused = api.replay(FINISHED)
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "room_unavailable"
    assert api.state(ROOM).status_code == 200  # the other games play on
    reports = query(store_url, "SELECT room, game_no, engine_version FROM replay_reports")
    assert reports == [(FINISHED, 1, "0.0.1")]  # once, however often it is found
    stored = query(store_url, f"SELECT result FROM games WHERE room = '{FINISHED}'")
    assert json.loads(stored[0][0])["reason"] == "forged"  # never silently changed


def test_schema_is_the_same_on_both_stores(tmp_path: Path, request: pytest.FixtureRequest):
    from tests.server.conftest import make_store_url

    schema = {}
    for kind in ("sqlite", "postgres"):
        url = make_store_url(kind, tmp_path, request)
        open_store(url).close()
        if kind == "sqlite":
            names = query(
                url, "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view')"
            )
        else:
            names = query(
                url,
                "SELECT CASE table_type WHEN 'VIEW' THEN 'view' ELSE 'table' END, table_name"
                " FROM information_schema.tables WHERE table_schema='public'",
            )
        schema[kind] = sorted(names)
    assert schema["sqlite"] == schema["postgres"]
    tables = {name for kind, name in schema["sqlite"] if kind == "table"}
    assert {"rooms", "players", "games", "actions", "presence", "nodes"} <= tables
    assert [name for kind, name in schema["sqlite"] if kind == "view"] == ["action_writes"]


def test_bot_seats_are_stored_the_same_on_both_stores(store_url: str):
    store = open_store(store_url)
    try:
        store.create_room("botsRoom01", "host", {"modes": []}, now=1.0)
        store.add_player("botsRoom01", 0, "Ada", "t0", version=1, now=2.0)
        store.add_player("botsRoom01", 1, "Darwin", "t1", version=2, now=3.0, bot="random")
        store.add_player("botsRoom01", 2, "Bo", "t2", version=3, now=4.0)
        store.set_bot("botsRoom01", 2, "expert", version=4, now=5.0)
        store.remove_player("botsRoom01", 0, version=5, now=6.0)  # the others move down
        room = store.load_room("botsRoom01")
        assert room is not None and room["version"] == 5
        assert [(p["seat"], p["name"], p["bot"], p["human"]) for p in room["players"]] == [
            (0, "Darwin", "random", True),
            (1, "Bo", "expert", True),
        ]
    finally:
        store.close()


def test_migrate_makes_a_new_sqlite_file_with_the_stores_page_size(tmp_path: Path):
    """``dame-nature migrate`` run before the server first opens a new file makes it as
    the store would (``store.sqlite.PAGE_SIZE``), not with SQLite's default."""
    from dame_nature.server.migrate import migrate
    from dame_nature.server.store.sqlite import PAGE_SIZE

    path = tmp_path / "new.sqlite3"
    assert migrate(str(path)) == (None, HEAD)
    made = sqlite3.connect(path)
    try:
        assert made.execute("PRAGMA page_size").fetchone()[0] == PAGE_SIZE
    finally:
        made.close()


#: a process migrating the SQLite file ``argv[1]`` that stops just before it records its
#: first revision, says so, and goes on when a line comes in
HELD_MIGRATION = """
import sqlite3, sys
from dame_nature.server.migrate import migrate_sqlite

conn = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)
held = []

def hold_before_the_first_revision(statement):
    if not held and statement.lstrip().startswith("INSERT INTO alembic_version"):
        held.append(statement)
        print("held", flush=True)
        sys.stdin.readline()

conn.set_trace_callback(hold_before_the_first_revision)
print(migrate_sqlite(conn), flush=True)
"""


def test_two_processes_migrating_one_new_sqlite_file_take_turns(tmp_path: Path):
    """Two servers (or a server and ``dame-nature migrate``) started together on one new
    SQLite file: the first made the tables, the second then took the file for one made
    before migrations existed and stamped it, and the first's own record of its revision
    failed (a server exited at start-up). Now a migration holds the file's write lock from
    its first look to its commit: the second waits, then finds the file at ``HEAD``.

    The first process is held just before it records its first revision, until the
    second migration has either ended or started to wait for the lock."""
    from dame_nature.server.migrate import migrate_sqlite

    path = str(tmp_path / "shared.sqlite3")
    first = subprocess.Popen(
        [sys.executable, "-c", HELD_MIGRATION, path],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stdout is not None and first.stdout.readline() == "held\n"
        # (waits for the lock as long as a loaded machine may need, not the default 5 s)
        second = sqlite3.connect(path, timeout=60, isolation_level=None, check_same_thread=False)
        waits_or_ended = threading.Event()

        def note_the_wait(statement: str) -> None:
            if statement.lstrip().startswith("BEGIN IMMEDIATE"):
                waits_or_ended.set()

        second.set_trace_callback(note_the_wait)
        outcome: list[Any] = []

        def migrate_second() -> None:
            try:
                outcome.append(migrate_sqlite(second))
            except Exception as err:  # noqa: BLE001 (the assertion below reports it)
                outcome.append(err)
            finally:
                waits_or_ended.set()

        thread = threading.Thread(target=migrate_second)
        thread.start()
        assert waits_or_ended.wait(60)
        out, err = first.communicate("go\n", timeout=60)
        thread.join(60)
        second.close()
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 0, err
    assert out.strip() == str((None, HEAD))
    assert outcome == [(HEAD, HEAD)]
