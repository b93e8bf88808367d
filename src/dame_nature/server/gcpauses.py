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
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Iterable
from typing import Any

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

GENERATIONS = (0, 1, 2)


class CollectorPauses(Collector):
    """A ``gc.callbacks`` entry counting and timing the collector's passes (a pass holds
    the interpreter's lock: passes never overlap, whatever thread runs them)."""

    def __init__(self) -> None:
        self.passes = [0 for _ in GENERATIONS]
        self.seconds = [0.0 for _ in GENERATIONS]
        self.cpu_seconds = [0.0 for _ in GENERATIONS]
        self.longest = [0.0 for _ in GENERATIONS]
        self.longest_cpu = [0.0 for _ in GENERATIONS]
        self._started = 0.0
        self._started_cpu = 0.0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            self._started_cpu = time.thread_time()
            return
        pause = time.perf_counter() - self._started
        cpu = time.thread_time() - self._started_cpu
        generation = info["generation"]
        self.passes[generation] += 1
        self.seconds[generation] += pause
        self.cpu_seconds[generation] += cpu
        self.longest[generation] = max(self.longest[generation], pause)
        self.longest_cpu[generation] = max(self.longest_cpu[generation], cpu)

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
