"""The cap on connections at once follows the process's open-files limit (less a margin
for the store, logs and files), is printed at start-up, and refuses with 503 before the
process runs out of descriptors; ``DAME_NATURE_LIMIT_CONCURRENCY`` still wins."""

from __future__ import annotations

import contextlib
import os
import re
import resource
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from benchmarks._support.live_server import FAST_LIMITS, free_port, wait_healthy
from dame_nature.server.settings import Settings
from dame_nature.server.transport import connection_cap, default_connection_cap

#: the open-files limit of the server under test (soft and hard)
OPEN_FILES = 160


def test_the_default_cap_keeps_a_margin_of_the_open_files_limit():
    assert default_connection_cap(65536) == 65536 - 256
    assert default_connection_cap(1024) == 768
    assert default_connection_cap(160) == 120
    assert default_connection_cap(1) == 1


def test_an_explicit_limit_wins_and_the_open_files_limit_is_raised_to_the_hard_one():
    cap, open_files = connection_cap(Settings(limit_concurrency=50))
    assert cap == 50
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    assert open_files == soft
    assert hard == resource.RLIM_INFINITY or soft == hard
    cap, _ = connection_cap(Settings())
    assert cap == default_connection_cap(open_files)


def _small_open_files_limit() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (OPEN_FILES, OPEN_FILES))


def _status(sock: socket.socket) -> int:
    """Sends one request on a kept-alive connection and reads its status (the body of
    /healthz is small: one read of the response's head is enough)."""
    sock.sendall(b"GET /healthz HTTP/1.1\r\nhost: test\r\n\r\n")
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            return 0  # closed without an answer
        head += chunk
    return int(head.split(b" ", 2)[1])


@pytest.fixture
def small_server(tmp_path: Path):
    port = free_port()
    log = tmp_path / "server.log"
    env = {
        **os.environ,
        **FAST_LIMITS,
        # the connections stay open for the whole test
        "DAME_NATURE_HTTP_KEEP_ALIVE_SECONDS": "600",
        "DAME_NATURE_HTTP_HEADER_TIMEOUT_SECONDS": "600",
    }
    env.pop("DAME_NATURE_LIMIT_CONCURRENCY", None)
    cmd = [sys.executable, "-m", "dame_nature", "serve", "--host", "127.0.0.1",
           "--port", str(port), "--db", str(tmp_path / "cap.sqlite3"),
           "--log-level", "warning"]  # fmt: skip
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            cmd, env=env, stdout=out, stderr=out, preexec_fn=_small_open_files_limit
        )
    try:
        wait_healthy(f"http://127.0.0.1:{port}", proc)
        yield port, log
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)


def test_a_server_under_a_small_open_files_limit_says_its_cap_and_keeps_to_it(small_server):
    port, log = small_server
    cap = default_connection_cap(OPEN_FILES)
    said = re.search(r"Accepting up to (\d+) connections at once \(open-files limit (\d+)\)",
                     log.read_text())  # fmt: skip
    assert said, log.read_text()
    assert (int(said[1]), int(said[2])) == (cap, OPEN_FILES)
    answers: list[int] = []
    with contextlib.ExitStack() as stack:
        # one connection after another, each kept open once answered: those under the
        # cap are served, the next ones refused with 503 (not cut off for want of
        # descriptors: the margin leaves the process room to answer)
        for _ in range(cap + 10):
            sock = stack.enter_context(socket.create_connection(("127.0.0.1", port), 30))
            answers.append(_status(sock))
    served = answers.count(200)
    # uvicorn counts the connection asking among those open
    assert cap - 1 <= served <= cap
    assert answers[:served] == [200] * served
    assert answers[served:] == [503] * (len(answers) - served)
    assert "Too many open files" not in log.read_text()
