"""Rooms: the authoritative game state of each room, its seats and its changes
(``manager.py`` says which module holds what)."""

from .lobby import RulesChoice
from .manager import RoomManager
from .model import Player, Room, same_secret
from .registry import RoomUnavailable

__all__ = ["Player", "Room", "RoomManager", "RoomUnavailable", "RulesChoice", "same_secret"]
