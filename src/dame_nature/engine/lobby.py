"""The view of a room before its game starts."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .game import get_game, normalise_modes

if TYPE_CHECKING:
    from .view import View


def lobby_view(seat: int | None, modes: list[str] | tuple[str, ...]) -> View:
    """The view before a game starts (the server fills ``players``): every field of
    ``View``, with nothing dealt; ``deck_size`` and ``max_discards`` are 0 (they depend
    on the number of players)."""
    config = get_game(3, normalise_modes(modes)).config
    return {
        "seat": seat,
        "modes": list(modes),
        "phase": "lobby",
        "turn": 0,
        "turns_total": 0,
        "first_player": None,
        "free_symbiosis_available": False,
        "symbiosis_kinds": list(config.symbiosis_kinds),
        "show_names_one_player": config.show_names_one_player,
        "players": [],
        "hand": [],
        "programmed": None,
        "known": [],
        "known_by": {},
        "layout": config.main_layout,
        "webs": [name for name, _ in config.webs()],
        "web": {},
        "joker_colours": {},
        "discard": [],
        "in_play": [],
        "revealed_this_turn": [],
        "last_turn": [],
        "revealing": None,
        "pending_give": None,
        "reveal_order": [],
        "awaiting": None,
        "to_act": [],
        "legal_types": [],
        "legal_actions": [],
        "no_place": {},
        "winnable": True,
        "max_discards": 0,
        "deck_size": 0,
        "result": None,
        "log": [],
    }
