"""The steps of a finished game for the replay viewer: every hand visible, one step per
action, and one per reveal inside an action that reveals several cards.

Built from the game's ``setup`` and ``actions`` with the engine's public interface only:
after each action, the spectator's view gives the table and each seat's view its hand.
When one action sets off several reveals (the last *ready* of a turn), the frames between
them are derived from the events (a card placed, discarded, removed from the web); the
frame after the action is the engine's own again.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> steps, total = build_steps(state.setup, [])
>>> steps[0]["kind"], len(steps[0]["state"]["players"][0]["hand"]), total
('start', 11, 1)
"""

from __future__ import annotations

import copy
from typing import Any

from ..engine import State

#: fields of the spectator's view kept in a frame
TABLE_FIELDS = (
    "phase",
    "turn",
    "first_player",
    "free_symbiosis_available",
    "web",
    "joker_colours",
    "discard",
    "in_play",
    "revealed_this_turn",
    "last_turn",
    "pending_give",
    "winnable",
    "result",
)


def frame(state: State) -> dict[str, Any]:
    """The whole table at this moment, every hand included."""
    public = state.view(None)
    table = {name: public.get(name) for name in TABLE_FIELDS}
    players = []
    for entry in public["players"]:
        own = state.view(entry["seat"])
        players.append(
            {
                "seat": entry["seat"],
                "hand": own["hand"],
                "programmed": own["programmed"],
                "ready": entry["ready"],
                "symbiosis_cards": entry["symbiosis_cards"],
                "side": entry["side"],
            }
        )
    table["players"] = players
    return table


def omniscient(event: dict[str, Any]) -> dict[str, Any]:
    """An event with its private part (the game is over: nothing is secret any more)."""
    public = {k: v for k, v in event.items() if not k.startswith("_")}
    public.update(event.get("_private") or {})
    return public


def _take(player: dict[str, Any], card: str) -> None:
    if player["programmed"] == card:
        player["programmed"] = None
    elif card in player["hand"]:
        player["hand"].remove(card)


def advance(table: dict[str, Any], event: dict[str, Any]) -> None:
    """Change ``table`` as ``event`` says (only the events that happen inside one action)."""
    players = table["players"]
    kind = event["type"]
    if kind in ("ready", "unready"):
        players[event["seat"]]["ready"] = kind == "ready"
    elif kind == "give_back" and "card" in event:
        _take(players[event["seat"]], event["card"])
        players[event["to"]]["hand"].append(event["card"])
        table["pending_give"] = None
    elif kind == "reveal_started":
        table["phase"] = "reveal"
    elif kind == "revealed":
        seat, card = event["seat"], event["card"]
        _take(players[seat], card)
        if event.get("slot"):
            table["web"][event["slot"]] = card
            colour = event.get("colour")
            if card.startswith("joker") and colour:
                table["joker_colours"][card] = colour
        elif event.get("result") == "discarded":
            table["discard"].append(card)
        else:  # played by an advanced rule (a Cat, a Pollution, a Reintroduction)
            table["in_play"].append({"seat": seat, "card": card})
        record = {k: event.get(k) for k in ("seat", "card", "result", "slot", "colour")}
        record.update(reason=event.get("reason"), target=event.get("target"))
        table["revealed_this_turn"].append(record)
    elif kind == "removed_from_web":
        if table["web"].get(event["slot"]) == event["card"]:
            table["web"][event["slot"]] = None
        table["discard"].append(event["card"])


def _segments(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Events cut before each reveal and before the end of the turn."""
    segments: list[list[dict[str, Any]]] = [[]]
    for event in events:
        current = segments[-1]
        ended = any(e["type"] == "turn_ended" for e in current)
        if event["type"] in ("revealed", "turn_ended") and current and not ended:
            segments.append([])
        segments[-1].append(event)
    return [s for s in segments if s]


def _kind(segment: list[dict[str, Any]]) -> str:
    first = segment[0]["type"]
    return {"revealed": "reveal", "turn_ended": "turn_end"}.get(first, "action")


def table_shape(setup: dict[str, Any]) -> dict[str, Any]:
    """What does not change during a game: ``layout``, ``webs``, ``max_discards``,
    ``deck_size`` (as the views say them)."""
    view = State.replay(setup, []).view(None)
    return {name: view.get(name) for name in ("layout", "webs", "max_discards", "deck_size")}


def build_steps(
    setup: dict[str, Any], actions: list[dict[str, Any]], offset: int = 0, limit: int | None = None
) -> tuple[list[dict[str, Any]], int]:
    """``([{index, kind, turn, seat, action, events, state}, ..], total)``: the game
    before any action (``start``), then after each action (``action``), each reveal
    (``reveal``) and each end of turn (``turn_end``). ``action`` is set on the first step
    of each action; ``state`` is the whole table (every hand) after that step.

    Only the steps ``offset`` to ``offset + limit`` are built (the others are counted in
    ``total`` without drawing their table), so a page costs memory for its own steps."""
    stop = None if limit is None else offset + limit
    state = State.replay(setup, [])
    steps: list[dict[str, Any]] = []
    if offset == 0 and stop != 0:
        steps.append(
            {"kind": "start", "turn": state.turn, "seat": None, "action": None,
             "events": [omniscient(e) for e in state.log], "state": frame(state)}
        )  # fmt: skip
    total = 1
    for entry in actions:
        seat, action = entry["seat"], entry["action"]
        first = total
        wanted = stop is None or first < stop
        # before the page, the table before the action is drawn only if one of its
        # steps is on the page (from a copy of the state: most actions are skipped)
        earlier = state.clone() if wanted and not steps else None
        applied = state.apply(seat, action)
        segments = _segments(applied) or [[]]
        total += len(segments)
        if not wanted or total <= offset:
            continue  # not on this page: counted only
        before = frame(earlier) if earlier is not None else steps[-1]["state"]
        segments = [[omniscient(e) for e in segment] for segment in segments]
        after = frame(state)
        table = copy.deepcopy(before)
        for i, segment in enumerate(segments):
            last = i == len(segments) - 1
            if last:
                table = after
            else:
                for event in segment:
                    advance(table, event)
            index = first + i
            if index < offset or (stop is not None and index >= stop):
                continue
            steps.append(
                {
                    "index": index,
                    "kind": _kind(segment) if segment else "action",
                    "turn": segment[0]["turn"] if segment else state.turn,
                    "seat": seat if i == 0 else segment[0].get("seat"),
                    "action": action if i == 0 else None,
                    "events": segment,
                    "state": table if last else copy.deepcopy(table),
                }
            )
    if steps and steps[0]["kind"] == "start":
        steps[0] = {"index": 0, **steps[0]}
    return steps, total
