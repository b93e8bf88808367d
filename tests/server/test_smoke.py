"""First contact: the server answers its health check, docs and catalogue."""

from __future__ import annotations


def test_healthz_docs_and_catalogue(api):
    assert api.http.get("/healthz").json()["status"] == "ok"
    assert api.http.get("/docs").status_code == 200
    schema = api.http.get("/openapi.json").json()
    assert "/api/rooms/{room}/actions" in schema["paths"]
    cards = api.http.get("/api/cards").json()
    assert cards
    modes = api.http.get("/api/modes").json()
    assert len(modes["modes"]) == 12
    assert modes["paths"]["1"] == ["associated_conditions", "dependent_conditions", "wetland"]


def test_websocket_gets_own_view(api):
    table = api.table(players=3, seed=5)
    with api.socket(table["room"], table["tokens"][1]) as ws:
        view = ws.receive_type("state")["view"]
        assert view["seat"] == 1
        assert view["players"][1]["connected"] is True
        assert view["hand"] == api.state(table["room"], table["tokens"][1]).json()["hand"]
