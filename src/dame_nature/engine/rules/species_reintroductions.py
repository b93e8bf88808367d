"""Path 3, stage 3: Species Reintroductions. As many Pollution/Reintroduction cards as
players join the deck, at random; all must be played to win.

- A Reintroduction leaves the game when revealed; after it, every Condition or Joker
  revealed is discarded until an animal Species is revealed.
- A Pollution is played only if the 4 plants were installed at the start of the turn: it
  goes to the discard pile with one uncovered Condition of its player's choice (if any);
  otherwise it is discarded unplayed, and a discard swap can bring it back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..cards import CATALOGUE
from .base import CardDraw, GameConfig, Outcome, RevealContext, Rule

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ..cards import Card, CardFacts
    from ..state import State


# The rule's tests, pure (the bots' simulator calls them too).
def discards(card: CardFacts, after_reintroduction: bool) -> bool:
    """After a Reintroduction, Conditions and Jokers are discarded..."""
    return card.is_condition_like and after_reintroduction


def ends_reintroduction(card: CardFacts) -> bool:
    """... until an animal Species is revealed."""
    return card.is_species and card.kind == "animal"


def plants_installed(web: Mapping[str, str | None], plants: list[str]) -> bool:
    """Whether a Pollution revealed this turn is played (the plants installed at the
    start of the turn)."""
    return all(web[p] is not None for p in plants)


class SpeciesReintroductions(Rule):
    mode = "species_reintroductions"
    title = "Species Reintroductions"
    title_fr = "Réintroductions d'espèces"
    summary = (
        "As many Pollution and Reintroduction cards as players are shuffled in. After a "
        "Reintroduction, Conditions are discarded until an animal Species is revealed. A "
        "Pollution needs the 4 plants installed at the start of the turn and removes an "
        "uncovered Condition with it. All of them must be played to win."
    )
    summary_fr = (
        "Autant de cartes Pollution et Réintroduction que de joueurs sont mélangées au "
        "paquet. Après une Réintroduction, les Conditions sont défaussées jusqu'à ce qu'une "
        "Espèce animale soit révélée. Une Pollution exige les 4 plantes installées au début "
        "du tour et retire avec elle une Condition non couverte. Toutes doivent être jouées "
        "pour gagner."
    )
    reasons = {
        "reintroduction": (
            "after a Species reintroduction, Conditions are discarded until an animal comes",
            "après une réintroduction d'espèce, les Conditions sont défaussées jusqu'à "
            "la venue d'un animal",
        ),
        "pollution_early": (
            "Pollution needs the 4 plants installed at the start of the turn",
            "la Pollution exige les 4 végétaux installés au début du tour",
        ),
        "pollution": ("removed by Pollution", "retirée par une Pollution"),
    }

    def configure(self, cfg: GameConfig) -> None:
        pool = CATALOGUE.in_set("pollution") + CATALOGUE.in_set("reintroduction")
        cfg.draws.append(CardDraw(pool=pool, count=cfg.num_players))

    def initial_data(self) -> dict[str, Any]:
        return {
            "after_reintroduction": False,
            "played": [],
            "plants_at_turn_start": False,
            "out_of_game": [],  # the Reintroductions played
        }

    def start_of_turn(self, state: State) -> None:
        plants = state.game.topology.plants("main")
        self.data(state)["plants_at_turn_start"] = plants_installed(state.web, plants)

    def special_outcomes(self, ctx: RevealContext) -> list[Outcome] | None:
        card = ctx.card
        if card.type == "reintroduction":
            return [Outcome(rule=self)]
        if card.type != "pollution":
            return None
        state = ctx.state
        if not self.data(state)["plants_at_turn_start"]:
            return [Outcome(reason="pollution_early")]
        targets = [state.web[s] for s in state.game.topology.uncovered_conditions(state.web)]
        return [Outcome(target=t, rule=self) for t in targets] or [Outcome(rule=self)]

    def discard_reason(self, ctx: RevealContext, colour: str | None) -> str | None:
        after = self.data(ctx.state)["after_reintroduction"]
        return "reintroduction" if discards(ctx.card, after) else None

    def resolve_special(self, ctx: RevealContext, outcome: Outcome) -> str:
        state, data = ctx.state, self.data(ctx.state)
        data["played"].append(ctx.card.id)
        if ctx.card.type == "reintroduction":
            data["out_of_game"].append(ctx.card.id)
            data["after_reintroduction"] = True
            return "played"
        state.discard.append(ctx.card.id)
        if outcome.target is not None:
            slot = next(s for s, c in state.web.items() if c == outcome.target)
            state.discard_from_web(slot, "pollution")
        return "played"

    def after_reveal(self, ctx: RevealContext, record: dict[str, Any]) -> None:
        if ends_reintroduction(ctx.card):
            self.data(ctx.state)["after_reintroduction"] = False

    def is_goal_met(self, state: State) -> bool:
        return self.pending_plays(state) == 0

    def pending_plays(self, state: State) -> int:
        return state.num_players - len(self.data(state)["played"])

    def can_take_from_discard(self, state: State, card: str) -> bool:
        return card not in self.data(state)["played"]

    def cards_out_of_game(self, state: State) -> list[str]:
        out: list[str] = self.data(state)["out_of_game"]
        return out

    def leaves_game(self, card: Card) -> bool:
        return card.type == "reintroduction"
