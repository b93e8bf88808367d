"""``State``: one play-through of a ``Game``. Everything in it is saved as plain JSON
(``to_json``; the history, the log's private parts and who knows which card are kept in
shapes the cyclic collector does not walk, see ``history.py`` and ``changes.py``).

The public surface, in the spirit of OpenSpiel and python-chess:

- ``current_players()``: the seats that must act now;
- ``legal_actions(seat)`` / ``is_legal(seat, action)``;
- ``apply(seat, action) -> events``: checks, then changes the state, or raises
  ``IllegalAction`` and changes nothing;
- ``view(seat)``: what that seat (or a spectator, ``None``) may see;
- ``to_json()`` / ``State.from_json()``; ``State.replay(setup, actions)``; ``clone()``.

The state keeps the data and answers queries; what each action does is in
``actions.py`` (the registry), the writes actions and rules make in ``changes.py``,
the reveal and the turn cycle in ``reveal.py``, who knows which card in
``knowledge.py``, and the views in ``view.py``.

>>> from dame_nature.engine import Game
>>> state = Game(3).new_initial_state(seed=1)
>>> state.phase, state.turn, sorted(state.current_players())
('programming', 1, [0, 1, 2])
>>> card = state.hands[0][0]
>>> [e["type"] for e in state.apply(0, {"type": "program", "card": card})]
['programmed']
>>> state.programmed[0] == card
True
"""

from __future__ import annotations

import json
from bisect import insort
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from . import knowledge, reveal
from .actions import ACTIONS, ACTIONS_BY_PHASE, CARD_IDS, Action
from .cards import CATALOGUE
from .changes import StateChanges, event_from_json, event_to_json
from .enums import CHOOSING_SIDES, OVER, PROGRAMMING, REVEAL, Phase
from .errors import IllegalAction
from .history import History
from .knowledge import PUBLIC
from .pace import MAX_CHANGES_PER_TURN, changes_this_turn
from .reveal import REASONS, REASONS_FR
from .rules.base import Outcome

if TYPE_CHECKING:
    from .game import Game
    from .view import PublicPart, View

__all__ = ["PUBLIC", "REASONS", "REASONS_FR", "State"]


class State(StateChanges):
    """The whole state of one game. Build it with ``Game.new_initial_state``."""

    game: Game
    num_players: int  # the game's (kept here: read on every action)
    setup: dict[str, Any]
    hands: list[list[str]]
    programmed: list[str | None]
    ready: list[bool]
    symbiosis_cards: list[int]
    first_player: int
    turn: int
    phase: str
    free_symbiosis_used: bool
    pending_give: dict[str, int] | None
    web: dict[str, str | None]
    joker_colours: dict[str, str]
    discard: list[str]
    set_aside: list[str]
    known: knowledge.Knowledge  # per viewer (seats, then PUBLIC): [owner, card]
    revealed_this_turn: list[dict[str, Any]]
    last_turn: list[dict[str, Any]]
    reveal_queue: list[int]
    rule_data: dict[str, dict[str, Any]]
    log: list[dict[str, Any]]
    history: History  # read as ``[{"seat", "action"}, ..]``, kept as atoms
    result: dict[str, Any] | None
    _awaited: list[Outcome] | None
    _awaited_at: int
    _winnable: int | None
    _max_discards: int | None
    _public: PublicPart | None
    _observer: Callable[[str, int | None], None] | None
    _changes: int | None
    _changes_turn: int

    #: what ``to_json`` saves: every annotated field but the (shared, immutable) game
    _FIELDS = tuple(
        n for n in __annotations__ if n not in ("game", "num_players") and not n.startswith("_")
    )
    #: derived, never saved: the outcomes of the reveal the game waits for and which
    #: wait they are of (``8 * len(log) + seat``, see ``reveal.awaited_outcomes``), the winnable
    #: test (``2 * len(log) + winnable``: an int, which the cyclic collector neither
    #: tracks nor counts, where a tuple would be made a version) and the deal's
    #: ``max_discards``. A state changes only through ``apply``, and every change logs an
    #: event: the log's length versions it.
    __slots__ = (
        "game",
        "num_players",
        *_FIELDS,
        "_awaited",
        "_awaited_at",
        "_winnable",
        "_max_discards",
    )
    __slots__ += ("_public",)  # the views' shared part at this version (``view.py``)
    __slots__ += ("_observer",)  # told of each reveal and end of turn (``replay.py``)
    #: the changes of each seat this turn, and the turn: see ``pace.changes_this_turn``
    __slots__ += ("_changes", "_changes_turn")

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(cls, game: Game, setup: dict[str, Any]) -> State:
        n = game.num_players
        self = cls.__new__(cls)
        self.game = game
        self.num_players = n
        self.setup = _deep_copy(setup)
        # one string per card id (the catalogue's): lighter states and logs
        self.setup["hands"] = [[CARD_IDS.get(c, c) for c in h] for h in setup["hands"]]
        self.hands = [list(h) for h in self.setup["hands"]]
        self.programmed = [None] * n
        self.ready = [False] * n
        self.symbiosis_cards = [game.symbiosis_cards_per_player] * n
        self.first_player = setup["first_player"]
        self.turn = 0
        self.phase = Phase.PROGRAMMING.value
        self.free_symbiosis_used = False
        self.pending_give = None
        self.web = game.topology.empty_web()
        self.joker_colours = {}
        self.discard = []
        self.set_aside = list(setup.get("set_aside", []))
        self.known = knowledge.new_knowledge(n)
        self.revealed_this_turn = []
        self.last_turn = []
        self.reveal_queue = []
        self.rule_data = {rule.mode: rule.initial_data() for rule in game.rules}
        self.log = []
        self.history = History()
        self.result = None
        self._awaited = None
        self._awaited_at = -1
        self._winnable = None
        self._max_discards = None
        self._public = None
        self._observer = None
        self._changes = None
        self._changes_turn = -1
        if game.first_phase is not None:
            self.phase = game.first_phase
        else:
            reveal.start_turn(self)
        return self

    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data (a deep copy)."""
        return _deep_copy(self.json_data())

    def json_data(self) -> dict[str, Any]:
        """``to_json``'s data before its copy: the state's own lists and dicts (the
        history's entries and the log's events with a private part made anew), to be
        serialised at once and never changed or kept (``provenance.state_digest``)."""
        data = {name: getattr(self, name) for name in self._FIELDS}
        data["history"] = list(self.history)
        data["log"] = [event_to_json(e) for e in self.log]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        from .game import get_game

        setup = data["setup"]
        self = cls.__new__(cls)
        self.game = get_game(setup["num_players"], tuple(setup["modes"]))
        self.num_players = self.game.num_players
        data = _deep_copy(data)
        for name in cls._FIELDS:
            setattr(self, name, data[name])
        self.history = History(data["history"])
        self.log = [event_from_json(e) for e in self.log]
        self.known = knowledge.from_json(data["known"])
        self._awaited = None
        self._awaited_at = -1
        self._winnable = None
        self._max_discards = None
        self._public = None
        self._observer = None
        self._changes = None
        self._changes_turn = -1
        return self

    def clone(self) -> State:
        """An independent copy, for search: equal to ``from_json(to_json())``, much
        faster. Events of the log and entries of the history are never changed once
        written, so the copy shares them; everything that can change is copied."""
        new = State.__new__(State)
        new.game = self.game
        new.num_players = self.num_players
        new.setup = self.setup  # never changed after creation
        new.hands = [h[:] for h in self.hands]
        new.programmed = self.programmed[:]
        new.ready = self.ready[:]
        new.symbiosis_cards = self.symbiosis_cards[:]
        new.first_player = self.first_player
        new.turn = self.turn
        new.phase = self.phase
        new.free_symbiosis_used = self.free_symbiosis_used
        new.pending_give = None if self.pending_give is None else dict(self.pending_give)
        new.web = self.web.copy()
        new.joker_colours = self.joker_colours.copy()
        new.discard = self.discard[:]
        new.set_aside = self.set_aside[:]
        new.known = [entries[:] for entries in self.known]  # pairs are never changed
        new.revealed_this_turn = [record.copy() for record in self.revealed_this_turn]
        new.last_turn = [record.copy() for record in self.last_turn]
        new.reveal_queue = self.reveal_queue[:]
        new.rule_data = _deep_copy_fast(self.rule_data)
        new.log = self.log[:]
        new.history = self.history.copy()
        new.result = None if self.result is None else dict(self.result)
        new._awaited = None
        new._awaited_at = -1
        new._winnable = self._winnable
        new._max_discards = self._max_discards
        new._public = None
        new._observer = None
        new._changes = self._changes  # (an int: replaced, never changed)
        new._changes_turn = self._changes_turn
        return new

    @classmethod
    def replay(cls, setup: dict[str, Any], actions: list[dict[str, Any]]) -> State:
        """Rebuild a game from its setup and its ``[{"seat", "action"}, ..]`` history."""
        from .game import get_game

        game = get_game(setup["num_players"], tuple(setup["modes"]))
        state = cls.new(game, setup)
        for step in actions:
            state.apply(step["seat"], step["action"])
        return state

    def __repr__(self) -> str:
        return (
            f"<State {self.game!r} turn={self.turn} phase={self.phase} "
            f"first_player={self.first_player}>"
        )

    # ---------------------------------------------------------------- queries
    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def sides(self) -> list[str | None]:
        """Each player's Plant/Animal side (Species biodiversity; else all ``None``)."""
        for rule in self.game.hooks.sides:
            sides = rule.sides(self)
            if sides is not None:
                return sides
        return [None] * self.num_players

    @property
    def in_play(self) -> list[list[Any]]:
        """``[seat, card]`` of the cards revealed this turn that wait for its end (Cats)."""
        return [
            entry for rule in self.game.hooks.cards_in_play for entry in rule.cards_in_play(self)
        ]

    @property
    def out_of_game(self) -> list[str]:
        """The cards played that left the game (Reintroductions)."""
        return [
            c for rule in self.game.hooks.cards_out_of_game for c in rule.cards_out_of_game(self)
        ]

    def has_cards(self, seat: int) -> bool:
        return bool(self.hands[seat]) or self.programmed[seat] is not None

    def cards_of(self, seat: int) -> list[str]:
        """The seat's hand and its programmed card."""
        card = self.programmed[seat]
        return self.hands[seat] + [card] if card is not None else self.hands[seat][:]

    def max_discards(self) -> int:
        """The most cards the discard pile may hold for a win with this deal: the game's
        maximum less the cards dealt that leave the game once played (Reintroductions)."""
        if self._max_discards is None:
            rules = self.game.hooks.leaves_game
            leaving = sum(
                1
                for hand in self.setup["hands"]
                for card in hand
                if any(rule.leaves_game(CATALOGUE.card(card)) for rule in rules)
            )
            self._max_discards = self.game.max_discards - leaving
        return self._max_discards

    def cards_left(self) -> int:
        return sum(map(len, self.hands)) + self.num_players - self.programmed.count(None)

    def is_winnable(self) -> bool:
        """False once the game is lost for certain (docs/rulings.md: the unwinnable test)."""
        cached = self._winnable
        if cached is not None and cached >> 1 == len(self.log):
            return bool(cached & 1)
        if self.result is not None:
            winnable = self.result["outcome"] == "won"
        else:
            hooks = self.game.hooks
            needed = self.game.topology.empty_slot_count(self.web)
            for rule in hooks.pending_plays:
                needed += rule.pending_plays(self)
            winnable = self.cards_left() >= needed and not any(
                rule.is_deadlocked(self) for rule in hooks.is_deadlocked
            )
        self._winnable = 2 * len(self.log) + winnable
        return winnable

    def is_goal_met(self) -> bool:
        return self.game.topology.is_complete(self.web) and all(
            rule.is_goal_met(self) for rule in self.game.hooks.is_goal_met
        )

    def awaited(self) -> tuple[int, str] | None:
        """The one seat the game waits for, and why, if any."""
        phase = self.phase
        if phase == PROGRAMMING:
            if self.pending_give is not None:
                return _AWAITED["give_back"][self.pending_give["to"]]
            return None
        if phase == REVEAL and self.reveal_queue:
            return _AWAITED["reveal"][self.reveal_queue[0]]
        if phase == CHOOSING_SIDES:
            return _AWAITED["choose_side"][self.next_side_chooser()]
        return None

    def current_players(self) -> set[int]:
        """The seats that must act before the game can go on."""
        if self.phase == PROGRAMMING:
            hands, programmed, ready = self.hands, self.programmed, self.ready
            seats = {
                s
                for s in range(self.num_players)
                if (hands[s] or programmed[s] is not None) and not ready[s]
            }
            if self.pending_give is not None:
                seats.add(self.pending_give["to"])
            return seats
        awaited = self.awaited()
        return {awaited[0]} if awaited else set()

    def to_act(self) -> list[int]:
        """``current_players()`` in seat order: the seats the table waits for (during
        programming, built in order: no set made and sorted)."""
        if self.phase == PROGRAMMING:
            hands, programmed, ready = self.hands, self.programmed, self.ready
            seats = [
                s
                for s in range(self.num_players)
                if (hands[s] or programmed[s] is not None) and not ready[s]
            ]
            if self.pending_give is not None and self.pending_give["to"] not in seats:
                insort(seats, self.pending_give["to"])
            return seats
        return sorted(self.current_players())

    def next_side_chooser(self) -> int:
        n = self.num_players
        for i in range(n):
            seat = (self.first_player + i) % n
            if self.sides[seat] is None:
                return seat
        raise AssertionError("every side is chosen")

    def symbiosis_kinds(self) -> list[str]:
        return self.game.config.symbiosis_kinds

    def can_use_symbiosis(self, seat: int) -> bool:
        return self.has_free_symbiosis(seat) or self.symbiosis_cards[seat] > 0

    def show_recipients(self, seat: int) -> list[int | None]:
        """Whom ``seat`` may show a card to: ``[None]`` (everyone at once), or the players
        one of whom a Show must name (Privileged Symbioses)."""
        recipients: list[int | None] = [None]
        for rule in self.game.hooks.show_recipients:
            recipients = rule.show_recipients(self, seat, recipients)
        return recipients

    def can_take(self, card: str) -> bool:
        """Whether a discard swap may take ``card`` from the discard pile."""
        return all(
            rule.can_take_from_discard(self, card) for rule in self.game.hooks.can_take_from_discard
        )

    def takeable(self) -> list[str]:
        """The cards of the discard pile a discard swap may take, in its order."""
        if not self.game.hooks.can_take_from_discard:
            return self.discard[:]
        return [card for card in self.discard if self.can_take(card)]

    def location_of(self, card: str) -> str:
        """Where a card is: ``hand:S``, ``programmed:S``, ``web:SLOT``, ``discard``,
        ``in_play:S``, ``out``, ``set_aside`` (for invariants and tests)."""
        for seat, hand in enumerate(self.hands):
            if card in hand:
                return f"hand:{seat}"
        for seat, prog in enumerate(self.programmed):
            if prog == card:
                return f"programmed:{seat}"
        for slot, c in self.web.items():
            if c == card:
                return f"web:{slot}"
        if card in self.discard:
            return "discard"
        for seat, c in self.in_play:
            if c == card:
                return f"in_play:{seat}"
        if card in self.out_of_game:
            return "out"
        if card in self.set_aside:
            return "set_aside"
        raise KeyError(card)

    # ---------------------------------------------------------------- legality
    def legal_action_types(self, seat: int) -> list[str]:
        """The action types ``seat`` has at least one legal action of, in the order of
        ``legal_actions`` (cheap: no action is listed)."""
        if not 0 <= seat < self.num_players:
            return []
        if self.phase == PROGRAMMING:
            return list(programming_types(self, seat))
        return [name for name, available in _AVAILABLE[self.phase] if available(self, seat)]

    def legal_options(self, seat: int, kind: str) -> list[Action]:
        """Every legal action of type ``kind`` for ``seat`` (empty when none)."""
        spec = ACTIONS.get(kind)
        if (
            spec is None
            or self.phase not in spec.phases
            or not 0 <= seat < self.num_players
            or not spec.available(self, seat)
        ):
            return []
        return spec.options(self, seat)

    def legal_actions(self, seat: int) -> list[Action]:
        """Every complete action ``seat`` may send now."""
        return [
            a for kind in self.legal_action_types(seat) for a in ACTIONS[kind].options(self, seat)
        ]

    def legal_actions_by_type(self, seat: int) -> dict[str, list[Action]]:
        """``legal_actions`` grouped by action type (no empty group)."""
        return {kind: ACTIONS[kind].options(self, seat) for kind in self.legal_action_types(seat)}

    def is_legal(self, seat: int, action: Action) -> bool:
        try:
            self._check(seat, action)
        except IllegalAction:
            return False
        return True

    # ---------------------------------------------------------------- apply
    def apply(self, seat: int, action: Action) -> list[dict[str, Any]]:
        """Check ``action`` for ``seat`` and carry it out; the events it caused.

        Raises ``IllegalAction`` (a ``ValueError``) and changes nothing when not allowed.
        """
        spec = self._check(seat, action)
        log = self.log
        start = len(log)
        clean = spec.clean(action)
        spec.apply(self, seat, clean)
        self.history.add(seat, clean)
        return list(map(dict, log[start:]))

    def _check(self, seat: int, action: Any) -> Any:
        """Raise ``IllegalAction`` unless ``action`` is legal; return its spec."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise IllegalAction("There is no such seat at this table.", "invalid_seat")
        kind = action.get("type") if isinstance(action, dict) else None
        if not isinstance(kind, str):
            raise IllegalAction("An action is an object with a 'type'.", "invalid_action")
        spec = ACTIONS.get(kind)
        if spec is None:
            raise IllegalAction(f"Unknown action type {kind!r}.", "invalid_action")
        if self.phase == OVER:
            raise IllegalAction("The game is over.", "game_over")
        spec.check(self, seat, action)
        return spec

    def reveal_outcomes(self, seat: int) -> list[Outcome]:
        """Every way the card ``seat`` reveals can resolve now."""
        return reveal.outcomes(self, reveal.context(self, seat))

    # ---------------------------------------------------------------- view
    def view(self, seat: int | None = None) -> View:
        """What ``seat`` (``None``: a spectator) may see; see ``view.build_view``."""
        from .view import build_view

        return build_view(self, seat)


#: ``awaited``'s answers, one tuple for the process each (by why, then seat: a seat is
#: under 8), so that a version's views keep no tuple of their own
_AWAITED: dict[str, tuple[tuple[int, str], ...]] = {
    why: tuple((seat, why) for seat in range(8)) for why in ("give_back", "reveal", "choose_side")
}


#: for each phase, its action types' names and ``available`` methods, in ``ACTIONS``
#: order (``ACTIONS_BY_PHASE``'s, bound once)
_AVAILABLE: dict[str, tuple[tuple[str, Callable[[State, int], bool]], ...]] = {
    phase: tuple((spec.name, spec.available) for spec in specs)
    for phase, specs in ACTIONS_BY_PHASE.items()
}


_SWAP_DISCARD = ACTIONS["swap_discard"]


#: the programming phase's action types, in ``ACTIONS`` order, and a bit for each
_PROGRAMMING_NAMES = tuple(spec.name for spec in ACTIONS_BY_PHASE[PROGRAMMING])
GIVE_BACK, PROGRAM, READY, UNREADY, SHOW, GIVE, SWAP_DISCARD, END_GAME = (
    1 << _PROGRAMMING_NAMES.index(name)
    for name in ("give_back", "program", "ready", "unready", "show", "give", "swap_discard")
    + ("end_game",)
)
#: ``programming_types``' answers by their bits: one tuple for the process for each set
#: of types (a view's part keeps it, and no list is made for an answer)
_PROGRAMMING_TYPES: tuple[tuple[str, ...], ...] = tuple(
    tuple(name for i, name in enumerate(_PROGRAMMING_NAMES) if bits >> i & 1)
    for bits in range(1 << len(_PROGRAMMING_NAMES))
)


def programming_types(state: State, seat: int, winnable: bool | None = None) -> tuple[str, ...]:
    """``legal_action_types`` during programming, as the one tuple of the process for
    that set of types: the ``available`` of each programming type (``actions.py``,
    ``symbioses.py``), in ``ACTIONS`` order, with the facts they share (the seat's cards,
    its changes left, its Symbioses, the card given waiting) read once in one frame,
    where a call of each type's method costs more than the check itself
    (``tests/engine/test_actions.py`` compares it with the types' methods on random
    states of every advanced rule). ``winnable``: ``state.is_winnable()``, when the
    caller has it already (the views' shared part)."""
    hand = state.hands[seat]
    programmed = state.programmed[seat]
    ready = state.ready[seat]
    pending = state.pending_give
    # (each branch finds ``program``, ``ready`` and ``unready``: a seat may change, program
    # or take back its "ready", while it has no card programmed, else while it holds a
    # card or is ready and its changes this turn are under the bound)
    if programmed is None:
        holds = bool(hand)
        bits = PROGRAM if hand else 0
        if ready:
            bits |= UNREADY
    else:
        holds = True
        bits = 0 if ready else READY
        if (hand or ready) and changes_this_turn(state, seat) < MAX_CHANGES_PER_TURN:
            if hand:
                bits |= PROGRAM
            if ready:
                bits |= UNREADY
    if pending is not None:
        if pending["to"] == seat and holds:
            bits |= GIVE_BACK
    elif holds and (
        state.symbiosis_cards[seat] > 0
        or (seat == state.first_player and not state.free_symbiosis_used)
    ):
        kinds = state.game.config.symbiosis_kinds
        if "show" in kinds:
            bits |= SHOW
        if "give" in kinds:
            bits |= GIVE
        if state.discard and _SWAP_DISCARD.available(state, seat):
            bits |= SWAP_DISCARD
    if not (state.is_winnable() if winnable is None else winnable):
        bits |= END_GAME
    return _PROGRAMMING_TYPES[bits]


def _deep_copy(data: Any) -> Any:
    """A deep copy of JSON data (faster than ``copy.deepcopy`` for it)."""
    return json.loads(json.dumps(data))


def _deep_copy_fast(data: Any) -> Any:
    """A deep copy of small JSON data (dicts, lists, scalars)."""
    if isinstance(data, dict):
        return {k: _deep_copy_fast(v) for k, v in data.items()}
    if isinstance(data, list):
        return [_deep_copy_fast(v) for v in data]
    return data
