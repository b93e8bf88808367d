"""A real server process for the tests: ``python -m dame_nature serve`` (uvicorn) on a free
loopback port with its own SQLite file. Shared by the server and the browser tests."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx

#: the per-client limits lifted, for tests that play fast from one address (the
#: hostile-client tests set their own)
FAST_LIMITS = {
    "DAME_NATURE_RATE_LIMIT_PER_SECOND": "100000",
    "DAME_NATURE_RATE_LIMIT_BURST": "100000",
    "DAME_NATURE_BOT_DELAY_SECONDS": "0",  # bots act at once in the tests
    "DAME_NATURE_BOT_END_GRACE_SECONDS": "0",
    "DAME_NATURE_WS_RATE_PER_SECOND": "100000",
    "DAME_NATURE_WS_RATE_BURST": "100000",
    "DAME_NATURE_ACTION_RATE_PER_SECOND": "100000",
    "DAME_NATURE_ACTION_RATE_BURST": "100000",
    "DAME_NATURE_CREATE_RATE_PER_SECOND": "100000",
    "DAME_NATURE_CREATE_RATE_BURST": "100000",
    "DAME_NATURE_CONNECT_RATE_PER_SECOND": "100000",
    "DAME_NATURE_CONNECT_RATE_BURST": "100000",
    "DAME_NATURE_CONNECT_ADDRESS_RATE_PER_SECOND": "100000",
    "DAME_NATURE_CONNECT_ADDRESS_RATE_BURST": "100000",
    "DAME_NATURE_MAX_CONNECTIONS_PER_ADDRESS": "100000",
    "DAME_NATURE_MAX_ROOMS_PER_ADDRESS": "100000",
    "DAME_NATURE_MAX_BOT_ROOMS_PER_ADDRESS": "100000",
    "DAME_NATURE_HINT_SECONDS": "60",  # a hint's budget on a loaded test machine
    "DAME_NATURE_HINT_RATE_PER_SECOND": "100000",
}
#: the same as ``Settings`` keyword arguments, for tests that build the app in process
UNLIMITED = {
    name.removeprefix("DAME_NATURE_").lower(): float(value) if "PER_SECOND" in name else int(value)
    for name, value in FAST_LIMITS.items()
}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Loopback:
    """Something listening on ``127.0.0.1:port`` (HTTP and websockets)."""

    port: int

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


class ServerProcess(Loopback):
    """``python -m dame_nature serve`` on loopback; ``kill()`` sends SIGKILL."""

    def __init__(
        self,
        db: Path | str,
        env: dict[str, str] | None = None,
        log_level: str = "warning",
        log_file: Path | None = None,
        args: list[str] | None = None,
        launcher: list[str] | None = None,
    ) -> None:
        self.db = db  # a SQLite file, or a postgresql:// URL
        self.args = args or []  # more command-line options (``--redis URL``, ``--node N``)
        #: what runs the package's command line (``-m dame_nature``, or a script that does)
        self.launcher = launcher or ["-m", "dame_nature"]
        self.env = {**os.environ, **FAST_LIMITS, **(env or {})}
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.log_level = log_level
        self.log_file = log_file  # the server's output (stdout and stderr) goes there

    def start(self) -> ServerProcess:
        self.launch()
        wait_healthy(self.url, self.proc)
        return self

    def launch(self) -> None:
        """Start the process, without waiting for it to answer (``start`` waits)."""
        cmd = [sys.executable, *self.launcher, "serve", "--host", "127.0.0.1",
               "--port", str(self.port), "--db", str(self.db),
               "--log-level", self.log_level, *self.args]  # fmt: skip
        if self.log_file is None:
            self.proc = subprocess.Popen(cmd, env=self.env)
        else:
            with open(self.log_file, "ab") as out:
                self.proc = subprocess.Popen(cmd, env=self.env, stdout=out, stderr=out)

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def start_all(servers: list[ServerProcess]) -> list[ServerProcess]:
    """Start ``servers`` side by side (the nodes of a cluster: each waits its turn for
    the schema's migration, ``migrate_postgres``); returns them once all answer."""
    for server in servers:
        server.launch()
    for server in servers:
        wait_healthy(server.url, server.proc)
    return servers


def wait_healthy(url: str, proc: subprocess.Popen[bytes] | None = None, tries: int = 300) -> None:
    for _ in range(tries):
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with {proc.returncode}")
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        time.sleep(0.1)
    raise RuntimeError("the server did not answer /healthz")
