"""``GET /metrics``: absent without its setting, refused without its token, and figures
that move as a game is played, read back with prometheus-client's own parser, against a
real server process."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from benchmarks._support.live_server import ServerProcess
from tests.server.conftest import Api

TOKEN = "metrics-token-for-the-tests"


@pytest.fixture
def scraped(server_factory: Any) -> Iterator[tuple[Api, Any]]:
    server: ServerProcess = server_factory({"DAME_NATURE_METRICS_TOKEN": TOKEN}).start()
    with httpx.Client(base_url=server.url, timeout=20) as http:

        def scrape() -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
            answer = http.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
            assert answer.status_code == 200, answer.text
            assert answer.headers["content-type"].startswith("text/plain")
            return {
                (sample.name, tuple(sorted(sample.labels.items()))): sample.value
                for family in text_string_to_metric_families(answer.text)
                for sample in family.samples
            }

        yield Api(http, server.ws_url), scrape


def test_metrics_move_as_a_game_is_played(scraped: tuple[Api, Any]) -> None:
    api, scrape = scraped
    before = scrape()
    assert before[("dame_nature_sockets", (("kind", "seat"),))] == 0
    table = api.table(players=3, seed=8)
    with api.socket(table["room"], table["tokens"][0]) as ws:
        ws.receive_type("state")
        during = scrape()
        assert during[("dame_nature_sockets", (("kind", "seat"),))] == 1
        assert during[("dame_nature_rooms", (("status", "playing"),))] == 1
        assert during[("dame_nature_games_started_total", (("players", "3"),))] == 1
        refused = api.act(table["room"], table["tokens"][0], {"type": "end_game"})
        assert refused.status_code == 409
        code = refused.json()["error"]["code"]
        over = api.play_out(table)
    after = scrape()
    outcome = "won" if over["result"]["outcome"] == "won" else "lost"
    finished = ("dame_nature_games_finished_total", (("players", "3"), ("result", outcome)))
    assert after[finished] == 1
    people = after[("dame_nature_actions_total", (("by", "person"),))]
    assert people >= 10
    assert after[("dame_nature_action_latency_seconds_count", ())] == people
    assert after[("dame_nature_store_write_seconds_count", ())] >= people
    assert after[("dame_nature_refusals_total", (("code", code),))] >= 1
    assert after[("dame_nature_rooms", (("status", "over"),))] == 1
    # the socket closed on the client's side: the server counts it gone once it hears
    deadline = time.monotonic() + 10
    while scrape()[("dame_nature_sockets", (("kind", "seat"),))] != 0:
        assert time.monotonic() < deadline, "the closed socket is still counted"
        time.sleep(0.05)


def test_metrics_need_their_token(scraped: tuple[Api, Any]) -> None:
    api, _ = scraped
    assert api.http.get("/metrics").status_code == 401
    wrong = api.http.get("/metrics", headers={"Authorization": "Bearer nope"})
    assert wrong.status_code == 401
    assert wrong.json()["error"]["code"] == "invalid_token"


def test_there_is_no_metrics_route_without_the_setting(server_factory: Any) -> None:
    server: ServerProcess = server_factory().start()
    answer = httpx.get(server.url + "/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert answer.status_code == 404
    assert answer.json()["error"]["code"] == "not_found"


def test_collector_pauses_are_measured_only_when_asked(tmp_path: Any) -> None:
    import gc

    from fastapi.testclient import TestClient

    from dame_nature.server.app import create_app
    from dame_nature.server.settings import Settings

    auth = {"Authorization": f"Bearer {TOKEN}"}
    callbacks = list(gc.callbacks)
    for asked in (False, True):
        settings = Settings(
            db=str(tmp_path / f"gc-{asked}.sqlite3"), metrics_token=TOKEN, gc_pause_stats=asked
        )
        with TestClient(create_app(settings)) as client:
            gc.collect()
            text = client.get("/metrics", headers=auth).text
        samples = {
            (s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text)
            for s in family.samples
        }
        passes = samples.get(("dame_nature_gc_passes_total", (("generation", "2"),)))
        longest = samples.get(("dame_nature_gc_pause_longest_seconds", (("generation", "2"),)))
        if asked:
            assert passes is not None and passes >= 1
            assert longest is not None and longest > 0
        else:
            assert passes is None and longest is None
        assert gc.callbacks == callbacks  # the measuring stops with the server


def test_collector_census_counts_what_each_pass_walks(tmp_path: Any) -> None:
    import gc
    import json

    from dame_nature.server.gcpauses import CollectorPauses

    class Settings:  # answers any attribute it is asked, or fails (as pydantic's config)
        def __getattr__(self, name: str) -> Any:
            raise KeyError(name)

    path = tmp_path / "census.jsonl"
    pauses = CollectorPauses(census=str(path))
    enabled = gc.isenabled()
    gc.disable()  # no pass but the test's own
    pauses.install()
    try:
        gc.collect()
        made = [{"seat": seat, "action": {"type": "ready"}} for seat in range(500)]
        made.append({"settings": Settings()})
        gc.collect(0)
        gc.collect(1)
        gc.collect(2)
    finally:
        pauses.remove()
        if enabled:
            gc.enable()
    young, middle = (json.loads(line) for line in path.read_text().splitlines())
    # the entries made since the last pass are walked by the young pass, then by the
    # middle one (they survived the young one), and none is garbage; a full pass is not
    # counted
    assert young["generation"] == 0 and middle["generation"] == 1
    for line in (young, middle):
        assert dict(line["shapes"])["dict action,seat"] == len(made) - 1
        assert [n for k, n in line["shapes"] if k.endswith("<locals>.Settings")] == [1]
        assert line["walked"] > len(made)
        assert line["collected"] == 0
