"""``Game``: one configuration (player count and advanced rules), apart from any play-through.

>>> game = Game(5)
>>> len(game.deck)
35
>>> game.max_discards
5
>>> state = game.new_initial_state(seed=7)
>>> [len(h) for h in state.hands]
[7, 7, 7, 7, 7]
"""

from __future__ import annotations

import random
from collections import Counter
from functools import cache
from typing import Any

from .cards import CATALOGUE
from .errors import InvalidSetup
from .rules import MODES, RULES
from .rules.base import GameConfig, Rule
from .web import WebTopology

MIN_PLAYERS = 3
MAX_PLAYERS = 6


def normalise_modes(modes: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The modes in their canonical order, checked.

    >>> normalise_modes(["first_predator", "wetland"])
    ('wetland', 'first_predator')
    """
    unknown = [m for m in modes if m not in RULES]
    if unknown:
        raise InvalidSetup(
            f"Unknown advanced rule {unknown[0]!r}. Known rules: {', '.join(MODES)}.",
            "unknown_mode",
        )
    if len(set(modes)) != len(modes):
        raise InvalidSetup("An advanced rule is listed twice.", "duplicate_mode")
    return tuple(m for m in MODES if m in modes)


class Game:
    """Player count and active rules; builds the deck, the web topology and new states."""

    def __init__(self, num_players: int, modes: list[str] | tuple[str, ...] = ()) -> None:
        if not isinstance(num_players, int) or not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
            raise InvalidSetup(
                f"Dame Nature is played by {MIN_PLAYERS} to {MAX_PLAYERS} players.",
                "player_count",
            )
        self.num_players = num_players
        self.modes = normalise_modes(modes)
        self.rules: tuple[Rule, ...] = tuple(RULES[m]() for m in self.modes)
        cfg = GameConfig(num_players)
        for rule in self.rules:
            rule.configure(cfg)
        self.config = cfg
        self.hooks = Hooks(self.rules)
        self.first_phase: str | None = next(
            (phase for rule in self.rules if (phase := rule.first_phase()) is not None), None
        )
        self.topology = WebTopology(cfg.webs())
        setup = CATALOGUE.setup_by_players[num_players]
        self.symbiosis_cards_per_player: int = setup["symbiosis_cards_per_player"]
        base = [
            c.id
            for c in CATALOGUE.cards.values()
            if c.set == "base" and c.type in ("condition", "joker") and num_players in c.players
        ]
        species = list(self.topology.spots)
        #: every card dealt for sure; plus ``draw.count`` cards of each ``config.draws`` pool
        self.fixed_cards: list[str] = base + species + list(cfg.extra_cards)
        self.deck_size = len(self.fixed_cards) + sum(d.count for d in cfg.draws)
        #: the rulebook's "maximum number of cards discarded" to win: every card but those
        #: that fill the web may end in the discard pile (Cats and Pollutions must)
        self.max_discards = self.deck_size - len(self.topology.slots)

    @property
    def deck(self) -> list[str]:
        """The fixed part of the deck (random draws not included)."""
        return list(self.fixed_cards)

    def __repr__(self) -> str:
        return f"Game({self.num_players}, {list(self.modes)!r})"

    # ----------------------------------------------------------------- setup
    def hand_sizes(self, first_player: int) -> list[int]:
        """Hand sizes of a round-robin deal starting with ``first_player``."""
        n = self.num_players
        base, extra = divmod(self.deck_size, n)
        sizes = [base] * n
        for i in range(extra):
            sizes[(first_player + i) % n] += 1
        return sizes

    def random_setup(self, seed: int) -> dict[str, Any]:
        rng = random.Random(seed)
        deck = list(self.fixed_cards)
        set_aside: list[str] = []
        for draw in self.config.draws:
            pool = list(draw.pool)
            rng.shuffle(pool)
            deck += pool[: draw.count]
            set_aside += sorted(pool[draw.count :])
        rng.shuffle(deck)
        first_player = rng.randrange(self.num_players)
        hands: list[list[str]] = [[] for _ in range(self.num_players)]
        for i, card in enumerate(deck):
            hands[(first_player + i) % self.num_players].append(card)
        return {"hands": hands, "first_player": first_player, "set_aside": set_aside}

    def check_deal(self, deal: dict[str, Any]) -> dict[str, Any]:
        """Check an explicit deal: the right cards for the count and modes, each once."""
        if not isinstance(deal, dict):
            raise InvalidSetup(
                "A deal is an object with 'hands' and 'first_player'.", "invalid_deal"
            )
        hands = deal.get("hands")
        first = deal.get("first_player", 0)
        n = self.num_players
        if not isinstance(hands, list) or not all(isinstance(h, list) for h in hands):
            raise InvalidSetup("A deal's 'hands' is a list of lists of card ids.", "invalid_deal")
        if len(hands) != n:
            raise InvalidSetup(f"The deal must have {n} hands.", "invalid_deal")
        if not isinstance(first, int) or isinstance(first, bool) or not 0 <= first < n:
            raise InvalidSetup(f"'first_player' must be a seat from 0 to {n - 1}.", "invalid_deal")
        cards = [c for h in hands for c in h]
        for c in cards:
            if not isinstance(c, str) or not CATALOGUE.has_card(c):
                raise InvalidSetup(f"Unknown card {c!r} in the deal.", "unknown_card")
        dup = [c for c, k in Counter(cards).items() if k > 1]
        if dup:
            raise InvalidSetup(f"Card {dup[0]!r} is dealt twice.", "invalid_deal")
        dealt = set(cards)
        missing = [c for c in self.fixed_cards if c not in dealt]
        if missing:
            raise InvalidSetup(f"Card {missing[0]!r} is missing from the deal.", "invalid_deal")
        rest = dealt - set(self.fixed_cards)
        set_aside: list[str] = []
        for draw in self.config.draws:
            chosen = [c for c in draw.pool if c in rest]
            if len(chosen) != draw.count:
                kind = CATALOGUE.card(draw.pool[0]).type
                raise InvalidSetup(
                    f"The deal must hold exactly {draw.count} {kind} cards of "
                    f"{', '.join(draw.pool)}.",
                    "invalid_deal",
                )
            rest -= set(chosen)
            set_aside += [c for c in draw.pool if c not in chosen]
        if rest:
            extra = sorted(rest)[0]
            raise InvalidSetup(
                f"Card {extra!r} is not in the deck for {n} players with these rules.",
                "invalid_deal",
            )
        sizes = [len(h) for h in hands]
        if sizes != self.hand_sizes(first):
            raise InvalidSetup(
                f"Hand sizes must be {self.hand_sizes(first)} (dealt one by one from the "
                "first player).",
                "invalid_deal",
            )
        return {"hands": [list(h) for h in hands], "first_player": first, "set_aside": set_aside}

    def new_initial_state(
        self, seed: int | None = None, deal: dict[str, Any] | None = None
    ) -> State:
        """A new play-through: a random deal from ``seed`` (same seed, same deal) or ``deal``."""
        if deal is not None:
            setup = self.check_deal(deal)
        else:
            if seed is None:
                seed = 0
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise InvalidSetup("The seed must be an integer.", "invalid_seed")
            setup = self.random_setup(seed)
        setup = {
            "num_players": self.num_players,
            "modes": list(self.modes),
            "seed": seed if deal is None else None,
            **setup,
        }
        return State.new(self, setup)


class Hooks:
    """For each hook of ``Rule``, the active rules that implement it, in mode order: the
    core folds only those (a rule module overrides only the hooks it needs)."""

    NAMES = (
        "start_of_turn",
        "special_outcomes",
        "discard_reason",
        "allows_slot",
        "after_reveal",
        "end_of_turn",
        "is_goal_met",
        "pending_plays",
        "is_deadlocked",
        "can_take_from_discard",
        "leaves_game",
        "show_recipients",
        "sides",
        "cards_in_play",
        "cards_out_of_game",
    )

    def __init__(self, rules: tuple[Rule, ...]) -> None:
        for name in self.NAMES:
            default = getattr(Rule, name)
            chosen = tuple(r for r in rules if getattr(type(r), name) is not default)
            setattr(self, name, chosen)
        # a rule's certain discards are its discard reasons unless it says otherwise
        self.certain_discard = tuple(
            r
            for r in rules
            if type(r).certain_discard is not Rule.certain_discard
            or type(r).discard_reason is not Rule.discard_reason
        )

    start_of_turn: tuple[Rule, ...]
    special_outcomes: tuple[Rule, ...]
    discard_reason: tuple[Rule, ...]
    certain_discard: tuple[Rule, ...]
    allows_slot: tuple[Rule, ...]
    after_reveal: tuple[Rule, ...]
    end_of_turn: tuple[Rule, ...]
    is_goal_met: tuple[Rule, ...]
    pending_plays: tuple[Rule, ...]
    is_deadlocked: tuple[Rule, ...]
    can_take_from_discard: tuple[Rule, ...]
    leaves_game: tuple[Rule, ...]
    show_recipients: tuple[Rule, ...]
    sides: tuple[Rule, ...]
    cards_in_play: tuple[Rule, ...]
    cards_out_of_game: tuple[Rule, ...]


@cache
def get_game(num_players: int, modes: tuple[str, ...]) -> Game:
    """A shared, immutable ``Game`` for this configuration."""
    return Game(num_players, modes)


from .state import State  # noqa: E402  (State needs Game for its type only)
