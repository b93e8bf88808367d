"""Each finished game records its result (``results``) in the transaction that stores
its end, on both stores, with nothing personal in it."""

from __future__ import annotations

import json

from benchmarks._support.live_server import ServerProcess
from dame_nature.server.store import open_store


def test_a_finished_game_records_its_result(api, server: ServerProcess):
    table = api.table(players=3, names=["Ada Lovelace", "Bob", "Cy"])
    final = api.play_out(table)
    store = open_store(str(server.db))
    try:
        rows = store.results(room=table["room"])
    finally:
        store.close()
    assert len(rows) == 1
    row = rows[0]
    assert row["game_no"] == 1 and row["players"] == 3 and row["rules"] == []
    assert row["won"] == (final["result"]["outcome"] == "won")
    assert row["discards"] == final["result"]["discards"] == len(final["discard"])
    assert row["cards_placed"] == sum(1 for card in final["web"].values() if card)
    assert row["turns"] == final["turn"] >= 1
    assert (row["people"], row["bots"], row["hints"], row["deal"]) == (3, 0, 0, None)
    # nothing personal: no name, no token
    text = json.dumps(row)
    assert "Ada" not in text and "Bob" not in text
    assert all(token not in text for token in (*table["tokens"], table["host"]))


def test_a_result_is_stored_once_and_kept_when_its_room_goes(store_url: str):
    store = open_store(store_url)
    try:
        store.create_room("room1", "tok", {"modes": []}, now=1.0)
        record = {"room": "room1", "game_no": 1, "finished_at": 1e9, "players": 3,
                  "rules": ["pollution", "cats"], "won": False, "cards_placed": 20,
                  "discards": 9, "turns": 12, "people": 0, "bots": 3,
                  "stand_in_moves": 0, "hints": 0, "deal": "daily:2001-09-09:3"}  # fmt: skip
        store.add_result(record)
        store.add_result({**record, "won": True})  # a game's second result is ignored
        store.delete_rooms(["room1"])
        (row,) = store.results(deal="daily:2001-09-09:3")
        assert row["rules"] == ["cats", "pollution"] and row["won"] is False
        assert row["day"] == "2001-09-09"
        assert store.results(deal="other") == []
        assert store.result_summary() == [
            {"players": 3, "rules": ["cats", "pollution"], "with_people": False,
             "won": False, "games": 1}
        ]  # fmt: skip
        assert store.games_per_day("2001-09-01") == [{"day": "2001-09-09", "games": 1, "won": 0}]
        assert store.games_per_day("2001-09-10") == []
    finally:
        store.close()
