"""A game's length is bounded by its rules, not by a client: a seat that programs one
card, then another, then the first again, or says ready and takes it back, over and
over, is refused past its changes of the turn (``too_many_changes``) and the game's
action log stops growing; the replay of a long game comes a page at a time."""

from __future__ import annotations

#: the changes of a seat in a turn (``engine/pace.py``, docs/api.md)
MAX_CHANGES_PER_TURN = 16


def test_a_seat_flipping_its_card_is_refused_past_its_changes(api):
    table = api.table(players=3, seed=3)
    room, token = table["room"], table["tokens"][0]
    hand = api.state(room, token).json()["hand"]
    a, b = hand[0], hand[1]
    codes = []
    for i in range(3 * MAX_CHANGES_PER_TURN):
        r = api.act(room, token, {"type": "program", "card": a if i % 2 == 0 else b})
        codes.append(r.status_code if r.status_code == 200 else r.json()["error"]["code"])
    assert codes[:MAX_CHANGES_PER_TURN] == [200] * MAX_CHANGES_PER_TURN
    # (programming the card already programmed is refused for that reason first)
    assert codes[MAX_CHANGES_PER_TURN] == "too_many_changes"
    assert set(codes[MAX_CHANGES_PER_TURN:]) == {"too_many_changes", "already_programmed"}
    refused = api.act(room, token, {"type": "program", "card": a})
    assert refused.status_code == 409
    assert "say you are ready" in refused.json()["error"]["message"]
    # the seat is offered what is left: say it is ready
    kinds = {a["type"] for a in api.legal(room, token)}
    assert "program" not in kinds and "ready" in kinds
    # ready and not ready are changes too: none left
    assert api.act(room, token, {"type": "ready"}).status_code == 200
    unready = api.act(room, token, {"type": "unready"})
    assert unready.json()["error"]["code"] == "too_many_changes"
    # the log holds what was accepted, nothing of the refused
    log = api.http.get(f"/api/rooms/{room}/log", headers=api.auth(token)).json()
    changes = [e for e in log["events"] if e["type"] in ("programmed", "unready")]
    assert len(changes) == MAX_CHANGES_PER_TURN


def test_the_changes_come_back_each_turn(api):
    table = api.table(players=3, seed=4)
    room, tokens = table["room"], table["tokens"]
    hand = api.state(room, tokens[0]).json()["hand"]
    for i in range(MAX_CHANGES_PER_TURN):
        card = hand[i % 2]
        assert api.act(room, tokens[0], {"type": "program", "card": card}).status_code == 200
    # everyone ready: the turn is played, the next one begins
    for seat, token in enumerate(tokens):
        view = api.state(room, token).json()
        if view["programmed"] is None:
            api.act(room, token, {"type": "program", "card": view["hand"][0]})
        assert api.act(room, token, {"type": "ready"}).status_code == 200, seat
    for _ in range(20):
        stepped = api.step(table)
        if stepped is None or api.state(room).json()["turn"] >= 2:
            break
    view = api.state(room, tokens[0]).json()
    assert view["turn"] >= 2 and view["phase"] == "programming"
    kinds = {a["type"] for a in api.legal(room, tokens[0])}
    assert "program" in kinds
