"""Player names (any printable text, emoji sequences included; no control character) and
the host's read of the room's rules (seed and deal kept for the lobby's editor)."""

from __future__ import annotations

import pytest

from tests.server.test_errors import assert_error
from tests.ui.dn_ui_plan import plan


@pytest.mark.parametrize(
    "name",
    ["🧑\u200d🌾 Farmer", "🏳\ufe0f\u200d🌈", "👩🏽\u200d💻", "🇫🇷 Zoé", "Chloé", "李小龍", "x" * 40,
     "👨\u200d👩\u200d👧\u200d👦" * 30],
)  # fmt: skip
def test_printable_names_are_accepted_as_typed(api, name):
    room = api.create().json()["room"]
    joined = api.join(room, f"  {name} ")
    assert joined.status_code == 201, joined.text
    assert api.info(room).json()["players"][0]["name"] == name


@pytest.mark.parametrize(
    ("name", "why"),
    [("", "at least 1"), ("   ", "visible"), ("\u200d", "visible"), ("\ufe0f\u200d", "visible"),
     ("Bell\x07", "control"), ("a\x00b", "control"), ("evil\u202etxt", "control"),
     ("x" * 41, "at most 40"), ("🧑\u200d🌾" * 41, "at most 40")],
)  # fmt: skip
def test_empty_invisible_and_control_names_are_refused(api, name, why):
    room = api.create().json()["room"]
    refused = api.join(room, name)
    assert_error(refused, 422, "invalid_request")
    assert why in refused.json()["error"]["message"]
    assert api.info(room).json()["players"] == []


def test_the_host_reads_the_rules_with_seed_and_deal(api):
    created = api.create(modes=["wetland"], seed=42).json()
    room, host = created["room"], created["host_token"]
    seat = api.join(room, "Ada").json()["token"]
    rules = api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(host))
    assert rules.status_code == 200, rules.text
    assert rules.json() == {
        "modes": ["wetland"],
        "path": None,
        "seed": 42,
        "deal": None,
        "hints": False,
        "turn_limit_seconds": None,
    }
    # only the host: a seat or no token learn nothing
    assert_error(api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(seat)), 403, "not_host")
    assert_error(api.http.get(f"/api/rooms/{room}/rules"), 401, "missing_token")
    patched = api.http.patch(f"/api/rooms/{room}", headers=api.auth(host), json={"path": 2})
    assert patched.status_code == 200, patched.text
    rules = api.http.get(f"/api/rooms/{room}/rules", headers=api.auth(host)).json()
    assert rules == {
        "modes": [],
        "path": 2,
        "seed": None,
        "deal": None,
        "hints": False,
        "turn_limit_seconds": None,
    }


def test_the_whole_log_of_a_seat_redacted_like_its_views(api):
    p = plan()  # a won game of 10 turns: well past the views' 60 events
    table = api.table(players=3, deal=p.deal())
    room, tokens = table["room"], table["tokens"]
    for turn in p.turns:
        for seat, card in turn.items():
            assert api.act(room, tokens[seat], {"type": "program", "card": card}).status_code == 200
        for seat in turn:
            assert api.act(room, tokens[seat], {"type": "ready"}).status_code == 200
        while (aw := api.state(room).json()["awaiting"]) is not None:
            api.act(room, tokens[aw["seat"]], api.legal(room, tokens[aw["seat"]])[0])
    view = api.state(room, tokens[0]).json()
    full = api.http.get(f"/api/rooms/{room}/log", headers=api.auth(tokens[0])).json()
    assert full["seat"] == 0 and full["total"] == len(full["events"]) > 60
    assert full["events"][-60:] == view["log"]  # the same events, redacted the same way
    assert full["events"][0]["type"] == "turn_started"
    since = api.http.get(f"/api/rooms/{room}/log?since=50", headers=api.auth(tokens[0])).json()
    assert since["events"] == full["events"][50:] and since["total"] == full["total"]
    # a spectator's log holds no card id a programmed or given card would reveal
    spectator = api.http.get(f"/api/rooms/{room}/log").json()
    assert spectator["seat"] is None and spectator["total"] == full["total"]
    assert spectator["events"][-60:] == api.state(room).json()["log"]
    for event in spectator["events"]:
        assert "_private" not in event and "_seen_by" not in event
        if event["type"] in ("give", "give_back"):
            assert "card" not in event
    bad = api.http.get(f"/api/rooms/{room}/log?since=-1")
    assert_error(bad, 422, "invalid_request")
