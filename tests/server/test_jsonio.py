"""``jsonio.loads`` reads a client's message as ``json.loads`` does (with ``NaN`` and
``Infinity`` refused): the same value, or the same error in the same words, for the
usual messages and for texts mutated from them (a character cut, doubled, or replaced,
spaces around, extra data after), deterministic seed."""

from __future__ import annotations

import json
import random

import pytest

from dame_nature.server.jsonio import MAX_DEPTH, loads

MESSAGES = [
    '{"type":"action","action":{"type":"program","card":"cond-blue-1"}}',
    '{"type":"action","action":{"type":"give","card":"species-ant-3","to":2}}',
    '{"type":"action","action":{"type":"reveal","slot":"a1","target":null}}',
    '{"type":"ping"}',
    '{"type":"visibility","visible":true}',
    '{"type":"auth","token":"abc"}',
    '{"a":1e400,"b":-0.0,"c":123456789012345678901234567890,"d":"\\ud800","e":"\\u00e9"}',
    '["not", "an", "object"]',
    "3",
]
#: what a mutation may put in a message
PIECES = ['"', "{", "}", "[", "]", ",", ":", " ", "\n", "x", "1", "NaN", "Infinity",
          "-Infinity", "null", "\\", "é", "\ufeff", '{"a":1}']  # fmt: skip


def _reference(text: str | bytes) -> object:
    def no_constant(name: str) -> object:
        raise ValueError(f"{name} is not JSON")

    return json.loads(text, parse_constant=no_constant)


def _outcome(read: object, text: str | bytes) -> tuple[str, object]:
    try:
        value = read(text)  # type: ignore[operator]
    except (ValueError, RecursionError) as err:
        return type(err).__name__, str(err)
    return "value", json.dumps(value)  # (NaN-free: ``inf`` and ``-0.0`` as written)


def _mutated(rng: random.Random, text: str) -> str:
    for _ in range(rng.randint(1, 3)):
        at = rng.randint(0, len(text))
        how = rng.randrange(4)
        if how == 0:
            text = text[:at] + text[at + 1 :]
        elif how == 1:
            text = text[:at] + rng.choice(PIECES) + text[at:]
        elif how == 2:
            text = text[:at] + rng.choice(PIECES) + text[at + 1 :]
        else:
            text = rng.choice(["", " ", "\n"]) + text + rng.choice(["", " ", "\t", " x", "{}"])
    return text


@pytest.mark.parametrize("text", MESSAGES)
def test_the_usual_messages_read_as_json_reads_them(text):
    assert _outcome(loads, text) == _outcome(_reference, text)


def test_mutated_messages_read_or_refused_as_json_reads_them():
    rng = random.Random(22)
    for _ in range(20_000):
        text = _mutated(rng, rng.choice(MESSAGES))
        assert _outcome(loads, text) == _outcome(_reference, text), repr(text)
        # an HTTP body: bytes, in UTF-8 or UTF-16 (read as ``json.loads`` reads bytes)
        body = text.encode(rng.choice(["utf-8", "utf-16"]), "surrogatepass")
        assert _outcome(loads, body) == _outcome(_reference, body), repr(body)


def test_an_object_nested_too_deep_is_refused():
    deep = '{"a":' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}"
    with pytest.raises(ValueError, match="nested deeper"):
        loads(deep)
    assert loads('{"a":' + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "}")
