"""``metrics.PlainHistogram`` and ``metrics.PlainCounter`` show for ``/metrics`` exactly
what prometheus_client's ``Histogram`` and ``Counter`` show for the same observations,
byte for byte but for the moment each was made (its ``_created`` samples)."""

from __future__ import annotations

import random
import re

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest

from dame_nature.server.metrics import FAST_BUCKETS, Metrics, PlainCounter, PlainHistogram

CREATED = re.compile(rb"(_created(\{[^}]*\})?) \S+\n")


def rendered(registry: CollectorRegistry) -> bytes:
    return CREATED.sub(rb"\1 T\n", generate_latest(registry))


def test_the_same_text_as_prometheus_clients_histogram() -> None:
    rng = random.Random(22)
    theirs, ours = CollectorRegistry(auto_describe=True), CollectorRegistry(auto_describe=True)
    name, doc = "dame_nature_store_write_seconds", "One stored change (the commit)"
    reference = Histogram(name, doc, buckets=FAST_BUCKETS, registry=theirs)
    plain = PlainHistogram(name, doc, FAST_BUCKETS, ours)
    assert rendered(theirs) == rendered(ours)  # nothing observed yet
    # every bound itself, just above and below it, zero, negatives, past the last bound
    values = [0.0, -1.0, 7.5, 1e9, *FAST_BUCKETS]
    values += [b * (1 + d) for b in FAST_BUCKETS for d in (1e-12, -1e-12)]
    values += [rng.expovariate(500.0) for _ in range(5_000)]
    for value in values:
        reference.observe(value)
        plain.observe(value)
    assert rendered(theirs) == rendered(ours)
    assert b"_created T\n" in rendered(ours)


def test_the_same_text_as_prometheus_clients_counter() -> None:
    rng = random.Random(22)
    theirs, ours = CollectorRegistry(auto_describe=True), CollectorRegistry(auto_describe=True)
    name, doc = "dame_nature_actions", "Game actions applied and stored (people and bots)"
    reference = Counter(name, doc, ["by"], registry=theirs)
    plain = PlainCounter(name, doc, ["by"], ours)
    assert rendered(theirs) == rendered(ours)  # no child yet
    for _ in range(2_000):
        by = rng.choice(["person", "bot", "stand-in"])
        reference.labels(by=by).inc()
        plain.labels(by=by).inc()
        assert rendered(theirs) == rendered(ours)
    assert b'dame_nature_actions_created{by="bot"} T\n' in rendered(ours)


def test_the_servers_metrics_keep_their_families_and_order() -> None:
    """The families of ``/metrics`` in the order prometheus_client's histograms gave (a
    family with labels and no child yet shows no ``_created``)."""
    metrics = Metrics()
    metrics.person_acted(0.0)
    metrics.store_write.observe(0.0002)
    names = re.findall(rb"^# TYPE (\S+) ", metrics.render(), re.M)
    assert [name.decode().removeprefix("dame_nature_") for name in names] == [
        "games_started_total",
        "games_finished_total",
        "actions_total",
        "actions_created",
        "action_latency_seconds",
        "action_latency_seconds_created",
        "store_write_seconds",
        "store_write_seconds_created",
        "bot_decision_seconds",
        "bot_queue_ahead",
        "outbox_drops_total",
        "outbox_drops_created",
        "refusals_total",
    ]
    assert b'dame_nature_store_write_seconds_bucket{le="0.0005"} 1.0\n' in metrics.render()
