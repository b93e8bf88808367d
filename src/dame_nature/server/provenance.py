"""What a stored game was played with: the engine version and the rules-data version.

Each game records both when it starts and a digest of its final state when it ends. A
game whose recorded versions differ from today's is replayed when it is loaded and
compared; a game that today's engine replays differently (an action now refused, another
result or final state) is reported (``replay_reports``, the log, ``dame-nature migrate``)
and refused with 409 ``room_unavailable``, never silently changed.

>>> len(RULES_VERSION), ENGINE_VERSION == __version__
(12, True)
"""

from __future__ import annotations

import hashlib
from importlib import resources
from typing import Any

import orjson

from .. import __version__
from ..engine import EngineError, State

ENGINE_VERSION = __version__
#: the first 12 hex digits of the SHA-256 of the card catalogue the engine plays with
RULES_VERSION = hashlib.sha256(
    resources.files("dame_nature").joinpath("data/cards.json").read_bytes()
).hexdigest()[:12]


def state_digest(state: State) -> str:
    """A fingerprint of a whole game state (taken once, at the end): its JSON data
    serialised with sorted keys, read in place rather than copied (``State.to_json``'s
    copy, a round trip through ``json``, gives the same bytes)."""
    data = orjson.dumps(state.json_data(), option=orjson.OPT_SORT_KEYS)
    return hashlib.sha256(data).hexdigest()[:32]


def replay_problem(
    game: dict[str, Any], actions: list[dict[str, Any]]
) -> tuple[State | None, str | None]:
    """Replay a stored game with today's engine: (state, None), or (None, what differs)
    when its recorded versions differ and the replay does not give what was stored."""
    try:
        state = State.replay(game["setup"], actions)
    except EngineError as err:
        return None, f"today's engine refuses a stored action: {err.code}: {err}"
    if game.get("result") is not None:
        if state.result != game["result"]:
            return None, f"the result differs: stored {game['result']}, replayed {state.result}"
        digest = game.get("digest")
        if digest is not None and state_digest(state) != digest:
            return None, "the final state differs from the stored one"
    return state, None


def same_versions(game: dict[str, Any]) -> bool:
    return (
        game.get("engine_version") == ENGINE_VERSION and game.get("rules_version") == RULES_VERSION
    )
