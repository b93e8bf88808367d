"""The Dockerfile's steps, run outside Docker (no Docker engine here): its COPY steps into
a temporary /app, its ``pip install`` into a fresh virtualenv, its CMD with its ENV, and
its HEALTHCHECK command against the running server.

Only what needs root is skipped (``useradd``, ``chown``, ``USER``). The install adds
``--no-deps`` in a venv that sees this machine's packages: the only network it may need
is the package index, for the build backend (setuptools, wheel) pip builds with.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import socket
import subprocess
import sys
import time
import venv
from pathlib import Path

import httpx
import pytest

from tests.installed import assert_serves_ui, clean_env

ROOT = Path(__file__).resolve().parents[2]


def instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of a Dockerfile, continuation lines joined."""
    steps: list[tuple[str, str]] = []
    current = ""
    for line in dockerfile.read_text().splitlines():
        stripped = line.strip()
        if not current and (not stripped or stripped.startswith("#")):
            continue
        current += stripped[:-1] + " " if stripped.endswith("\\") else stripped
        if not stripped.endswith("\\"):
            word, _, rest = current.partition(" ")
            steps.append((word.upper(), rest.strip()))
            current = ""
    return steps


def exec_form(args: str) -> list[str]:
    return json.loads(args) if args.startswith("[") else ["sh", "-c", args]


def decoy_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Set what a developer's shell may hold and a fresh machine does not: ``PYTHONPATH``
    at another source tree, a user site-packages, the server's settings. Each decoy
    package fails on import: the steps below must never see them."""
    for where in ("decoy-tree/src", f"decoy-user/lib/python{sys.version_info.major}."
                  f"{sys.version_info.minor}/site-packages"):  # fmt: skip
        package = tmp_path / where / "dame_nature"
        package.mkdir(parents=True)
        (package / "__init__.py").write_text(f"raise ImportError('a decoy in {where}')\n")
    monkeypatch.setenv("PYTHONPATH", str(tmp_path / "decoy-tree" / "src"))
    monkeypatch.setenv("PYTHONUSERBASE", str(tmp_path / "decoy-user"))
    monkeypatch.setenv("DAME_NATURE_LIMIT_CONCURRENCY", "1")  # every request answered 503


def test_dockerfile_install_and_start_steps_outside_docker(tmp_path, monkeypatch):
    decoy_environment(tmp_path, monkeypatch)
    steps = instructions(ROOT / "Dockerfile")
    words = [w for w, _ in steps]
    assert words[0] == "FROM" and "slim" in steps[0][1]
    for needed in ("USER", "VOLUME", "EXPOSE", "HEALTHCHECK", "CMD"):
        assert needed in words
    assert dict(steps)["EXPOSE"] == "8000"
    assert dict(steps)["USER"] not in ("root", "0")

    app = tmp_path / "app"
    env_vars: dict[str, str] = {}
    installs: list[list[str]] = []
    for word, args in steps:
        if word == "ENV":
            for pair in shlex.split(args):
                key, _, value = pair.partition("=")
                env_vars[key] = value
        elif word == "COPY":
            *sources, dest = shlex.split(args)
            target = app / dest if dest != "./" else app
            for source in sources:
                src = ROOT / source
                if src.is_dir():
                    shutil.copytree(src, target, ignore=shutil.ignore_patterns(
                        "__pycache__", "*.egg-info"))  # fmt: skip
                else:
                    target.mkdir(parents=True, exist_ok=True)
                    shutil.copy(src, target / src.name)
        elif word == "RUN" and args.startswith("pip install"):
            installs.append(shlex.split(args))
    assert installs, "the Dockerfile installs the package with pip"
    assert env_vars["DAME_NATURE_PORT"] == "8000" and env_vars["DAME_NATURE_DB"].startswith(
        "/data/"
    )

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    for command in installs:
        # the same pip install; dependencies come from this machine's site-packages
        subprocess.run(
            [sys.executable, "-m", "pip", "--python", str(python), *command[1:],
             "--no-deps", "--quiet"],
            cwd=app, check=True, env={**clean_env(), **env_vars},
        )  # fmt: skip
    assert (env_dir / "bin" / "dame-nature").exists()

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run_env = {**clean_env(), **env_vars, "PATH": f"{env_dir / 'bin'}:{os.environ['PATH']}",
               "DAME_NATURE_HOST": "127.0.0.1", "DAME_NATURE_PORT": str(port),
               "DAME_NATURE_DB": str(tmp_path / "data" / "dame-nature.sqlite3")}  # fmt: skip
    (tmp_path / "data").mkdir()
    server = subprocess.Popen(exec_form(dict(steps)["CMD"]), cwd=tmp_path, env=run_env)
    try:
        for _ in range(300):
            assert server.poll() is None, "the server exited"
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.1)
        health = dict(steps)["HEALTHCHECK"]
        check = exec_form(health[health.index("CMD") + 3 :].strip())
        check[0] = str(python) if check[0] == "python" else check[0]
        assert subprocess.run(check, env=run_env, timeout=30).returncode == 0
        assert httpx.get(f"http://127.0.0.1:{port}/healthz").json()["status"] == "ok"
        assert_serves_ui(f"http://127.0.0.1:{port}")
        # the installed package really is the one serving (not the working tree)
        where = subprocess.run(
            [str(python), "-c", "import dame_nature; print(dame_nature.__file__)"],
            capture_output=True, text=True, check=True, env=run_env, cwd=tmp_path,
        ).stdout  # fmt: skip
        assert str(env_dir) in where
    finally:
        server.terminate()
        server.wait(10)
    assert (tmp_path / "data" / "dame-nature.sqlite3").exists()
