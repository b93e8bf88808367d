"""The wheel serves every page: build it from a copy of the repository, install it in a
fresh virtual environment, run ``dame-nature serve`` from somewhere else and fetch the
pages and static files (templates and static files must ship as package data).

The build backend (setuptools, wheel) comes from the package index as for any ``pip
install .`` (as ``test_dockerfile.py``); the venv sees the machine's site-packages for the
dependencies (``--no-deps``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import httpx

from tests.live_server import free_port, wait_healthy

ROOT = Path(__file__).resolve().parents[2]
IGNORE = shutil.ignore_patterns(
    ".git", ".venv*", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache",
    ".mypy_cache", ".ruff_cache", "*.sqlite3*", "tests", "benchmarks", "*.png",
)  # fmt: skip


def test_the_wheel_installed_in_a_fresh_venv_serves_pages_and_static_files(tmp_path):
    source = tmp_path / "source"
    shutil.copytree(ROOT, source, ignore=IGNORE)
    dist = tmp_path / "dist"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH" and "DAME_NATURE" not in k}
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps",
         "--quiet", "-w", str(dist), str(source)],
        check=True, env=env, timeout=300,
    )  # fmt: skip
    (wheel,) = dist.glob("dame_nature-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    for needed in ("templates/room.html", "static/css/app.css", "static/js/home.js",
                   "data/cards.json"):  # fmt: skip
        assert any(n.endswith(needed) for n in names), f"the wheel lacks {needed}"

    env_dir = tmp_path / "venv"
    venv.EnvBuilder(system_site_packages=True, with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps",
         "--quiet", str(wheel)],
        check=True, env=env, timeout=300,
    )  # fmt: skip
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = subprocess.run(
        [str(python), "-c", "import dame_nature; print(dame_nature.__file__)"],
        capture_output=True, text=True, check=True, env=env, cwd=elsewhere,
    ).stdout  # fmt: skip
    assert str(env_dir) in where, "the installed wheel is the package imported"

    port = free_port()
    server = subprocess.Popen(
        [str(env_dir / "bin" / "dame-nature"), "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(elsewhere / "dn.sqlite3"), "--log-level", "warning"],
        cwd=elsewhere, env=env, stdout=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, server)  # type: ignore[arg-type]
        home = httpx.get(url + "/")
        assert home.status_code == 200 and "create-form" in home.text
        room = httpx.post(url + "/api/rooms", json={}).json()
        page = httpx.get(url + room["url"])
        assert page.status_code == 200 and room["room"] in page.text
        for static in ("/static/css/app.css", "/static/js/home.js", "/static/js/cards.js"):
            answer = httpx.get(url + static)
            assert answer.status_code == 200 and answer.content, static
        scripts = [line for line in page.text.splitlines() if 'src="/static/' in line]
        for line in scripts:  # every script the room page loads is in the wheel
            path = line.split('src="', 1)[1].split('"', 1)[0]
            assert httpx.get(url + path).status_code == 200, path
    finally:
        server.terminate()
        server.wait(10)
