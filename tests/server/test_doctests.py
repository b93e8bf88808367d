"""The doctests of the server modules (the default test paths collect only the engine's)."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "settings",
    "store",
    "store.base",
    "store.sql",
    "store.games",
    "store.records",
    "models",
    "rooms",
    "connections",
    "campaign",
    "errors",
    "jsonio",
    "app",
    "deps",
    "addresses",
    "routes.rooms",
    "routes.ws",
    "ratelimit",
    "metrics",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name):
    module = importlib.import_module(f"dame_nature.server.{name}")
    failed, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failed == 0
