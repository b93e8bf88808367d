"""Path 4, stage 3: The First Predator. As many Cats as players join the deck; all must end
in the discard pile to win.

A Cat revealed right after a Species, or a Species revealed right after a Cat, discards
that Species (removed from the web if placed). At the end of the turn, if 2 or more Cats
were revealed, they all go back to their players' hands; otherwise the Cat is discarded.
A Cat's reveal record says ``in_play`` during its turn, then ``returned`` or
``discarded`` (reason ``cat_alone``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..cards import CATALOGUE, CardFacts
from .base import CardDraw, GameConfig, Outcome, RevealContext, Rule

if TYPE_CHECKING:
    from ..state import State


CATS = frozenset(CATALOGUE.in_set("cat"))


def _is_cat(card: str) -> bool:
    return card.startswith("cat-")


# The rule's tests, pure (the bots' simulator calls them too).
def discards(card: CardFacts, previous: CardFacts | None) -> bool:
    """A Species revealed right after a Cat is discarded."""
    return card.is_species and previous is not None and previous.type == "cat"


def removes_previous(card: CardFacts, previous: CardFacts | None, previous_placed: bool) -> bool:
    """A Cat revealed right after a placed Species takes it off the web."""
    return card.type == "cat" and previous is not None and previous.is_species and previous_placed


def cats_return(count: int) -> bool:
    """Whether the Cats revealed in a turn go back to their players' hands."""
    return count >= 2


def deadlocked(holdings: Iterable[Iterable[str]]) -> bool:
    """Only Cats left (each seat's cards, programmed one included), held by 2 or more
    players: they come back every turn, forever."""
    holders = 0
    for cards in holdings:
        cards = list(cards)
        if not cards:
            continue
        if not all(_is_cat(c) for c in cards):
            return False
        holders += 1
    return holders >= 2


class FirstPredator(Rule):
    mode = "first_predator"
    title = "The First Predator"
    title_fr = "Le premier prédateur"
    summary = (
        "As many Cats as players are shuffled in. A Cat revealed right before or after a "
        "Species discards that Species. A Cat alone in its turn is discarded; if 2 or more "
        "Cats are revealed in a turn, they all go back to their players' hands. Every Cat "
        "must be discarded to win."
    )
    summary_fr = (
        "Autant de Chats que de joueurs sont mélangés au paquet. Un Chat révélé juste avant "
        "ou juste après une Espèce fait défausser cette Espèce. Un Chat seul dans son tour "
        "est défaussé ; si 2 Chats ou plus sont révélés dans un tour, ils retournent tous "
        "dans la main de leurs joueurs. Tous les Chats doivent être défaussés pour gagner."
    )
    reasons = {
        "cat": ("cat: a Cat next to a Species", "chat : un Chat à côté d'une Espèce"),
        "cat_alone": (
            "a Cat played alone goes to the discard pile",
            "un Chat joué seul va dans la défausse",
        ),
    }

    def configure(self, cfg: GameConfig) -> None:
        cfg.draws.append(CardDraw(pool=CATALOGUE.in_set("cat"), count=cfg.num_players))

    def initial_data(self) -> dict[str, Any]:
        return {"in_play": []}  # [seat, card] of the Cats revealed this turn

    def cards_in_play(self, state: State) -> list[list[Any]]:
        in_play: list[list[Any]] = self.data(state)["in_play"]
        return in_play

    def special_outcomes(self, ctx: RevealContext) -> list[Outcome] | None:
        return [Outcome(rule=self)] if ctx.card.type == "cat" else None

    def resolve_special(self, ctx: RevealContext, outcome: Outcome) -> str:
        self.data(ctx.state)["in_play"].append([ctx.seat, ctx.card.id])
        return "in_play"

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        return "cat" if discards(ctx.card, ctx.previous_card()) else None

    def after_reveal(self, ctx: RevealContext, record: dict[str, Any]) -> None:
        previous = ctx.previous
        if previous is not None and removes_previous(
            ctx.card, CATALOGUE.card(previous["card"]), previous["result"] == "placed"
        ):
            ctx.state.discard_from_web(previous["slot"], "cat")

    def end_of_turn(self, state: State) -> None:
        data = self.data(state)
        cats, data["in_play"] = data["in_play"], []
        returned = cats_return(len(cats))
        records = {r["card"]: r for r in state.revealed_this_turn if r["result"] == "in_play"}
        for _seat, card in cats:  # the reveal records say what became of each Cat
            if returned:
                records[card].update(result="returned")
            else:
                records[card].update(result="discarded", reason="cat_alone")
        if returned:
            for seat, card in cats:
                state.return_to_hand(seat, card)
            state.event("cats_returned", {"cats": [{"seat": s, "card": c} for s, c in cats]})
        else:
            for seat, card in cats:
                state.discard.append(card)
                state.event("cat_discarded", {"seat": seat, "card": card, "reason": "cat_alone"})

    def is_goal_met(self, state: State) -> bool:
        return sum(_is_cat(c) for c in state.discard) == state.num_players

    def pending_plays(self, state: State) -> int:
        """The Cats still held (in a hand or programmed)."""
        held = sum(len(CATS.intersection(hand)) for hand in state.hands)
        return held + len(CATS.intersection(state.programmed))

    def is_deadlocked(self, state: State) -> bool:
        """Only Cats left, held by 2 or more players: they come back every turn, forever."""
        return deadlocked(state.cards_of(seat) for seat in range(state.num_players))
