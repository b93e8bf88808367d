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


def loads(text: str | bytes) -> Any:
    """Strict JSON: ``NaN`` and ``Infinity`` (which Python's parser accepts) are refused."""
    return json.loads(text, parse_constant=_no_constant)
