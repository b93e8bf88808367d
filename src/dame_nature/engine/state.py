"""``State``: one play-through of a ``Game``. Everything in it is plain JSON.

The public surface, in the spirit of OpenSpiel and python-chess:

- ``current_players()``: the seats that must act now;
- ``legal_actions(seat)`` / ``is_legal(seat, action)``;
- ``apply(seat, action) -> events``: checks, then changes the state, or raises
  ``IllegalAction`` and changes nothing;
- ``view(seat)``: what that seat (or a spectator, ``None``) may see;
- ``to_json()`` / ``State.from_json()``; ``State.replay(setup, actions)``.

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

import copy
import json
from typing import TYPE_CHECKING, Any

from .cards import CATALOGUE, COLOURS, Card
from .errors import IllegalAction
from .rules.base import Outcome, RevealContext

if TYPE_CHECKING:
    from .game import Game

PUBLIC = -1  # the viewer index of what everyone (spectators too) knows

REASONS: dict[str, str] = {
    "no_slot": "no open slot for it in the web",
    "joker_no_slot": "no open slot of the colour chosen for the Joker",
    "conditions_missing": "its Conditions are not all in place",
    "species_not_open": "the Species it depends on are not installed",
    "already_installed": "this Species is already installed",
    "associated": "an associated Condition needs a Condition revealed just before it",
    "dependent": "a dependent Condition needs a Species revealed just before it",
    "aquatic": "the aquatic web needs a blue Condition revealed just before",
    "temporary": "a temporary Condition not covered by its Species at the end of the turn",
    "side": "this Species does not match its player's Plant/Animal side",
    "climate_change": "climate change: a blue card next to a yellow one",
    "order": "environmental changes: the Condition slots fill in order",
    "reintroduction": (
        "after a Species reintroduction, Conditions are discarded until an animal comes"
    ),
    "invasive": "an invasive species must be played by the first player",
    "pollution_early": "Pollution needs the 4 plants installed at the start of the turn",
    "pollution": "removed by Pollution",
    "cat": "a Cat next to a Species",
    "cat_alone": "a Cat played alone goes to the discard pile",
}


class State:
    """The whole state of one game. Build it with ``Game.new_initial_state``."""

    game: Game
    setup: dict[str, Any]
    hands: list[list[str]]
    programmed: list[str | None]
    ready: list[bool]
    symbiosis_cards: list[int]
    sides: list[str | None]
    first_player: int
    turn: int
    phase: str
    free_symbiosis_used: bool
    pending_give: dict[str, int] | None
    web: dict[str, str | None]
    joker_colours: dict[str, str]
    discard: list[str]
    in_play: list[list[Any]]  # [seat, card] of Cats revealed this turn
    out_of_game: list[str]
    set_aside: list[str]
    known: list[list[list[Any]]]  # per viewer (seats, then PUBLIC): [owner, card]
    revealed_this_turn: list[dict[str, Any]]
    last_turn: list[dict[str, Any]]
    reveal_queue: list[int]
    rule_data: dict[str, dict[str, Any]]
    log: list[dict[str, Any]]
    history: list[dict[str, Any]]
    result: dict[str, Any] | None

    # ---------------------------------------------------------------- creation
    @classmethod
    def new(cls, game: Game, setup: dict[str, Any]) -> State:
        n = game.num_players
        self = cls.__new__(cls)
        self.game = game
        self.setup = copy.deepcopy(setup)
        self.hands = [list(h) for h in setup["hands"]]
        self.programmed = [None] * n
        self.ready = [False] * n
        self.symbiosis_cards = [game.symbiosis_cards_per_player] * n
        self.sides = [None] * n
        self.first_player = setup["first_player"]
        self.turn = 0
        self.phase = "programming"
        self.free_symbiosis_used = False
        self.pending_give = None
        self.web = game.topology.empty_web()
        self.joker_colours = {}
        self.discard = []
        self.in_play = []
        self.out_of_game = []
        self.set_aside = list(setup.get("set_aside", []))
        self.known = [[] for _ in range(n + 1)]  # index n (PUBLIC): what everyone knows
        self.revealed_this_turn = []
        self.last_turn = []
        self.reveal_queue = []
        self.rule_data = {rule.mode: rule.initial_data() for rule in game.rules}
        self.log = []
        self.history = []
        self.result = None
        if game.config.has_side_choice:
            self.phase = "choosing_sides"
        else:
            self._start_turn()
        return self

    #: what ``to_json`` saves: every annotated field but the (shared, immutable) game
    _FIELDS = tuple(name for name in __annotations__ if name != "game")

    def to_json(self) -> dict[str, Any]:
        """The full state as JSON-ready data (a deep copy)."""
        return _deep_copy({name: getattr(self, name) for name in self._FIELDS})

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> State:
        from .game import get_game

        setup = data["setup"]
        self = cls.__new__(cls)
        self.game = get_game(setup["num_players"], tuple(setup["modes"]))
        data = _deep_copy(data)
        for name in cls._FIELDS:
            setattr(self, name, data[name])
        return self

    def clone(self) -> State:
        return State.from_json(self.to_json())

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
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def has_cards(self, seat: int) -> bool:
        return bool(self.hands[seat]) or self.programmed[seat] is not None

    def cards_of(self, seat: int) -> list[str]:
        """The seat's hand and its programmed card."""
        card = self.programmed[seat]
        return self.hands[seat] + ([card] if card is not None else [])

    def max_discards(self) -> int:
        """The most cards the discard pile may hold for a win with this deal: the game's
        maximum less the cards dealt that leave the game once played (Reintroductions)."""
        rules = self.game.rules
        leaving = sum(
            1
            for hand in self.setup["hands"]
            for card in hand
            if any(rule.leaves_game(CATALOGUE.card(card)) for rule in rules)
        )
        return self.game.max_discards - leaving

    def cards_left(self) -> int:
        return sum(len(h) for h in self.hands) + sum(c is not None for c in self.programmed)

    def is_winnable(self) -> bool:
        """False once the game is lost for certain (RULINGS: the unwinnable test)."""
        if self.result is not None:
            return self.result["outcome"] == "won"
        needed = self.game.topology.empty_slot_count(self.web)
        needed += sum(rule.pending_plays(self) for rule in self.game.rules)
        if self.cards_left() < needed:
            return False
        return not any(rule.is_deadlocked(self) for rule in self.game.rules)

    def is_goal_met(self) -> bool:
        return self.game.topology.is_complete(self.web) and all(
            rule.is_goal_met(self) for rule in self.game.rules
        )

    def awaited(self) -> tuple[int, str] | None:
        """The one seat the game waits for, and why, if any."""
        if self.phase == "choosing_sides":
            return self._next_side_chooser(), "choose_side"
        if self.phase == "reveal" and self.reveal_queue:
            return self.reveal_queue[0], "reveal"
        if self.phase == "programming" and self.pending_give is not None:
            return self.pending_give["to"], "give_back"
        return None

    def current_players(self) -> set[int]:
        """The seats that must act before the game can go on."""
        if self.phase == "programming":
            seats = {s for s in range(self.num_players) if self.has_cards(s) and not self.ready[s]}
            if self.pending_give is not None:
                seats.add(self.pending_give["to"])
            return seats
        awaited = self.awaited()
        return {awaited[0]} if awaited else set()

    def symbiosis_kinds(self) -> list[str]:
        return self.game.config.symbiosis_kinds

    def can_use_symbiosis(self, seat: int) -> bool:
        return self.has_free_symbiosis(seat) or self.symbiosis_cards[seat] > 0

    def has_free_symbiosis(self, seat: int) -> bool:
        return seat == self.first_player and not self.free_symbiosis_used

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
    def legal_actions(self, seat: int) -> list[dict[str, Any]]:
        """Every complete action ``seat`` may send now."""
        return [a for group in self.legal_actions_by_type(seat).values() for a in group]

    def legal_actions_by_type(self, seat: int) -> dict[str, list[dict[str, Any]]]:
        """``legal_actions`` grouped by action type (no empty group)."""
        groups: dict[str, list[dict[str, Any]]] = {}
        if self.phase == "over" or not 0 <= seat < self.num_players:
            return groups
        awaited = self.awaited()
        if awaited is not None and awaited[0] == seat:
            groups[awaited[1]] = self._awaited_options(seat, awaited[1])
        if self.phase == "programming":
            self._programming_actions(seat, groups)
        if not self.is_winnable():
            groups["end_game"] = [{"type": "end_game"}]
        return {kind: group for kind, group in groups.items() if group}

    def _awaited_options(self, seat: int, kind: str) -> list[dict[str, Any]]:
        if kind == "choose_side":
            return [{"type": "choose_side", "side": side} for side in ("plant", "animal")]
        if kind == "reveal":
            return [o.action() for o in self._reveal_outcomes(seat)]
        if kind == "give_back":
            return [{"type": "give_back", "card": c} for c in self.cards_of(seat)]
        return []

    def _programming_actions(self, seat: int, groups: dict[str, list[dict[str, Any]]]) -> None:
        groups["program"] = [{"type": "program", "card": c} for c in self.hands[seat]]
        if self.programmed[seat] is not None:
            kind = "unready" if self.ready[seat] else "ready"
            groups[kind] = [{"type": kind}]
        if self.pending_give is not None or not self.can_use_symbiosis(seat):
            return
        mine = self.cards_of(seat)
        others = [s for s in range(self.num_players) if s != seat]
        kinds = self.symbiosis_kinds()
        if "show" in kinds:
            if self.game.config.show_names_one_player:
                groups["show"] = [
                    {"type": "show", "card": c, "to": t} for c in mine for t in others
                ]
            else:
                groups["show"] = [{"type": "show", "card": c} for c in mine]
        if "give" in kinds:
            groups["give"] = [{"type": "give", "card": c, "to": t} for c in mine for t in others]
        if "swap_discard" in kinds:
            takeable = [c for c in self.discard if self._can_take(c)]
            groups["swap_discard"] = [
                {"type": "swap_discard", "card": c, "take": t}
                for c in mine
                if CATALOGUE.card(c).is_condition_like
                for t in takeable
                if t != c
            ]

    def is_legal(self, seat: int, action: dict[str, Any]) -> bool:
        try:
            self._check(seat, action)
        except IllegalAction:
            return False
        return True

    # ---------------------------------------------------------------- apply
    def apply(self, seat: int, action: dict[str, Any]) -> list[dict[str, Any]]:
        """Check ``action`` for ``seat`` and carry it out; the events it caused.

        Raises ``IllegalAction`` (a ``ValueError``) and changes nothing when not allowed.
        """
        handler = self._check(seat, action)
        start = len(self.log)
        handler(seat, action)
        self.history.append({"seat": seat, "action": _clean_action(action)})
        return [dict(e) for e in self.log[start:]]

    def _check(self, seat: int, action: Any) -> Any:
        """Raise ``IllegalAction`` unless ``action`` is legal; return its handler."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.num_players:
            raise IllegalAction("There is no such seat at this table.", "invalid_seat")
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            raise IllegalAction("An action is an object with a 'type'.", "invalid_action")
        kind = action["type"]
        checker = getattr(self, f"_check_{kind}", None)
        if checker is None:
            raise IllegalAction(f"Unknown action type {kind!r}.", "invalid_action")
        if self.phase == "over":
            raise IllegalAction("The game is over.", "game_over")
        checker(seat, action)
        return getattr(self, f"_do_{kind}")

    def _require_phase(self, phase: str, doing: str) -> None:
        if self.phase != phase:
            names = {
                "programming": "during programming",
                "reveal": "during the reveal",
                "choosing_sides": "before the first turn, while players choose their side",
            }
            raise IllegalAction(f"You can {doing} only {names[phase]}.", "wrong_phase")

    def _require_own_card(self, seat: int, action: dict[str, Any], field: str = "card") -> str:
        card = action.get(field)
        if not isinstance(card, str) or not CATALOGUE.has_card(card):
            raise IllegalAction(f"Unknown card {card!r}.", "unknown_card")
        if card not in self.cards_of(seat):
            raise IllegalAction("That card is not in your hand.", "not_your_card")
        return card

    def _require_other_seat(self, seat: int, to: Any) -> int:
        if not isinstance(to, int) or isinstance(to, bool) or not 0 <= to < self.num_players:
            raise IllegalAction("Choose another player of this table.", "invalid_seat")
        if to == seat:
            raise IllegalAction("Choose another player than yourself.", "invalid_seat")
        return to

    def _require_symbiosis(self, seat: int, kind: str) -> None:
        self._require_phase("programming", "make a Symbiosis")
        if kind not in self.symbiosis_kinds():
            raise IllegalAction(
                "Incomplete Symbioses: a Symbiosis can no longer show a card, only exchange one.",
                "symbiosis_not_allowed",
            )
        if self.pending_give is not None:
            raise IllegalAction(
                "Wait until the card given is answered before another Symbiosis.",
                "exchange_pending",
            )
        if not self.can_use_symbiosis(seat):
            raise IllegalAction("You have no Symbiosis left.", "no_symbiosis")

    # programming ------------------------------------------------------
    def _check_program(self, seat: int, action: dict[str, Any]) -> None:
        self._require_phase("programming", "program a card")
        if action.get("card") is not None and action.get("card") == self.programmed[seat]:
            raise IllegalAction("That card is already programmed.", "already_programmed")
        self._require_own_card(seat, action)

    def _do_program(self, seat: int, action: dict[str, Any]) -> None:
        card = action["card"]
        old = self.programmed[seat]
        self.hands[seat].remove(card)
        if old is not None:
            self.hands[seat].append(old)
        self.programmed[seat] = card
        self.ready[seat] = False
        self._event(
            "programmed", {"seat": seat, "replaced": old is not None}, {"card": card}, [seat]
        )

    def _check_ready(self, seat: int, action: dict[str, Any]) -> None:
        self._require_phase("programming", "say you are ready")
        if self.programmed[seat] is None:
            raise IllegalAction("Program a card before saying you are ready.", "not_programmed")
        if self.ready[seat]:
            raise IllegalAction("You are already ready.", "already_ready")

    def _do_ready(self, seat: int, action: dict[str, Any]) -> None:
        self.ready[seat] = True
        self._event("ready", {"seat": seat})
        self._maybe_start_reveal()

    def _check_unready(self, seat: int, action: dict[str, Any]) -> None:
        self._require_phase("programming", "take back your ready")
        if not self.ready[seat]:
            raise IllegalAction("You are not ready yet.", "not_ready")

    def _do_unready(self, seat: int, action: dict[str, Any]) -> None:
        self.ready[seat] = False
        self._event("unready", {"seat": seat})

    # symbioses --------------------------------------------------------
    def _check_show(self, seat: int, action: dict[str, Any]) -> None:
        self._require_symbiosis(seat, "show")
        self._require_own_card(seat, action)
        to = action.get("to")
        if self.game.config.show_names_one_player:
            self._require_other_seat(seat, to)
        elif to is not None:
            raise IllegalAction("A card is shown to every other player.", "invalid_action")

    def _do_show(self, seat: int, action: dict[str, Any]) -> None:
        card, to = action["card"], action.get("to")
        paid = self._pay_symbiosis(seat)
        if to is None:
            audience = [s for s in range(self.num_players) if s != seat]
            self._learn(PUBLIC, seat, card)
        else:
            audience = [to]
        for viewer in audience:
            self._learn(viewer, seat, card)
        self._event(
            "show",
            {"seat": seat, "to": to, "paid_with": paid, **({"card": card} if to is None else {})},
            {"card": card},
            [seat, *audience],
        )
        self._clear_ready()

    def _check_give(self, seat: int, action: dict[str, Any]) -> None:
        self._require_symbiosis(seat, "give")
        self._require_own_card(seat, action)
        self._require_other_seat(seat, action.get("to"))

    def _do_give(self, seat: int, action: dict[str, Any]) -> None:
        card, to = action["card"], action["to"]
        paid = self._pay_symbiosis(seat)
        self._move_secretly(seat, to, card)
        self.pending_give = {"from": seat, "to": to}
        self._event("give", {"seat": seat, "to": to, "paid_with": paid}, {"card": card}, [seat, to])
        self._clear_ready()

    def _check_give_back(self, seat: int, action: dict[str, Any]) -> None:
        self._require_phase("programming", "give a card back")
        if self.pending_give is None or self.pending_give["to"] != seat:
            raise IllegalAction("No one is waiting for a card from you.", "no_exchange")
        self._require_own_card(seat, action)

    def _do_give_back(self, seat: int, action: dict[str, Any]) -> None:
        assert self.pending_give is not None
        card, giver = action["card"], self.pending_give["from"]
        self._move_secretly(seat, giver, card)
        self.pending_give = None
        self._event("give_back", {"seat": seat, "to": giver}, {"card": card}, [seat, giver])
        self._clear_ready()

    def _check_swap_discard(self, seat: int, action: dict[str, Any]) -> None:
        self._require_symbiosis(seat, "swap_discard")
        card = self._require_own_card(seat, action)
        if not CATALOGUE.card(card).is_condition_like:
            raise IllegalAction(
                "Only a Condition card (or a Joker) can be exchanged with the discard pile.",
                "not_a_condition",
            )
        take = action.get("take")
        if not isinstance(take, str) or take not in self.discard:
            raise IllegalAction("That card is not in the discard pile.", "not_in_discard")
        if not self._can_take(take):
            raise IllegalAction("That card was played and cannot be taken back.", "not_takeable")

    def _do_swap_discard(self, seat: int, action: dict[str, Any]) -> None:
        card, take = action["card"], action["take"]
        paid = self._pay_symbiosis(seat)
        self._take_from(seat, card)
        self._forget_card(seat, card)
        self.discard.remove(take)
        self.discard.append(card)
        self.hands[seat].append(take)
        for viewer in [PUBLIC, *range(self.num_players)]:
            self._learn(viewer, seat, take)
        self._event("swap_discard", {"seat": seat, "card": card, "take": take, "paid_with": paid})
        self._clear_ready()

    def _can_take(self, card: str) -> bool:
        return all(rule.can_take_from_discard(self, card) for rule in self.game.rules)

    # before the first turn -------------------------------------------
    def _next_side_chooser(self) -> int:
        n = self.num_players
        for i in range(n):
            seat = (self.first_player + i) % n
            if self.sides[seat] is None:
                return seat
        raise AssertionError("every side is chosen")

    def _check_choose_side(self, seat: int, action: dict[str, Any]) -> None:
        self._require_phase("choosing_sides", "choose your side")
        if seat != self._next_side_chooser():
            raise IllegalAction(
                f"Sides are chosen in seat order from the first player: seat "
                f"{self._next_side_chooser()} chooses now.",
                "not_your_turn",
            )
        if action.get("side") not in ("plant", "animal"):
            raise IllegalAction("Choose the side 'plant' or 'animal'.", "invalid_action")

    def _do_choose_side(self, seat: int, action: dict[str, Any]) -> None:
        self.sides[seat] = action["side"]
        self._event("side_chosen", {"seat": seat, "side": action["side"]})
        if all(side is not None for side in self.sides):
            self._start_turn()

    # ending an unwinnable game -----------------------------------------
    def _check_end_game(self, seat: int, action: dict[str, Any]) -> None:
        if self.is_winnable():
            raise IllegalAction(
                "The game can still be won: it can be ended only once it cannot.", "still_winnable"
            )

    def _do_end_game(self, seat: int, action: dict[str, Any]) -> None:
        self._event("game_ended_by_players", {"seat": seat})
        self._finish("lost")

    # ---------------------------------------------------------------- reveal
    def _check_reveal(self, seat: int, action: dict[str, Any]) -> None:
        self._require_phase("reveal", "choose where your card goes")
        if not self.reveal_queue or self.reveal_queue[0] != seat:
            raise IllegalAction("It is not your turn to reveal.", "not_your_turn")
        wanted = _clean_action(action)
        options = [o.action() for o in self._reveal_outcomes(seat)]
        if wanted not in options:
            raise IllegalAction(_why_not(wanted, options), "illegal_placement")

    def _do_reveal(self, seat: int, action: dict[str, Any]) -> None:
        wanted = _clean_action(action)
        outcome = next(o for o in self._reveal_outcomes(seat) if o.action() == wanted)
        self._resolve(seat, outcome)
        self._advance_reveal()

    def _context(self, seat: int) -> RevealContext:
        programmed = self.programmed[seat]
        assert programmed is not None, "only a programmed card is revealed"
        card = CATALOGUE.card(programmed)
        previous = self.revealed_this_turn[-1] if self.revealed_this_turn else None
        return RevealContext(self, seat, card, previous)

    def _reveal_outcomes(self, seat: int) -> list[Outcome]:
        """Every way the card ``seat`` reveals can resolve now."""
        ctx = self._context(seat)
        rules = self.game.rules
        for rule in rules:
            special = rule.special_outcomes(ctx)
            if special is not None:
                return special
        card = ctx.card
        if card.is_joker:
            outcomes: list[Outcome] = []
            for colour in COLOURS:
                outcomes += self._colour_outcomes(ctx, colour, "joker_no_slot")
            return outcomes
        return self._colour_outcomes(ctx, card.colour, None)

    def _colour_outcomes(
        self, ctx: RevealContext, colour: str | None, no_slot: str | None
    ) -> list[Outcome]:
        """Where the card goes given its colour (a Joker's chosen one): the legal slots, or
        the one discard outcome with its reason."""
        joker_colour = colour if ctx.card.is_joker else None
        reason = self._discard_reason(ctx, colour)
        if reason is None:
            placements = [
                Outcome(slot=sid, colour=joker_colour) for sid in self._slots(ctx, colour)
            ]
            if placements:
                return placements
            reason = no_slot or self._no_slot_reason(ctx.card)
        return [Outcome(colour=joker_colour, reason=reason)]

    def _slots(self, ctx: RevealContext, colour: str | None) -> list[str]:
        topo = self.game.topology
        card = ctx.card
        if card.is_species:
            if not topo.has_species(card.id) or not topo.can_install(self.web, card.id):
                return []
            candidates = [card.id]
        else:
            assert colour is not None, "a Condition or a Joker given a colour"
            candidates = topo.open_condition_slots(self.web, colour)
        rules = self.game.rules
        return [
            sid
            for sid in candidates
            if all(rule.allows_slot(ctx, colour, topo.slots[sid]) for rule in rules)
        ]

    def _discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        for rule in self.game.rules:
            reason = rule.discard_reason(ctx, colour)
            if reason is not None:
                return reason
        return None

    def _no_slot_reason(self, card: Card) -> str:
        topo = self.game.topology
        if not card.is_species:
            return "no_slot"
        if self.web.get(card.id) is not None:
            return "already_installed"
        if not topo.is_open(self.web, card.id):
            return "species_not_open"
        return "conditions_missing"

    def _resolve(self, seat: int, outcome: Outcome) -> None:
        ctx = self._context(seat)
        card = ctx.card.id
        self.programmed[seat] = None
        self.reveal_queue.pop(0)
        self._forget_card(seat, card)
        if outcome.special:
            owner = next(r for r in self.game.rules if r.special_outcomes(ctx) is not None)
            result = owner.resolve_special(ctx, outcome)
        elif outcome.slot is not None:
            self.web[outcome.slot] = card
            if ctx.card.is_joker and outcome.colour is not None:
                self.joker_colours[card] = outcome.colour
            result = "placed"
        else:
            self.discard.append(card)
            result = "discarded"
        record = {
            "seat": seat,
            "card": card,
            "result": result,
            "slot": outcome.slot,
            "colour": outcome.colour if outcome.colour is not None else ctx.card.colour,
            "reason": outcome.reason if result == "discarded" else None,
            "target": outcome.target,
        }
        self.revealed_this_turn.append(record)
        self._event("revealed", dict(record))
        for rule in self.game.rules:
            rule.after_reveal(ctx, record)
        if self.is_goal_met():
            self._finish("won")

    def _maybe_start_reveal(self) -> None:
        seats = [s for s in range(self.num_players) if self.has_cards(s)]
        if self.pending_give is not None or not all(
            self.programmed[s] is not None and self.ready[s] for s in seats
        ):
            return
        n = self.num_players
        order = [(self.first_player + i) % n for i in range(n)]
        self.reveal_queue = [s for s in order if self.programmed[s] is not None]
        self.phase = "reveal"
        self._event("reveal_started", {"order": list(self.reveal_queue)})
        self._advance_reveal()

    def _advance_reveal(self) -> None:
        """Resolve reveals that need no choice; stop at the first real choice."""
        while self.phase == "reveal" and self.reveal_queue:
            seat = self.reveal_queue[0]
            outcomes = self._reveal_outcomes(seat)
            if len(outcomes) > 1:
                self._event("awaiting_reveal", {"seat": seat, "card": self.programmed[seat]})
                return
            self._resolve(seat, outcomes[0])
        if self.phase == "reveal":
            self._end_turn()

    # ---------------------------------------------------------------- turns
    def _start_turn(self) -> None:
        self.turn += 1
        self.phase = "programming"
        self.ready = [False] * self.num_players
        self.free_symbiosis_used = False
        for rule in self.game.rules:
            rule.start_of_turn(self)
        self._event("turn_started", {"turn": self.turn, "first_player": self.first_player})

    def _end_turn(self) -> None:
        for rule in self.game.rules:
            rule.end_of_turn(self)
        self.last_turn = self.revealed_this_turn
        self.revealed_this_turn = []
        self.reveal_queue = []
        self._event("turn_ended", {"turn": self.turn})
        if self.is_goal_met():
            self._finish("won")
            return
        if self.cards_left() == 0:
            self._finish("lost")
            return
        self.first_player = (self.first_player + 1) % self.num_players
        self._start_turn()

    def _finish(self, outcome: str) -> None:
        self.phase = "over"
        self.reveal_queue = []
        self.result = {"outcome": outcome, "discards": len(self.discard)}
        self._event("game_over", dict(self.result))

    # ---------------------------------------------------------------- helpers for rules
    def discard_from_web(self, slot: str, reason: str) -> str | None:
        """Move the card of ``slot`` to the discard pile (Climate change, Cats, Pollution,
        temporary Conditions); the card moved, if any."""
        card = self.web[slot]
        if card is None:
            return None
        self.web[slot] = None
        self.joker_colours.pop(card, None)
        self.discard.append(card)
        for record in self.revealed_this_turn:
            if record["card"] == card and record["result"] == "placed":
                record.update(result="discarded", reason=reason)
        self._event("removed_from_web", {"card": card, "slot": slot, "reason": reason})
        return card

    def return_to_hand(self, seat: int, card: str) -> None:
        """A card in play goes back to its player's hand, seen by everyone (Cats)."""
        self.hands[seat].append(card)
        for viewer in [PUBLIC, *range(self.num_players)]:
            self._learn(viewer, seat, card)

    def event(self, kind: str, public: dict[str, Any]) -> None:
        self._event(kind, public)

    # ---------------------------------------------------------------- internals
    def _pay_symbiosis(self, seat: int) -> str:
        if self.has_free_symbiosis(seat):
            self.free_symbiosis_used = True
            return "free"
        self.symbiosis_cards[seat] -= 1
        return "card"

    def _clear_ready(self) -> None:
        self.ready = [False] * self.num_players

    def _take_from(self, seat: int, card: str) -> None:
        if self.programmed[seat] == card:
            self.programmed[seat] = None
            self.ready[seat] = False
        else:
            self.hands[seat].remove(card)

    def _move_secretly(self, giver: int, receiver: int, card: str) -> None:
        """A card changes hands face down: only the two players know which."""
        self._take_from(giver, card)
        self.hands[receiver].append(card)
        self._forget_card(giver, card)
        # everyone else can no longer tell which of the giver's cards left
        for viewer in [PUBLIC, *range(self.num_players)]:
            if viewer not in (giver, receiver):
                self.known[viewer] = [k for k in self.known[viewer] if k[0] != giver]
        self._learn(giver, receiver, card)

    def _learn(self, viewer: int, owner: int, card: str) -> None:
        if viewer == owner:
            return
        entries = self.known[viewer]
        if [owner, card] not in entries:
            entries.append([owner, card])

    def _forget_card(self, owner: int, card: str) -> None:
        """``card`` left ``owner``: nobody knows it as theirs any more."""
        for i, entries in enumerate(self.known):
            if [owner, card] in entries:
                self.known[i] = [k for k in entries if k != [owner, card]]

    def _event(
        self,
        kind: str,
        public: dict[str, Any],
        private: dict[str, Any] | None = None,
        seen_by: list[int] | None = None,
    ) -> None:
        event: dict[str, Any] = {"type": kind, "turn": self.turn, **public}
        if private:
            event["_private"] = private
            event["_seen_by"] = sorted(set(seen_by or []))
        self.log.append(event)

    # ---------------------------------------------------------------- view
    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` (``None``: a spectator) may see; see ``view.build_view``."""
        from .view import build_view

        return build_view(self, seat)


def _deep_copy(data: Any) -> Any:
    """A deep copy of JSON data (faster than ``copy.deepcopy`` for it)."""
    return json.loads(json.dumps(data))


#: the fields each action type carries (others are ignored and not recorded)
ACTION_FIELDS: dict[str, tuple[str, ...]] = {
    "program": ("card",),
    "ready": (),
    "unready": (),
    "show": ("card", "to"),
    "give": ("card", "to"),
    "give_back": ("card",),
    "swap_discard": ("card", "take"),
    "reveal": ("slot", "colour", "target"),
    "choose_side": ("side",),
    "end_game": (),
}


def _clean_action(action: dict[str, Any]) -> dict[str, Any]:
    """The action as recorded: its type and its own fields only; a reveal always carries
    slot, colour and target, a Show its ``to`` only when it names a player."""
    kind = action.get("type")
    clean = {"type": kind}
    for name in ACTION_FIELDS.get(kind, ()) if isinstance(kind, str) else ():
        if kind == "reveal" or action.get(name) is not None:
            clean[name] = action.get(name)
    return clean


def _why_not(wanted: dict[str, Any], options: list[dict[str, Any]]) -> str:
    slots = sorted({o["slot"] for o in options if o["slot"] is not None})
    if wanted.get("colour") is not None and all(o["colour"] is None for o in options):
        return "Only a Joker is given a colour."
    if all(o["colour"] is not None for o in options) and wanted.get("colour") is None:
        return "Choose a colour for your Joker."
    if wanted.get("slot") is None and slots:
        return "Your card can be placed, so it must be: choose one of " + ", ".join(slots) + "."
    if slots:
        return "Your card cannot go there; it can go to " + ", ".join(slots) + "."
    return "Your card cannot be placed there."
