"""The soak benchmark's heap probe (``benchmarks/_support/heap_probe.py``): a real server
run under it answers ``SIGUSR2`` with a line saying where its memory is, down to the
entries of its registries, so that the soak can tell a warm-up from a leak."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx

from benchmarks._support.heap_probe import ask
from benchmarks._support.live_server import ServerProcess

PROBE = Path(__file__).resolve().parents[2] / "benchmarks" / "_support" / "heap_probe.py"


def probe(server: ServerProcess, lines: Path) -> dict[str, Any]:
    assert server.proc is not None
    return ask(server.proc, lines, timeout=60)


def test_a_server_under_the_probe_says_where_its_memory_is(tmp_path: Path) -> None:
    lines = tmp_path / "heap.jsonl"
    env = {"DAME_NATURE_HEAP_PROBE": str(lines)}
    server = ServerProcess(tmp_path / "probe.sqlite3", env, launcher=[str(PROBE)]).start()
    try:
        before = probe(server, lines)
        assert before["held"]["rooms"][0] == 0
        for _ in range(3):
            httpx.post(server.url + "/api/rooms", json={}).raise_for_status()
        after = probe(server, lines)
        assert after["held"]["rooms"][0] == 3
        assert after["held"]["rooms_by_status"] == {"lobby": 3}
        assert after["held"]["reviews_done"] == [0, after["held"]["reviews_done"][1]]
        assert after["held"]["rate_limit_keys"][0] >= 1  # the creations' address, at least
        assert after["blocks"] > 0 and after["objects_after"] > 0 and after["rss_mib"] > 0
        assert after["pymalloc_arenas"] and after["malloc"]["in_use"] > 0
        assert after["sqlite_bytes"] > 0
        assert after["types"]["Room"] == 3  # the server's own types, however few
    finally:
        server.stop()
