"""Backups that restore: ``dame-nature export`` / ``import`` between SQLite and PostgreSQL
with a game in progress, refusals that write nothing, and SQLite's hot copy, each against
real server processes and a real PostgreSQL."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest

from benchmarks._support.live_server import ServerProcess, free_port
from tests.server.conftest import Api


def cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dame_nature", *args], capture_output=True, text=True, timeout=120
    )


def seat_views(api: Api, table: dict[str, Any]) -> list[dict[str, Any]]:
    views = [api.state(table["room"], token).json() for token in table["tokens"]]
    views.append(api.state(table["room"]).json())  # the spectator's
    for view in views:
        view.pop("connected", None)
    return views


def same_game(now: list[dict[str, Any]], before: list[dict[str, Any]]) -> bool:
    """Every seat's view as before. A single node on SQLite starts every room it restores
    with one new version (its previous process lost every connection), as at any restart;
    PostgreSQL nodes load rooms on demand at the stored version."""
    pairs = zip(now, before, strict=True)
    assert all(b["version"] <= a["version"] <= b["version"] + 1 for a, b in pairs)
    strip = [{k: v for k, v in view.items() if k != "version"} for view in (*now, *before)]
    return strip[: len(now)] == strip[len(now) :]


def play(api: Api, table: dict[str, Any], actions: int) -> None:
    for _ in range(actions):
        stepped = api.step(table)
        assert stepped is not None and stepped[2].status_code == 200


def test_a_game_in_progress_moves_from_sqlite_to_postgres_and_back(
    tmp_path: Path, postgres: Any
) -> None:
    sqlite_db = tmp_path / "rooms.sqlite3"
    source = ServerProcess(sqlite_db).start()
    try:
        with httpx.Client(base_url=source.url, timeout=20) as http:
            api = Api(http, source.ws_url)
            table = api.table(players=4, seed=11)
            finished = api.table(players=3, seed=5)
            api.play_out(finished)
            play(api, table, 9)
            before = seat_views(api, table)
            # exported while the server runs
            exported = cli("export", "--db", str(sqlite_db), "--out", str(tmp_path / "a.jsonl"))
            assert exported.returncode == 0, exported.stderr
    finally:
        source.stop()

    pg_url = postgres.create_database()
    imported = cli("import", str(tmp_path / "a.jsonl"), "--db", pg_url)
    assert imported.returncode == 0, imported.stderr
    on_pg = ServerProcess(pg_url).start()
    try:
        with httpx.Client(base_url=on_pg.url, timeout=20) as http:
            api = Api(http, on_pg.ws_url)
            after = seat_views(api, table)
            assert [v["version"] for v in after] == [v["version"] for v in before]
            assert after == before
            assert api.replay(finished["room"]).status_code == 200
            play(api, table, 3)  # the game goes on
            moved_on = seat_views(api, table)
            exported = cli("export", "--db", pg_url, "--out", str(tmp_path / "b.jsonl"))
            assert exported.returncode == 0, exported.stderr
    finally:
        on_pg.stop()

    back = tmp_path / "back.sqlite3"
    assert cli("import", str(tmp_path / "b.jsonl"), "--db", str(back)).returncode == 0
    on_sqlite = ServerProcess(back).start()
    try:
        with httpx.Client(base_url=on_sqlite.url, timeout=20) as http:
            api = Api(http, on_sqlite.ws_url)
            assert same_game(seat_views(api, table), moved_on)
            api.play_out(table)
    finally:
        on_sqlite.stop()


@pytest.fixture(scope="module")
def export_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An export of a store holding a game in progress: made once, the tests only read
    it (each writes what it changes to a file of its own)."""
    tmp_path = tmp_path_factory.mktemp("export")
    db = tmp_path / "source.sqlite3"
    server = ServerProcess(db).start()
    try:
        with httpx.Client(base_url=server.url, timeout=20) as http:
            api = Api(http, server.ws_url)
            play(api, api.table(players=3, seed=2), 4)
    finally:
        server.stop()
    out = tmp_path / "export.jsonl"
    assert cli("export", "--db", str(db), "--out", str(out)).returncode == 0
    return out


def rooms_in(db: Path) -> int:
    if not db.exists():
        return 0
    with sqlite3.connect(db) as conn:
        try:
            return int(conn.execute("SELECT COUNT(*) FROM rooms").fetchone()[0])
        except sqlite3.OperationalError:
            return 0


def test_an_altered_line_is_refused_with_its_number_and_nothing_is_written(
    export_file: Path, tmp_path: Path
) -> None:
    lines = export_file.read_bytes().splitlines()
    at = next(i for i, line in enumerate(lines) if b'"table":"actions"' in line)
    entry = orjson.loads(lines[at])
    entry["row"]["seat"] = (entry["row"]["seat"] + 1) % 3  # another seat's action
    lines[at] = orjson.dumps(entry, option=orjson.OPT_SORT_KEYS)
    altered = tmp_path / "altered.jsonl"
    altered.write_bytes(b"\n".join(lines) + b"\n")
    target = tmp_path / "target.sqlite3"
    result = cli("import", str(altered), "--db", str(target))
    assert result.returncode == 2
    assert f"line {at + 1}:" in result.stderr
    assert rooms_in(target) == 0


def test_a_file_cut_short_or_with_a_line_missing_is_refused(
    export_file: Path, tmp_path: Path
) -> None:
    lines = export_file.read_bytes().splitlines()
    short = tmp_path / "short.jsonl"
    short.write_bytes(b"\n".join(lines[:-3]) + b"\n")
    result = cli("import", str(short), "--db", str(tmp_path / "t1.sqlite3"))
    assert result.returncode == 2 and "cut short" in result.stderr
    gap = tmp_path / "gap.jsonl"
    gap.write_bytes(b"\n".join(lines[:2] + lines[3:]) + b"\n")
    result = cli("import", str(gap), "--db", str(tmp_path / "t2.sqlite3"))
    assert result.returncode == 2 and "line 3:" in result.stderr
    assert rooms_in(tmp_path / "t1.sqlite3") == rooms_in(tmp_path / "t2.sqlite3") == 0


def test_a_store_that_is_not_empty_is_refused_unless_asked(
    export_file: Path, tmp_path: Path
) -> None:
    target = tmp_path / "target.sqlite3"
    assert cli("import", str(export_file), "--db", str(target)).returncode == 0
    held = rooms_in(target)
    again = cli("import", str(export_file), "--db", str(target))
    assert again.returncode == 2 and "not empty" in again.stderr
    assert rooms_in(target) == held
    replaced = cli("import", str(export_file), "--db", str(target), "--replace")
    assert replaced.returncode == 0, replaced.stderr
    assert rooms_in(target) == held


def test_the_hot_copy_of_a_running_sqlite_store_serves_its_games(tmp_path: Path) -> None:
    db = tmp_path / "live.sqlite3"
    server = ServerProcess(db).start()
    try:
        with httpx.Client(base_url=server.url, timeout=20) as http:
            api = Api(http, server.ws_url)
            table = api.table(players=3, seed=4)
            play(api, table, 5)
            views = seat_views(api, table)
            copy = tmp_path / "copy.sqlite3"
            result = cli("backup", str(copy), "--db", str(db))
            assert result.returncode == 0, result.stderr
    finally:
        server.stop()
    restored = ServerProcess(copy).start()
    try:
        with httpx.Client(base_url=restored.url, timeout=20) as http:
            assert same_game(seat_views(Api(http, restored.ws_url), table), views)
    finally:
        restored.stop()


def test_a_store_that_cannot_be_opened_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    """A SQLite file in a folder that does not exist, a PostgreSQL nobody listens for:
    each command says so in one sentence and exits 2, as documented, not a traceback."""
    store, dump = tmp_path / "rooms.sqlite3", tmp_path / "dump.jsonl"
    assert cli("migrate", "--db", str(store)).returncode == 0
    assert cli("export", "--db", str(store), "--out", str(dump)).returncode == 0
    nowhere = tmp_path / "no-such-folder" / "rooms.sqlite3"
    closed = f"postgresql://dame:secret@127.0.0.1:{free_port()}/dame"
    for args in (
        ("import", str(dump), "--db", str(nowhere)),
        ("backup", str(nowhere), "--db", str(store)),
        ("export", "--db", closed, "--out", str(tmp_path / "out.jsonl")),
    ):
        result = cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        assert "Traceback" not in result.stderr
        lines = result.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"dame-nature {args[0]}: "), lines


def test_a_postgresql_password_is_never_printed(export_file: Path, postgres: Any) -> None:
    """What import and export print (done, refused) names the store without the
    password of its URL, which would otherwise land in cron mail and logs."""

    def with_password(url: str) -> str:
        return url.replace("postgresql://postgres@", "postgresql://postgres:pw-not-shown@")

    target, empty = (with_password(postgres.create_database()) for _ in range(2))
    imported = cli("import", str(export_file), "--db", target)
    assert imported.returncode == 0, imported.stderr
    assert "postgres:***@" in imported.stdout
    refused = cli("export", "--db", empty, "--out", str(export_file.with_name("none.jsonl")))
    assert refused.returncode == 2 and "holds no Dame Nature store" in refused.stderr
    for result in (imported, refused):
        assert "pw-not-shown" not in result.stdout + result.stderr
