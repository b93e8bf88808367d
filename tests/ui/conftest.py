"""Fixtures of the browser tests: a real uvicorn server (temp SQLite file) and headless
Chromium (``/usr/bin/chromium``, never a downloaded build) driven by sync Playwright.

Every page opened through ``open_page`` records console errors and uncaught exceptions;
the test fails at teardown if there were any.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from benchmarks._support.live_server import ServerProcess as UiServer

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip

try:
    import playwright.sync_api  # noqa: F401

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover
    HAVE_PLAYWRIGHT = False

if not HAVE_PLAYWRIGHT:  # pragma: no cover
    # nothing here can even be imported (the doctest collection imports every module)
    collect_ignore_glob = ["*.py"]


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/ui/" in str(item.fspath).replace(os.sep, "/"):
            item.add_marker(pytest.mark.browser)
            if not Path(CHROMIUM).exists():  # pragma: no cover
                item.add_marker(pytest.mark.skip(reason=f"{CHROMIUM} is missing"))


@pytest.fixture(scope="session")
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UiServer]:
    server = UiServer(tmp_path_factory.mktemp("ui") / "rooms.sqlite3").start()
    yield server
    server.stop()


class SharedChromium:
    """The one Chromium that consecutive browser tests share (launched by the first, kept
    while the next test uses it too); each test still opens its own contexts.

    Playwright's sync API runs an event loop in this thread while it is open, so it is
    closed (after the test's own fixtures) as soon as the next test is not a browser
    test: later tests (which call ``asyncio.run``) stay free to run in any order."""

    def __init__(self) -> None:
        self.playwright: Any = None
        self.browser: Any = None

    def get(self) -> Any:
        if self.browser is not None and not self.browser.is_connected():
            self.close()  # it crashed or a test closed it: a new one
        if self.browser is None:
            from playwright.sync_api import sync_playwright

            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS
            )
        return self.browser

    def close(self) -> None:
        browser, self.browser = self.browser, None
        playwright, self.playwright = self.playwright, None
        try:
            if browser is not None and browser.is_connected():
                browser.close()
        finally:
            if playwright is not None:
                playwright.stop()


CHROMIUM_SHARED = SharedChromium()


@pytest.fixture
def browser() -> Any:
    """Chromium, shared with the browser tests just before and after this one."""
    if not Path(CHROMIUM).exists():  # pragma: no cover
        pytest.skip(f"{CHROMIUM} is missing")
    return CHROMIUM_SHARED.get()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> Any:
    try:
        return (yield)  # the test's fixtures first (its contexts are closed there)
    finally:
        if nextitem is None or "browser" not in getattr(nextitem, "fixturenames", ()):
            CHROMIUM_SHARED.close()


class PageOpener:
    """``open_page(viewport=None, **context_options)``: a page in a fresh browser context
    (its own localStorage, like another person's laptop), watched for console errors.
    ``open_page.allow(pattern)`` tolerates console errors matching a regex (for the
    network errors Chromium logs on purpose while a test kills the server)."""

    def __init__(self, browser: Any, base_url: str) -> None:
        self.browser = browser
        self.base_url = base_url
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def _console(self, message: Any) -> None:
        if message.type == "error":
            self.errors.append(f"console error: {message.text}")

    def __call__(self, viewport: dict[str, int] | None = None, **options: Any) -> Any:
        options = {"viewport": viewport or {"width": 1280, "height": 900},
                   "base_url": self.base_url, **options}  # fmt: skip
        ctx = self.browser.new_context(**options)
        ctx.set_default_timeout(15_000)
        self.contexts.append(ctx)
        page = ctx.new_page()
        page.on("console", self._console)
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        return page

    def unexpected_errors(self) -> list[str]:
        return [e for e in self.errors if not any(p.search(e) for p in self.allowed)]


@pytest.fixture
def open_page(browser: Any, ui_server: UiServer) -> Iterator[PageOpener]:
    opener = PageOpener(browser, ui_server.url)
    yield opener
    for ctx in opener.contexts:
        ctx.close()
    errors = opener.unexpected_errors()
    assert not errors, "errors in the browser console:\n" + "\n".join(errors)
