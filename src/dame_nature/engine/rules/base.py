"""The hooks an advanced rule may implement. Every hook has a neutral default, so a rule
module overrides only what it changes; the core folds the active rules in mode order and
never asks which mode is on.

Hooks, in the order the game meets them:

- ``configure(cfg)``: static setup (extra cards, card pools to draw from, extra webs,
  another layout, which Symbioses exist; ``show_names_one_player`` is only told to
  clients).
- ``first_phase()``: the phase before the first turn, if the rule needs one (the side
  choice of Species biodiversity).
- ``show_recipients(state, seat, recipients)``: whom a Symbiosis may show a card to
  (``None``: everyone; Privileged Symbioses name one player).
- ``start_of_turn(state)``: bookkeeping when a turn's programming begins.
- ``special_outcomes(ctx)``: the reveal outcomes of a card type the rule owns (Cat,
  Pollution, Reintroduction); ``None`` when the card is not the rule's. An ``Outcome``
  whose ``rule`` is set is resolved by that rule's ``resolve_special``.
- ``discard_reason(ctx, colour)``: a reason code when the rule discards the revealed
  Condition/Joker/Species (with ``colour``, a Joker's chosen colour), else ``None``.
- ``certain_discard(ctx, colour)``: the same reason, given only when it holds whatever
  card is revealed before this one this turn (``ctx.unsure``): what a seat's view tells of
  the cards in its hand (``no_place``). By default ``discard_reason`` when nothing is
  revealed before the card, else nothing.
- ``allows_slot(ctx, colour, slot)``: whether the rule lets the card into that slot; when
  the rules refuse every empty slot the card could take, the reason is ``refusal`` of the
  first rule refusing the first of them. With ``ctx.unsure``, a slot the card revealed
  before may open is allowed.
- ``resolve_special(ctx, outcome)``: carry out an owned card's outcome; returns the
  result recorded for the reveal (``"placed"``, ``"discarded"``, ``"played"`` for a card
  whose effect happened, ``"in_play"`` for a Cat until the end of the turn).
- ``after_reveal(ctx, record)``: effects once the card is resolved (Climate change,
  Cats, Reintroductions).
- ``end_of_turn(state)``: effects before the First Player card passes.
- ``is_goal_met(state)``, ``pending_plays(state)``, ``is_deadlocked(state)``: the end.
- ``can_take_from_discard(state, card)``: cards a discard swap may not take.
- ``sides(state)``, ``cards_in_play(state)``, ``cards_out_of_game(state)``: what the
  rule keeps in its ``rule_data`` that everyone sees (players' Plant/Animal sides, Cats
  revealed this turn, Reintroductions played); the state and the views read them.
- ``leaves_game(card)``: a card of the deal that leaves the game once played, so never
  counts in the discard pile (Reintroductions): the view's ``max_discards`` is lower.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from ..cards import Card
    from ..state import State
    from ..web import Slot


@dataclass
class CardDraw:
    """Draw ``count`` cards at random from ``pool`` into the deck (the rest stay in the box)."""

    pool: list[str]
    count: int


@dataclass
class GameConfig:
    """What the active rules make of the game's static setup."""

    num_players: int
    main_layout: str = "numbered"
    extra_webs: list[tuple[str, str]] = field(default_factory=list)
    extra_cards: list[str] = field(default_factory=list)
    draws: list[CardDraw] = field(default_factory=list)
    symbiosis_kinds: list[str] = field(default_factory=lambda: ["show", "give", "swap_discard"])
    show_names_one_player: bool = False  # for clients: a Show names its one recipient

    def webs(self) -> tuple[tuple[str, str], ...]:
        return (("main", self.main_layout), *self.extra_webs)


class Outcome(NamedTuple):
    """One way a revealed card can resolve; ``action()`` is what the player sends for it."""

    slot: str | None = None
    colour: str | None = None
    target: str | None = None
    reason: str | None = None  # why it is discarded, when it is
    rule: Rule | None = None  # the rule owning the card type, which resolves it

    @property
    def special(self) -> bool:
        """Resolved by the rule owning the card type (``rule``)."""
        return self.rule is not None

    def action(self) -> dict[str, Any]:
        return {"type": "reveal", "slot": self.slot, "colour": self.colour, "target": self.target}


class RevealContext:
    """What a hook sees of the reveal under way."""

    __slots__ = ("state", "seat", "card", "previous", "unsure")

    def __init__(
        self,
        state: State,
        seat: int,
        card: Card,
        previous: dict[str, Any] | None,
        unsure: bool = False,
    ) -> None:
        self.state = state
        self.seat = seat
        self.card = card
        self.previous = previous  # the record of the reveal just before, this turn
        #: a card the seat might reveal later this turn, some other card may come before
        #: it (``previous`` is then ``None``, standing for a card not known yet)
        self.unsure = unsure

    @property
    def is_first_player(self) -> bool:
        return self.seat == self.state.first_player

    def previous_card(self) -> Card | None:
        from ..cards import CATALOGUE

        return CATALOGUE.card(self.previous["card"]) if self.previous else None

    def previous_colour(self) -> str | None:
        return self.previous.get("colour") if self.previous else None


class Rule:
    """An advanced rule. Subclasses set ``mode`` and override the hooks they need."""

    mode: str = ""
    title: str = ""
    title_fr: str = ""
    summary: str = ""
    summary_fr: str = ""
    #: the discard reasons this rule gives, with the sentence players read (English,
    #: French): ``"discarded: <text>"``
    reasons: dict[str, tuple[str, str]] = {}
    #: the reason a card is discarded when this rule's ``allows_slot`` refuses every empty
    #: slot it could take (a code of ``reasons``)
    refusal: str | None = None

    def configure(self, cfg: GameConfig) -> None:
        return None

    def first_phase(self) -> str | None:
        return None

    def show_recipients(
        self, state: State, seat: int, recipients: list[int | None]
    ) -> list[int | None]:
        return recipients

    def initial_data(self) -> dict[str, Any]:
        """The rule's own part of the state (JSON), kept in ``state.rule_data[mode]``."""
        return {}

    def data(self, state: State) -> dict[str, Any]:
        return state.rule_data.setdefault(self.mode, {})

    def start_of_turn(self, state: State) -> None:
        return None

    def special_outcomes(self, ctx: RevealContext) -> list[Outcome] | None:
        return None

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return None

    def certain_discard(self, ctx: RevealContext, colour: str | None) -> str | None:
        """``discard_reason`` when it holds whatever is revealed before the card; a rule
        whose reason does not depend on the card before returns ``discard_reason``."""
        return None if ctx.unsure else self.discard_reason(ctx, colour)

    def allows_slot(self, ctx: RevealContext, colour: str | None, slot: Slot) -> bool:
        return True

    def resolve_special(self, ctx: RevealContext, outcome: Outcome) -> str:
        raise NotImplementedError

    def after_reveal(self, ctx: RevealContext, record: dict[str, Any]) -> None:
        return None

    def end_of_turn(self, state: State) -> None:
        return None

    def is_goal_met(self, state: State) -> bool:
        return True

    def pending_plays(self, state: State) -> int:
        return 0

    def is_deadlocked(self, state: State) -> bool:
        return False

    def can_take_from_discard(self, state: State, card: str) -> bool:
        return True

    def leaves_game(self, card: Card) -> bool:
        return False

    def sides(self, state: State) -> list[str | None] | None:
        return None

    def cards_in_play(self, state: State) -> list[list[Any]]:
        return []

    def cards_out_of_game(self, state: State) -> list[str]:
        return []
