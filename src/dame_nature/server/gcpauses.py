"""The cyclic collector's pauses, measured with ``gc.callbacks`` when
``DAME_NATURE_GC_PAUSE_STATS`` is on (off by default): passes, their total time and the
longest, by generation, in ``GET /metrics`` and in a log line when the server stops.

A pass stops the whole process (every room's broadcasts wait), so its longest pause is
a floor under the tail latency; ``benchmarks/server_load.py`` reads these figures. The
longest pass is also given in CPU time (the thread's own work): on a machine whose
other processes take the CPU, a pass's wall time also counts the time it waited for
one, its CPU time is what the pass costs on a free core.

>>> pauses = CollectorPauses()
>>> pauses("start", {"generation": 2}); pauses("stop", {"generation": 2})
>>> pauses.passes
[0, 0, 1]
>>> sorted(f.name.removeprefix("dame_nature_gc_") for f in pauses.collect())
... # doctest: +NORMALIZE_WHITESPACE
['passes', 'pause_cpu_seconds', 'pause_longest_cpu_seconds', 'pause_longest_seconds',
 'pause_seconds']

When ``DAME_NATURE_GC_CENSUS`` names a file (off by default; for benchmarks: it costs a
walk of the young objects at every pass, outside the timed pause), each young and middle
pass also appends a line of JSON to it: the objects of the generations it collects, by
shape (``shape``), counted at its start, and how many it found to be garbage (the rest
survived, to the next generation).

>>> shape({"seat": 0, "action": {}}), shape([1, "a"]), shape(("a",) * 7)
('dict action,seat', 'list of 2: int,str', 'tuple of 7: str,str,str')
"""

from __future__ import annotations

import collections
import contextlib
import gc
import json
import os
import time
import types
from collections.abc import Iterable
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

GENERATIONS = (0, 1, 2)

#: the census's file, if any (``CollectorPauses``)
CENSUS_ENV = "DAME_NATURE_GC_CENSUS"

#: the shapes a census line keeps, most numerous first
CENSUS_SHAPES = 80

#: the objects a census names by their qualified name as well as their type
NAMED = (
    types.FunctionType,
    types.MethodType,
    types.CoroutineType,
    types.GeneratorType,
    types.AsyncGeneratorType,
    types.BuiltinFunctionType,
)


def shape(obj: object) -> str:
    """What ``obj`` is, for a census: its type (with its module when not a builtin); for
    a dict, its first five keys, sorted; for a list or a tuple, its length and the types
    of its first three items; for a function, a coroutine or a generator, its qualified
    name. It reads nothing an object defines itself (no ``__getattr__``, no ``__str__``
    but a dict key's)."""
    kind = type(obj)
    if kind is dict:
        try:
            return "dict " + ",".join(sorted(map(str, obj))[:5])  # type: ignore[call-overload]
        except Exception:  # a key's own ``__str__`` failed
            return "dict"
    if kind is list or kind is tuple:
        # through the collector (which lists the items last first): a tuple being built
        # may not have all its items yet
        items = gc.get_referents(obj)
        items.reverse()
        inner = ",".join(type(x).__name__ for x in items[:3])
        return f"{kind.__name__} of {len(items)}: {inner}"
    name = kind.__qualname__
    if kind.__module__ != "builtins":
        name = f"{kind.__module__}.{name}"
    if isinstance(obj, NAMED):
        name = f"{name} {obj.__qualname__}"
    return name


class CollectorPauses(Collector):
    """A ``gc.callbacks`` entry counting and timing the collector's passes (a pass holds
    the interpreter's lock: passes never overlap, whatever thread runs them)."""

    def __init__(self, census: str | None = None) -> None:
        #: the census's file (``CENSUS_ENV``), None: no census
        self.census = census if census is not None else os.environ.get(CENSUS_ENV) or None
        self._shapes: collections.Counter[str] = collections.Counter()
        self._walked = 0
        self.passes = [0 for _ in GENERATIONS]
        self.seconds = [0.0 for _ in GENERATIONS]
        self.cpu_seconds = [0.0 for _ in GENERATIONS]
        self.longest = [0.0 for _ in GENERATIONS]
        self.longest_cpu = [0.0 for _ in GENERATIONS]
        self._started = 0.0
        self._started_cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        generation = info["generation"]
        if phase == "start":
            try:
                if self.census is not None and generation < 2:
                    self._count(generation)
            finally:  # the pass is timed whatever the census met
                self._started = time.perf_counter()
                self._started_cpu = time.thread_time()
            return
        pause = time.perf_counter() - self._started
        cpu = time.thread_time() - self._started_cpu
        self.passes[generation] += 1
        self.seconds[generation] += pause
        self.cpu_seconds[generation] += cpu
        self.longest[generation] = max(self.longest[generation], pause)
        self.longest_cpu[generation] = max(self.longest_cpu[generation], cpu)
        if self.census is not None and generation < 2:
            self._write(generation, info["collected"], cpu)

    def _count(self, generation: int) -> None:
        self._shapes.clear()
        self._walked = 0
        for g in range(generation + 1):
            objects = gc.get_objects(g)
            self._walked += len(objects)
            self._shapes.update(map(shape, objects))
            del objects

    def _write(self, generation: int, collected: int, cpu: float) -> None:
        line = {
            "generation": generation,
            "at": time.monotonic(),
            "cpu_ms": round(cpu * 1000, 3),
            "walked": self._walked,
            "collected": collected,
            "shapes": self._shapes.most_common(CENSUS_SHAPES),
        }
        assert self.census is not None
        with open(self.census, "a", encoding="utf-8") as out:
            out.write(json.dumps(line) + "\n")
        self._shapes.clear()

    def install(self) -> None:
        gc.callbacks.append(self)

    def remove(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self)

    def summary(self) -> str:
        return "; ".join(
            f"generation {g}: {self.passes[g]} passes, {self.seconds[g] * 1000:.1f} ms in "
            f"all, longest {self.longest[g] * 1000:.2f} ms ({self.longest_cpu[g] * 1000:.2f} ms "
            "of CPU)"
            for g in GENERATIONS
        )

    def collect(self) -> Iterable[CounterMetricFamily | GaugeMetricFamily]:
        passes = CounterMetricFamily(
            "dame_nature_gc_passes", "The cyclic collector's passes", labels=["generation"]
        )
        seconds = CounterMetricFamily(
            "dame_nature_gc_pause_seconds",
            "Time the cyclic collector held the process",
            labels=["generation"],
        )
        cpu_seconds = CounterMetricFamily(
            "dame_nature_gc_pause_cpu_seconds",
            "CPU time of the cyclic collector's passes",
            labels=["generation"],
        )
        longest = GaugeMetricFamily(
            "dame_nature_gc_pause_longest_seconds",
            "The cyclic collector's longest pass since the server started",
            labels=["generation"],
        )
        longest_cpu = GaugeMetricFamily(
            "dame_nature_gc_pause_longest_cpu_seconds",
            "The cyclic collector's longest pass since the server started, in CPU time",
            labels=["generation"],
        )
        for g in GENERATIONS:
            passes.add_metric([str(g)], self.passes[g])
            seconds.add_metric([str(g)], self.seconds[g])
            cpu_seconds.add_metric([str(g)], self.cpu_seconds[g])
            longest.add_metric([str(g)], self.longest[g])
            longest_cpu.add_metric([str(g)], self.longest_cpu[g])
        return [passes, seconds, cpu_seconds, longest, longest_cpu]
