"""Any JSON at all, sent to any call of the API or over the websocket, is answered with
a 2xx or a 4xx error body (never a 5xx), and a refused action changes nothing."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchmarks._support.live_server import UNLIMITED
from dame_nature.server.app import create_app
from dame_nature.server.settings import Settings

JSON = {"content-type": "application/json"}

CARDS = ["cond-blue-1", "joker-1", "species-chene", "cat-1", "nope", ""]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20) | st.sampled_from(CARDS),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)  # fmt: skip
actions = st.fixed_dictionaries(
    {"type": st.sampled_from(["program", "ready", "unready", "show", "give", "give_back",
                              "swap_discard", "reveal", "choose_side", "end_game", "fly"])},
    optional={"card": json_values, "to": json_values, "take": json_values, "slot": json_values,
              "colour": json_values, "target": json_values, "side": json_values},
)  # fmt: skip


def make_client(tmp_path_factory):
    app = create_app(
        Settings(
            db=str(tmp_path_factory.mktemp("fuzz") / "fuzz.sqlite3"),
            **UNLIMITED,
        )
    )
    client = TestClient(app)
    client.__enter__()
    created = client.post("/api/rooms", json={"seed": 1}).json()
    room = created["room"]
    tokens = [client.post(f"/api/rooms/{room}/players", json={"name": f"P{i}"}).json()["token"]
              for i in range(3)]  # fmt: skip
    client.post(
        f"/api/rooms/{room}/start", headers={"Authorization": f"Bearer {created['host_token']}"}
    )
    return client, room, tokens


def check(response) -> None:
    assert response.status_code < 500, response.text
    if response.status_code >= 400:
        body = response.json()
        assert set(body["error"]) == {"code", "message"}


def test_any_body_anywhere(tmp_path_factory):
    client, room, tokens = make_client(tmp_path_factory)
    auth = {"Authorization": f"Bearer {tokens[0]}"}

    @settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
    @given(body=json_values, which=st.integers(0, 4))
    def run(body, which):
        paths = ["/api/rooms", f"/api/rooms/{room}/players", f"/api/rooms/{room}/actions",
                 f"/api/rooms/{room}/start", f"/api/rooms/{room}/rematch"]  # fmt: skip
        check(client.post(paths[which], content=json.dumps(body), headers={**auth, **JSON}))

    try:
        run()
    finally:
        client.__exit__(None, None, None)


def test_any_action_changes_nothing_unless_accepted(tmp_path_factory):
    client, room, tokens = make_client(tmp_path_factory)

    @settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
    @given(action=actions, seat=st.integers(0, 2))
    def run(action, seat):
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        before = client.get(f"/api/rooms/{room}/state", headers=auth).json()
        answer = client.post(f"/api/rooms/{room}/actions", json=action, headers=auth)
        check(answer)
        if answer.status_code >= 400:
            assert client.get(f"/api/rooms/{room}/state", headers=auth).json() == before

    @settings(max_examples=100, deadline=None, suppress_health_check=list(HealthCheck))
    @given(message=json_values | actions.map(lambda a: {"type": "action", "action": a}))
    def over_websocket(message):
        ws.send_text(json.dumps(message))
        reply = ws.receive_json()
        assert reply["type"] in ("state", "error", "pong")
        if reply["type"] == "error":
            assert set(reply["error"]) == {"code", "message"}

    try:
        run()
        with client.websocket_connect(f"/api/rooms/{room}/ws?token={tokens[1]}") as ws:
            assert ws.receive_json()["type"] == "state"
            over_websocket()
    finally:
        client.__exit__(None, None, None)
