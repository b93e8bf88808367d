"""A game that can no longer be won says why, and bots wait for the person before ending it.

One person (who throws cards away on purpose) and three bots: as soon as the game is
lost, every view carries ``lost_reason`` (public facts, English and French), the expert
bot, which ends a lost game at once, waits ``DAME_NATURE_BOT_END_GRACE_SECONDS`` since a
person is seated, and the person ends it; the reason stays in the final view.
"""

from __future__ import annotations

import time
from typing import Any

from tests.server.test_bots import wait_for


def throw_away(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Program a card sure to be discarded (else the first), say ready, answer with the
    first option; None: nothing to do."""
    awaiting = view["awaiting"]
    if awaiting and awaiting["seat"] == view["seat"] and awaiting["options"]:
        return dict(awaiting["options"][0])
    kinds = {a["type"] for a in legal}
    if view["programmed"] is None and "program" in kinds:
        lost = [card for card in view["hand"] if view["no_place"].get(card)]
        return {"type": "program", "card": (lost or view["hand"])[0]}
    if "ready" in kinds:
        return {"type": "ready"}
    return None


def test_lost_game_says_why_and_bots_wait_for_the_person(server_factory, make_api):
    server = server_factory(env={"DAME_NATURE_BOT_END_GRACE_SECONDS": "60"}).start()
    api = make_api(server)
    created = api.create(seed=7).json()
    room, host = created["room"], created["host_token"]
    me = api.join(room, "Ada").json()
    token = me["token"]
    for level in ("random", "random", "expert"):
        assert api.add_bot(room, host, level).status_code == 201
    assert api.start(room, host).status_code == 200

    def lost_view() -> dict[str, Any] | None:
        view = api.state(room, token).json()
        assert view["phase"] != "over", "the game ended before the person could look"
        if not view["winnable"]:
            return view  # type: ignore[no-any-return]
        action = throw_away(view, api.legal(room, token))
        if action is not None:
            api.act(room, token, action)  # may lose a race with a bot: then try again
        return None

    view = wait_for(lost_view, 240, "the game to be lost")
    reason = view["lost_reason"]
    assert reason is not None
    assert (
        reason["cards_left"] < reason["places_empty"] + reason["cards_to_play"]
        or (reason["deadlocked"])
    )
    assert reason["discards"] == len(view["discard"])
    assert set(reason["species_lost"]) <= set(view["discard"])
    assert reason["text"]["en"] and reason["text"]["fr"]
    assert str(reason["discards"]) in reason["text"]["en"]
    # everyone reads the same reason, spectators included
    assert api.state(room).json()["lost_reason"] == reason

    # the expert would end the game at once; beside a person it waits (60 s here)
    deadline = time.monotonic() + 2.0
    while time.monotonic() < deadline:
        assert api.state(room).json()["phase"] != "over"
    answer = api.act(room, token, {"type": "end_game"})
    assert answer.status_code == 200, answer.text
    final = api.state(room, token).json()
    assert final["phase"] == "over" and final["result"]["outcome"] == "lost"
    assert final["lost_reason"] == reason
    ended = [e for e in final["log"] if e["type"] == "game_ended_by_players"]
    assert [e["seat"] for e in ended] == [me["seat"]]


def test_a_won_or_playing_game_has_no_lost_reason(api):
    table = api.table(players=3, seed=3)
    view = api.state(table["room"]).json()
    assert view["winnable"] and view["lost_reason"] is None
