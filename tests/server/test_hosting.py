"""Hosting for friends: ``--public-url`` / ``DAME_NATURE_PUBLIC_URL`` for invite links, the
addresses printed at start-up (the LAN address when listening on every interface)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import httpx
import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from benchmarks._support.live_server import free_port, wait_healthy
from dame_nature.__main__ import banner
from dame_nature.server import addresses
from dame_nature.server.addresses import lan_addresses, share_urls
from dame_nature.server.app import create_app
from dame_nature.server.settings import Settings


def test_public_url_from_the_environment_kept_without_its_final_slash(monkeypatch):
    monkeypatch.setenv("DAME_NATURE_PUBLIC_URL", "https://dn.example.org/games/")
    assert Settings().public_url == "https://dn.example.org/games"
    monkeypatch.setenv("DAME_NATURE_PUBLIC_URL", "")
    assert Settings().public_url is None


@pytest.mark.parametrize(
    "bad", ["dn.example.org", "ftp://dn.example.org", "https://", "http://x.org/?a=1"]
)
def test_a_public_url_that_is_not_an_absolute_http_url_is_refused(bad):
    with pytest.raises(ValidationError):
        Settings(public_url=bad)


def test_the_command_line_refuses_a_bad_public_url_with_a_sentence():
    done = subprocess.run(
        [sys.executable, "-m", "dame_nature", "serve", "--public-url", "dn.example.org"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "http:// or https://" in done.stderr


def test_lan_addresses_are_never_loopback_or_link_local():
    for address in lan_addresses(ipv6=True):
        assert not address.startswith(("127.", "::1", "fe80", "169.254."))


def test_banner_on_loopback_says_only_this_computer_and_how_to_open_it_to_friends():
    text = banner(Settings(host="127.0.0.1", port=8123), lan=["192.168.1.20"])
    assert "http://127.0.0.1:8123" in text
    assert "192.168.1.20" not in text
    assert "--host 0.0.0.0" in text


def test_banner_on_every_interface_lists_the_lan_addresses():
    text = banner(Settings(host="0.0.0.0", port=8000), lan=["192.168.1.20", "10.0.0.7"])
    assert "this computer:  http://127.0.0.1:8000" in text
    assert "your network:   http://192.168.1.20:8000" in text
    assert "your network:   http://10.0.0.7:8000" in text
    ipv6 = share_urls("::", 8000, None, lan=["fd00::2"])
    assert ipv6 == [
        ("this computer", "http://[::1]:8000"),
        ("your network", "http://[fd00::2]:8000"),
    ]


def test_banner_names_the_public_url_for_invite_links():
    text = banner(Settings(host="0.0.0.0", public_url="https://dn.example.org"), lan=[])
    assert "invite links:   https://dn.example.org" in text


def _invite_base(client: TestClient) -> str:
    html = client.get("/r/SomeRoomCode").text
    found = re.search(r'data-invite-base="([^"]*)"', html)
    assert found, "the room page carries the invite base"
    return found.group(1)


def test_page_opened_on_localhost_of_a_server_on_every_interface_invites_to_the_lan(
    monkeypatch, tmp_path
):
    monkeypatch.setattr(addresses, "cached_lan_addresses", lambda ipv6=False: ["192.168.1.20"])
    app = create_app(Settings(host="0.0.0.0", port=8000, db=str(tmp_path / "a.sqlite3")))
    assert _invite_base(TestClient(app, base_url="http://localhost:8000")) == (
        "http://192.168.1.20:8000"
    )
    # opened at the LAN address already: the page's own address is right (empty base)
    assert _invite_base(TestClient(app, base_url="http://192.168.1.20:8000")) == ""
    # listening on loopback only: no friend could use a LAN link
    local = create_app(Settings(host="127.0.0.1", db=str(tmp_path / "b.sqlite3")))
    assert _invite_base(TestClient(local, base_url="http://127.0.0.1:8000")) == ""


def test_a_real_server_with_a_public_url_prints_it_and_invites_with_it(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("DAME_NATURE_")}
    env["DAME_NATURE_PUBLIC_URL"] = "https://from-the-environment.example.org"
    proc = subprocess.Popen(  # the command-line flag wins over the environment
        [sys.executable, "-m", "dame_nature", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--db", str(tmp_path / "dn.sqlite3"), "--log-level", "warning",
         "--public-url", "https://dn.example.org/play/"],
        env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    try:
        url = f"http://127.0.0.1:{port}"
        wait_healthy(url, proc)  # type: ignore[arg-type]
        html = httpx.get(f"{url}/r/AbCdEf").text
        assert 'data-invite-base="https://dn.example.org/play"' in html
    finally:
        proc.terminate()
        out, _ = proc.communicate(timeout=10)
    assert f"this computer:  http://127.0.0.1:{port}" in out
    assert "invite links:   https://dn.example.org/play" in out
    assert out.index("Dame Nature Online") < out.index("invite links")


@pytest.mark.parametrize(
    "opened_at",
    [
        "http://localhost",  # through nginx, whose Host header ($host) has no port
        "http://localhost:8080",  # a forwarded port (docker run -p 8080:8000), a tunnel
    ],
)
def test_a_page_opened_through_a_proxy_or_another_port_invites_to_its_own_address(
    tmp_path, opened_at
):
    """The LAN address of a server on every interface is only where friends reach it
    when the page was opened on the server's own port: through a proxy or a forwarded
    port, a link to the node's own address and port would bypass the proxy."""
    if not lan_addresses():
        pytest.skip("this machine has no LAN address")
    app = create_app(Settings(host="0.0.0.0", port=8000, db=str(tmp_path / "a.sqlite3")))
    assert _invite_base(TestClient(app, base_url=opened_at)) == ""
    assert _invite_base(TestClient(app, base_url="http://localhost:8000")).endswith(":8000")
