"""Game positions set up by hand, for tests of what a bot does in them.

``position(...)`` builds an engine ``State`` in a turn's programming phase with the web,
the discard pile and some hands as given; the rest of the deck is dealt to the other
seats. Partners' moves before the bot's are then made through the engine
(``state.apply``), so the bot sees them in its view as it would in a game.
"""

from __future__ import annotations

from typing import Any

from dame_nature.engine import Game
from dame_nature.engine.state import State

#: every slot of the numbered web but the Golden Eagle's own three
EAGLE = "species-aigle-royal"


def full_web(game: Game, empty: set[str]) -> dict[str, str]:
    """A web where every slot but ``empty`` holds a fitting card of the deck."""
    pool = [c for c in game.fixed_cards if not c.startswith("joker")]
    web: dict[str, str] = {}
    for sid, slot in game.topology.slots.items():
        if sid in empty:
            continue
        if slot.colour is None:
            card = sid
        else:
            card = next(c for c in pool if c.startswith(f"cond-{slot.colour}-"))
        pool.remove(card)
        web[sid] = card
    return web


def position(
    players: int,
    modes: tuple[str, ...] = (),
    *,
    web: dict[str, str],
    hands: dict[int, list[str]],
    discard: list[str] = (),  # type: ignore[assignment]
    first: int = 0,
    turn: int = 6,
    rest: dict[int, int] | None = None,
    sides: list[str] | None = None,
) -> State:
    """A programming phase: ``web`` placed, ``discard`` discarded, ``hands`` held, and the
    deck's other cards dealt to the other seats (``rest``: how many each; by default as
    evenly as possible). Every card of the deck is somewhere exactly once."""
    game = Game(players, modes)
    data: dict[str, Any] = game.new_initial_state(seed=0).to_json()
    used = set(web.values()) | set(discard) | {c for h in hands.values() for c in h}
    left = [c for c in game.fixed_cards if c not in used]
    others = [s for s in range(players) if s not in hands]
    dealt: dict[int, list[str]] = {s: [] for s in others}
    counts = rest or {
        s: len(left) // len(others) + (i < len(left) % len(others)) for i, s in enumerate(others)
    }
    for s in others:
        dealt[s], left = left[: counts[s]], left[counts[s] :]
    assert not left, f"cards left undealt: {left}"
    data["hands"] = [list(hands.get(s, dealt.get(s, []))) for s in range(players)]
    data["setup"]["hands"] = [list(h) for h in data["hands"]]
    data["setup"]["first_player"] = first
    data["web"] = {sid: web.get(sid) for sid in game.topology.slots}
    data["discard"] = list(discard)
    data["first_player"] = first
    data["turn"] = turn
    if sides is not None:
        data["rule_data"]["species_biodiversity"]["sides"] = list(sides)
        data["phase"] = "programming"
    return State.from_json(data)


def program_of(bot: Any, state: State) -> str | None:
    """The card ``bot`` programs, asking it until it says ready (other moves it makes on
    the way, Symbioses included, go to the engine)."""
    for _ in range(20):
        action = bot.act(state.view(bot.seat))
        if action is None or action["type"] == "ready":
            return state.programmed[bot.seat]
        state.apply(bot.seat, action)
    raise AssertionError("the bot never said ready")


def moves_of(bot: Any, state: State) -> list[dict[str, Any]]:
    """Every move ``bot`` makes until it says ready (each applied to the engine)."""
    moves = []
    for _ in range(20):
        action = bot.act(state.view(bot.seat))
        if action is None:
            return moves
        moves.append(action)
        state.apply(bot.seat, action)
        if action["type"] == "ready":
            return moves
    raise AssertionError("the bot never said ready")
