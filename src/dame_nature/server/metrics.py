"""The server's own figures in Prometheus's format, for ``GET /metrics``.

Off unless ``DAME_NATURE_METRICS_TOKEN`` is set (then the route answers only a request
carrying ``Authorization: Bearer <that token>``). Each node counts its own: in a cluster,
Prometheus scrapes every node (``deploy/prometheus.yml``). Every figure lives in one
``Metrics`` object a server owns (its own registry, never the process-wide default), so
that several apps in one process (the tests) do not mix their counts.

Gauges that describe the present (rooms by status, connected sockets) are read at scrape
time from callbacks the server registers, so they can never drift from the truth.

>>> m = Metrics()
>>> m.refused("not_your_turn"); m.refused("not_your_turn")
>>> b'dame_nature_refusals_total{code="not_your_turn"} 2.0' in m.render()
True
"""

from __future__ import annotations

import os
import time
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Sample,
)
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString

#: latencies of the server's own work: sub-millisecond to a few seconds
FAST_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
#: a bot's thinking: milliseconds to its think budget
BOT_BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

#: decisions served ahead of a waiting one: none to a crowd of rooms
QUEUE_BUCKETS = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500)


#: whether prometheus_client shows a ``_created`` sample for each histogram and counter (its own
#: environment setting, read as it reads it)
SHOW_CREATED = os.environ.get("PROMETHEUS_DISABLE_CREATED_SERIES", "False").lower() not in (
    "true",
    "1",
    "t",
)


class PlainHistogram(Collector):
    """A histogram without labels, shown for ``/metrics`` exactly as prometheus_client's
    ``Histogram`` shows one (its buckets, ``_count``, ``_sum``, ``_created``), whose
    ``observe`` is a search of the bounds and two additions: no lock (the event loop's
    thread alone observes it) and no exemplar. prometheus_client's ``observe`` takes a
    lock for the sum, then walks the bounds and takes another for the bucket's count,
    about 0.5 µs; this one about 0.15 µs (``bisect`` finds the first bound at or above
    the value, the bucket prometheus_client's walk stops at).

    >>> r = CollectorRegistry()
    >>> h = PlainHistogram("took_seconds", "How long", (0.5, 1.0), r)
    >>> for seconds in (0.2, 0.5, 0.7, 3.0):
    ...     h.observe(seconds)
    >>> [line for line in generate_latest(r).decode().splitlines() if "created" not in line]
    ... # doctest: +NORMALIZE_WHITESPACE
    ['# HELP took_seconds How long', '# TYPE took_seconds histogram',
     'took_seconds_bucket{le="0.5"} 2.0', 'took_seconds_bucket{le="1.0"} 3.0',
     'took_seconds_bucket{le="+Inf"} 4.0', 'took_seconds_count 4.0', 'took_seconds_sum 4.4']
    """

    def __init__(
        self, name: str, documentation: str, buckets: Sequence[float], registry: CollectorRegistry
    ) -> None:
        self.name = name
        self.documentation = documentation
        bounds = [float(b) for b in buckets]
        if bounds[-1] != float("inf"):
            bounds.append(float("inf"))
        self._bounds = tuple(bounds)
        self._les = tuple(floatToGoString(b) for b in bounds)
        #: each bucket's own count (not cumulative), as prometheus_client keeps them
        self._counts = [0] * len(bounds)
        self._sum = 0.0
        self._created = time.time()
        registry.register(self)

    def observe(self, amount: float) -> None:
        self._counts[bisect_left(self._bounds, amount)] += 1
        self._sum += amount

    def describe(self) -> Iterable[HistogramMetricFamily]:
        return [HistogramMetricFamily(self.name, self.documentation, labels=())]

    def collect(self) -> Iterable[HistogramMetricFamily]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=())
        total = 0.0
        buckets = []
        for le, count in zip(self._les, self._counts, strict=True):
            total += count
            buckets.append((le, total))
        family.add_metric((), buckets, self._sum)
        if SHOW_CREATED:
            family.samples.append(Sample(self.name + "_created", {}, self._created, None, None))
        yield family


class PlainCounter(Collector):
    """A counter with labels, shown for ``/metrics`` exactly as prometheus_client's
    ``Counter`` shows one (each child's ``_total`` and ``_created``, the children in the
    order they were first asked for), whose children count with one addition: no lock
    (the event loop's thread alone counts) and no exemplar.

    >>> r = CollectorRegistry()
    >>> c = PlainCounter("moves", "Moves made", ["by"], r)
    >>> c.labels(by="person").inc(); c.labels(by="bot").inc(); c.labels(by="person").inc()
    >>> [line for line in generate_latest(r).decode().splitlines() if "created" not in line]
    ['# HELP moves_total Moves made', '# TYPE moves_total counter', \
'moves_total{by="person"} 2.0', 'moves_total{by="bot"} 1.0']
    """

    def __init__(
        self, name: str, documentation: str, labelnames: Sequence[str], registry: CollectorRegistry
    ) -> None:
        self.name = name
        self.documentation = documentation
        self.labelnames = tuple(labelnames)
        self._children: dict[tuple[str, ...], _Count] = {}
        registry.register(self)

    def labels(self, **values: str) -> _Count:
        key = tuple(str(values[name]) for name in self.labelnames)
        child = self._children.get(key)
        if child is None:
            child = self._children[key] = _Count()
        return child

    def describe(self) -> Iterable[CounterMetricFamily]:
        return [CounterMetricFamily(self.name, self.documentation, labels=self.labelnames)]

    def collect(self) -> Iterable[CounterMetricFamily]:
        family = CounterMetricFamily(self.name, self.documentation, labels=self.labelnames)
        for key, child in self._children.items():
            family.add_metric(key, child.value, child.created if SHOW_CREATED else None)
        yield family


class _Count:
    """One child of a ``PlainCounter``: its count, and when it was made."""

    __slots__ = ("value", "created")

    def __init__(self) -> None:
        self.value = 0.0
        self.created = time.time()

    def inc(self, amount: float = 1.0) -> None:
        self.value += amount


class _Present(Collector):
    """Gauges read from the server when scraped."""

    def __init__(
        self,
        rooms: Callable[[], Mapping[str, int]],
        sockets: Callable[[], Mapping[str, int]],
    ) -> None:
        self.rooms = rooms
        self.sockets = sockets

    def collect(self) -> Iterable[GaugeMetricFamily]:
        rooms = GaugeMetricFamily(
            "dame_nature_rooms", "Rooms this node holds in memory, by status", labels=["status"]
        )
        for status, count in sorted(self.rooms().items()):
            rooms.add_metric([status], count)
        yield rooms
        sockets = GaugeMetricFamily(
            "dame_nature_sockets",
            "Websockets open on this node: seats (players and their bots' stand-ins are "
            "not sockets) and spectators",
            labels=["kind"],
        )
        for kind, count in sorted(self.sockets().items()):
            sockets.add_metric([kind], count)
        yield sockets


class Metrics:
    """One server's counters and histograms, and what it renders for ``/metrics``."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        self.games_started = Counter(
            "dame_nature_games_started", "Games dealt", ["players"], registry=r
        )
        self.games_finished = Counter(
            "dame_nature_games_finished",
            "Games over, won or lost",
            ["players", "result"],
            registry=r,
        )
        #: counted at every action: a ``PlainCounter``, shown as a ``Counter`` is
        self.actions = PlainCounter(
            "dame_nature_actions", "Game actions applied and stored (people and bots)", ["by"], r
        )
        #: the people's count of ``actions`` (its child, found once)
        self._person_actions = self.actions.labels(by="person")
        #: observed at every action: ``PlainHistogram``s, shown as ``Histogram``s are
        self.action_latency = PlainHistogram(
            "dame_nature_action_latency_seconds",
            "From an action's arrival to every seat's new view handed to its socket",
            FAST_BUCKETS,
            r,
        )
        self.store_write = PlainHistogram(
            "dame_nature_store_write_seconds", "One stored change (the commit)", FAST_BUCKETS, r
        )
        self.bot_decision = Histogram(
            "dame_nature_bot_decision_seconds",
            "A bot's thinking over one decision",
            ["level"],
            buckets=BOT_BUCKETS,
            registry=r,
        )
        self.bot_queue = Histogram(
            "dame_nature_bot_queue_ahead",
            "Other decisions given a bot worker while a bot's decision waited for it, by "
            "whether a person waited for that decision (person) or only bots (bots)",
            ["waiting"],
            buckets=QUEUE_BUCKETS,
            registry=r,
        )
        self.outbox_drops = Counter(
            "dame_nature_outbox_drops",
            "Websockets closed because they did not read their messages (outbox full)",
            registry=r,
        )
        self.refusals = Counter(
            "dame_nature_refusals",
            "Requests and messages refused, by error code",
            ["code"],
            registry=r,
        )

    def watch(
        self,
        rooms: Callable[[], Mapping[str, int]],
        sockets: Callable[[], Mapping[str, int]],
    ) -> None:
        """Register the callbacks that count rooms by status and open sockets by kind."""
        self.registry.register(_Present(rooms, sockets))

    def person_acted(self, started: float) -> None:
        """A person's action applied, which arrived at ``started`` (``time.perf_counter()``):
        counted, and timed until now, every seat's view handed to its socket (a call
        rather than a context manager around the action: no generator and no context
        object an action)."""
        self.action_latency.observe(time.perf_counter() - started)
        self._person_actions.inc()

    def bot_decided(self, level: str, seconds: float) -> None:
        self.bot_decision.labels(level=level).observe(seconds)

    def bot_queued(self, person_waiting: bool, ahead: int) -> None:
        self.bot_queue.labels(waiting="person" if person_waiting else "bots").observe(ahead)

    def refused(self, code: str) -> None:
        self.refusals.labels(code=code).inc()

    def game_over(self, players: int, won: bool) -> None:
        self.games_finished.labels(players=str(players), result="won" if won else "lost").inc()

    def render(self) -> bytes:
        return generate_latest(self.registry)
