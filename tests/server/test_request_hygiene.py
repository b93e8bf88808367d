"""What a careful server does with the small things: a seat token written with an
escaped character never reaches the log, names are counted and checked as a person sees
them, a request head over the documented 16 KiB is refused, answers that carry a secret
are not cached, and ``/healthz`` says when the store cannot write."""

from __future__ import annotations

import os
import shutil
import socket
import stat
import subprocess
import time
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from benchmarks._support.live_server import ServerProcess


def test_an_escaped_token_parameter_never_reaches_the_log(make_api, tmp_path):
    log = tmp_path / "server.log"
    server = ServerProcess(tmp_path / "rooms.sqlite3", log_level="info", log_file=log).start()
    try:
        api = make_api(server)
        table = api.table(players=3, seed=15)
        room, tokens = table["room"], table["tokens"]
        for name in ("tok%65n", "%74oken", "TOKEN", "to%6Ben"):
            with connect(f"{server.ws_url}/api/rooms/{room}/ws?{name}={tokens[0]}") as ws:
                ws.recv(timeout=10)
            api.http.get(f"/api/rooms/{room}/state?{name}={tokens[1]}")
    finally:
        server.stop()
    text = log.read_text()
    assert "WebSocket /api/rooms/" in text and "[redacted]" in text
    for token in tokens:
        assert token not in text


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("a" + "\u0301" * 300, "combining"),  # one letter under 300 accents
        ("Z\u0351\u0352\u0353\u0354\u0355\u0356\u0357", "combining"),  # zalgo
        ("\u3164", "visible"),  # Hangul filler: looks blank
        ("\u2800\u2800", "visible"),  # Braille blank
        ("\u3164Ada", "invisible"),
        ("Ada\u200b", "invisible"),  # zero-width space
        ("A\u200dda", "invisible"),  # a joiner between letters
        ("Ada\U000e0041\U000e0042", "invisible"),  # tag characters
        ("\u200fAda", "control"),  # right-to-left mark
        ("\u061cAda", "control"),  # Arabic letter mark
        ("Ada\u00ad", "invisible"),  # soft hyphen
        ("\ufeffAda", "invisible"),  # byte order mark
        ("界" * 31, "wide"),  # 31 characters, 62 columns
    ],
    ids=lambda value: value if value.isascii() and value.isalpha() else None,
)
def test_names_that_look_blank_or_overflow_are_refused(api, name, why):
    table = api.table(players=0, start=False)
    r = api.join(table["room"], name)
    assert r.status_code == 422, (name, r.text)
    assert why in r.json()["error"]["message"], r.text


@pytest.mark.parametrize(
    "name",
    [
        "Zoé",
        "Nguyễn Thị Ánh",  # Vietnamese: stacked marks
        "क्षत्रिय",  # Devanagari
        "محمد",
        "🧑\u200d🌾 Farmer",
        "🏴\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f",  # England's flag
        "👩🏽\u200d💻",
        "🇫🇷 Léa",
        "a" * 40,
        "界" * 30,
    ],
    ids=lambda value: None,
)
def test_names_people_write_are_accepted(api, name):
    table = api.table(players=0, start=False)
    r = api.join(table["room"], name)
    assert r.status_code == 201, (name, r.text)


def raw_request(port: int, head: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(head)
        received = b""
        while b"\r\n\r\n" not in received:
            chunk = s.recv(65536)
            if not chunk:
                break
            received += chunk
        return received


def test_a_request_head_over_16_kib_is_refused(server):
    filler = b"x" * 8000
    small = b"GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: " + filler + b"\r\n\r\n"
    assert raw_request(server.port, small).startswith(b"HTTP/1.1 200")
    big = (
        b"GET /healthz HTTP/1.1\r\nHost: a\r\n"
        + b"".join(b"X-%d: " % i + filler + b"\r\n" for i in range(7))
        + b"\r\n"
    )
    assert len(big) > 50_000
    assert raw_request(server.port, big).startswith(b"HTTP/1.1 431")


def test_answers_holding_a_secret_are_not_stored_by_caches(api):
    created = api.create()
    assert created.status_code == 201
    assert created.headers["cache-control"] == "no-store"
    room = created.json()["room"]
    joined = api.join(room, "Ada")
    assert joined.headers["cache-control"] == "no-store"
    token = joined.json()["token"]
    seat = api.state(room, token)
    assert seat.headers["cache-control"] == "no-store"


def immutable(paths: list[Path], on: bool) -> None:
    """Make files unwritable even for root (``chattr +i``), or writable again."""
    for path in paths:
        if os.geteuid() == 0:
            subprocess.run(["chattr", "+i" if on else "-i", str(path)], check=True)
        else:
            path.chmod(stat.S_IRUSR if on else stat.S_IRUSR | stat.S_IWUSR)


def health_until(url: str, status: int) -> httpx.Response:
    """``/healthz`` until it answers ``status`` (10 s at most)."""
    deadline = time.monotonic() + 10
    while True:
        r = httpx.get(url + "/healthz", timeout=20)
        if r.status_code == status or time.monotonic() > deadline:
            assert r.status_code == status, r.text
            return r
        time.sleep(0.1)


def test_healthz_reports_a_store_that_cannot_write(tmp_path):
    if os.geteuid() == 0 and shutil.which("chattr") is None:
        pytest.skip("chattr is needed to make a file unwritable for root")
    db = tmp_path / "rooms.sqlite3"
    server = ServerProcess(db).start()
    files = [db, db.with_name("rooms.sqlite3-wal")]
    try:
        assert httpx.get(server.url + "/healthz").status_code == 200
        immutable(files, True)
        try:  # the store is probed once a second at most
            r = health_until(server.url, 503)
            assert r.json()["error"]["code"] == "store_unavailable"
        finally:
            immutable(files, False)
        health_until(server.url, 200)
    finally:
        server.stop()
