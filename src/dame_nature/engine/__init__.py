"""The Dame Nature rules engine: pure Python, no I/O, no global randomness.

>>> from dame_nature.engine import Game
>>> state = Game(5, ["climate_change"]).new_initial_state(seed=42)
>>> view = state.view(0)
>>> view["phase"], len(view["hand"]), view["players"][1]["hand_size"]
('programming', 7, 7)
"""

from .actions import ACTION_FIELDS, ACTIONS, ActionSpec
from .cards import CATALOGUE, COLOURS, Card, raw_card_data
from .enums import ActionType, Phase, Reason, Result, Side
from .errors import EngineError, IllegalAction, InvalidSetup
from .game import MAX_PLAYERS, MIN_PLAYERS, Game, get_game, normalise_modes
from .lobby import lobby_view
from .rules import MODES, PATHS, RULES, modes_for_path
from .state import REASONS, REASONS_FR, State
from .view import View, redact_event, visible_log

__all__ = [
    "ACTIONS",
    "ACTION_FIELDS",
    "ActionSpec",
    "ActionType",
    "Phase",
    "REASONS_FR",
    "Reason",
    "Result",
    "Side",
    "CATALOGUE",
    "COLOURS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "MODES",
    "PATHS",
    "REASONS",
    "RULES",
    "Card",
    "EngineError",
    "Game",
    "IllegalAction",
    "InvalidSetup",
    "State",
    "get_game",
    "modes_for_path",
    "normalise_modes",
    "raw_card_data",
    "View",
    "lobby_view",
    "redact_event",
    "visible_log",
]
