"""The pieces of turn notifications, each against a real counterpart on loopback: a
Web Push sent to a push-service stand-in that checks its VAPID signature and decrypts it
with the subscription's keys (RFC 8291); a mail sent to an ``aiosmtpd`` server with its
one-click unsubscribe; the VAPID key made once and kept with the data; a seat's opt-ins
(replaced, bounded, removed, each notice claimed once)."""

from __future__ import annotations

import asyncio
import contextlib
import email
import socket
import threading
import time
from email import policy
from typing import Any

import pytest

from benchmarks._support.live_server import free_port
from dame_nature.server.notify import keys, mail, push, subscriptions
from dame_nature.server.settings import Settings
from dame_nature.server.store import open_store
from tests.push_service import PushService

aiosmtpd = pytest.importorskip("aiosmtpd.controller")


@pytest.fixture
def push_service() -> Any:
    service = PushService().start()
    yield service
    service.stop()


class Inbox:
    def __init__(self) -> None:
        self.mails: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        self.mails.append(email.message_from_bytes(envelope.content, policy=policy.default))
        return "250 OK"


@pytest.fixture
def smtp() -> Any:
    inbox = Inbox()
    controller = aiosmtpd.Controller(inbox, hostname="127.0.0.1", port=free_port())
    controller.start()
    inbox.port = controller.port  # type: ignore[attr-defined]
    yield inbox
    controller.stop()


def test_a_push_is_signed_encrypted_and_decrypted_by_the_push_service(push_service) -> None:
    store = open_store(":memory:")
    key = keys.stored_key(store)
    first, second = push_service.subscription(), push_service.subscription()
    payload = {"title": "Dame Nature: your turn", "body": "é 🌿", "url": "/r/abc"}
    subject = "mailto:admin@example.org"
    asyncio.run(push.send(first, payload, key, subject, allow_private=True))
    asyncio.run(push.send(second, {**payload, "url": "/r/def"}, key, subject, allow_private=True))
    got = push_service.wait(2)
    assert [m["url"] for m in got] == ["/r/abc", "/r/def"]
    assert got[0]["body"] == "é 🌿"
    push_service.status = 410  # the browser dropped the subscription
    with pytest.raises(push.Gone):
        asyncio.run(push.send(first, payload, key, subject, allow_private=True))


def test_a_push_never_goes_to_a_private_address(push_service) -> None:
    """An endpoint whose name or address leads to loopback (or any address that is not
    public) is not connected to: the server posts to no service of its own network."""
    key = keys.stored_key(open_store(":memory:"))
    device = push_service.subscription()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.setblocking(False)
    port = listener.getsockname()[1]
    with listener:
        for host in ("localhost", "127.0.0.1", "2130706433", "127.1"):
            sub = {**device, "endpoint": f"https://{host}:{port}/push/x"}
            with pytest.raises(OSError):
                asyncio.run(push.send(sub, {"title": "t"}, key, "mailto:admin@example.org"))
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody connected
    assert not push_service.received


def test_a_push_service_answering_without_end_is_read_no_further(push_service) -> None:
    """A push service (the subscription names it) that answers a body without end: the
    server reads ``MAX_ANSWER_BYTES`` of it and gives up, its memory untouched (it read
    gigabytes before, for as long as the service kept sending)."""
    key = keys.stored_key(open_store(":memory:"))
    listener = socket.create_server(("127.0.0.1", 0))
    sent = []

    def answer_without_end() -> None:
        conn, _ = listener.accept()
        with conn:
            while b"\r\n\r\n" not in conn.recv(65536):
                pass
            head = b"HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n"
            conn.sendall(head)
            chunk = b"100000\r\n" + b"x" * 0x100000 + b"\r\n"  # 1 MiB a chunk
            total, deadline = 0, time.monotonic() + 5
            with contextlib.suppress(OSError):  # the server closed its end
                while time.monotonic() < deadline:
                    conn.sendall(chunk)
                    total += len(chunk)
            sent.append(total)

    service = threading.Thread(target=answer_without_end)
    service.start()
    sub = {
        **push_service.subscription(),
        "endpoint": f"http://127.0.0.1:{listener.getsockname()[1]}/x",
    }
    with listener, pytest.raises(OSError, match="too large"):
        asyncio.run(push.send(sub, {"title": "t"}, key, "mailto:a@example.org", allow_private=True))
    service.join()
    assert sent[0] < 32 * 0x100000, sent  # what the sockets' buffers took, at most


def test_subscriptions_are_checked() -> None:
    good = {"endpoint": "https://push.example.org/x", "keys": {"p256dh": "a", "auth": "b"}}
    push.check_subscription(good)
    for bad in (
        {**good, "endpoint": "http://push.example.org/x"},
        {**good, "endpoint": "javascript:alert(1)"},
        {**good, "endpoint": 3},
        {**good, "keys": {"p256dh": "a"}},
        {"endpoint": good["endpoint"]},
    ):
        with pytest.raises(ValueError):
            push.check_subscription(bad)
    push.check_subscription({**good, "endpoint": "https://8.8.8.8/x"})
    for host in (
        "127.0.0.1", "[::1]", "localhost", "api.localhost", "10.0.0.1", "192.168.1.1",
        "169.254.169.254", "100.64.0.1", "0.0.0.0", "[fe80::1]", "[::ffff:127.0.0.1]",
        "2130706433", "0x7f.1", "127.1", "224.0.0.1",
    ):  # fmt: skip
        with pytest.raises(ValueError, match="not a public address"):
            push.check_subscription({**good, "endpoint": f"https://{host}:8443/x"})
    push.check_subscription({**good, "endpoint": "http://127.0.0.1:9/x"}, allow_http=True)


def test_the_vapid_key_is_made_once_and_kept_with_the_data(tmp_path) -> None:
    path = str(tmp_path / "rooms.sqlite3")
    first = keys.public_key(keys.stored_key(open_store(path)))
    again = keys.public_key(keys.stored_key(open_store(path)))
    assert first == again and len(keys.b64url(b"x")) == 2
    other = keys.public_key(keys.stored_key(open_store(":memory:")))
    assert other != first
    pem = keys.stored_key(open_store(path)).private_pem().decode()
    assert keys.public_key(keys.load_key(pem)) == first  # as given by a setting


def test_opt_ins_of_a_seat(tmp_path) -> None:
    store = open_store(":memory:")
    store.create_room("room1", "host", {"modes": []}, now=1.0)
    store.create_room("room2", "host", {"modes": []}, now=1.0)
    mail_id = subscriptions.add(store, "room1", 0, "email", {"address": "a@x.org", "base": ""})
    subscriptions.add(store, "room1", 0, "email", {"address": "b@x.org", "base": ""})
    devices = [{"endpoint": f"https://p.example/{i}", "keys": {}} for i in range(7)]
    for device in devices + devices[:1]:  # the same device twice is kept once
        subscriptions.add(store, "room1", 0, "push", device)
    subscriptions.add(store, "room1", 1, "push", devices[0])
    rows = subscriptions.of_room(store, "room1")
    mine = [r for r in rows if r["seat"] == 0]
    assert [r["target"]["address"] for r in mine if r["kind"] == "email"] == ["b@x.org"]
    pushes = [r["target"]["endpoint"] for r in mine if r["kind"] == "push"]
    assert len(pushes) == subscriptions.MAX_PUSH_PER_SEAT and devices[0]["endpoint"] in pushes
    assert not subscriptions.remove(store, mail_id)  # replaced: its link does nothing
    ident = next(r["id"] for r in mine if r["kind"] == "email")
    assert subscriptions.mark_sent(store, ident, "1:3")
    assert not subscriptions.mark_sent(store, ident, "1:3")  # once per wait
    assert subscriptions.mark_sent(store, ident, "1:4")
    assert subscriptions.remove(store, ident)
    assert subscriptions.remove_seat(store, "room1", 0, "push") == 5
    assert [r["seat"] for r in subscriptions.of_room(store, "room1")] == [1]
    store.delete_rooms(["room1"])  # deleted with their room
    assert subscriptions.of_room(store, "room1") == []


def test_a_mail_has_a_one_click_unsubscribe(smtp) -> None:
    settings = Settings(
        db=":memory:", smtp_host="127.0.0.1", smtp_port=smtp.port, smtp_starttls=False,
        smtp_from="Dame Nature <dn@example.org>",
    )  # fmt: skip
    link = "https://dn.example.org/api/notifications/abc/unsubscribe"
    message = mail.message(settings, "ada@example.org", "Your turn", "The table waits.", link)
    asyncio.run(mail.send(settings, message))
    (got,) = smtp.mails
    assert got["To"] == "ada@example.org" and got["Subject"] == "Your turn"
    assert got["List-Unsubscribe"] == f"<{link}>"
    assert got["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in got.get_content()
    assert mail.check_address(" ada@example.org ") == "ada@example.org"
    for bad in ("ada", "ada@", "a b@x.org", "<a@x.org>", "a@x", "a@x.org\r\nBcc: e@x.org"):
        with pytest.raises(ValueError):
            mail.check_address(bad)
