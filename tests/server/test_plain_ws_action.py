"""``plain_ws_action``, the websocket's usual ``action`` message read without building a
model, takes only what the models take, and gives exactly what ``action_to_engine`` of
the validated message gives (the same fields, in the same order); every other message
is left to the models (None), whose words a refusal keeps."""

from __future__ import annotations

import json
import random

from pydantic import ValidationError

from dame_nature.engine import ACTIONS
from dame_nature.server.models import WsAction, WsClientAdapter, action_to_engine, plain_ws_action

#: values a field may be given: plain ones, and every edge the models judge
VALUES = [
    None, "", "c", "cond-blue-1", "species-ant-3", "x" * 16, "x" * 17, "x" * 64, "x" * 65,
    "plant", "animal", "Plant", "été", "a\x7fb", "\ud800", 0, 1, 5, 6, -1, 2.0, 2.5, True,
    False, "3", [], {}, ["a"],
]  # fmt: skip
NAMES = ["type", "card", "to", "slot", "colour", "target", "side", "take", "extra"]


def _models_engine_action(data: object) -> dict | None:
    try:
        parsed = WsClientAdapter.validate_python(data)
    except ValidationError:
        return None
    return action_to_engine(parsed.action) if isinstance(parsed, WsAction) else None


def _check(data: object) -> None:
    plain = plain_ws_action(data)
    if plain is None:
        return
    expected = _models_engine_action(data)
    assert expected is not None, data
    assert json.dumps(plain) == json.dumps(expected), data  # the order of keys too


def _random_action(rng: random.Random) -> dict:
    kind = rng.choice([*ACTIONS, "nothing", 3])
    action: dict = {"type": kind}
    spec = ACTIONS.get(kind) if isinstance(kind, str) else None
    for field in spec.fields if spec is not None else ():
        if rng.random() < 0.8:
            action[field.name] = rng.choice(VALUES) if rng.random() < 0.4 else _good(field.kind)
    if rng.random() < 0.15:
        action[rng.choice(NAMES)] = rng.choice(VALUES)
    if rng.random() < 0.1:
        action = dict(reversed(list(action.items())))
    return action


def _good(kind: str) -> object:
    return {"card": "cond-blue-1", "seat": 2, "slot": "slot-1", "colour": "blue"}.get(kind, "plant")


def test_what_it_takes_the_models_take_as_it_is():
    rng = random.Random(22)
    taken = 0
    for _ in range(20_000):
        data: object = {"type": "action", "action": _random_action(rng)}
        if rng.random() < 0.05:
            data = rng.choice(
                [
                    {"type": "action"},
                    {"type": "action", "action": {"type": "ready"}, "x": 1},
                    {"type": "ping"},
                    {"type": "Action", "action": {"type": "ready"}},
                    [],
                    "action",
                ]
            )
        _check(data)
        taken += plain_ws_action(data) is not None
    assert taken > 5_000  # the plain messages are taken


def test_every_plain_message_of_each_type_is_taken_as_the_models_give_it():
    for kind, spec in ACTIONS.items():
        full = {"type": kind, **{f.name: _good(f.kind) for f in spec.fields}}
        required = {"type": kind, **{f.name: _good(f.kind) for f in spec.fields if f.required}}
        nulls = {**required, **{f.name: None for f in spec.fields if not f.required}}
        for action in (full, required, nulls, dict(reversed(list(full.items())))):
            data = {"type": "action", "action": action}
            assert plain_ws_action(data) is not None, data
            _check(data)


def test_what_it_leaves_to_the_models():
    for data in (
        {"type": "action", "action": {"type": "give", "card": "c", "to": 2.0}},  # a float seat
        {"type": "action", "action": {"type": "give", "card": "c", "to": True}},
        {"type": "action", "action": {"type": "program", "card": ""}},
        {"type": "action", "action": {"type": "program", "card": "été"}},
        {"type": "action", "action": {"type": "program"}},
        {"type": "action", "action": {"type": "ready", "card": "c"}},
        {"action": {"type": "ready"}, "type": "action", "extra": 1},
    ):
        assert plain_ws_action(data) is None, data
