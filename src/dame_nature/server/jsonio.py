"""JSON on the wire: compact encoding of views, strict decoding of what clients send."""

from __future__ import annotations

import json
from typing import Any

import orjson


def dumps(data: Any) -> str:
    """Compact JSON text (``orjson``: views are encoded once a seat after every change)."""
    text: str = orjson.dumps(data).decode()
    return text


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


#: ``json.loads(text, parse_constant=_no_constant)`` without building a decoder per call
_DECODER = json.JSONDecoder(parse_constant=_no_constant)

#: deepest nesting of arrays and objects accepted (the API's own messages use 4)
MAX_DEPTH = 32


def loads(text: str | bytes) -> Any:
    """Strict JSON: ``NaN`` and ``Infinity`` (which Python's parser accepts) are refused,
    and so is anything nested deeper than ``MAX_DEPTH`` (a ``ValueError`` either way,
    never a ``RecursionError``).

    >>> loads("[" * 33 + "]" * 33)
    Traceback (most recent call last):
    ...
    ValueError: JSON nested deeper than 32 levels
    """
    if isinstance(text, str):
        if text.startswith("\ufeff"):  # as ``json.loads``
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        decoded = text
    else:
        decoded = text.decode(json.detect_encoding(text), "surrogatepass")
    try:
        if decoded[:1] == "{":
            # a client's message (an object from its first character): read at once,
            # without ``decode``'s two whitespace matches; what does not end at the
            # text's end (trailing spaces, extra data) is read again by ``decode``,
            # which takes it or refuses it in its own words
            data, end = _DECODER.raw_decode(decoded)
            if end != len(decoded):
                data = _DECODER.decode(decoded)
        else:
            data = _DECODER.decode(decoded)
    except RecursionError:
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels") from None
    if isinstance(text, bytes):
        brackets = text.count(b"[") + text.count(b"{")
    else:
        brackets = text.count("[") + text.count("{")
    if brackets > MAX_DEPTH and depth(data) > MAX_DEPTH:
        raise ValueError(f"JSON nested deeper than {MAX_DEPTH} levels")
    return data


def depth(data: Any) -> int:
    """How deeply arrays and objects nest in ``data`` (iterative: no recursion limit).

    >>> depth([1, {"a": [2]}]), depth(3)
    (3, 0)
    """
    deepest = 0
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        elif not isinstance(item, list):
            continue
        level += 1
        deepest = max(deepest, level)
        stack.extend((child, level) for child in item if isinstance(child, list | dict))
    return deepest
