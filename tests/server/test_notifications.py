"""Told when it is your turn, with the page closed: a real server sends Web Push to a
push-service stand-in on loopback (which checks VAPID and decrypts, RFC 8291) and mail to
an ``aiosmtpd`` server on loopback: within seconds of the table waiting for the seat, at
most one per turn, none while the seat's page is visible, none after opting out; the
mail's one-click unsubscribe works; bad opt-ins are refused and change nothing."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest

from benchmarks._support.live_server import ServerProcess, free_port
from tests.push_service import PushService
from tests.server.test_bots import code
from tests.server.test_notify_modules import Inbox

aiosmtpd = pytest.importorskip("aiosmtpd.controller")


@pytest.fixture(scope="module")
def services(tmp_path_factory: pytest.TempPathFactory) -> Any:
    pushes = PushService().start()
    inbox = Inbox()
    smtp = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=free_port())
    smtp.start()
    env = {
        "DAME_NATURE_PUSH_ALLOW_HTTP": "true",
        "DAME_NATURE_SMTP_HOST": "127.0.0.1",
        "DAME_NATURE_SMTP_PORT": str(smtp.port),
        "DAME_NATURE_SMTP_STARTTLS": "false",
        "DAME_NATURE_VAPID_SUBJECT": "mailto:admin@example.org",
        "DAME_NATURE_PUBLIC_URL": "https://dn.example.org",
    }
    server = ServerProcess(tmp_path_factory.mktemp("notify") / "rooms.sqlite3", env).start()
    yield server, pushes, inbox
    server.stop()
    smtp.stop()
    pushes.stop()


@pytest.fixture
def api(services: Any, make_api: Any) -> Any:
    return make_api(services[0])


def opt_in(api: Any, room: str, token: str | None, **body: Any) -> Any:
    return api.http.post(f"/api/rooms/{room}/notifications", headers=api.auth(token), json=body)


def of_device(pushes: PushService, sub: dict[str, Any]) -> list[dict[str, Any]]:
    device = sub["endpoint"].rsplit("/", 1)[-1]
    return [m for m in pushes.received if m["device"] == device]


def wait_until(check: Any, what: str, timeout: float = 20.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def play_turn(api: Any, table: dict[str, Any]) -> None:
    """Play until the next turn starts (or the game ends)."""
    turn = api.state(table["room"]).json()["turn"]
    while True:
        spectator = api.state(table["room"]).json()
        if spectator["phase"] == "over" or spectator["turn"] > turn:
            return
        stepped = api.step(table)
        assert stepped is not None and stepped[2].status_code == 200, stepped


def test_a_push_and_a_mail_when_the_table_waits_for_a_closed_page(api, services) -> None:
    _, pushes, inbox = services
    info = api.http.get("/api/notifications").json()
    assert info["email"] is True and len(info["push_key"]) == 87  # a P-256 point, base64url
    table = api.table(players=3, start=False, seed=11)
    room, tokens = table["room"], table["tokens"]
    ada_device, bo_device = pushes.subscription(), pushes.subscription()
    assert opt_in(api, room, tokens[0], push=ada_device).status_code == 201
    assert opt_in(api, room, tokens[0], email="ada@example.org").status_code == 201
    assert opt_in(api, room, tokens[1], push=bo_device).status_code == 201
    mails_before = len(inbox.mails)

    with api.socket(room, tokens[0]) as ada:
        ada.send({"type": "visibility", "visible": True})
        ada.receive_type("state")
        assert api.start(room, table["host"]).status_code == 200
        # turn 1 waits for everyone: Bo (no page open) is told, Ada (visible) is not
        wait_until(lambda: of_device(pushes, bo_device), "Bo's push")
        assert of_device(pushes, bo_device)[0]["url"] == f"/r/{room}"
        # the notice task that told Bo skipped Ada's visible page
        assert not of_device(pushes, ada_device) and len(inbox.mails) == mails_before
        ada.send({"type": "visibility", "visible": False})  # Ada's tab goes to the back
        # the table still waits for her: her hidden page is told by push and mail
        wait_until(lambda: of_device(pushes, ada_device), "Ada's push")
        wait_until(lambda: len(inbox.mails) > mails_before, "Ada's mail")
        play_turn(api, table)
        # turn 2: told once more, each of them
        wait_until(lambda: len(of_device(pushes, ada_device)) == 2, "Ada's second push")
        wait_until(lambda: len(of_device(pushes, bo_device)) == 2, "Bo's second push")
        wait_until(lambda: len(inbox.mails) == mails_before + 2, "Ada's second mail")
    for device in (ada_device, bo_device):  # at most one per turn
        assert ["turn 1;" in m["body"] for m in of_device(pushes, device)] == [True, False]
    mail = inbox.mails[-1]
    assert mail["To"] == "ada@example.org"
    unsubscribe = mail["List-Unsubscribe"].strip("<>")
    assert unsubscribe in mail.get_content() and room in mail.get_content()

    # Ada opts out of push; her mail's one-click link stops the mails
    opted_out = api.http.delete(
        f"/api/rooms/{room}/notifications?kind=push", headers=api.auth(tokens[0])
    )
    assert opted_out.status_code == 204
    path = unsubscribe.split("://", 1)[1].split("/", 1)[1]
    assert "No more mails" in api.http.post(f"/{path}").text
    assert "no mails" in api.http.get(f"/{path}").text  # a second click: nothing left
    play_turn(api, table)
    wait_until(lambda: len(of_device(pushes, bo_device)) == 3, "Bo's third push")
    assert len(of_device(pushes, ada_device)) == 2 and len(inbox.mails) == mails_before + 2
    assert not pushes.refused


def test_bad_opt_ins_are_refused(api, services) -> None:
    table = api.table(players=3, start=False)
    room, token = table["room"], table["tokens"][0]
    device = services[1].subscription()
    other_room = api.table(players=3, start=False)["tokens"][0]
    assert code(opt_in(api, room, None, push=device)) == (401, "missing_token")
    assert code(opt_in(api, room, other_room, push=device)) == (401, "invalid_token")
    assert code(opt_in(api, room, table["host"], push=device)) == (401, "invalid_token")
    assert opt_in(api, room, token).status_code == 422
    assert opt_in(api, room, token, push=device, email="a@example.org").status_code == 422
    assert opt_in(api, room, token, push={"endpoint": device["endpoint"]}).status_code == 422
    bad_endpoint = {**device, "endpoint": "file:///etc/passwd"}
    assert code(opt_in(api, room, token, push=bad_endpoint)) == (422, "invalid_subscription")
    assert code(opt_in(api, room, token, email="not an address")) == (422, "invalid_address")
    assert code(opt_in(api, "nosuchroom1234", token, push=device)) == (404, "room_not_found")
    gone = api.http.get("/api/notifications/" + "x" * 32 + "/unsubscribe")
    assert gone.status_code == 200 and "no mails" in gone.text
    assert api.http.get("/api/notifications/bad/unsubscribe").status_code == 422


def test_a_push_endpoint_on_the_servers_own_network_is_refused(server, make_api) -> None:
    """Without the tests' stand-in setting, an endpoint is a public host: loopback,
    private networks, link-local (cloud metadata) and their odd spellings are refused."""
    api = make_api(server)
    table = api.table(players=3, start=False)
    room, token = table["room"], table["tokens"][0]
    keys = {"p256dh": "BNcRdreALRFXTkOOUHK1EtK2wtaz5Ry4YfYCA_0QTpQtUbVlUls0VJXg7A8u", "auth": "x"}
    for endpoint in (
        "https://127.0.0.1/x", "https://[::1]:443/x", "https://localhost:22/x",
        "https://169.254.169.254/latest", "https://10.0.0.1/x", "https://2130706433/x",
    ):  # fmt: skip
        refused = opt_in(api, room, token, push={"endpoint": endpoint, "keys": keys})
        assert code(refused) == (422, "invalid_subscription"), endpoint
        assert "not a public address" in refused.json()["error"]["message"]
    public = {"endpoint": "https://push.example.org/x", "keys": keys}
    assert opt_in(api, room, token, push=public).status_code == 201


def test_no_mail_without_the_servers_public_address(tmp_path) -> None:
    """A mail's links must start with the host's own address: without
    ``DAME_NATURE_PUBLIC_URL`` they could only come from the opt-in's ``Host`` header,
    which the client chooses (a mail to anyone, linking to a site of the sender's
    choosing). Such a server offers no mail, whatever its SMTP settings."""
    env = {"DAME_NATURE_SMTP_HOST": "127.0.0.1", "DAME_NATURE_SMTP_PORT": str(free_port())}
    server = ServerProcess(tmp_path / "rooms.sqlite3", env).start()
    try:
        with httpx.Client(base_url=server.url, timeout=30) as http:
            assert http.get("/api/notifications").json()["email"] is False
            room = http.post("/api/rooms", json={}).json()
            seat = http.post(
                f"/api/rooms/{room['room']}/players",
                headers={"Authorization": f"Bearer {room['host_token']}"},
                json={"name": "Ada"},
            ).json()
            refused = http.post(
                f"/api/rooms/{room['room']}/notifications",
                headers={"Authorization": f"Bearer {seat['token']}", "Host": "evil.example"},
                json={"email": "stranger@example.org"},
            )
            assert code(refused) == (409, "email_unavailable")
    finally:
        server.stop()
