"""Per-seat views: a function of ``(state, seat)``, never a copy of the state with fields
deleted. A view holds no card id its seat is not entitled to see.

The fields are those of the public API (``shared/API.md``) less what the server adds
(``room``, ``version``, players' ``name`` and ``connected``, ``campaign``), plus a few
extras clients find useful (``known_by``, ``revealing``, ``pending_give``, ``last_turn``, ``log``,
``max_discards``, ``turns_total``, ``layout``, ``symbiosis_kinds``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .state import PUBLIC

if TYPE_CHECKING:
    from .state import State

LOG_TAIL = 60  # events of the log included in a view


def redact_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """The event as ``seat`` may see it (private details only for those entitled)."""
    public = {k: v for k, v in event.items() if not k.startswith("_")}
    if seat is not None and seat in event.get("_seen_by", ()):
        public.update(event["_private"])
    return public


def visible_log(
    state: State, seat: int | None, tail: int | None = LOG_TAIL
) -> list[dict[str, Any]]:
    events = state.log if tail is None else state.log[-tail:]
    return [redact_event(e, seat) for e in events]


def build_view(state: State, seat: int | None) -> dict[str, Any]:
    game = state.game
    n = game.num_players
    awaited = state.awaited()
    awaiting = None
    revealing = None
    if awaited is not None:
        awaited_seat, kind = awaited
        options = state.legal_actions_by_type(seat).get(kind, []) if seat == awaited_seat else []
        awaiting = {"seat": awaited_seat, "kind": kind, "options": options}
        if kind == "reveal":
            revealing = {"seat": awaited_seat, "card": state.programmed[awaited_seat]}
    viewer = PUBLIC if seat is None else seat
    known = [{"seat": owner, "card": card} for owner, card in state.known[viewer]]
    # which other players know which of this seat's cards (all it did or saw happen)
    known_by: dict[str, list[int]] = {}
    if seat is not None:
        for other in range(n):
            for owner, card in state.known[other]:
                if owner == seat:
                    known_by.setdefault(card, []).append(other)
    pending = state.pending_give
    # "turn X of Y": every turn takes one card from each player still holding one
    held_at_turn_start = [len(state.cards_of(s)) for s in range(n)]
    for record in state.revealed_this_turn:
        held_at_turn_start[record["seat"]] += 1
    if pending is not None:  # a card given waits for its answer: count it with its giver
        held_at_turn_start[pending["to"]] -= 1
        held_at_turn_start[pending["from"]] += 1
    turns_total = max(state.turn, 1) - 1 + max(held_at_turn_start)
    return {
        "seat": seat,
        "modes": list(game.modes),
        "phase": state.phase,
        "turn": state.turn,
        "turns_total": turns_total if state.phase != "over" else state.turn,
        "first_player": state.first_player,
        "free_symbiosis_available": state.phase == "programming" and not state.free_symbiosis_used,
        "symbiosis_kinds": list(state.symbiosis_kinds()),
        "show_names_one_player": game.config.show_names_one_player,
        "players": [
            {
                "seat": s,
                "hand_size": len(state.hands[s]),
                "has_programmed": state.programmed[s] is not None,
                "ready": state.ready[s],
                "symbiosis_cards": state.symbiosis_cards[s],
                "side": state.sides[s],
            }
            for s in range(n)
        ],
        "hand": [] if seat is None else list(state.hands[seat]),
        "programmed": None if seat is None else state.programmed[seat],
        "known": known,
        "known_by": known_by,
        "layout": game.config.main_layout,
        "webs": [name for name, _ in game.config.webs()],
        "web": dict(state.web),
        "joker_colours": dict(state.joker_colours),
        "discard": list(state.discard),
        "in_play": [{"seat": s, "card": c} for s, c in state.in_play],
        "revealed_this_turn": [_record(r) for r in state.revealed_this_turn],
        "last_turn": [_record(r) for r in state.last_turn],
        "revealing": revealing,
        "pending_give": {"from": pending["from"], "to": pending["to"]} if pending else None,
        "awaiting": awaiting,
        "winnable": state.is_winnable(),
        "max_discards": state.max_discards(),
        "deck_size": game.deck_size,
        "result": dict(state.result) if state.result else None,
        "log": visible_log(state, seat),
    }


def _record(record: dict[str, Any]) -> dict[str, Any]:
    return {
        "seat": record["seat"],
        "card": record["card"],
        "result": record["result"],
        "slot": record["slot"],
        "colour": record["colour"],
        "reason": record["reason"],
        "target": record.get("target"),
    }
