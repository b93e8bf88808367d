"""The wheel and the editable install serve the whole browser UI.

``templates/`` and ``static/`` live at the repository's top level; the wheel must carry
them inside the package, and an editable install must find them in the checkout. Each
test installs the project into a fresh virtualenv (dependencies from this machine's
site-packages, ``--no-deps``; pip may fetch the build backend from the package index)
and fetches the pages and static files from its ``dame-nature serve``.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

from tests.installed import assert_serves_ui, clean_env, make_venv, pip_install, serving, where

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_ships_and_serves_the_ui(tmp_path):
    env = clean_env(DAME_NATURE_DB=str(tmp_path / "wheel.sqlite3"))
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--quiet",
         "-w", str(tmp_path / "dist")],
        check=True, env=env, cwd=tmp_path,
    )  # fmt: skip
    (wheel,) = (tmp_path / "dist").glob("dame_nature-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for path in ("templates/room.html", "static/js/room.js", "static/css/app.css",
                 "data/cards.json"):  # fmt: skip
        assert f"dame_nature/{path}" in names

    python = make_venv(tmp_path / "venv")
    pip_install(python, str(wheel), cwd=tmp_path, env=env)
    static = where(python, "dame_nature.server.assets.STATIC_DIR", tmp_path, env)
    assert static.startswith(str(tmp_path / "venv")), static
    with serving([str(tmp_path / "venv" / "bin" / "dame-nature"), "serve"], tmp_path, env) as url:
        assert_serves_ui(url)


def test_an_editable_install_serves_the_ui_from_the_checkout(tmp_path):
    env = clean_env(DAME_NATURE_DB=str(tmp_path / "editable.sqlite3"))
    python = make_venv(tmp_path / "venv")
    pip_install(python, "-e", str(ROOT), cwd=tmp_path, env=env)
    static = where(python, "dame_nature.server.assets.STATIC_DIR", tmp_path, env)
    assert static == str(ROOT / "static"), static
    with serving([str(python), "-m", "dame_nature", "serve"], tmp_path, env) as url:
        assert_serves_ui(url)
