"""The examples of ``docs/api.md`` run as written against a real server: the ``curl``
session (bash, curl, jq) and the Python bot (three of them play a game to its end)."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

DOC = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text(encoding="utf-8")


def block(after: str, language: str) -> str:
    start = DOC.index(after)
    found = re.search(rf"```{language}\n(.*?)```", DOC[start:], re.S)
    assert found, f"a {language} block after {after!r}"
    return found.group(1)


@pytest.mark.skipif(not (shutil.which("curl") and shutil.which("jq")), reason="curl and jq")
def test_the_curl_session_runs_as_written(server):
    script = block("A complete session with `curl`", "sh")
    script = script.replace("http://127.0.0.1:8000", server.url)
    done = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert re.search(r'"room":"[\w-]{16}","url":"/r/[\w-]{16}","host_token"', out), out
    assert '"status":"playing"' in out
    assert '"phase":"programming"' in out and '"seat":null' in out
    assert '"not_programmed"' in out  # the refusal the session shows
    assert '"game_not_over"' in out  # the replay before the end
    assert "unsupported_media_type" not in out and "invalid_json" not in out


def test_the_python_bot_plays_a_game_to_its_end(server, capsys):
    namespace: dict[str, Any] = {}
    exec(block("The same seat live, in Python", "python"), namespace)  # defines bot()
    with httpx.Client(base_url=server.url, timeout=20) as http:
        room = http.post("/api/rooms", json={"seed": 4}).json()
        tokens = [
            http.post(f"/api/rooms/{room['room']}/players", json={"name": n}).json()["token"]
            for n in ("Ada", "Bo", "Cy")
        ]
        headers = {"Authorization": f"Bearer {room['host_token']}"}
        assert http.post(f"/api/rooms/{room['room']}/start", headers=headers).status_code == 200

    async def play() -> None:
        bots = [namespace["bot"](room["room"], t, server.ws_url) for t in tokens]
        await asyncio.wait_for(asyncio.gather(*bots), timeout=120)

    asyncio.run(play())
    printed = capsys.readouterr().out
    assert printed.count("result: {'outcome'") == 3, printed
