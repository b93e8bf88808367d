"""The package installed outside the working tree: a fresh virtualenv that sees this
machine's site-packages (for the dependencies), the project installed in it with
``pip --no-deps``, and its ``dame-nature serve`` started on a free loopback port.

Shared by ``tests/server/test_wheel.py`` and ``tests/server/test_dockerfile.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

from benchmarks._support.live_server import free_port, wait_healthy

# Pages and files every install must serve: the two pages and their scripts and styles.
UI_PATHS = ("/", "/r/AnyRoomCode", "/static/css/app.css", "/static/js/room.js",
            "/static/js/home.js", "/static/js/texts.js")  # fmt: skip


#: what changes which Python code a process imports or where pip installs: a fresh
#: machine (a Docker image) has none of them
HIDDEN_VARIABLES = frozenset({
    "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "PYTHONUSERBASE", "PYTHONSAFEPATH",
    "PYTHONEXECUTABLE", "VIRTUAL_ENV", "__PYVENV_LAUNCHER__",
    "PIP_TARGET", "PIP_PREFIX", "PIP_ROOT", "PIP_USER", "PIP_EDITABLE", "PIP_SRC",
})  # fmt: skip


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment as a fresh machine would have it, for the processes
    that must run the installed package: without ``PYTHONPATH`` (which would put a source
    tree's ``src/``, this one's or another's, before the installed package) nor the other
    variables of ``HIDDEN_VARIABLES``, with no user site-packages (``PYTHONNOUSERSITE``),
    and without the server's own settings (``DAME_NATURE_*``: the caller gives those it
    means). What pip needs to reach the package index (proxies, certificates) is kept."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in HIDDEN_VARIABLES and not k.startswith("DAME_NATURE_")
    }
    return {**env, "PYTHONNOUSERSITE": "1", **extra}


def make_venv(env_dir: Path) -> Path:
    """A virtualenv seeing the system site-packages; returns its python."""
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    return env_dir / "bin" / "python"


def pip_install(python: Path, *args: str, cwd: Path, env: dict[str, str]) -> None:
    """``pip install --no-deps ARGS`` into the virtualenv of ``python``."""
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", *args,
         "--no-deps", "--quiet"],
        cwd=cwd, check=True, env=env,
    )  # fmt: skip


def where(python: Path, expression: str, cwd: Path, env: dict[str, str]) -> str:
    """``print(expression)`` after ``import dame_nature.server.assets`` in that python."""
    return subprocess.run(
        [str(python), "-c", f"import dame_nature.server.assets\nprint({expression})"],
        capture_output=True, text=True, check=True, env=env, cwd=cwd,
    ).stdout.strip()  # fmt: skip


@contextmanager
def serving(command: list[str], cwd: Path, env: dict[str, str]) -> Iterator[str]:
    """Runs ``command`` (a ``dame-nature serve``) with ``DAME_NATURE_PORT`` set to a free
    port; yields the base URL once ``/healthz`` answers; stops it after."""
    port = free_port()
    env = {**env, "DAME_NATURE_HOST": "127.0.0.1", "DAME_NATURE_PORT": str(port)}
    server = subprocess.Popen(command, cwd=cwd, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, server)
        yield url
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


def assert_serves_ui(url: str) -> None:
    """Every page and UI file answers 200 with its content type, and a page's scripts and
    stylesheet exist."""
    for path in UI_PATHS:
        response = httpx.get(url + path, timeout=10)
        assert response.status_code == 200, (path, response.status_code)
        kind = response.headers["content-type"]
        if path.endswith(".js"):
            assert "javascript" in kind and ("export" in response.text or "import" in response.text)
        elif path.endswith(".css"):
            assert kind.startswith("text/css") and response.text
        else:
            assert kind.startswith("text/html") and "/static/" in response.text
