"""``Room`` and ``Player``: what a room is, as data (no sockets, no store), and the views
it gives each seat.

A ``Room`` holds its seats, its rules (``spec``), the game being played (an engine
``State``, rebuilt from the stored action log), its version (bumped by every change a
client can see), which seats are connected to any node (``present``) and the lock that
applies its changes one at a time. Who is connected through this node is the hub's
(``hub.py``); how a change is stored and pushed, the commit path's (``commit.py``).
"""

from __future__ import annotations

import asyncio
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, cast

from ...engine import MAX_PLAYERS, State, lobby_view
from ..campaign import campaign_public
from ..errors import Refused

CODE_BYTES = 12  # room codes: 96 random bits
TOKEN_BYTES = 24  # seat and host tokens: 192 random bits
CODE_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


def same_secret(given: str, expected: str) -> bool:
    """Constant-time comparison of two secrets."""
    return secrets.compare_digest(given.encode("utf-8", "replace"), expected.encode("utf-8"))


@dataclass
class Player:
    seat: int
    name: str
    token: str
    #: the level of the bot playing this seat, or None (a person plays it)
    bot: str | None = None
    #: False for a seat added as a bot in the lobby (its token is never handed out);
    #: True for a person's seat, even while a bot stands in for them
    human: bool = True

    @property
    def stand_in(self) -> bool:
        """A bot plays this seat for a person who left; their token takes it back."""
        return self.bot is not None and self.human


@dataclass
class Room:
    code: str
    host_token: str
    spec: dict[str, Any]
    created_at: float
    updated_at: float
    status: str = "lobby"
    game_no: int = 0
    campaign: dict[str, Any] | None = None
    version: int = 0
    #: the version stored (one node of a SQLite store: ahead of ``version``, reserved
    #: by the last connection change; nodes sharing a store: always ``version``)
    stored: int = 0
    players: list[Player] = field(default_factory=list)
    state: State | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    #: the seats connected to any node (as stored: the view's ``connected`` flags)
    present: set[int] = field(default_factory=set, repr=False)
    #: the hints each seat took in game ``hints_game`` (as stored with the game)
    hints: list[int] = field(default_factory=list, repr=False)
    hints_game: int = 0

    # ---------------------------------------------------------------- seats
    def seat_for_token(self, token: str) -> int | None:
        """The seat whose token this is; every token is compared, in constant time."""
        found = None
        for player in self.players:
            if same_secret(token, player.token):
                found = player.seat
        return found

    def is_host(self, token: str) -> bool:
        return same_secret(token, self.host_token)

    @property
    def seats_max(self) -> int:
        deal = self.spec.get("deal")
        return len(deal["hands"]) if deal else MAX_PLAYERS

    @property
    def modes(self) -> list[str]:
        if self.state is not None:
            return list(self.state.game.modes)
        return list(self.spec["modes"])  # a path's stage 1 for a campaign

    def connected(self, seat: int) -> bool:
        return seat in self.present

    def seat_public(self, seat: int) -> dict[str, Any]:
        """What every view says of a seat beside the engine's fields."""
        player = self.players[seat]
        return {
            "name": player.name,
            "connected": self.connected(seat),
            "bot": player.bot,
            "stand_in": player.stand_in,
        }

    def player(self, seat: int) -> Player:
        """The seat ``seat``; ``seat_not_found`` when the room has no such seat."""
        if not 0 <= seat < len(self.players):
            raise Refused("seat_not_found", f"This room has no seat {seat}.")
        return self.players[seat]

    @property
    def deal_chosen_by_host(self) -> bool:
        """Whether the host picked the current game's deal (a seed or the hands): then
        the host may know every hand, and every seat is told so. Rematches deal at
        random."""
        return self._deal_chosen(self.game_no)

    def _deal_chosen(self, game_no: int) -> bool:
        chosen = self.spec.get("seed") is not None or self.spec.get("deal") is not None
        return chosen and game_no <= 1

    def deal_choice(self, game_no: int | None = None) -> str | None:
        """``"seed"`` or ``"deal"`` when the host chose the deal of game ``game_no``
        (None: the current one)."""
        if not self._deal_chosen(self.game_no if game_no is None else game_no):
            return None
        return "deal" if self.spec.get("deal") is not None else "seed"

    # ---------------------------------------------------------------- hints
    @property
    def hints_allowed(self) -> bool:
        """Hints are on when the host switched them on, or no other person plays."""
        people = sum(1 for p in self.players if p.human)
        return bool(self.spec.get("hints")) or people <= 1

    def hints_taken(self) -> list[int]:
        """The hints each seat took in the current game."""
        taken = self.hints if self.hints_game == self.game_no else []
        return [taken[s] if s < len(taken) else 0 for s in range(len(self.players))]

    def take_hint(self, seat: int) -> list[int]:
        """Count one hint of ``seat``; the new counts."""
        taken = self.hints_taken()
        taken[seat] += 1
        self.hints, self.hints_game = taken, self.game_no
        return taken

    # ---------------------------------------------------------------- views
    def view(self, seat: int | None) -> dict[str, Any]:
        """The API view of ``seat`` (``None``: a spectator): the engine's view plus the
        server fields. Only views are ever sent to clients, never the state."""
        if self.state is None:
            view = self._lobby_view(seat)
        else:
            view = cast(dict[str, Any], self.state.view(seat))
            for entry in view["players"]:  # the engine gives each view its own entries
                entry.update(self.seat_public(entry["seat"]))
        view.update(self.server_fields())
        return view

    def server_fields(self) -> dict[str, Any]:
        """The fields the server adds at the end of every view."""
        return {
            "room": self.code,
            "version": self.version,
            "campaign": campaign_public(self.campaign),
            "status": self.status,
            "game": self.game_no,
            "deal_chosen_by_host": self.deal_chosen_by_host,
            "deal_choice": self.deal_choice(),
            "hints_allowed": self.hints_allowed,
            "hints_taken": self.hints_taken(),
        }

    def _lobby_view(self, seat: int | None) -> dict[str, Any]:
        """The engine's empty ``View`` with the players who joined."""
        view: dict[str, Any] = dict(lobby_view(seat, self.modes))
        view["players"] = [
            {
                "seat": p.seat,
                "name": p.name,
                "hand_size": 0,
                "has_programmed": False,
                "ready": False,
                "symbiosis_cards": 0,
                "side": None,
                **self.seat_public(p.seat),
            }
            for p in self.players
        ]
        return view

    def public_info(self, spectators: int = 0) -> dict[str, Any]:
        """``GET /api/rooms/{room}``; ``spectators``: the sockets watching it here."""
        return {
            "room": self.code,
            "url": f"/r/{self.code}",
            "status": self.status,
            "modes": self.modes,
            "path": self.spec.get("path"),
            "campaign": campaign_public(self.campaign),
            "players": [{"seat": p.seat, **self.seat_public(p.seat)} for p in self.players],
            "seats_max": self.seats_max,
            "spectators": spectators,
            "version": self.version,
            "result": dict(self.state.result) if self.state and self.state.result else None,
            "created_at": self.created_at,
            "game": self.game_no,
            "deal_chosen_by_host": self.deal_chosen_by_host,
            "deal_choice": self.deal_choice(),
        }

    def replay(self, earlier: dict[str, Any] | None = None) -> dict[str, Any]:
        """The replay of the current game once it is over, or of an ``earlier`` game of
        the room as stored (``load_game``; its campaign is not kept: None)."""
        if earlier is not None:
            game_no, setup, actions = earlier["game_no"], earlier["setup"], earlier["actions"]
            result, campaign = earlier["result"], None
            hints = list(earlier.get("hints") or [])
        elif self.state is None or not self.state.is_over:
            raise Refused("game_not_over", "The replay is available once the game is over.")
        else:
            game_no, setup, actions = self.game_no, self.state.setup, self.state.history
            result, campaign = self.state.result, campaign_public(self.campaign)
            hints = self.hints_taken()
        chosen = self._deal_chosen(game_no)
        return {
            "room": self.code,
            "game": game_no,
            "setup": {**setup, "deal_chosen_by_host": chosen},
            "deal_chosen_by_host": chosen,
            "deal_choice": self.deal_choice(game_no),
            "actions": actions,
            "result": result,
            "campaign": campaign,
            "hints_taken": hints,
        }
