"""The long sweeps of the bots' tests, shared by worker processes (one a core, two at
most: CI's machine has two) so that a sweep takes half the time; what each game checks
is the same as in one process, and a failure in a worker fails the test with its
traceback."""

from __future__ import annotations

import importlib.util
import inspect
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from functools import partial
from types import ModuleType
from typing import Any, TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


def in_workers(
    function: Callable[[Sequence[Item]], Result], items: Sequence[Item], workers: int = 2
) -> list[Result]:
    """``function`` of every ``workers``-th item, each share in a process of its own.

    ``function`` is a module-level function of a test file: the workers are started
    fresh (``spawn``, none of the test process's threads or state) and load that file
    themselves (pytest names test modules in a way a new process cannot import)."""
    workers = max(1, min(workers, os.cpu_count() or 1, len(items)))
    shares = [items[w::workers] for w in range(workers)]
    run = partial(_call, inspect.getfile(function), function.__name__)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        return list(pool.map(run, shares))


#: the test files a worker loaded, by path (a worker may be handed two shares)
_loaded: dict[str, ModuleType] = {}


def _call(path: str, name: str, share: Sequence[Any]) -> Any:
    module = _loaded.get(path)
    if module is None:
        spec = importlib.util.spec_from_file_location(f"worker_{name}", path)
        assert spec is not None and spec.loader is not None
        module = _loaded[path] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return getattr(module, name)(share)
