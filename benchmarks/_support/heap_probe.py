"""Runs ``python -m dame_nature ARGS`` with a heap probe for the soak benchmark: on each
``SIGUSR2`` the server process appends one JSON line to ``$DAME_NATURE_HEAP_PROBE``
saying where its memory is, so that a growing RSS can be told apart as Python objects,
Python's allocator, the C allocator or SQLite:

- ``rss_mib``; ``blocks``: the Python allocator's blocks in use
  (``sys.getallocatedblocks()``); ``pymalloc_arenas``: its arenas (1 MiB each on
  64-bit) held (from ``sys._debugmallocstats()``; not while ``tracemalloc`` runs);
- ``objects``: the objects the cyclic collector tracks, before and after a full pass
  (``unreachable``: what that pass found, cyclic garbage awaiting its pass), and the
  ``types`` most numerous after it, and every type of the server's own (by name);
- ``held``: the entries and the memory (KiB, everything they reach) of the server's
  registries and caches (``HELD``: the rooms, the reviews kept and under way, the
  per-seat rates ...), and the rooms by status;
- ``malloc``: glibc's ``mallinfo2()`` (``arena``: the heap obtained by ``brk``,
  ``in_use``, ``free`` in it, ``mmap``: the chunks mapped alone), in bytes;
- ``sqlite_bytes``: ``sqlite3_memory_used()`` (every connection's page cache and
  statements), ``threads``;
- with ``$DAME_NATURE_HEAP_PROBE_FRAMES`` (a number of frames), ``tracemalloc`` runs
  from the first probe on, and each line from the second adds ``traced`` (bytes) and
  ``grown``: the tracebacks whose memory grew most since the second probe.

A benchmark's tool, not the server's: the server itself knows nothing of it.

    DAME_NATURE_HEAP_PROBE=/tmp/heap.jsonl python benchmarks/_support/heap_probe.py serve ...
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import ctypes.util
import gc
import json
import os
import re
import runpy
import signal
import subprocess
import sys
import tempfile
import threading
import time
import tracemalloc
import types
from collections import Counter
from pathlib import Path
from typing import Any

_first: tracemalloc.Snapshot | None = None
#: the frames tracemalloc keeps: it starts at the first probe (tracing the start-up's
#: imports would take minutes), its first snapshot is at the second
FRAMES = int(os.environ.get("DAME_NATURE_HEAP_PROBE_FRAMES") or 0)


class _Mallinfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )  # fmt: skip
    ]


def _libc() -> Any:
    with contextlib.suppress(OSError):
        return ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    return None


def _sqlite() -> Any:
    with contextlib.suppress(OSError):
        return ctypes.CDLL(ctypes.util.find_library("sqlite3") or "libsqlite3.so.0")
    return None


LIBC, SQLITE = _libc(), _sqlite()


def malloc_info() -> dict[str, int]:
    if LIBC is None or not hasattr(LIBC, "mallinfo2"):
        return {}
    LIBC.mallinfo2.restype = _Mallinfo2
    info = LIBC.mallinfo2()
    return {"arena": info.arena, "in_use": info.uordblks, "free": info.fordblks,
            "mmap": info.hblkhd}  # fmt: skip


def sqlite_bytes() -> int | None:
    if SQLITE is None:
        return None
    SQLITE.sqlite3_memory_used.restype = ctypes.c_int64
    return int(SQLITE.sqlite3_memory_used())


def pymalloc_arenas() -> int | None:
    """The arenas Python's allocator holds now (``sys._debugmallocstats()`` writes to
    the C standard error, read back through a temporary file)."""
    sys.stderr.flush()
    with tempfile.TemporaryFile("w+") as out:
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        found = re.search(r"# arenas allocated current\s*=\s*([\d,]+)", out.read())
    return int(found.group(1).replace(",", "")) if found else None


def rss_mib() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


OWN = "dame_nature."
#: the server's registries and caches whose entries and memory (KiB, or None: their
#: entries only) each line gives, as paths from the app (objects made at start-up are
#: frozen out of ``gc.get_objects()``: the app is found on the main thread's stack)
HELD = {
    "rooms": ("state.manager.registry.rooms", True),
    "rooms_created_by_address": ("state.manager.registry._created", True),
    "reviews_done": ("state.manager.reviews._done", True),
    "reviews_under_way": ("state.manager.reviews._running", True),
    "hub_rooms": ("state.manager.hub._rooms", False),  # its sockets reach all of uvicorn
    "seat_rates": ("state.manager.rates._buckets", True),
    "hints": ("state.manager.hints._buckets", True),
    "rate_limit_keys": ("state.rate_limiter.local", True),  # ``LocalLimiter``: its keys
    "sockets_by_address": ("state.socket_guard.open", True),
}
#: what a deep size never walks into (shared by everything)
SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType)


def deep_size(root: object, stop: set[int]) -> int:
    """The bytes of ``root`` and everything it reaches, each object once (classes,
    modules and functions left out, and the objects of ``stop``: the shared services)."""
    seen = set(stop)
    seen.discard(id(root))
    stack = [root]
    total = 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, SHARED):
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        stack.extend(gc.get_referents(obj))
    return total


def _app(frame: types.FrameType | None) -> Any:
    """The app served on the main thread (``uvicorn.run(app)``)."""
    while frame is not None:
        app = frame.f_locals.get("app")
        if getattr(getattr(app, "state", None), "manager", None) is not None:
            return app
        frame = frame.f_back
    return None


def held(frame: types.FrameType | None) -> dict[str, Any]:
    """Each of ``HELD``: its entries and its deep size in KiB; and the rooms by status."""
    app = _app(frame)
    if app is None:
        return {}
    manager = app.state.manager
    found: dict[str, Any] = {}
    # the services and the event loop, reached from the tasks' frames and the locks
    services = [app, manager, *vars(manager).values()]
    with contextlib.suppress(RuntimeError):  # the handler runs inside the loop
        services.append(asyncio.get_running_loop())
    for service in list(services):
        services += vars(service).values() if hasattr(service, "__dict__") else []
    stop = {id(o) for o in services if not isinstance(o, dict | list | set)}
    for name, (path, sized) in HELD.items():
        obj = app
        for attribute in path.split("."):
            obj = getattr(obj, attribute, None)
        if obj is not None:
            size = round(deep_size(obj, stop) / 1024, 1) if sized else None
            found[name] = [len(obj), size]
    found["rooms_by_status"] = manager.registry.count_by_status()
    return found


def _short(filename: str) -> str:
    """A traceback's file from its package on (``dame_nature/...``, ``json/...``)."""
    return re.sub(r"^.*/(site-packages|python3\.\d+|src)/", "", filename)


def probe(frame: types.FrameType | None = None) -> dict[str, Any]:
    global _first
    started = time.perf_counter()
    before = len(gc.get_objects())
    unreachable = gc.collect()
    objects = gc.get_objects()
    counts = Counter(type(o) for o in objects)
    by_type = {t.__qualname__: n for t, n in counts.most_common(25)}
    # and every type of the server's own, however few
    by_type.update({t.__qualname__: n for t, n in counts.items() if t.__module__.startswith(OWN)})
    after = len(objects)
    del objects
    line: dict[str, Any] = {
        "time": time.time(),
        "rss_mib": rss_mib(),
        "blocks": sys.getallocatedblocks(),
        "pymalloc_arenas": pymalloc_arenas(),
        "objects": before,
        "unreachable": unreachable,
        "objects_after": after,
        "types": by_type,
        "held": held(frame),
        "malloc": malloc_info(),
        "sqlite_bytes": sqlite_bytes(),
        "threads": threading.active_count(),
    }
    if FRAMES and not tracemalloc.is_tracing():
        tracemalloc.start(FRAMES)
    elif tracemalloc.is_tracing():
        snapshot = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(False, tracemalloc.__file__)]
        )
        line["traced"] = tracemalloc.get_traced_memory()[0]
        if _first is None:
            _first = snapshot
        else:
            grown = snapshot.compare_to(_first, "traceback")[:12]
            line["grown"] = [
                {
                    "kib": round(s.size_diff / 1024, 1),
                    "count": s.count_diff,
                    "where": [f"{_short(f.filename)}:{f.lineno}" for f in s.traceback][-8:],
                }
                for s in grown
            ]
    line["probe_seconds"] = time.perf_counter() - started
    return line


def ask(proc: subprocess.Popen[bytes], path: Path, timeout: float = 120) -> dict[str, Any]:
    """Ask the server process ``proc`` for a line (``SIGUSR2``) and wait until it wrote it
    whole to ``path``; the line."""
    seen = len(path.read_text().splitlines()) if path.exists() else 0
    proc.send_signal(signal.SIGUSR2)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = path.read_text() if path.exists() else ""
        lines = text.splitlines()
        if len(lines) > seen and text.endswith("\n"):
            line: dict[str, Any] = json.loads(lines[-1])
            return line
        time.sleep(0.05)  # polling the file for the line
    raise RuntimeError("the server did not answer the heap probe")


def install(path: str) -> None:
    def handler(_signum: int, frame: types.FrameType | None) -> None:
        line = probe(frame)
        with open(path, "a") as out:
            out.write(json.dumps(line) + "\n")

    signal.signal(signal.SIGUSR2, handler)


if __name__ == "__main__":
    install(os.environ["DAME_NATURE_HEAP_PROBE"])
    del sys.path[0]  # this folder: its modules are the benchmarks', not the server's
    sys.argv = ["dame_nature", *sys.argv[1:]]
    runpy.run_module("dame_nature", run_name="__main__", alter_sys=True)
