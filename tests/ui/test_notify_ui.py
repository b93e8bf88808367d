"""The installable app and the turn-notice opt-in, in Chromium: the manifest and the
service worker load without a console error; a seated player opts in from the Alerts
dialog (the browser's own push service is out of reach without the internet, so its
``pushManager.subscribe`` hands over a subscription of the push-service stand-in on
loopback); once the page is closed and the table waits for them, the stand-in receives
the server's push and decrypts it."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from dn_ui import create_room, take_seat
from playwright.sync_api import expect

from benchmarks._support.live_server import ServerProcess
from tests.push_service import PushService

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def push_server(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[tuple[ServerProcess, PushService]]:
    service = PushService().start()
    env = {"DAME_NATURE_PUSH_ALLOW_HTTP": "true"}
    server = ServerProcess(tmp_path_factory.mktemp("notify-ui") / "rooms.sqlite3", env).start()
    yield server, service
    server.stop()
    service.stop()


def test_the_app_installs_and_a_closed_page_is_told_its_turn(open_page, push_server) -> None:
    server, service = push_server
    device = service.subscription()
    page = open_page(base_url=server.url)
    page.context.grant_permissions(["notifications"], origin=server.url)
    page.add_init_script(
        "PushManager.prototype.getSubscription = async () => null;"
        "PushManager.prototype.subscribe = async () => "
        f"({{ toJSON: () => ({json.dumps(device)}) }});"
    )
    code = create_room(page)
    manifest = page.evaluate(
        "async () => (await fetch(document.querySelector('link[rel=manifest]').href)).json()"
    )
    assert manifest["start_url"] == "/" and {i["sizes"] for i in manifest["icons"]} >= {
        "192x192",
        "512x512",
    }
    page.wait_for_function("navigator.serviceWorker.ready.then(() => true)")
    take_seat(page, "Ada")
    page.click("#alerts-btn")
    expect(page.locator("#notify-box")).to_be_visible()
    page.check("#notify-push")
    expect(page.locator("#notify-status")).to_contain_text("This device will be told")
    page.click("#alerts-close")
    for name in ("Bo", "Cy"):
        assert (
            httpx.post(f"{server.url}/api/rooms/{code}/players", json={"name": name}).status_code
            == 201
        )
    page.click("#start-btn")
    expect(page.locator("#game-view")).to_be_visible()
    assert not service.received  # the page is open and visible
    page.context.close()  # Ada closes the page: the table waits for her
    (notice,) = service.wait(1)
    assert notice["url"] == f"/r/{code}" and "turn 1" in notice["body"]
