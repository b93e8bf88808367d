"""The server's own log lines (``dame_nature.*`` loggers) reach its output at the level
``--log-level`` sets, in uvicorn's format, beside uvicorn's lines."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from benchmarks._support.live_server import ServerProcess


def test_the_servers_own_info_lines_are_logged_at_log_level_info(
    tmp_path: Path, make_api: Any
) -> None:
    db, log = tmp_path / "rooms.sqlite3", tmp_path / "server.log"
    server = ServerProcess(db, log_level="info", log_file=log).start()
    try:
        make_api(server).table(players=3)
    finally:
        server.stop()
    server = ServerProcess(db, log_level="info", log_file=log).start()  # restores the game
    server.stop()
    text = log.read_text()
    assert "Application startup complete." in text  # uvicorn's own line
    assert f"INFO:     restored 1 rooms from {db}" in text, text
    quiet = tmp_path / "quiet.log"
    server = ServerProcess(db, log_level="warning", log_file=quiet).start()
    server.stop()
    assert "restored" not in quiet.read_text()
