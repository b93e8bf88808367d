"""Real throwaway services for the tests: PostgreSQL, Redis and nginx on free loopback ports.

Each one runs from the Debian binaries in a temporary folder of its own (data, sockets,
pid and log files), in the foreground as a child process, and is stopped and removed at
the end. ``require(name)`` skips a test with a clear reason when a binary is missing
(``.ci/run`` installs them all, so CI runs every test). Never mocks, never a home-made
stand-in.

- ``Postgres``: ``initdb`` into a folder owned by ``postgres`` (run with ``runuser`` when
  the tests run as root), ``postgres`` listening on 127.0.0.1 and a unix socket in the
  folder; ``create_database()`` gives each suite a fresh database of its own.
- ``Redis``: ``redis-server`` with no persistence; ``kill()`` and ``start()`` again (same
  port) for the restart tests.
- ``Nginx``: a generated configuration (upstream of the app nodes, websocket upgrade,
  ``-p`` prefix, no daemon) in the temporary folder.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from .live_server import Loopback, free_port

PG_BIN = Path(os.environ.get("DAME_NATURE_PG_BIN", "/usr/lib/postgresql/15/bin"))
BINARIES = {
    "postgresql": PG_BIN / "postgres",
    "redis": Path(shutil.which("redis-server") or "/usr/bin/redis-server"),
    "nginx": Path(shutil.which("nginx") or "/usr/sbin/nginx"),
}


def missing(name: str) -> str | None:
    """Why service ``name`` cannot run here (None: it can)."""
    binary = BINARIES[name]
    if not binary.exists():
        return f"{name} is not installed ({binary} is missing; .ci/run installs it)"
    if name == "postgresql" and os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a 'postgres' user to run PostgreSQL as"
    return None


def require(name: str) -> None:
    """Skip the calling test (or fixture) with the reason when ``name`` cannot run."""
    reason = missing(name)
    if reason is not None:
        pytest.skip(reason)


def wait_port(port: int, proc: subprocess.Popen[bytes], what: str, timeout: float = 30) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2):
            return
        time.sleep(0.05)
    raise RuntimeError(f"{what} did not listen on port {port} within {timeout} s")


def _stop(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(sig)
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(15)


class Postgres:
    """A throwaway PostgreSQL cluster: ``start()``, ``create_database()``, ``stop()``."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="dn-pg-"))
        self.data = self.dir / "data"
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.root = os.geteuid() == 0
        self._made = 0

    def _as_postgres(self, cmd: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *cmd] if self.root else cmd

    def start(self) -> Postgres:
        if self.root:
            entry = pwd.getpwnam("postgres")
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        if not self.data.exists():
            subprocess.run(
                self._as_postgres(
                    [str(PG_BIN / "initdb"), "-D", str(self.data), "-U", "postgres",
                     "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]
                ),
                check=True,
                stdout=subprocess.DEVNULL,
            )  # fmt: skip
        # durability settings off: a throwaway test cluster, never real data
        self.proc = subprocess.Popen(
            self._as_postgres(
                [str(PG_BIN / "postgres"), "-D", str(self.data), "-p", str(self.port),
                 "-k", str(self.dir), "-c", "listen_addresses=127.0.0.1",
                 "-c", "fsync=off", "-c", "synchronous_commit=off",
                 "-c", "full_page_writes=off", "-c", "max_connections=200"]
            ),
            stdout=subprocess.DEVNULL,
            stderr=open(self.dir / "postgres.log", "ab"),  # noqa: SIM115
        )  # fmt: skip
        wait_port(self.port, self.proc, "postgres")
        self._wait_ready()
        return self

    def _wait_ready(self) -> None:
        import psycopg

        deadline = time.monotonic() + 30
        while True:
            try:
                with psycopg.connect(self.url("postgres"), connect_timeout=2):
                    return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, prefix: str = "dn") -> str:
        """A new empty database; its URL."""
        import psycopg

        self._made += 1
        name = f"{prefix}_{os.getpid()}_{self._made}"
        with psycopg.connect(self.url("postgres"), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def halt(self) -> None:
        """Stop the server, keeping its data: ``start()`` brings it back on the same port."""
        pid_file = self.data / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
        _stop(self.proc, signal.SIGINT)

    def stop(self) -> None:
        # ``runuser`` does not pass signals on: signal the postmaster itself (its pid is
        # the first line of postmaster.pid); SIGINT is PostgreSQL's fast shutdown
        pid_file = self.data / "postmaster.pid"
        with contextlib.suppress(OSError, ValueError, IndexError):
            os.kill(int(pid_file.read_text().split()[0]), signal.SIGINT)
        _stop(self.proc, signal.SIGINT)
        shutil.rmtree(self.dir, ignore_errors=True)


class Redis:
    """A throwaway ``redis-server`` (no persistence); ``kill()`` then ``start()`` restarts
    it on the same port."""

    def __init__(self) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="dn-redis-"))
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        self.proc = subprocess.Popen(
            [str(BINARIES["redis"]), "--port", str(self.port), "--bind", "127.0.0.1",
             "--save", "", "--appendonly", "no", "--dir", str(self.dir),
             "--daemonize", "no", "--loglevel", "warning"],
            stdout=open(self.dir / "redis.log", "ab"),  # noqa: SIM115
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        wait_port(self.port, self.proc, "redis-server")
        return self

    def kill(self) -> None:
        _stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        _stop(self.proc)
        shutil.rmtree(self.dir, ignore_errors=True)


NGINX_CONF = """\
{user}worker_processes 1;
worker_rlimit_nofile 20000;
error_log {prefix}/error.log warn;
pid {prefix}/nginx.pid;
events {{ worker_connections 16384; }}
http {{
    access_log off;
    client_body_temp_path {prefix}/body;
    proxy_temp_path {prefix}/proxy;
    fastcgi_temp_path {prefix}/fastcgi;
    uwsgi_temp_path {prefix}/uwsgi;
    scgi_temp_path {prefix}/scgi;
{body}
}}
"""


class Nginx(Loopback):
    """A throwaway nginx in front of ``upstreams`` (``host:port`` of the app nodes), with
    the same ``server`` block as ``deploy/nginx.conf`` (``deploy/nginx-site.conf``)."""

    def __init__(self, upstreams: list[str]) -> None:
        self.dir = Path(tempfile.mkdtemp(prefix="dn-nginx-"))
        self.port = free_port()
        self.upstreams = upstreams
        self.proc: subprocess.Popen[bytes] | None = None

    def config(self) -> str:
        site = (Path(__file__).resolve().parents[2] / "deploy" / "nginx-site.conf").read_text()
        servers = "".join(f"    server {u} max_fails=1 fail_timeout=5s;\n" for u in self.upstreams)
        site = re.sub(r"(?m)^ *server app\d:8000 .*\n", "", site, count=0)
        site = site.replace("    keepalive 64;", servers + "    keepalive 64;")
        site = site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")
        site = "\n".join("    " + line if line else line for line in site.splitlines())
        user = ""
        if os.geteuid() == 0:  # workers would drop to 'nobody', who cannot write the prefix
            user = "user root;\n"
        return NGINX_CONF.format(user=user, prefix=self.dir, body=site)

    def start(self) -> Nginx:
        conf = self.dir / "nginx.conf"
        conf.write_text(self.config())
        self.proc = subprocess.Popen(
            [str(BINARIES["nginx"]), "-p", str(self.dir), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=open(self.dir / "stderr.log", "ab"),  # noqa: SIM115
        )
        wait_port(self.port, self.proc, "nginx")
        return self

    def stop(self) -> None:
        _stop(self.proc, signal.SIGTERM)  # fast shutdown: open websockets are cut
        shutil.rmtree(self.dir, ignore_errors=True)
